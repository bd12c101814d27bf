//! `impl.toml`: what an implementation folder holds and how to build it.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use cyclebench_protocol::{valid_impl_name, IMPL_ALGORITHMS, IMPL_INTERFACES, MAX_IMPL_NAME};
use serde::Deserialize;

/// The file every implementation folder has.
pub const MANIFEST: &str = "impl.toml";

/// The language of an implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// C sources, compiled with clang for the target's core.
    C,
    /// A Rust crate implementing one of `cyclebench-impl`'s traits.
    Rust,
}

/// The fixed interfaces (`firmware/impl/include/cyclebench.h`), named as the protocol names
/// them ([`IMPL_INTERFACES`], in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum Interface {
    /// `crypto_hash`.
    Hash,
    /// `crypto_block_setup` and `crypto_block_encrypt`.
    BlockCipher,
    /// `crypto_stream_xor`.
    Stream,
    /// `crypto_function`.
    Function,
}

impl Interface {
    const ALL: [Self; 4] = [Self::Hash, Self::BlockCipher, Self::Stream, Self::Function];

    /// The name `impl.toml` gives it.
    pub fn name(self) -> &'static str {
        IMPL_INTERFACES[self as usize]
    }

    /// The C functions it consists of.
    pub fn symbols(self) -> &'static [&'static str] {
        match self {
            Self::Hash => &["crypto_hash"],
            Self::BlockCipher => &["crypto_block_setup", "crypto_block_encrypt"],
            Self::Stream => &["crypto_stream_xor"],
            Self::Function => &["crypto_function"],
        }
    }

    /// The Rust trait a crate implements for it.
    pub fn rust_trait(self) -> &'static str {
        match self {
            Self::Hash => "Hash",
            Self::BlockCipher => "BlockCipher",
            Self::Stream => "StreamCipher",
            Self::Function => "Function",
        }
    }
}

/// An algorithm the suite computes itself, to check every output against, named as the
/// protocol names them ([`IMPL_ALGORITHMS`], in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum Algorithm {
    /// SHA-256.
    Sha256,
    /// SHA3-256.
    Sha3_256,
    /// AES-128.
    Aes128,
    /// AES-256.
    Aes256,
    /// ChaCha20 (RFC 8439).
    Chacha20,
}

/// `TryFrom<String>` by the names in `$names`, the error listing them.
macro_rules! named {
    ($($type:ty: $names:expr, $what:literal;)*) => {$(
        impl TryFrom<String> for $type {
            type Error = String;

            fn try_from(name: String) -> Result<Self, String> {
                Self::ALL
                    .into_iter()
                    .find(|v| $names[*v as usize] == name)
                    .ok_or_else(|| format!("unknown {} \"{name}\" (known: {})", $what, $names.join(", ")))
            }
        }
    )*};
}

named! {
    Interface: IMPL_INTERFACES, "interface";
    Algorithm: IMPL_ALGORITHMS, "algorithm";
}

impl Algorithm {
    /// The interface it belongs to.
    pub fn interface(self) -> Interface {
        match self {
            Self::Sha256 | Self::Sha3_256 => Interface::Hash,
            Self::Aes128 | Self::Aes256 => Interface::BlockCipher,
            Self::Chacha20 => Interface::Stream,
        }
    }

    const ALL: [Self; 5] = [Self::Sha256, Self::Sha3_256, Self::Aes128, Self::Aes256, Self::Chacha20];

    /// Its name in `impl.toml`.
    pub fn name(self) -> &'static str {
        IMPL_ALGORITHMS[self as usize]
    }

    /// The `cyclebench_impl::Reference` variant that names it in generated code.
    pub fn reference(self) -> &'static str {
        match self {
            Self::Sha256 => "Sha256",
            Self::Sha3_256 => "Sha3_256",
            Self::Aes128 => "Aes128",
            Self::Aes256 => "Aes256",
            Self::Chacha20 => "Chacha20",
        }
    }
}

/// A function's output size: bytes, or as many as the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum OutputBytes {
    /// This many bytes.
    Fixed(usize),
    /// `"input"`.
    Input(InputWord),
}

/// The word `input`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputWord {
    /// As many bytes as the input.
    Input,
}

/// The input a function's constant-time test varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Secret {
    /// The key.
    Key,
    /// The data.
    Data,
}

/// `impl.toml`, as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The name requests give.
    pub name: String,
    /// C or Rust.
    pub language: Language,
    /// Which interface it provides.
    pub interface: Interface,
    /// The algorithm the suite checks it against.
    #[serde(default)]
    pub algorithm: Option<Algorithm>,
    /// Its known-answer file, relative to the folder.
    #[serde(default)]
    pub vectors: Option<PathBuf>,
    /// C: its sources, relative to the folder.
    #[serde(default)]
    pub sources: Vec<PathBuf>,
    /// C: compiler flags, after the target's.
    #[serde(default)]
    pub cflags: Vec<String>,
    /// C: bytes of a hash's digest (32 by default) or a function's output.
    #[serde(default)]
    pub output_bytes: Option<OutputBytes>,
    /// C: bytes of the key.
    #[serde(default)]
    pub key_bytes: Option<usize>,
    /// C: bytes of a stream cipher's nonce.
    #[serde(default)]
    pub nonce_bytes: Option<usize>,
    /// C: bytes of a block cipher's context.
    #[serde(default)]
    pub context_bytes: Option<usize>,
    /// C: bytes of a block (16 by default).
    #[serde(default)]
    pub block_bytes: Option<usize>,
    /// C: a function's secret.
    #[serde(default)]
    pub secret: Option<Secret>,
    /// Rust: the crate's folder, relative to this one.
    #[serde(default, rename = "crate")]
    pub krate: Option<PathBuf>,
    /// Rust: the type implementing the interface's trait, as a path inside the crate.
    #[serde(default, rename = "type")]
    pub rust_type: Option<String>,
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
        let manifest: Manifest = toml::from_str(&text).with_context(|| format!("{}", path.display()))?;
        let folder = Self { dir, manifest };
        folder
            .check()
            .with_context(|| format!("{}", folder.dir.join(MANIFEST).display()))?;
        Ok(folder)
    }

    fn check(&self) -> Result<()> {
        let m = &self.manifest;
        if !valid_impl_name(&m.name) {
            bail!(
                "name \"{}\": 1 to {MAX_IMPL_NAME} lowercase letters, digits and '-', not starting with '-'",
                m.name
            );
        }
        if let Some(a) = m.algorithm {
            if a.interface() != m.interface {
                bail!(
                    "algorithm {} is a {}, but the interface is {}",
                    a.name(),
                    a.interface().name(),
                    m.interface.name()
                );
            }
        }
        if let Some(v) = &m.vectors {
            let path = self.dir.join(v);
            if !path.is_file() {
                bail!("vectors = \"{}\": no such file in {}", v.display(), self.dir.display());
            }
        }
        match m.language {
            Language::C => {
                if m.sources.is_empty() {
                    bail!("a C implementation lists its sources: sources = [\"file.c\", ...]");
                }
                for s in &m.sources {
                    if !self.dir.join(s).is_file() {
                        bail!("sources: no file {} in {}", s.display(), self.dir.display());
                    }
                }
                if m.krate.is_some() || m.rust_type.is_some() {
                    bail!("crate and type are for language = \"rust\"");
                }
                let needs = |what: &str, value: Option<usize>| match value {
                    Some(_) => Ok(()),
                    None => Err(anyhow::anyhow!(
                        "interface {} in C needs {what} (the sizes a Rust type's trait gives)",
                        m.interface.name()
                    )),
                };
                match m.interface {
                    Interface::Hash => {
                        if let Some(OutputBytes::Input(_)) = m.output_bytes {
                            bail!("a hash's output_bytes is a number");
                        }
                    }
                    Interface::BlockCipher => {
                        needs("key_bytes", m.key_bytes)?;
                        needs("context_bytes", m.context_bytes)?;
                    }
                    Interface::Stream => {
                        needs("key_bytes", m.key_bytes)?;
                        needs("nonce_bytes", m.nonce_bytes)?;
                    }
                    Interface::Function => {
                        if m.output_bytes.is_none() {
                            bail!("interface function in C needs output_bytes (a number, or \"input\")");
                        }
                        if m.secret.is_none() {
                            bail!("interface function needs secret = \"key\" or \"data\": the input its constant-time test varies");
                        }
                    }
                }
            }
            Language::Rust => {
                if !m.sources.is_empty() || !m.cflags.is_empty() {
                    bail!(
                        "sources and cflags are for language = \"c\"; a Rust implementation names its crate and type"
                    );
                }
                let krate = m.krate.as_ref().map_or(self.dir.clone(), |k| self.dir.join(k));
                if !krate.join("Cargo.toml").is_file() {
                    bail!(
                        "crate = \"{}\": no Cargo.toml in {}",
                        m.krate.as_deref().unwrap_or(Path::new(".")).display(),
                        krate.display()
                    );
                }
                if m.rust_type.as_deref().is_none_or(str::is_empty) {
                    bail!(
                        "type = \"...\": the type in the crate that implements cyclebench_impl::{}",
                        m.interface.rust_trait()
                    );
                }
            }
        }
        Ok(())
    }

    /// The names of `folders`' implementations, comma-separated, for messages.
    pub fn names(folders: &[Folder]) -> String {
        let names: Vec<&str> = folders.iter().map(|f| f.manifest.name.as_str()).collect();
        names.join(", ")
    }

    /// The Rust crate's folder (Rust implementations).
    pub fn crate_dir(&self) -> PathBuf {
        self.manifest
            .krate
            .as_ref()
            .map_or(self.dir.clone(), |k| self.dir.join(k))
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
        assert_eq!(f.manifest.interface, Interface::Hash);
    }

    #[test]
    fn mistakes_are_named() {
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
                "unknown interface \"mac\"",
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
