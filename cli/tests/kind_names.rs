//! No benchmark kind, software primitive or leakage operation is named by a string literal in
//! `cli/src/` outside the one file that registers the kinds' report views: what the CLI needs
//! to know about a kind comes from the kind's description in the protocol crate or from its
//! view, so a new kind touches nothing else in `cli/`.

use std::path::{Path, PathBuf};

use cyclebench_protocol::{BenchmarkKind, Primitive};

/// The one file allowed to name kinds: the registration of the report views.
const REGISTRATION: &str = "src/report/views/mod.rs";

/// The file that names the chip's blocks (instance names in the chip's description), some of
/// which are also leakage operations (`aes`, `hmac`, `kmac`), and its model variants.
const CHIP_BLOCKS: &str = "src/targets/variants.rs";

/// The leakage operations that are not software primitives.
const LEAK_OPERATIONS: [&str; 6] = ["compare-leaky", "compare-ct", "aes", "hmac", "kmac", "impl"];

fn names() -> Vec<&'static str> {
    let mut names: Vec<&str> = BenchmarkKind::ALL.iter().map(|k| k.name()).collect();
    names.extend(Primitive::ALL.iter().map(|p| p.name()));
    names.extend(LEAK_OPERATIONS);
    names.sort_unstable();
    names.dedup();
    names
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Every quoted occurrence of a name on a line: `"name"` as in code, JSON and raw strings,
/// and `\"name\"` inside an ordinary string.
fn quoted<'a>(line: &str, names: &[&'a str]) -> Vec<&'a str> {
    names
        .iter()
        .copied()
        .filter(|name| line.contains(&format!("\"{name}\"")) || line.contains(&format!("\\\"{name}\\\"")))
        .collect()
}

#[test]
fn no_kind_or_primitive_is_named_by_a_literal_outside_the_registration() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let names = names();
    let mut all = Vec::new();
    files(&root.join("src"), &mut all);
    all.sort();
    let mut found = Vec::new();
    let mut scanned = 0;
    for path in &all {
        let relative = path.strip_prefix(root).unwrap();
        if relative == Path::new(REGISTRATION) || relative == Path::new(CHIP_BLOCKS) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        scanned += 1;
        for (i, line) in text.lines().enumerate() {
            for name in quoted(line, &names) {
                found.push(format!("cli/{}:{}: \"{name}\"", relative.display(), i + 1));
            }
        }
    }
    assert!(scanned > 30, "only {scanned} files scanned under cli/src");
    assert!(
        found.is_empty(),
        "kind or primitive names as string literals (use the protocol's enums, or a fixture under cli/tests/fixtures/):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_finds_names_in_code_json_and_escaped_strings() {
    let names = names();
    assert!(names.contains(&"leakage") && names.contains(&"mp-karatsuba-reduced") && names.contains(&"kmac"));
    assert_eq!(quoted(r#"match b { "micro" => 1 }"#, &names), ["micro"]);
    assert_eq!(quoted(r##"r#"{"benchmark":"hash","x":1}"#"##, &names), ["hash"]);
    assert_eq!(quoted(r#"let s = "{\"chacha20\": 1}";"#, &names), ["chacha20"]);
    assert_eq!(quoted(r#""mp-add-reduced""#, &names), ["mp-add-reduced"]);
    assert!(quoted(r#"format!("software-mp-{family}") // the software view"#, &names).is_empty());
}
