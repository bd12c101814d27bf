//! `docs/extending.md` names the files an addition touches: every concrete path it names from
//! the repository root (not the `<placeholder>` ones) must exist, so a moved or renamed file
//! shows up here.

use std::path::{Path, PathBuf};

/// Root of the repository, where the document's paths start.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ has a parent")
        .to_path_buf()
}

#[test]
fn every_path_named_in_extending_md_exists() {
    let doc = std::fs::read_to_string(repo().join("docs/extending.md")).unwrap();
    let mut checked = 0;
    let mut missing = Vec::new();
    for (i, span) in doc.split('`').enumerate() {
        // Odd pieces are inside backticks.
        let looks_like_path = i % 2 == 1
            && span.contains('/')
            && !span.contains(['<', '*', ' ', '(', ':'])
            && !span.starts_with('-')
            // Paths from the repository root; `regs/` and the like are named relative to one.
            && span.split('/').next().is_some_and(|top| !top.is_empty() && repo().join(top).is_dir());
        if !looks_like_path {
            continue;
        }
        checked += 1;
        if !repo().join(span.trim_end_matches('/')).exists() {
            missing.push(span.to_owned());
        }
    }
    assert!(checked > 20, "only {checked} paths found: is the pattern still right?");
    assert!(missing.is_empty(), "docs/extending.md names missing paths: {missing:?}");
}
