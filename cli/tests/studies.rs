//! The reproduction document rendered from stored results carries the numbers of the stored
//! document rendered from the same results (`fixtures/studies/reproduction.md`): every number,
//! in order, and every mark of a figure that is not there ("not run", "—", errors). Prose may
//! be worded differently; what it states may not change.

mod common;

use std::path::{Path, PathBuf};

use common::{cyclebench, text};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/studies")
}

/// Runs cyclebench with `args`, which must succeed.
fn cyclebench_ok(args: &[String]) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = cyclebench(&args);
    assert!(o.status.success(), "{}", text(&o));
}

/// The document of all six stored runs, written into `out` (plots in `out/figures`): the
/// studies rendered from their files, the others by `cyclebench reproduction`.
fn render(out: &Path) -> String {
    let runs = |name: &str| format!("cli/tests/fixtures/studies/{name}");
    let old = out.join("old.md");
    let mut args: Vec<String> = vec!["reproduction".into()];
    for (flag, name) in [
        ("--unmasked", "unmasked"),
        ("--masked", "masked"),
        ("--ibex", "ibex"),
        ("--ibex-zbb", "ibex-zbb"),
        ("--ibex-one-instance", "ibex-one-instance"),
    ] {
        args.extend([flag.to_owned(), runs(name)]);
    }
    args.extend(["--out".to_owned(), old.display().to_string()]);
    cyclebench_ok(&args);
    let doc = out.join("reproduction.md");
    cyclebench_ok(&[
        "study".into(),
        "render".into(),
        "studies/offload".into(),
        "--results".into(),
        format!("offload={}", runs("offload")),
        "--out".into(),
        doc.display().to_string(),
    ]);
    let new = std::fs::read_to_string(&doc).unwrap();
    let old = std::fs::read_to_string(&old).unwrap();
    let studies = &new[new.find("## ").unwrap()..];
    format!(
        "{}
{studies}",
        old.trim_end()
    )
}

/// What a document states, in order: each number as printed and each mark of a missing
/// figure, one token each.
fn statements(doc: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in doc.lines() {
        let mut rest = line;
        while !rest.is_empty() {
            if let Some(after) = ["not run", "not measured", "—", "error:"]
                .iter()
                .find_map(|mark| rest.strip_prefix(mark).map(|after| (mark, after)))
            {
                found.push((*after.0).to_owned());
                rest = after.1;
                continue;
            }
            let c = rest.chars().next().unwrap();
            if c.is_ascii_digit() {
                let end = rest
                    .char_indices()
                    .find(|&(i, d)| {
                        !(d.is_ascii_digit() || d == '.' && rest[i + 1..].starts_with(|n: char| n.is_ascii_digit()))
                    })
                    .map_or(rest.len(), |(i, _)| i);
                found.push(rest[..end].to_owned());
                rest = &rest[end..];
            } else {
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    found
}

/// The document cut at its `## ` headings: each study's part, its heading first.
fn studies(doc: &str) -> Vec<(String, String)> {
    let mut parts: Vec<(String, String)> = Vec::new();
    for line in doc.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            parts.push((heading.to_owned(), String::new()));
        } else if let Some((_, body)) = parts.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    parts
}

#[test]
fn the_statements_are_told_apart_from_labels_and_prose() {
    assert_eq!(
        statements("| 1024 | paper | 7.1 % | not run | — | error: x | 2^28 |\nIt took 3.5."),
        ["1024", "7.1", "not run", "—", "error:", "2", "28", "3.5"]
    );
}

#[test]
fn the_rendered_document_states_the_stored_documents_numbers() {
    let expected = std::fs::read_to_string(fixtures().join("reproduction.md")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let rendered = render(out.path());
    let (expected, rendered) = (studies(&expected), studies(&rendered));
    let headings = |parts: &[(String, String)]| parts.iter().map(|(h, _)| h.clone()).collect::<Vec<_>>();
    assert_eq!(headings(&rendered), headings(&expected));
    for ((heading, want), (_, got)) in expected.iter().zip(&rendered) {
        let (want, got) = (statements(want), statements(got));
        if let Some(at) = want.iter().zip(&got).position(|(a, b)| a != b) {
            panic!(
                "{heading}: statement {at} is {:?}, the stored document's {:?}\nstored: {:?}\nrendered: {:?}",
                got[at],
                want[at],
                &want[at.saturating_sub(5)..(at + 5).min(want.len())],
                &got[at.saturating_sub(5)..(at + 5).min(got.len())]
            );
        }
        assert_eq!(got.len(), want.len(), "{heading}: number of statements");
    }
    for plot in ["offload-overhead.svg", "offload-speedup.svg"] {
        assert!(out.path().join("figures").join(plot).exists(), "{plot}");
    }
}
