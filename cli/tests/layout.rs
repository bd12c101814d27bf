//! End-to-end: the same measured code gives the same cycles whatever surrounds it, on the Ibex
//! model and on the Earl Grey model. Each test builds images from two trees or two folders
//! that differ only in what is not measured (the checkout's folder, unrelated code in the
//! suite and the protocol crate, the order of an implementation's sources, an unrelated source
//! or function) and holds the second run to the first with the gate a user would use,
//! `cyclebench compare --fail-on-change`. `#[ignore]`d: `scripts/test.sh` runs them once the
//! models are built.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use object::{Object, ObjectSection, ObjectSymbol};

use common::{copy_dir, repo, text};

/// The targets whose cycles the tests hold still: the core alone and the chip (software runs on
/// the smallest model variant, which the Earl Grey tests hold to the whole chip).
const TARGETS: [&str; 2] = ["ibex-sim", "earlgrey-sim"];

/// Runs `cyclebench` in `dir` with `args`, building from `tree` (the checkout's own when `None`).
fn cyclebench_in(dir: &Path, tree: Option<&Path>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cyclebench"));
    command.current_dir(dir).args(args);
    if let Some(tree) = tree {
        command.env("CYCLEBENCH_TREE", tree);
    }
    command.output().expect("run cyclebench")
}

/// A copy of the checkout in `to`: the files a clone of this working tree holds (tracked, and
/// new ones not ignored), with the firmware's link to the protocol crate as a link.
fn copy_checkout(to: &Path) {
    fs::create_dir_all(to).unwrap();
    let list = Command::new("git")
        .current_dir(repo())
        .args(["ls-files", "-z", "-co", "--exclude-standard"])
        .output()
        .expect("git ls-files");
    assert!(list.status.success(), "{}", text(&list));
    // A tracked file deleted in the working tree is no file of the copy either.
    let present: Vec<u8> = list
        .stdout
        .split(|&b| b == 0)
        .filter(|name| !name.is_empty())
        .filter(|name| {
            let name = String::from_utf8_lossy(name);
            repo().join(name.as_ref()).symlink_metadata().is_ok()
        })
        .flat_map(|name| name.iter().copied().chain([0]))
        .collect();
    let mut pack = Command::new("tar")
        .current_dir(repo())
        .args(["--null", "-T", "-", "-cf", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("tar");
    // The unpacking side first, so that neither tar waits on a full pipe.
    let mut unpack = Command::new("tar")
        .current_dir(to)
        .args(["-xf", "-"])
        .stdin(pack.stdout.take().unwrap())
        .spawn()
        .expect("tar -x");
    std::io::Write::write_all(&mut pack.stdin.take().unwrap(), &present).unwrap();
    assert!(
        pack.wait().unwrap().success() && unpack.wait().unwrap().success(),
        "copying the checkout"
    );
}

/// `cyclebench prepare --target TARGET` from `tree`; the image it names.
fn prepare(tree: Option<&Path>, target: &str) -> PathBuf {
    let o = cyclebench_in(&repo(), tree, &["prepare", "--target", target]);
    assert!(o.status.success(), "prepare {target} from {tree:?}: {}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let path = out
        .lines()
        .find_map(|l| l.split_once(" ready: ").map(|(_, p)| p.trim().to_owned()))
        .unwrap_or_else(|| panic!("no image named: {out}"));
    PathBuf::from(path)
}

/// The measured block of `elf`: its first address and its bytes.
fn block(elf: &Path) -> (u64, Vec<u8>) {
    let data = fs::read(elf).unwrap();
    let file = object::File::parse(&*data).unwrap();
    let address = |name: &str| {
        file.symbols()
            .find(|s| s.name() == Ok(name))
            .unwrap_or_else(|| panic!("{}: no {name}", elf.display()))
            .address()
    };
    let (start, end) = (address("cyclebench_measured_start"), address("cyclebench_measured_end"));
    let mut bytes = vec![0; (end - start) as usize];
    for section in file.sections() {
        let (base, content) = (section.address(), section.data().unwrap_or_default());
        for (i, byte) in content.iter().enumerate() {
            let at = base + i as u64;
            if (start..end).contains(&at) {
                bytes[(at - start) as usize] = *byte;
            }
        }
    }
    (start, bytes)
}

/// Unrelated code for the suite's entry point: a function with a jump table and a table of
/// constants of its own, called before the suite starts, and a call into the protocol crate's.
const UNRELATED_SUITE: &str = r#"
#[inline(never)]
fn unrelated(x: u32) -> u32 {
    static TABLE: [u32; 24] = [
        3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4,
    ];
    match x % 7 {
        0 => TABLE[(x % 24) as usize],
        1 => x.rotate_left(5),
        2 => x ^ 0x3c3c_3c3c,
        3 => x.wrapping_mul(0x9e37_79b9),
        4 => !x,
        5 => x.count_ones(),
        _ => x >> 3,
    }
}
"#;

/// The same for the protocol crate.
const UNRELATED_PROTOCOL: &str = r#"
/// Unrelated code a layout test adds: a jump table and a table of constants.
#[doc(hidden)]
#[inline(never)]
pub fn layout_test_unrelated(x: u32) -> u32 {
    const TABLE: [u16; 12] = [271, 828, 182, 845, 904, 523, 536, 28, 747, 135, 266, 249];
    match x % 6 {
        0 => u32::from(TABLE[(x % 12) as usize]),
        1 => x.rotate_right(7),
        2 => x.wrapping_add(0x1234_5678),
        3 => x.leading_zeros(),
        4 => x.swap_bytes(),
        _ => x.wrapping_sub(99),
    }
}
"#;

/// Adds the unrelated code to the checkout in `tree`.
fn add_unrelated_code(tree: &Path) {
    let main = tree.join("firmware/suite/src/main.rs");
    let source = fs::read_to_string(&main).unwrap();
    let call = "fn main() -> ! {\n    let x = core::hint::black_box(11u32);\n    \
                core::hint::black_box(unrelated(x) ^ cyclebench_protocol::layout_test_unrelated(x));\n";
    assert!(source.contains("fn main() -> ! {\n"), "{source}");
    fs::write(&main, source.replacen("fn main() -> ! {\n", call, 1) + UNRELATED_SUITE).unwrap();
    let lib = tree.join("protocol/src/lib.rs");
    let source = fs::read_to_string(&lib).unwrap();
    fs::write(&lib, source + UNRELATED_PROTOCOL).unwrap();
}

/// `cyclebench compare --fail-on-change A B`, which must pass.
fn same_records(a: &Path, b: &Path, what: &str) {
    let o = cyclebench_in(
        &repo(),
        None,
        &["compare", a.to_str().unwrap(), b.to_str().unwrap(), "--fail-on-change"],
    );
    assert!(o.status.success(), "{what}: {}", text(&o));
}

/// `cyclebench run` of `args` on `target` in `dir` into `dir/out`, building from `tree`; the
/// results directory, after checking that the run succeeded.
fn run(dir: &Path, tree: Option<&Path>, target: &str, out: &str, args: &[&str]) -> PathBuf {
    let mut all = vec!["run", "--target", target, "--no-report", "--jobs", "1", "--out", out];
    all.extend_from_slice(args);
    let o = cyclebench_in(dir, tree, &all);
    assert!(o.status.success(), "{target} {args:?}: {}", text(&o));
    dir.join(out)
}

/// The software set run on `target` from `tree` into `dir/name`.
fn software_set(dir: &Path, tree: Option<&Path>, target: &str, name: &str) -> PathBuf {
    let set = repo().join("benchmarks/layout/unrelated.bench");
    run(dir, tree, target, &format!("{name}-{target}"), &[set.to_str().unwrap()])
}

/// One copy of the checkout serves both: first as it is, in another folder, then with
/// unrelated code added (a second copy would cost every firmware build again).
#[test]
#[ignore = "builds images from a second checkout and runs the software set on both models; scripts/test.sh runs it"]
fn another_folder_builds_the_same_block_and_unrelated_code_moves_no_software_record() {
    let scratch = tempfile::tempdir().unwrap();
    let copy = scratch.path().join("elsewhere").join("cyclebench");
    copy_checkout(&copy);
    for target in TARGETS {
        let (here, there) = (prepare(None, target), prepare(Some(&copy), target));
        assert!(there.starts_with(&copy), "{} is not from the copy", there.display());
        let (a, b) = (block(&here), block(&there));
        assert_eq!(a.0, b.0, "{target}: the block starts elsewhere");
        assert!(a.1 == b.1, "{target}: the block's {} bytes differ", a.1.len());
    }
    add_unrelated_code(&copy);
    for target in TARGETS {
        let base = software_set(scratch.path(), None, target, "base");
        let new = software_set(scratch.path(), Some(&copy), target, "changed");
        same_records(
            &base,
            &new,
            &format!("{target}, unrelated code added to the suite and the protocol"),
        );
    }
}

/// The example SHA-256 in C split over two files, `core.c` (the compression function, called
/// from the other file) and `api.c` (the interface), each with its own static helpers of the
/// same names, listed in `sources` as `order` says, plus the files `extra`.
fn split_sha256(dir: &Path, order: [&str; 2], extra: &[&str]) {
    copy_dir(&repo().join("examples/impl/sha256-c"), dir);
    let source = fs::read_to_string(dir.join("sha256.c")).unwrap();
    let (head, api) = source.split_once("int crypto_hash(").expect("the interface function");
    let core = head.replacen("static void compress(", "void sha256_split_compress(", 1);
    let (helpers, _) = head
        .split_once("static void compress(")
        .expect("the compression function");
    let api = format!(
        "{helpers}void sha256_split_compress(uint32_t state[8], const unsigned char block[64]);\n\
         int crypto_hash({}",
        api.replace("compress(", "sha256_split_compress(")
    );
    fs::write(dir.join("core.c"), core).unwrap();
    fs::write(dir.join("api.c"), api).unwrap();
    fs::remove_file(dir.join("sha256.c")).unwrap();
    let sources: Vec<String> = order.iter().chain(extra).map(|s| format!("\"{s}\"")).collect();
    let manifest = fs::read_to_string(dir.join("impl.toml")).unwrap();
    let manifest = manifest.replace(
        "sources = [\"sha256.c\"]",
        &format!("sources = [{}]", sources.join(", ")),
    );
    // Warnings of the split (helpers one file does not use) are not what this test is about.
    let manifest = manifest.replace("cflags = [\"-O2\"]", "cflags = [\"-O2\", \"-Wno-unused-function\"]");
    fs::write(dir.join("impl.toml"), manifest).unwrap();
    fs::write(
        dir.join("unrelated.c"),
        "#include \"cyclebench.h\"\nstatic const unsigned t[8] = {1, 2, 3, 5, 8, 13, 21, 34};\n\
         unsigned unrelated_sum(unsigned n) { unsigned s = 0; for (unsigned i = 0; i < n; i++) s += t[i % 8]; return s; }\n\
         static unsigned rotr(unsigned x, unsigned n) { return (x >> n) | (x << (32 - n)); }\n\
         unsigned unrelated_mix(unsigned x) { return rotr(x, 7) ^ unrelated_sum(x); }\n",
    )
    .unwrap();
}

/// The lengths both implementation tests measure.
const IMPL_SET: &str = "{\"impl\": {\"name\": \"sha256-c\", \"length\": [0, 64, 1024]}}\n";

#[test]
#[ignore = "builds and runs implementation images on both models; scripts/test.sh runs it"]
fn c_sources_in_any_order_and_an_unrelated_source_measure_the_same() {
    let scratch = tempfile::tempdir().unwrap();
    let (one, two) = (scratch.path().join("one/sha256-c"), scratch.path().join("two/sha256-c"));
    split_sha256(&one, ["core.c", "api.c"], &[]);
    split_sha256(&two, ["api.c", "core.c"], &["unrelated.c"]);
    fs::write(scratch.path().join("split.bench"), IMPL_SET).unwrap();
    both_measure_the_same(
        scratch.path(),
        [&one, &two],
        "split.bench",
        "sources reordered and one added",
    );
}

/// Runs `bench` in `dir` with the implementation folder `folders[0]`, then with `folders[1]`,
/// on every target of [`TARGETS`], and holds the second run to the first (`what` names the
/// difference between the folders).
fn both_measure_the_same(dir: &Path, folders: [&Path; 2], bench: &str, what: &str) {
    for target in TARGETS {
        let runs = folders.map(|folder| {
            let name = folder.parent().and_then(Path::file_name).unwrap().to_string_lossy();
            let args = ["--impl", folder.to_str().unwrap(), bench];
            run(dir, None, target, &format!("{name}-{target}"), &args)
        });
        same_records(&runs[0], &runs[1], &format!("{target}, {what}"));
    }
}

#[test]
#[ignore = "builds and runs implementation images on both models; scripts/test.sh runs it"]
fn a_rust_implementation_with_an_unrelated_function_measures_the_same() {
    let scratch = tempfile::tempdir().unwrap();
    let (one, two) = (
        scratch.path().join("one/poly1305-rust"),
        scratch.path().join("two/poly1305-rust"),
    );
    copy_dir(&repo().join("examples/impl/poly1305-rust"), &one);
    copy_dir(&repo().join("examples/impl/poly1305-rust"), &two);
    let lib = two.join("src/lib.rs");
    let source = fs::read_to_string(&lib).unwrap();
    fs::write(
        &lib,
        source
            + "\n/// Unrelated to the measured interface.\npub fn unrelated(x: &[u8]) -> u32 {\n    \
               x.iter().fold(7u32, |h, &b| h.rotate_left(5) ^ u32::from(b))\n}\n",
    )
    .unwrap();
    let set = fs::read_to_string(one.join("poly1305.bench")).unwrap();
    let set: String = set
        .lines()
        .filter(|l| !l.contains("leakage"))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(scratch.path().join("poly.bench"), set).unwrap();
    both_measure_the_same(
        scratch.path(),
        [&one, &two],
        "poly.bench",
        "an unrelated function added",
    );
}

#[test]
#[ignore = "builds an image from a second checkout; scripts/test.sh runs it"]
fn an_image_whose_measured_code_left_the_block_is_refused_naming_it() {
    // A checkout whose linker script leaves one measured crate out of the block, built by this
    // tool, which still counts it as measured: the deliberately broken layout the check is for.
    let scratch = tempfile::tempdir().unwrap();
    let copy = scratch.path().join("broken");
    copy_checkout(&copy);
    let rules = copy.join("firmware/suite/build/layout_rules.rs");
    let source = fs::read_to_string(&rules).unwrap();
    assert!(source.contains("    \"sha2\",\n"), "the rules name sha2");
    fs::write(&rules, source.replacen("    \"sha2\",\n", "", 1)).unwrap();
    let o = cyclebench_in(&repo(), Some(&copy), &["prepare", "--target", "qemu-virt"]);
    let log = text(&o);
    assert!(!o.status.success(), "{log}");
    assert!(
        log.contains("outside the measured block") && log.contains("sha2::"),
        "{log}"
    );
}
