//! `impl.toml`: what an implementation folder holds and how to build it. The file is read as
//! written ([`Written`]: any key may be there), then checked into a [`Manifest`], which holds
//! only what its language and interface use: a C implementation its sources and the sizes its
//! interface declares, a Rust one its crate and type. The names, symbols and sizes are the
//! protocol's vocabulary ([`Interface`], [`Algorithm`], [`Secret`]).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use cyclebench_protocol::{valid_impl_name, Algorithm, DeclaredSize, Interface, Secret, MAX_IMPL_NAME};
use serde::{Deserialize, Deserializer};

/// The file every implementation folder has.
pub const MANIFEST: &str = "impl.toml";

/// The language of an implementation, as `impl.toml` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// C sources, compiled with clang for the target's core.
    C,
    /// A Rust crate implementing one of `cyclebench-impl`'s traits.
    Rust,
}

impl Language {
    /// Its name in `impl.toml` and in results.
    pub fn name(self) -> &'static str {
        match self {
            Self::C => "c",
            Self::Rust => "rust",
        }
    }
}

/// A word of the protocol's vocabulary that `impl.toml` names.
trait Named: Copy + 'static {
    /// What it is, for messages.
    const WHAT: &'static str;
    /// Every one there is.
    const ALL: &'static [Self];
    /// Its name.
    fn name(self) -> &'static str;
}

impl Named for Interface {
    const WHAT: &'static str = "interface";
    const ALL: &'static [Self] = &Interface::ALL;
    fn name(self) -> &'static str {
        Interface::name(self)
    }
}

impl Named for Algorithm {
    const WHAT: &'static str = "algorithm";
    const ALL: &'static [Self] = &Algorithm::ALL;
    fn name(self) -> &'static str {
        Algorithm::name(self)
    }
}

/// A [`Named`] word as `impl.toml` writes it: an unknown one is refused where it stands,
/// with the known ones listed.
#[derive(Clone, Copy)]
struct Name<T>(T);

impl<'de, T: Named> Deserialize<'de> for Name<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        match T::ALL.iter().find(|v| v.name() == name) {
            Some(v) => Ok(Self(*v)),
            None => {
                let known: Vec<&str> = T::ALL.iter().map(|v| v.name()).collect();
                Err(serde::de::Error::custom(format!(
                    "unknown {} \"{name}\" (known: {})",
                    T::WHAT,
                    known.join(", ")
                )))
            }
        }
    }
}

/// A function's output size as written: bytes, or as many as the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
enum WrittenOutput {
    /// This many bytes.
    Fixed(usize),
    /// `"input"`.
    Input(InputWord),
}

/// The word `input`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum InputWord {
    /// As many bytes as the input.
    Input,
}

/// `impl.toml`, as written: every key a language or an interface may use.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    name: String,
    language: Language,
    interface: Name<Interface>,
    #[serde(default)]
    algorithm: Option<Name<Algorithm>>,
    #[serde(default)]
    vectors: Option<PathBuf>,
    #[serde(default)]
    sources: Vec<PathBuf>,
    #[serde(default)]
    cflags: Vec<String>,
    #[serde(default)]
    output_bytes: Option<WrittenOutput>,
    #[serde(default)]
    key_bytes: Option<usize>,
    #[serde(default)]
    nonce_bytes: Option<usize>,
    #[serde(default)]
    context_bytes: Option<usize>,
    #[serde(default)]
    block_bytes: Option<usize>,
    #[serde(default)]
    secret: Option<Secret>,
    #[serde(default, rename = "crate")]
    krate: Option<PathBuf>,
    #[serde(default, rename = "type")]
    rust_type: Option<String>,
}

/// `impl.toml`, checked.
#[derive(Clone, Debug)]
pub struct Manifest {
    /// The name requests give.
    pub name: String,
    /// The algorithm the suite checks it against (one of its interface's).
    pub algorithm: Option<Algorithm>,
    /// Its known-answer file, relative to the folder.
    pub vectors: Option<PathBuf>,
    /// Its code, in its language.
    pub code: Code,
}

/// An implementation's code.
#[derive(Clone, Debug)]
pub enum Code {
    /// C sources.
    C(CSources),
    /// A Rust crate.
    Rust(RustCrate),
}

/// A C implementation.
#[derive(Clone, Debug)]
pub struct CSources {
    /// Its sources, relative to the folder.
    pub sources: Vec<PathBuf>,
    /// Compiler flags, after the target's.
    pub cflags: Vec<String>,
    /// Its interface, with the sizes `impl.toml` declares for it.
    pub interface: CInterface,
}

/// A C implementation's interface with its sizes: what a Rust type's trait gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CInterface {
    /// [`Interface::Hash`].
    Hash {
        /// Bytes of the digest.
        output_bytes: usize,
    },
    /// [`Interface::BlockCipher`].
    BlockCipher {
        /// Bytes of the key.
        key_bytes: usize,
        /// Bytes of the context the key schedule fills.
        context_bytes: usize,
        /// Bytes of a block.
        block_bytes: usize,
    },
    /// [`Interface::Stream`].
    Stream {
        /// Bytes of the key.
        key_bytes: usize,
        /// Bytes of the nonce.
        nonce_bytes: usize,
    },
    /// [`Interface::Function`].
    Function {
        /// Bytes of the output.
        output_bytes: FunctionOutput,
        /// Bytes of the key (0: none).
        key_bytes: usize,
        /// The input its constant-time test varies.
        secret: Secret,
    },
}

impl CInterface {
    /// Which interface it is.
    pub fn interface(self) -> Interface {
        match self {
            Self::Hash { .. } => Interface::Hash,
            Self::BlockCipher { .. } => Interface::BlockCipher,
            Self::Stream { .. } => Interface::Stream,
            Self::Function { .. } => Interface::Function,
        }
    }
}

/// How long a function's output is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionOutput {
    /// This many bytes, whatever the input.
    Fixed(usize),
    /// As many bytes as the input.
    Input,
}

/// A Rust implementation.
#[derive(Clone, Debug)]
pub struct RustCrate {
    /// The crate's folder, relative to the implementation's (`None`: the same folder).
    pub krate: Option<PathBuf>,
    /// The type implementing the interface's trait, as a path inside the crate.
    pub rust_type: String,
    /// The interface it provides.
    pub interface: Interface,
}

impl Manifest {
    /// The interface it provides.
    pub fn interface(&self) -> Interface {
        match &self.code {
            Code::C(c) => c.interface.interface(),
            Code::Rust(r) => r.interface,
        }
    }

    /// Its language.
    pub fn language(&self) -> Language {
        match self.code {
            Code::C(_) => Language::C,
            Code::Rust(_) => Language::Rust,
        }
    }
}

impl Written {
    /// The manifest this is, if it is one: checked in the order a person fixes a file (its
    /// name and interface, then its files, then what its language needs), every error naming
    /// the key to write.
    fn check(self, dir: &Path) -> Result<Manifest> {
        let interface = self.interface.0;
        let algorithm = self.algorithm.map(|a| a.0);
        if !valid_impl_name(&self.name) {
            bail!(
                "name \"{}\": 1 to {MAX_IMPL_NAME} lowercase letters, digits and '-', not starting with '-'",
                self.name
            );
        }
        if let Some(a) = algorithm {
            if a.interface() != interface {
                bail!(
                    "algorithm {} is a {}, but the interface is {}",
                    a.name(),
                    a.interface().name(),
                    interface.name()
                );
            }
        }
        if let Some(a) = algorithm {
            self.agrees_with(a, interface)?;
        }
        if let Some(v) = &self.vectors {
            if !dir.join(v).is_file() {
                bail!("vectors = \"{}\": no such file in {}", v.display(), dir.display());
            }
        }
        let code = match self.language {
            Language::C => Code::C(self.c_sources(dir, interface)?),
            Language::Rust => Code::Rust(self.rust_crate(dir, interface)?),
        };
        Ok(Manifest {
            name: self.name,
            algorithm,
            vectors: self.vectors,
            code,
        })
    }

    /// Refuses a size written that contradicts `algorithm` (a SHA-256 with 64 bytes of
    /// output): every output would fail its check, but only once the image is built and run.
    fn agrees_with(&self, algorithm: Algorithm, interface: Interface) -> Result<()> {
        for size in DeclaredSize::ALL {
            let (written, fixed) = match size {
                DeclaredSize::Output => match self.output_bytes {
                    Some(WrittenOutput::Fixed(n)) => (Some(n), algorithm.output_bytes()),
                    _ => (None, None),
                },
                DeclaredSize::Key => (self.key_bytes, Some(algorithm.key_bytes())),
                DeclaredSize::Nonce => (self.nonce_bytes, Some(algorithm.nonce_bytes())),
                DeclaredSize::Block => (self.block_bytes, algorithm.output_bytes()),
                // The context is the implementation's own business.
                DeclaredSize::Context => (None, None),
            };
            if let (Some(written), Some(fixed)) = (written, fixed) {
                if written != fixed && interface.declares(size) {
                    bail!(
                        "{} = {written} contradicts algorithm = \"{}\", which has {fixed}",
                        size.name(),
                        algorithm.name()
                    );
                }
            }
        }
        Ok(())
    }

    /// The C implementation: its sources, which must be there, and its interface's sizes.
    fn c_sources(&self, dir: &Path, interface: Interface) -> Result<CSources> {
        if self.sources.is_empty() {
            bail!("a C implementation lists its sources: sources = [\"file.c\", ...]");
        }
        for s in &self.sources {
            if !dir.join(s).is_file() {
                bail!("sources: no file {} in {}", s.display(), dir.display());
            }
        }
        if self.krate.is_some() || self.rust_type.is_some() {
            bail!("crate and type are for language = \"rust\"");
        }
        // A size written, else its interface's default, else the key it needs.
        let bytes = |size: DeclaredSize| {
            let written = match size {
                DeclaredSize::Output => match self.output_bytes {
                    Some(WrittenOutput::Fixed(n)) => Some(n),
                    Some(WrittenOutput::Input(_)) | None => None,
                },
                DeclaredSize::Key => self.key_bytes,
                DeclaredSize::Nonce => self.nonce_bytes,
                DeclaredSize::Context => self.context_bytes,
                DeclaredSize::Block => self.block_bytes,
            };
            written.or(interface.default_bytes(size)).ok_or_else(|| {
                anyhow::anyhow!(
                    "interface {} in C needs {} (the sizes a Rust type's trait gives)",
                    interface.name(),
                    size.name()
                )
            })
        };
        let declared = match interface {
            Interface::Hash => {
                if let Some(WrittenOutput::Input(_)) = self.output_bytes {
                    bail!("a hash's {} is a number", DeclaredSize::Output.name());
                }
                CInterface::Hash {
                    output_bytes: bytes(DeclaredSize::Output)?,
                }
            }
            Interface::BlockCipher => CInterface::BlockCipher {
                key_bytes: bytes(DeclaredSize::Key)?,
                context_bytes: bytes(DeclaredSize::Context)?,
                block_bytes: bytes(DeclaredSize::Block)?,
            },
            Interface::Stream => CInterface::Stream {
                key_bytes: bytes(DeclaredSize::Key)?,
                nonce_bytes: bytes(DeclaredSize::Nonce)?,
            },
            Interface::Function => {
                let output_bytes = match self.output_bytes {
                    Some(WrittenOutput::Fixed(n)) => FunctionOutput::Fixed(n),
                    Some(WrittenOutput::Input(_)) => FunctionOutput::Input,
                    None => bail!(
                        "interface {} in C needs {} (a number, or \"input\")",
                        interface.name(),
                        DeclaredSize::Output.name()
                    ),
                };
                let Some(secret) = self.secret else {
                    bail!(
                        "interface {} needs secret = \"{}\" or \"{}\": the input its constant-time test varies",
                        interface.name(),
                        Secret::Key.name(),
                        Secret::Data.name()
                    );
                };
                CInterface::Function {
                    output_bytes,
                    key_bytes: bytes(DeclaredSize::Key)?,
                    secret,
                }
            }
        };
        Ok(CSources {
            sources: self.sources.clone(),
            cflags: self.cflags.clone(),
            interface: declared,
        })
    }

    /// The Rust implementation: its crate, which must be there, and its type.
    fn rust_crate(&self, dir: &Path, interface: Interface) -> Result<RustCrate> {
        if !self.sources.is_empty() || !self.cflags.is_empty() {
            bail!("sources and cflags are for language = \"c\"; a Rust implementation names its crate and type");
        }
        let krate = self.krate.as_ref().map_or(dir.to_path_buf(), |k| dir.join(k));
        if !krate.join("Cargo.toml").is_file() {
            bail!(
                "crate = \"{}\": no Cargo.toml in {}",
                self.krate.as_deref().unwrap_or(Path::new(".")).display(),
                krate.display()
            );
        }
        let rust_type = match &self.rust_type {
            Some(t) if !t.is_empty() => t.clone(),
            Some(_) | None => bail!(
                "type = \"...\": the type in the crate that implements cyclebench_impl::{}",
                interface.rust_trait()
            ),
        };
        Ok(RustCrate {
            krate: self.krate.clone(),
            rust_type,
            interface,
        })
    }
}

/// An implementation folder, read and checked.
#[derive(Clone, Debug)]
pub struct Folder {
    /// The folder, absolute.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: Manifest,
}

impl Folder {
    /// Reads and checks `dir/impl.toml`; every error names the file and what to write.
    pub fn read(dir: &Path) -> Result<Self> {
        let dir = dir
            .canonicalize()
            .with_context(|| format!("implementation folder {}", dir.display()))?;
        if !dir.is_dir() {
            bail!("--impl {}: not a folder", dir.display());
        }
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path).with_context(|| {
            format!(
                "{}: every implementation folder needs an {MANIFEST} (name, language, interface, sources or crate)",
                path.display()
            )
        })?;
        let written: Written = toml::from_str(&text).with_context(|| format!("{}", path.display()))?;
        let manifest = written.check(&dir).with_context(|| format!("{}", path.display()))?;
        Ok(Self { dir, manifest })
    }

    /// The names of `folders`' implementations, comma-separated, for messages.
    pub fn names(folders: &[Folder]) -> String {
        let names: Vec<&str> = folders.iter().map(|f| f.manifest.name.as_str()).collect();
        names.join(", ")
    }

    /// The Rust crate's folder (Rust implementations only).
    pub fn crate_dir(&self) -> Option<PathBuf> {
        match &self.manifest.code {
            Code::Rust(r) => Some(r.krate.as_ref().map_or(self.dir.clone(), |k| self.dir.join(k))),
            Code::C(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A manifest of `interface` (as the protocol names it) with `rest`.
    fn toml(name: &str, language: &str, interface: &str, rest: &str) -> String {
        format!("name = \"{name}\"\nlanguage = \"{language}\"\ninterface = \"{interface}\"\n{rest}")
    }

    fn folder(toml: &str, files: &[&str]) -> (tempfile::TempDir, Result<Folder>) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(MANIFEST), toml).unwrap();
        for f in files {
            std::fs::write(dir.path().join(f), "").unwrap();
        }
        let read = Folder::read(dir.path());
        (dir, read)
    }

    #[test]
    fn a_c_hash_reads() {
        let hash = Interface::Hash.name();
        let text = toml("mysha", "c", hash, "algorithm = \"sha256\"\nsources = [\"a.c\"]\n");
        let (_d, f) = folder(&text, &["a.c"]);
        let f = f.unwrap();
        assert_eq!(f.manifest.algorithm, Some(Algorithm::Sha256));
        assert_eq!(f.manifest.interface(), Interface::Hash);
        let Code::C(c) = &f.manifest.code else {
            panic!("{:?}", f.manifest.code)
        };
        // The digest's default size.
        assert_eq!(c.interface, CInterface::Hash { output_bytes: 32 });
    }

    #[test]
    fn a_c_interface_holds_its_sizes_with_their_defaults() {
        for (interface, rest, want) in [
            (
                Interface::BlockCipher,
                "key_bytes = 16\ncontext_bytes = 176\n",
                CInterface::BlockCipher {
                    key_bytes: 16,
                    context_bytes: 176,
                    block_bytes: 16,
                },
            ),
            (
                Interface::Stream,
                "key_bytes = 32\nnonce_bytes = 12\n",
                CInterface::Stream {
                    key_bytes: 32,
                    nonce_bytes: 12,
                },
            ),
            (
                Interface::Function,
                "output_bytes = \"input\"\nsecret = \"data\"\n",
                CInterface::Function {
                    output_bytes: FunctionOutput::Input,
                    key_bytes: 0,
                    secret: Secret::Data,
                },
            ),
        ] {
            let text = toml("x", "c", interface.name(), &format!("sources = [\"a.c\"]\n{rest}"));
            let (_d, f) = folder(&text, &["a.c"]);
            let f = f.unwrap();
            assert_eq!(f.manifest.interface(), interface);
            let Code::C(c) = &f.manifest.code else {
                panic!("{:?}", f.manifest.code)
            };
            assert_eq!(c.interface, want);
        }
    }

    #[test]
    fn a_rust_crate_reads() {
        let text = toml("x", "rust", Interface::Stream.name(), "type = \"S\"\n");
        let (d, f) = folder(&text, &["Cargo.toml"]);
        let f = f.unwrap();
        assert_eq!(f.manifest.interface(), Interface::Stream);
        assert_eq!(f.manifest.language(), Language::Rust);
        assert_eq!(f.crate_dir(), Some(d.path().canonicalize().unwrap()));
    }

    #[test]
    fn mistakes_are_named() {
        let chacha = Algorithm::Chacha20.name();
        let chacha_key = format!("key_bytes = 16 contradicts algorithm = \"{chacha}\", which has 32");
        let hash = Interface::Hash.name();
        let stream = Interface::Stream.name();
        let function = Interface::Function.name();
        for (text, files, needle) in [
            (
                toml("x", "c", hash, "sources = [\"missing.c\"]\n"),
                &[][..],
                "no file missing.c",
            ),
            (
                toml("x", "c", "mac", "sources = [\"a.c\"]\n"),
                &["a.c"][..],
                "unknown interface \"mac\" (known: hash, block-cipher, stream, function)",
            ),
            (toml("x", "go", hash, ""), &[][..], "unknown variant `go`"),
            (toml("X", "c", hash, "sources = [\"a.c\"]\n"), &["a.c"][..], "lowercase"),
            (
                toml("x", "c", stream, "algorithm = \"sha256\"\nsources = [\"a.c\"]\n"),
                &["a.c"][..],
                "but the interface is",
            ),
            (
                toml("x", "c", function, "output_bytes = 1\nsources = [\"a.c\"]\n"),
                &["a.c"][..],
                "secret",
            ),
            (toml("x", "rust", hash, ""), &[][..], "no Cargo.toml"),
            (
                toml(
                    "x",
                    "c",
                    hash,
                    "algorithm = \"sha256\"\noutput_bytes = 64\nsources = [\"a.c\"]\n",
                ),
                &["a.c"][..],
                "output_bytes = 64 contradicts algorithm = \"sha256\", which has 32",
            ),
            (
                toml(
                    "x",
                    "c",
                    stream,
                    &format!("algorithm = \"{chacha}\"\nkey_bytes = 16\nnonce_bytes = 12\nsources = [\"a.c\"]\n"),
                ),
                &["a.c"][..],
                &chacha_key,
            ),
            (
                toml("x", "c", hash, "algorithm = \"md5\"\nsources = [\"a.c\"]\n"),
                &["a.c"][..],
                "unknown algorithm \"md5\" (known: sha256, sha3-256, aes-128, aes-256, chacha20)",
            ),
            (
                toml("x", "c", hash, "output_bytes = \"input\"\nsources = [\"a.c\"]\n"),
                &["a.c"][..],
                "a hash's output_bytes is a number",
            ),
            (
                toml("x", "c", stream, "key_bytes = 32\nsources = [\"a.c\"]\n"),
                &["a.c"][..],
                "interface stream in C needs nonce_bytes",
            ),
            (
                toml("x", "c", function, "sources = [\"a.c\"]\n"),
                &["a.c"][..],
                "needs output_bytes (a number, or \"input\")",
            ),
            (
                toml("x", "rust", hash, ""),
                &["Cargo.toml"][..],
                "implements cyclebench_impl::Hash",
            ),
        ] {
            let (_d, f) = folder(&text, files);
            let e = format!("{:#}", f.unwrap_err());
            assert!(e.contains(needle), "{text}: {e}");
            assert!(e.contains(MANIFEST), "{e}");
        }
    }

    #[test]
    fn a_folder_without_manifest_says_what_it_needs() {
        let dir = tempfile::tempdir().unwrap();
        let e = format!("{:#}", Folder::read(dir.path()).unwrap_err());
        assert!(e.contains("needs an impl.toml"), "{e}");
    }
}
