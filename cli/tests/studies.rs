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

/// The document of the three studies over all six stored runs, written into `out` (plots in
/// `out/figures`).
fn render(out: &Path) -> String {
    let doc = out.join("reproduction.md");
    let mut args: Vec<String> = [
        "study",
        "render",
        "studies/thesis",
        "studies/rv32i-software",
        "studies/offload",
    ]
    .map(String::from)
    .to_vec();
    for (name, dir) in [
        ("unmasked", "unmasked"),
        ("masked", "masked"),
        ("ibex", "ibex"),
        ("ibex_zbb", "ibex-zbb"),
        ("ibex_one_instance", "ibex-one-instance"),
        ("offload", "offload"),
    ] {
        args.extend([
            String::from("--results"),
            format!("{name}=cli/tests/fixtures/studies/{dir}"),
        ]);
    }
    args.extend([String::from("--out"), doc.display().to_string()]);
    cyclebench_ok(&args);
    std::fs::read_to_string(doc).unwrap()
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

/// Asserts that `rendered` states what `expected` states, study by study.
fn assert_same_statements(expected: &str, rendered: &str) {
    let (expected, rendered) = (studies(expected), studies(rendered));
    let headings = |parts: &[(String, String)]| parts.iter().map(|(h, _)| h.clone()).collect::<Vec<_>>();
    assert_eq!(headings(rendered.as_slice()), headings(expected.as_slice()));
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
}

#[test]
fn the_rendered_document_states_the_stored_documents_numbers() {
    let expected = std::fs::read_to_string(fixtures().join("reproduction.md")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let rendered = render(out.path());
    assert_same_statements(&expected, &rendered);
    for plot in [
        "offload-overhead.svg",
        "offload-speedup.svg",
        "rv32i-software-fig1-mp-addition.svg",
        "rv32i-software-fig2-mp-multiplication.svg",
    ] {
        assert!(out.path().join("figures").join(plot).exists(), "{plot}");
    }
}

/// The text of the fenced block that follows `label` in `doc`.
fn block_after<'a>(doc: &'a str, label: &str) -> &'a str {
    let rest = &doc[doc.find(label).unwrap_or_else(|| panic!("no {label}")) + label.len()..];
    let start = rest.find("```").unwrap();
    let body = &rest[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    &body[..body.find("```").unwrap()]
}

#[test]
fn the_example_study_of_the_documentation_renders_over_a_qemu_virt_run() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/studies.md")).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let study = scratch.path().join("studies/my-sha256");
    std::fs::create_dir_all(&study).unwrap();
    for file in ["reference.toml", "study.md.j2"] {
        let text = block_after(&doc, &format!("`studies/my-sha256/{file}`:"));
        std::fs::write(study.join(file), text).unwrap();
    }
    let out = scratch.path().join("mine.md");
    cyclebench_ok(&[
        "study".into(),
        "render".into(),
        study.display().to_string(),
        "--results".into(),
        "mine=cli/tests/fixtures/qemu-virt".into(),
        "--out".into(),
        out.display().to_string(),
    ]);
    let rendered = std::fs::read_to_string(out).unwrap();
    // The fixture's SHA-256 of `msg-256`, API-conform: raw init 97, input 25790.
    assert!(rendered.contains("| Initialization | 21 | 97 | +362 % |"), "{rendered}");
    assert!(
        rendered.contains("| Input Data | 1694 | 25790 | +1422 % |"),
        "{rendered}"
    );
}

/// The message of a render that must fail.
fn failure(args: &[&str]) -> String {
    let o = cyclebench(args);
    assert!(!o.status.success(), "{}", text(&o));
    text(&o)
}

#[test]
fn a_missing_or_unread_results_name_and_an_unknown_study_are_named() {
    let offload = "offload=cli/tests/fixtures/studies/offload";
    let message = failure(&["study", "render", "studies/thesis", "--results", offload]);
    assert!(
        message.contains("--results offload: no study given reads results of that name"),
        "{message}"
    );
    let message = failure(&["study", "render", "studies/thesis"]);
    assert!(
        message.contains("needs the results named unmasked: pass --results unmasked=DIR"),
        "{message}"
    );
    let message = failure(&["study", "render", "studies/nothing-here", "--results", offload]);
    assert!(message.contains("no study at studies/nothing-here"), "{message}");
}

#[test]
fn figures_the_results_do_not_hold_are_marked_not_measured() {
    // The RV32I software study over a run of the offload jobs: no software record is there.
    let out = tempfile::tempdir().unwrap();
    let doc = out.path().join("doc.md");
    cyclebench_ok(&[
        "study".into(),
        "render".into(),
        "studies/rv32i-software".into(),
        "--results".into(),
        "ibex=cli/tests/fixtures/studies/offload".into(),
        "--out".into(),
        doc.display().to_string(),
    ]);
    let rendered = std::fs::read_to_string(doc).unwrap();
    assert!(
        rendered.contains("| ChaCha20, 4096 B | 114365 | 27.9 | 56934.4 | not run | not run |  |  |  |"),
        "{rendered}"
    );
    assert!(rendered.contains("(No ibex-sim-zbb results"), "{rendered}");
    assert!(
        rendered.contains("Nothing to compare: the runs hold none of the figures above."),
        "{rendered}"
    );
}

/// The OTBN document over its stored runs (`scripts/reproduce.sh otbn`: the chip model's, and
/// ibex-sim's when `with_ibex`).
fn render_otbn(out: &Path, with_ibex: bool) -> String {
    let doc = out.join("otbn.md");
    let mut args: Vec<String> = ["study", "render", "studies/otbn", "--results"]
        .map(String::from)
        .to_vec();
    args.push("otbn=cli/tests/fixtures/studies/otbn".into());
    if with_ibex {
        args.extend([
            "--results".into(),
            "otbn_ibex=cli/tests/fixtures/studies/otbn-ibex".into(),
        ]);
    }
    args.extend(["--out".into(), doc.display().to_string()]);
    cyclebench_ok(&args);
    std::fs::read_to_string(doc).unwrap()
}

#[test]
fn the_otbn_document_states_the_stored_documents_numbers() {
    let expected = std::fs::read_to_string(fixtures().join("reproduction-otbn.md")).unwrap();
    let out = tempfile::tempdir().unwrap();
    assert_same_statements(&expected, &render_otbn(out.path(), true));
}

#[test]
fn the_otbn_document_without_the_ibex_run_leaves_its_section_out_and_pairs_on_the_chip_only() {
    let out = tempfile::tempdir().unwrap();
    let rendered = render_otbn(out.path(), false);
    assert!(!rendered.contains("ibex-sim"), "{rendered}");
    // Every OTBN operation of the chip's run has its counterpart measured on the chip, but
    // RSA-2048 decryption, whose software is measured on ibex-sim only.
    let rows: Vec<&str> = rendered
        .lines()
        .filter(|l| l.starts_with("| ECDSA") || l.starts_with("| RSA"))
        .collect();
    assert_eq!(rows.len(), 9, "{rendered}");
    for row in &rows {
        let paired = row.trim_end_matches(" |").ends_with('×');
        assert_eq!(paired, !row.starts_with("| RSA-2048 decrypt"), "{row}");
    }
}
