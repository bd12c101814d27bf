//! End-to-end: `cyclebench run --impl DIR` as a user drives it. Each test copies the example
//! folders it needs (`examples/impl/`) into a fresh temporary directory, or writes a small
//! implementation there, and runs the real CLI from that directory, so that nothing depends on
//! where the examples sit in the tree. The QEMU tests run in a plain `cargo test`; those on the
//! Ibex model are `#[ignore]`d like `ibex.rs`, for `scripts/test.sh` to run.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use common::{copy_dir, records, repo, text};

/// A copy of `examples/impl/NAME` in `into`, as a user takes an example out of the tree.
fn example(name: &str, into: &Path) -> PathBuf {
    let to = into.join(name);
    copy_dir(&repo().join("examples/impl").join(name), &to);
    to
}

/// Runs `cyclebench` with `args` in `dir`, the user's folder.
fn cyclebench_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cyclebench"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run cyclebench")
}

/// `cyclebench run --target TARGET --no-report --out OUT ARGS...` in `dir`; the records, if
/// the run got as far as writing any.
fn run(dir: &Path, target: &str, out: &str, args: &[&str]) -> (Output, Vec<Value>) {
    let mut all = vec!["run", "--target", target, "--no-report", "--out", out];
    all.extend_from_slice(args);
    let o = cyclebench_in(dir, &all);
    let results = dir.join(out);
    let records = if results.join("results.jsonl").exists() {
        records(&results)
    } else {
        Vec::new()
    };
    (o, records)
}

/// Writes `lines` as the bench file `name` in `dir`; returns its name, relative to `dir`.
fn bench(dir: &Path, name: &str, lines: &[&str]) -> String {
    fs::write(dir.join(name), lines.join("\n") + "\n").unwrap();
    name.to_owned()
}

/// A C implementation of interface `function` named `name` in `dir/name`: impl.toml without
/// algorithm and vectors, and `f.c` whose body is `body` from line 5 on. The output is as long
/// as the input, and there is no key.
fn c_function(dir: &Path, name: &str, body: &[&str]) -> PathBuf {
    let folder = dir.join(name);
    fs::create_dir_all(&folder).unwrap();
    fs::write(
        folder.join("impl.toml"),
        format!(
            "name = \"{name}\"\nlanguage = \"c\"\ninterface = \"function\"\nsources = [\"f.c\"]\n\
             cflags = [\"-O2\"]\noutput_bytes = \"input\"\nsecret = \"data\"\n"
        ),
    )
    .unwrap();
    let mut source = vec![
        "#include \"cyclebench.h\"",
        "",
        "int crypto_function(unsigned char *out, const unsigned char *in, size_t inlen, const unsigned char *key)",
        "{",
    ];
    source.extend_from_slice(body);
    source.push("}");
    fs::write(folder.join("f.c"), source.join("\n") + "\n").unwrap();
    folder
}

/// A function that works: each input byte XOR 0x5a.
fn xor_c(dir: &Path) -> PathBuf {
    c_function(
        dir,
        "xor-c",
        &[
            "    (void)key;",
            "    for (size_t i = 0; i < inlen; i++)",
            "        out[i] = in[i] ^ 0x5a;",
            "    return 0;",
        ],
    )
}

/// The numbers of the lines of `file` that are requests.
fn request_lines(file: &Path) -> BTreeSet<u64> {
    fs::read_to_string(file)
        .unwrap()
        .lines()
        .zip(1..)
        .filter(|(l, _)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(_, n)| n)
        .collect()
}

fn error(r: &Value) -> &str {
    assert_eq!(r["status"], "error", "{r}");
    r["error"].as_str().unwrap_or_else(|| panic!("no error text: {r}"))
}

fn assert_measured(r: &Value) {
    assert_eq!(r["status"], "ok", "{r}");
    assert!(r["total_cycles"].as_u64().unwrap() > 0, "{r}");
}

#[test]
fn a_c_and_a_rust_implementation_are_measured_and_verified_in_one_run_on_qemu_virt() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    example("sha256-c", d);
    example("poly1305-rust", d);
    let (o, records) = run(
        d,
        "qemu-virt",
        "out",
        &[
            "--impl",
            "sha256-c",
            "--impl",
            "poly1305-rust",
            "sha256-c/sha256.bench",
            "poly1305-rust/poly1305.bench",
        ],
    );
    let log = text(&o);
    assert!(o.status.success(), "{log}");
    // Every request line has its record (a sweep one per point).
    for file in ["sha256-c/sha256.bench", "poly1305-rust/poly1305.bench"] {
        let lines = request_lines(&d.join(file));
        let recorded: BTreeSet<u64> = records
            .iter()
            .filter(|r| r["file"] == file)
            .map(|r| r["line"].as_u64().unwrap())
            .collect();
        assert_eq!(recorded, lines, "{file}: {log}");
    }
    for r in &records {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["check"], "known_answer", "{r}");
    }
    // The lines naming an implementation: the four lengths of each, and sha256-c's
    // constant-time test. The bench files may set the suite's own kinds beside them.
    let named: Vec<&Value> = records.iter().filter(|r| r["impl"].is_string()).collect();
    let count = |benchmark: &str, name: &str| {
        named
            .iter()
            .filter(|r| r["benchmark"] == benchmark && r["impl"] == name)
            .count()
    };
    assert_eq!(count("impl", "sha256-c"), 4, "{log}");
    assert_eq!(count("impl", "poly1305-rust"), 4, "{log}");
    assert_eq!(count("leakage", "sha256-c"), 1, "{log}");
    for r in named {
        let c = match r["impl"].as_str().unwrap() {
            "sha256-c" => true,
            "poly1305-rust" => false,
            other => panic!("{other}: {r}"),
        };
        assert_eq!(r["impl_language"], if c { "c" } else { "rust" }, "{r}");
        let compiler = r["impl_compiler"].as_str().unwrap();
        assert!(compiler.contains(if c { "clang" } else { "rustc" }), "{r}");
        let flags = r["impl_flags"].as_str().unwrap();
        if c {
            // The target's flags, then the folder's own.
            assert!(flags.contains("-march=rv32imc "), "{r}");
            assert!(flags.ends_with("-O2"), "{r}");
        } else {
            assert!(flags.contains("opt-level"), "{r}");
        }
        // Named once, on the leakage test's record too.
        assert_eq!(r["interface"], if c { "hash" } else { "function" }, "{r}");
        assert!(r.get("impl_interface").is_none(), "{r}");
        if r["benchmark"] == "impl" {
            assert_measured(r);
            assert_eq!(
                r["reference"],
                if c { Value::from("sha256") } else { Value::Null },
                "{r}"
            );
            let vectors = r["vectors_checked"].as_u64().unwrap();
            // SHA256ShortMsg.rsp holds ten.
            assert!(if c { vectors == 10 } else { vectors > 0 }, "{r}");
            // The whole implementation, of which the function called is a part.
            let (code, glue) = (r["code_bytes"].as_u64().unwrap(), r["glue_bytes"].as_u64().unwrap());
            assert!(glue > 0 && code > glue, "{r}");
            if c {
                // sha256-c's interface function, its compression function and its tables, as the
                // image's symbol table has them.
                let symbols = symbols_of(&image_of(r));
                let size = |symbol: &str| symbols.get(symbol).unwrap_or_else(|| panic!("{symbol}: {symbols:?}")).1;
                assert_eq!(r["code_symbol"], "sha256-c::crypto_hash", "{r}");
                assert_eq!(glue, size("sha256-c::crypto_hash"), "{r}");
                let compress = size("sha256-c::compress");
                assert!(code >= glue + compress, "{r}");
                let own: u64 = symbols
                    .iter()
                    .filter(|(name, _)| name.starts_with("sha256-c::"))
                    .map(|(_, (_, size))| size)
                    .sum();
                assert_eq!(code, own, "{r}");
            }
        } else {
            assert_eq!(r["verdict"], "no-leak-detected", "{r}");
        }
    }
    let meta: Value = serde_json::from_str(&fs::read_to_string(d.join("out/run.json")).unwrap()).unwrap();
    let implementations = meta["implementations"].as_array().unwrap();
    let names: Vec<&str> = implementations.iter().map(|i| i["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["sha256-c", "poly1305-rust"], "{meta}");
    // The folders measured are the copies, not the examples in the tree.
    for i in implementations {
        let folder = Path::new(i["folder"].as_str().unwrap());
        assert!(folder.starts_with(d.canonicalize().unwrap()), "{i}");
    }
}

/// The image a record was measured on: the ELF of the repository's image cache with the
/// record's `image_sha256`.
fn image_of(record: &Value) -> PathBuf {
    use sha2::{Digest, Sha256};
    let digest = record["image_sha256"]
        .as_str()
        .unwrap_or_else(|| panic!("no image: {record}"));
    let images = repo()
        .join("target/firmware/impl")
        .join(record["target"].as_str().unwrap())
        .join("images");
    fs::read_dir(&images)
        .unwrap_or_else(|e| panic!("{}: {e}", images.display()))
        .map(|entry| entry.unwrap().path())
        .find(|path| {
            let hash = Sha256::digest(fs::read(path).unwrap());
            hash.iter().map(|b| format!("{b:02x}")).collect::<String>() == digest
        })
        .unwrap_or_else(|| panic!("no image {digest} in {}", images.display()))
}

/// The functions and data objects of the ELF `path`, by name: their addresses and sizes.
fn symbols_of(path: &Path) -> std::collections::BTreeMap<String, (u64, u64)> {
    use object::{Object, ObjectSymbol, SymbolKind};
    let data = fs::read(path).unwrap();
    let file = object::File::parse(&*data).unwrap();
    file.symbols()
        .filter(|s| matches!(s.kind(), SymbolKind::Text | SymbolKind::Data) && s.size() > 0)
        .map(|s| (s.name().unwrap().to_owned(), (s.address(), s.size())))
        .collect()
}

#[test]
fn the_empty_message_is_measured_and_verified() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    example("sha256-c", d);
    // NIST's first ShortMsg vector is the empty message, which the folder's .rsp starts with.
    assert!(fs::read_to_string(d.join("sha256-c/SHA256ShortMsg.rsp"))
        .unwrap()
        .contains("\n\nLen = 0\nMsg = 00\n"));
    let file = bench(d, "empty.bench", &[r#"{"impl": {"name": "sha256-c", "length": 0}}"#]);
    let (o, records) = run(d, "qemu-virt", "out", &["--impl", "sha256-c", &file]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(records.len(), 1, "{}", text(&o));
    let r = &records[0];
    assert_measured(r);
    assert_eq!(r["verified"], true, "{r}");
    assert_eq!(r["check"], "known_answer", "{r}");
    assert_eq!(r["vectors_checked"], 10, "{r}");
}

#[test]
fn an_implementation_with_neither_algorithm_nor_vectors_is_measured_unverified() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    xor_c(d);
    let file = bench(d, "xor.bench", &[r#"{"impl": {"name": "xor-c", "length": 32}}"#]);
    let (o, records) = run(d, "qemu-virt", "out", &["--impl", "xor-c", &file]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(records.len(), 1, "{}", text(&o));
    let r = &records[0];
    assert_measured(r);
    assert_eq!(r["check"], "unverified", "{r}");
    assert_eq!(r["verified"], false, "{r}");
    assert_eq!(r["reference"], Value::Null, "{r}");
    assert_eq!(r["vectors_checked"], 0, "{r}");
    assert_eq!(r["impl_language"], "c", "{r}");
}

#[test]
fn a_folder_without_impl_toml_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("empty")).unwrap();
    let file = bench(d, "x.bench", &[r#"{"impl": {"name": "x", "length": 1}}"#]);
    let (o, _) = run(d, "qemu-virt", "out", &["--impl", "empty", &file]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let log = text(&o);
    assert!(log.contains("empty/impl.toml"), "{log}");
    assert!(log.contains("needs an impl.toml"), "{log}");
}

#[test]
fn an_unknown_interface_is_refused_naming_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let folder = example("sha256-c", d);
    let manifest = fs::read_to_string(folder.join("impl.toml")).unwrap();
    fs::write(
        folder.join("impl.toml"),
        manifest.replace("interface = \"hash\"", "interface = \"mac\""),
    )
    .unwrap();
    let (o, _) = run(d, "qemu-virt", "out", &["--impl", "sha256-c", "sha256-c/sha256.bench"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let log = text(&o);
    assert!(log.contains("sha256-c/impl.toml"), "{log}");
    assert!(log.contains("\"mac\""), "{log}");
    for known in ["hash", "block-cipher", "stream", "function"] {
        assert!(log.contains(known), "{known}: {log}");
    }
}

#[test]
fn a_compile_error_is_reported_at_the_users_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    c_function(d, "broken-c", &["    return not_declared;"]);
    let file = bench(d, "x.bench", &[r#"{"impl": {"name": "broken-c", "length": 1}}"#]);
    let (o, _) = run(d, "qemu-virt", "out", &["--impl", "broken-c", &file]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let log = text(&o);
    assert!(log.contains("broken-c: clang failed on f.c"), "{log}");
    // The body starts at line 5 of f.c.
    assert!(log.contains("f.c:5:"), "{log}");
    assert!(log.contains("not_declared"), "{log}");
}

#[test]
fn a_misspelled_interface_function_is_named_with_what_the_sources_define() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let folder = example("sha256-c", d);
    let source = fs::read_to_string(folder.join("sha256.c")).unwrap();
    assert!(source.contains("int crypto_hash("));
    fs::write(
        folder.join("sha256.c"),
        source.replace("int crypto_hash(", "int crypto_hsh("),
    )
    .unwrap();
    let (o, _) = run(d, "qemu-virt", "out", &["--impl", "sha256-c", "sha256-c/sha256.bench"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let log = text(&o);
    assert!(log.contains("needs the function crypto_hash"), "{log}");
    assert!(log.contains("(defined: crypto_hsh)"), "{log}");
}

#[test]
fn a_wrong_known_answer_fails_its_request_with_the_vector_and_both_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let folder = example("sha256-c", d);
    xor_c(d);
    // Vector 4 is "abc"; its MD's first byte ba becomes bb.
    let rsp = folder.join("SHA256ShortMsg.rsp");
    let right = "MD = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    let text_rsp = fs::read_to_string(&rsp).unwrap();
    assert!(text_rsp.contains(right));
    fs::write(&rsp, text_rsp.replace(right, &right.replace("= ba78", "= bb78"))).unwrap();
    let file = bench(
        d,
        "kat.bench",
        &[
            r#"{"impl": {"name": "sha256-c", "length": 64}}"#,
            r#"{"impl": {"name": "xor-c", "length": 16}}"#,
        ],
    );
    let (o, records) = run(d, "qemu-virt", "out", &["--impl", "sha256-c", "--impl", "xor-c", &file]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(records.len(), 2, "{}", text(&o));
    let e = error(&records[0]);
    assert!(e.contains("sha256-c: vector 4 (3 bytes of input)"), "{e}");
    assert!(e.contains("got ba7816bf8f01cfea"), "{e}");
    assert!(e.contains("expected bb7816bf8f01cfea"), "{e}");
    assert_measured(&records[1]);
}

#[test]
fn a_request_for_an_implementation_no_folder_carries_is_refused_before_anything_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    example("sha256-c", d);
    let file = bench(
        d,
        "names.bench",
        &[
            r#"{"impl": {"name": "sha512-c", "length": 64}}"#,
            r#"{"impl": {"name": "sha256-c", "length": 64}}"#,
            r#"{"leakage": {"impl": "sha265-c", "secret": "data", "measurements": 1000, "seed": 1, "length": 64}}"#,
        ],
    );
    let (o, records) = run(d, "qemu-virt", "out", &["--impl", "sha256-c", &file]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(records.is_empty(), "{}", text(&o));
    let e = text(&o);
    assert!(
        e.contains("names.bench:1 names \"sha512-c\", ") && e.contains("names.bench:3 names \"sha265-c\""),
        "{e}"
    );
    assert!(e.contains("the folders given carry: sha256-c"), "{e}");
    // Found from the files and the manifests alone: no image was built, nothing started.
    assert!(!e.contains("building the image"), "{e}");
    assert!(!d.join("out").exists(), "{e}");
}

#[test]
fn a_block_cipher_request_with_a_length_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let folder = d.join("toy-block-c");
    fs::create_dir(&folder).unwrap();
    fs::write(
        folder.join("impl.toml"),
        "name = \"toy-block-c\"\nlanguage = \"c\"\ninterface = \"block-cipher\"\nsources = [\"toy.c\"]\n\
         key_bytes = 16\ncontext_bytes = 16\n",
    )
    .unwrap();
    // Not a cipher anyone should use: the block XOR the key.
    fs::write(
        folder.join("toy.c"),
        "#include \"cyclebench.h\"\n\n\
         int crypto_block_setup(void *context, const unsigned char *key)\n{\n    memcpy(context, key, 16);\n    return 0;\n}\n\n\
         int crypto_block_encrypt(const void *context, unsigned char *out, const unsigned char *in)\n{\n\
         \x20   const unsigned char *k = context;\n    for (int i = 0; i < 16; i++)\n        out[i] = in[i] ^ k[i];\n    return 0;\n}\n",
    )
    .unwrap();
    let file = bench(
        d,
        "block.bench",
        &[
            r#"{"impl": {"name": "toy-block-c", "length": 64}}"#,
            r#"{"impl": {"name": "toy-block-c"}}"#,
        ],
    );
    let (o, records) = run(d, "qemu-virt", "out", &["--impl", "toy-block-c", &file]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(records.len(), 2, "{}", text(&o));
    let e = error(&records[0]);
    assert!(
        e.contains("toy-block-c: a block cipher encrypts one 16-byte block"),
        "{e}"
    );
    assert!(e.contains("remove \"length\""), "{e}");
    let r = &records[1];
    assert_measured(r);
    // The key schedule is timed apart.
    assert!(r["phases"]["setup"].as_u64().unwrap() > 0, "{r}");
    assert!(r["phases"]["run"].as_u64().unwrap() > 0, "{r}");
    assert_eq!(r["check"], "unverified", "{r}");
}

#[test]
fn a_function_that_never_returns_is_named_a_hang_and_the_next_line_is_still_measured() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    c_function(d, "spin-c", &["    for (;;);"]);
    xor_c(d);
    let file = bench(
        d,
        "spin.bench",
        &[
            r#"{"impl": {"name": "spin-c", "length": 16}}"#,
            r#"{"impl": {"name": "xor-c", "length": 16}}"#,
        ],
    );
    // One instance: with more, another could take the next line and hide whether the one that
    // hung is started again.
    let (o, records) = run(
        d,
        "qemu-virt",
        "out",
        &[
            "--jobs",
            "1",
            "--timeout",
            "10",
            "--impl",
            "spin-c",
            "--impl",
            "xor-c",
            &file,
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(records.len(), 2, "{}", text(&o));
    let e = error(&records[0]);
    assert!(
        e.starts_with("hung: the suite took the request and gave no result within 10 s, the timeout that applied"),
        "{e}"
    );
    let next = &records[1];
    assert_eq!(
        next["status"], "ok",
        "the line after a timeout must be measured on an instance started afresh: {next}"
    );
    assert_measured(next);
}

#[test]
fn a_function_that_overruns_the_watched_stack_is_reported_not_measured() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    c_function(
        d,
        "deep-c",
        &[
            "    volatile unsigned char big[8192];",
            "    (void)key;",
            "    for (size_t i = 0; i < sizeof big; i++)",
            "        big[i] = (unsigned char)i;",
            "    for (size_t i = 0; i < inlen; i++)",
            "        out[i] = in[i] ^ big[i];",
            "    return 0;",
        ],
    );
    xor_c(d);
    let file = bench(
        d,
        "deep.bench",
        &[
            r#"{"impl": {"name": "deep-c", "length": 16}}"#,
            r#"{"impl": {"name": "xor-c", "length": 16}}"#,
        ],
    );
    let (o, records) = run(d, "qemu-virt", "out", &["--impl", "deep-c", "--impl", "xor-c", &file]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(records.len(), 2, "{}", text(&o));
    let r = &records[0];
    let e = error(r);
    assert!(
        e.contains("deep-c: the call wrote the deepest of the 4096 stack bytes"),
        "{e}"
    );
    assert!(e.contains("may have overrun its stack"), "{e}");
    assert_eq!(r["total_cycles"], Value::Null, "{r}");
    assert_eq!(r["verified"], false, "{r}");
    assert_measured(&records[1]);
}

/// A C implementation of interface `function` in `dir/name` written as portable C is: its
/// source `src/f.c` includes the standard headers and one of its own from `include/`, which
/// `cflags` names relative to the folder; `body` follows the headers. Its vector: 00010203 in,
/// each byte XOR 0x5a out.
fn portable_c(dir: &Path, name: &str, body: &str) -> PathBuf {
    let folder = dir.join(name);
    fs::create_dir_all(folder.join("src")).unwrap();
    fs::create_dir_all(folder.join("include")).unwrap();
    fs::write(
        folder.join("impl.toml"),
        format!(
            "name = \"{name}\"\nlanguage = \"c\"\ninterface = \"function\"\nsources = [\"src/f.c\"]\n\
             cflags = [\"-O2\", \"-Iinclude\"]\noutput_bytes = \"input\"\nsecret = \"data\"\nvectors = \"v.txt\"\n"
        ),
    )
    .unwrap();
    fs::write(folder.join("v.txt"), "in = 00010203\nout = 5a5b5859\n").unwrap();
    fs::write(folder.join("include/mask.h"), "#define MASK 0x5a\n").unwrap();
    let headers = [
        "stdint.h",
        "stddef.h",
        "stdbool.h",
        "limits.h",
        "string.h",
        "stdlib.h",
        "memory.h",
        "mask.h",
    ];
    let mut source: String = headers.iter().map(|h| format!("#include <{h}>\n")).collect();
    source.push_str(body);
    fs::write(folder.join("src/f.c"), source).unwrap();
    folder
}

/// The body of a [`portable_c`] implementation that works, calling every function the suite
/// provides: each input byte XOR [`MASK`].
const PORTABLE_XOR: &str = r#"
static const char tag[] = "xor";

int crypto_function(unsigned char *out, const unsigned char *in, size_t inlen, const unsigned char *key)
{
    uint8_t buf[64];
    bool small = inlen <= sizeof buf && CHAR_BIT == 8 && strlen(tag) == 3;
    (void)key;
    if (!small)
        return 1;
    memset(buf, 0, sizeof buf);
    memcpy(buf + 1, in, inlen);
    memmove(buf, buf + 1, inlen);
    for (size_t i = 0; i < inlen; i++)
        out[i] = (uint8_t)(buf[i] ^ MASK);
    return memcmp(buf, in, inlen) != 0;
}
"#;

#[test]
fn portable_c_including_the_standard_headers_builds_and_verifies_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    portable_c(d, "portable-c", PORTABLE_XOR);
    let file = bench(d, "p.bench", &[r#"{"impl": {"name": "portable-c", "length": 4}}"#]);
    let (o, records) = run(d, "qemu-virt", "out", &["--impl", "portable-c", &file]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(records.len(), 1, "{}", text(&o));
    let r = &records[0];
    assert_measured(r);
    assert_eq!(r["check"], "known_answer", "{r}");
    assert_eq!(r["vectors_checked"], 1, "{r}");
    // The folder's own table is part of the implementation.
    let symbols = symbols_of(&image_of(r));
    assert!(symbols.contains_key("portable-c::tag"), "{symbols:?}");
    assert!(
        r["code_bytes"].as_u64().unwrap() > r["glue_bytes"].as_u64().unwrap(),
        "{r}"
    );
}

#[test]
fn a_call_to_a_function_the_suite_does_not_provide_fails_the_build_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Declared, as a C library's header would: the call compiles and only the link can miss it.
    portable_c(
        d,
        "heap-c",
        &format!(
            "void *malloc(size_t n);\n{}",
            PORTABLE_XOR.replace("uint8_t buf[64];", "uint8_t *buf = malloc(64);")
        ),
    );
    let file = bench(d, "h.bench", &[r#"{"impl": {"name": "heap-c", "length": 4}}"#]);
    let (o, records) = run(d, "qemu-virt", "out", &["--impl", "heap-c", &file]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(records.is_empty(), "{}", text(&o));
    let log = text(&o);
    assert!(
        log.contains("heap-c calls malloc, which neither its sources nor the suite define"),
        "{log}"
    );
    assert!(log.contains("memcpy, memmove, memset, memcmp, strlen"), "{log}");
}

#[test]
fn a_name_two_sources_of_a_folder_define_is_refused_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let folder = xor_c(d);
    fs::write(folder.join("g.c"), "int table[4];\nint helper(void) { return 1; }\n").unwrap();
    fs::write(folder.join("h.c"), "int helper(void) { return 2; }\n").unwrap();
    let manifest = fs::read_to_string(folder.join("impl.toml")).unwrap();
    fs::write(
        folder.join("impl.toml"),
        manifest.replace("sources = [\"f.c\"]", "sources = [\"f.c\", \"g.c\", \"h.c\"]"),
    )
    .unwrap();
    let file = bench(d, "x.bench", &[r#"{"impl": {"name": "xor-c", "length": 4}}"#]);
    let (o, _) = run(d, "qemu-virt", "out", &["--impl", "xor-c", &file]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let log = text(&o);
    assert!(log.contains("xor-c: helper is defined in both g.c and h.c"), "{log}");
    assert!(
        !log.contains("building the image with xor-c (qemu-virt) failed"),
        "{log}"
    );
}

#[test]
fn two_versions_of_one_library_with_the_same_names_are_measured_in_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Two copies of sha256-c whose compression function and rotation are extern, as in a
    // library of several files: the same global names in both.
    for version in ["sha-old", "sha-new"] {
        let folder = d.join(version);
        copy_dir(&repo().join("examples/impl/sha256-c"), &folder);
        let source = fs::read_to_string(folder.join("sha256.c")).unwrap();
        let global = source
            .replace("static void compress(", "void compress(")
            .replace("static uint32_t rotr(", "uint32_t rotr(");
        assert!(global.contains("\nvoid compress(") && global.contains("\nuint32_t rotr("));
        fs::write(folder.join("sha256.c"), global).unwrap();
        let manifest = fs::read_to_string(folder.join("impl.toml")).unwrap();
        fs::write(
            folder.join("impl.toml"),
            manifest.replace("name = \"sha256-c\"", &format!("name = \"{version}\"")),
        )
        .unwrap();
    }
    let file = bench(
        d,
        "both.bench",
        &[
            r#"{"impl": {"name": "sha-old", "length": [0, 64]}}"#,
            r#"{"impl": {"name": "sha-new", "length": [0, 64]}}"#,
        ],
    );
    let (o, records) = run(
        d,
        "qemu-virt",
        "out",
        &["--impl", "sha-old", "--impl", "sha-new", &file],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(records.len(), 4, "{}", text(&o));
    for r in &records {
        assert_measured(r);
        assert_eq!(r["check"], "known_answer", "{r}");
        let name = r["impl"].as_str().unwrap();
        assert_eq!(r["code_symbol"], format!("{name}::crypto_hash"), "{r}");
    }
    // Each version's code is its own, and in one piece, the versions in the order of their
    // names whatever the order of --impl: sha-new's two functions, then sha-old's.
    let symbols = symbols_of(&image_of(&records[0]));
    let address = |name: &str| symbols.get(name).unwrap_or_else(|| panic!("{name}: {symbols:?}")).0;
    let new = [address("sha-new::compress"), address("sha-new::crypto_hash")];
    let old = [address("sha-old::compress"), address("sha-old::crypto_hash")];
    assert!(new.iter().max() < old.iter().min(), "{symbols:?}");
    assert_eq!(records[0]["code_bytes"], records[2]["code_bytes"], "{records:?}");
}

#[test]
#[ignore = "needs the Ibex model (scripts/test.sh builds it and runs this)"]
fn the_leaky_comparison_is_flagged_and_sha256_c_is_exact_on_ibex_sim() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for name in ["compare-ct-c", "compare-leaky-c", "sha256-c"] {
        example(name, d);
    }
    let exact = bench(
        d,
        "exact.bench",
        &[r#"{"impl": {"name": "sha256-c", "length": 64, "repetitions": 3}}"#],
    );
    let (o, records) = run(
        d,
        "ibex-sim",
        "out",
        &[
            "--impl",
            "compare-ct-c",
            "--impl",
            "compare-leaky-c",
            "--impl",
            "sha256-c",
            "compare-ct-c/compare-ct.bench",
            "compare-leaky-c/compare-leaky.bench",
            &exact,
        ],
    );
    let log = text(&o);
    assert!(o.status.success(), "{log}");
    assert_eq!(records.len(), 5, "{log}");
    for r in &records {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["cycle_accurate"], true, "{r}");
    }
    let leak = |file: &str| {
        let r = records
            .iter()
            .find(|r| r["benchmark"] == "leakage" && r["file"].as_str().unwrap().ends_with(file))
            .unwrap_or_else(|| panic!("no constant-time test of {file}: {log}"));
        assert_eq!(r["measurements"], 100_000, "{r}");
        r
    };
    let (constant, leaky) = (leak("compare-ct.bench"), leak("compare-leaky.bench"));
    assert_eq!(leaky["verdict"], "leak", "{leaky}");
    assert_eq!(constant["verdict"], "no-leak-detected", "{constant}");
    let sha = records
        .iter()
        .find(|r| r["file"] == "exact.bench")
        .unwrap_or_else(|| panic!("{log}"));
    assert_eq!(sha["repetitions"], 3, "{sha}");
    let run = &sha["statistics"]["run"];
    assert_eq!(run["n"], 3, "{sha}");
    assert_eq!(run["min"], run["max"], "{sha}");
}

#[test]
#[ignore = "needs the Ibex model (scripts/test.sh builds it and runs this)"]
fn the_ci_gate_passes_the_same_build_and_fails_a_slower_one_on_ibex_sim() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let folder = example("sha256-c", d);
    // The example's cycle lines without its constant-time test, which the gate does not need.
    let example_bench = fs::read_to_string(folder.join("sha256.bench")).unwrap();
    let lines: Vec<&str> = example_bench.lines().filter(|l| l.starts_with("{\"impl\"")).collect();
    assert_eq!(lines.len(), 1, "{example_bench}");
    let file = bench(d, "gate.bench", &lines);
    let measure = |folder: &str, out: &str| {
        let (o, records) = run(d, "ibex-sim", out, &["--impl", folder, &file]);
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(records.len(), 4, "{}", text(&o));
    };
    measure("sha256-c", "a");
    measure("sha256-c", "b");
    let compare = |base: &str, new: &str| cyclebench_in(d, &["compare", base, new, "--fail-above", "0"]);
    let o = compare("a", "b");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no phase grew more than 0%"),
        "{}",
        text(&o)
    );

    let slow = d.join("sha256-c-o0");
    copy_dir(&folder, &slow);
    let manifest = fs::read_to_string(slow.join("impl.toml")).unwrap();
    assert!(manifest.contains("cflags = [\"-O2\"]"), "{manifest}");
    fs::write(
        slow.join("impl.toml"),
        manifest.replace("cflags = [\"-O2\"]", "cflags = [\"-O0\"]"),
    )
    .unwrap();
    measure("sha256-c-o0", "c");
    let o = compare("a", "c");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("gate.bench:1[2]: run grew from "), "{stderr}");
    assert!(stderr.contains("grew more than 0%: failing"), "{stderr}");
}

/// A Rust crate in `dir/name` that wraps a RustCrypto crate behind an interface, checked
/// against the suite's own computation of `algorithm`: `dependency` is its Cargo line, `code`
/// the type `Wrapped` implementing the trait.
fn rust_wrapper(dir: &Path, name: &str, interface: &str, algorithm: &str, dependency: &str, code: &str) -> PathBuf {
    let folder = dir.join(name);
    fs::create_dir_all(folder.join("src")).unwrap();
    fs::write(
        folder.join("impl.toml"),
        format!(
            "name = \"{name}\"\nlanguage = \"rust\"\ninterface = \"{interface}\"\nalgorithm = \"{algorithm}\"\n\
             crate = \".\"\ntype = \"Wrapped\"\n"
        ),
    )
    .unwrap();
    fs::write(
        folder.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n\
             cyclebench-impl = \"0.1\"\n{dependency}\n\n[workspace]\n"
        ),
    )
    .unwrap();
    fs::write(folder.join("src/lib.rs"), format!("#![no_std]\n{code}")).unwrap();
    folder
}

#[test]
fn a_block_cipher_and_a_stream_cipher_are_checked_against_the_suites_aes_and_chacha20() {
    let dir = tempfile::tempdir().unwrap();
    let aes = rust_wrapper(
        dir.path(),
        "aes-rustcrypto",
        "block-cipher",
        "aes-128",
        "aes = { version = \"0.8\", default-features = false }",
        r#"use aes::cipher::{BlockEncrypt, KeyInit};
pub struct Wrapped;
impl cyclebench_impl::BlockCipher for Wrapped {
    const KEY_BYTES: usize = 16;
    type Context = aes::Aes128;
    fn setup(key: &[u8]) -> aes::Aes128 {
        aes::Aes128::new_from_slice(key).unwrap()
    }
    fn encrypt(context: &aes::Aes128, out: &mut [u8], input: &[u8]) {
        let mut block = aes::Block::clone_from_slice(input);
        context.encrypt_block(&mut block);
        out.copy_from_slice(&block);
    }
}
"#,
    );
    let chacha = rust_wrapper(
        dir.path(),
        "chacha-rustcrypto",
        "stream",
        "chacha20",
        "chacha20 = { version = \"0.9\", default-features = false }",
        r#"use chacha20::cipher::{KeyIvInit, StreamCipher};
pub struct Wrapped;
impl cyclebench_impl::StreamCipher for Wrapped {
    const KEY_BYTES: usize = 32;
    const NONCE_BYTES: usize = 12;
    fn xor(out: &mut [u8], input: &[u8], nonce: &[u8], key: &[u8]) {
        out.copy_from_slice(input);
        let mut cipher = chacha20::ChaCha20::new(key.into(), nonce.into());
        cipher.apply_keystream(out);
    }
}
"#,
    );
    let file = bench(
        dir.path(),
        "ciphers.bench",
        &[
            r#"{"impl": {"name": "aes-rustcrypto", "repetitions": 3}}"#,
            r#"{"impl": {"name": "chacha-rustcrypto", "length": [1, 64, 1000]}}"#,
            r#"{"leakage": {"impl": "chacha-rustcrypto", "secret": "key", "measurements": 1000, "seed": 3, "length": 64}}"#,
        ],
    );
    let (o, r) = run(
        dir.path(),
        "qemu-virt",
        "out",
        &[
            "--impl",
            aes.to_str().unwrap(),
            "--impl",
            chacha.to_str().unwrap(),
            &file,
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(r.len(), 5, "{r:?}");
    for record in &r {
        assert_eq!(record["status"], "ok", "{record}");
        assert_eq!(record["check"], "known_answer", "{record}");
    }
    for record in &r[..4] {
        assert_measured(record);
    }
    // Every random key's keystream was checked against the suite's ChaCha20.
    assert!(r[4]["verdict"].is_string(), "{}", r[4]);
    // The key schedule is a phase of its own.
    assert!(r[0]["phases"]["setup"].as_u64().unwrap() > 0, "{}", r[0]);
    assert!(r[0]["phases"]["run"].as_u64().unwrap() > 0, "{}", r[0]);
    assert_eq!(r[0]["reference"], "aes-128", "{}", r[0]);
    assert_eq!(r[1]["reference"], "chacha20", "{}", r[1]);
    assert_eq!(r[3]["bytes"], 1000, "{}", r[3]);
}
