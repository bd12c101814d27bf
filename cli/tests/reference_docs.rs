//! The reference documents held to the tool. `docs/cli.md` must be what `cyclebench reference
//! cli` renders; `docs/bench-format.md` and `docs/results-format.md` are written by hand and
//! must name everything `cyclebench reference bench-format` and `cyclebench reference
//! results-format` list: what the parser accepts and what the writer writes, from the tool's
//! own definitions. The gate's output that `docs/ci.md` shows is what the tool prints for the
//! runs of `cli/tests/fixtures/gate/`.

mod common;

use std::collections::BTreeSet;

use common::{cyclebench, repo, text};
use serde_json::Value;

/// What `cyclebench reference <document>` prints, which must succeed.
fn reference(document: &str) -> String {
    let out = cyclebench(&["reference", document]);
    assert!(out.status.success(), "cyclebench reference {document}: {}", text(&out));
    String::from_utf8(out.stdout).expect("the reference is UTF-8")
}

/// What `cyclebench reference <document>` prints as JSON.
fn listed(document: &str) -> Value {
    let printed = reference(document);
    serde_json::from_str(&printed).unwrap_or_else(|e| panic!("cyclebench reference {document}: {e}: {printed}"))
}

/// The strings of a JSON array.
fn strings(value: &Value) -> Vec<&str> {
    let array = value.as_array().unwrap_or_else(|| panic!("not an array: {value}"));
    array
        .iter()
        .map(|v| v.as_str().unwrap_or_else(|| panic!("not a string: {v}")))
        .collect()
}

/// A number of the JSON output.
fn number(value: &Value) -> u64 {
    value.as_u64().unwrap_or_else(|| panic!("not a number: {value}"))
}

/// A Markdown document of `docs/`, read from the checkout: its sections, and the names it
/// mentions as code (`` `name` ``).
struct Document {
    /// Its path, relative to the repository, for messages.
    path: &'static str,
    text: String,
}

impl Document {
    /// Reads `path` (relative to the repository).
    fn read(path: &'static str) -> Self {
        let full = repo().join(path);
        let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
        Self { path, text }
    }

    /// The text under the `## ` heading `title`, up to the next `## ` heading.
    fn section(&self, title: &str) -> Option<&str> {
        let heading = format!("## {title}\n");
        let start = self.text.find(&heading)? + heading.len();
        let rest = &self.text[start..];
        Some(rest.find("\n## ").map_or(rest, |end| &rest[..end]))
    }

    /// The whole text.
    fn text(&self) -> &str {
        &self.text
    }
}

/// Of `names`, those `text` does not mention as code, `` `name` ``.
fn unmentioned<'a>(text: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    names
        .into_iter()
        .filter(|name| !text.contains(&format!("`{name}`")))
        .collect()
}

#[test]
fn a_section_ends_at_the_next_heading_and_names_count_as_code_only() {
    let doc = Document {
        path: "x.md",
        text: String::from("# T\n\n## `a`\n\n`x` and y\n\n## `b`\n\n`y`\n"),
    };
    let a = doc.section("`a`").unwrap();
    assert_eq!(unmentioned(a, ["x", "y"]), ["y"]);
    assert_eq!(unmentioned(doc.section("`b`").unwrap(), ["x", "y"]), ["x"]);
    assert!(doc.section("`c`").is_none());
}

// docs/cli.md

/// The file the rendering is kept in, relative to the repository.
const CLI: &str = "docs/cli.md";

#[test]
fn docs_cli_md_is_what_the_tool_renders() {
    let written = std::fs::read_to_string(repo().join(CLI)).unwrap_or_default();
    let rendered = reference("cli");
    if written != rendered {
        let line = written
            .lines()
            .zip(rendered.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| written.lines().count().min(rendered.lines().count()))
            + 1;
        panic!(
            "{CLI} differs from what the tool renders (first at line {line}); regenerate it with \
             `cyclebench reference cli > {CLI}` (or `cargo run -p cyclebench -- reference cli > {CLI}`)"
        );
    }
}

// docs/bench-format.md

const BENCH_FORMAT: &str = "docs/bench-format.md";

#[test]
fn every_kind_option_and_listed_value_is_in_the_document() {
    let doc = Document::read(BENCH_FORMAT);
    let names = listed("bench-format");
    let kinds = names["kinds"].as_array().expect("kinds");
    let all: Vec<&str> = cyclebench_protocol::BenchmarkKind::ALL
        .iter()
        .map(|k| k.name())
        .collect();
    assert_eq!(
        kinds
            .iter()
            .map(|k| k["name"].as_str().unwrap_or_default())
            .collect::<Vec<_>>(),
        all,
        "the tool lists other kinds than the protocol has"
    );
    let mut gaps = Vec::new();
    for kind in kinds {
        let title = format!("`{}`", kind["name"].as_str().expect("a kind's name"));
        let Some(section) = doc.section(&title) else {
            gaps.push(format!("no section \"## {title}\""));
            continue;
        };
        let options = strings(&kind["options"]);
        for option in unmentioned(section, options.iter().copied()) {
            gaps.push(format!("{title}: option `{option}`"));
        }
        for listed in kind["listed"].as_array().expect("listed values") {
            let option = listed["option"].as_str().expect("an option");
            assert!(options.contains(&option), "{title} has no option {option}");
            for value in unmentioned(section, strings(&listed["values"])) {
                gaps.push(format!("{title}: value `{value}` of `{option}`"));
            }
        }
    }
    assert!(
        gaps.is_empty(),
        "{} lacks what the tool accepts:\n  {}",
        doc.path,
        gaps.join("\n  ")
    );
}

#[test]
fn every_form_of_line_and_its_limits_are_in_the_document() {
    let doc = Document::read(BENCH_FORMAT);
    let names = listed("bench-format");
    let missing = unmentioned(doc.text(), strings(&names["forms"]));
    assert!(missing.is_empty(), "{} does not name {missing:?}", doc.path);
    let limits = &names["limits"];
    let placements = limits["placements_field"].as_str().expect("the placements field");
    // Sentences wrap: a limit is looked for in the text as one line.
    let flowing = doc.text().replace('\n', " ");
    for limit in [
        format!("at most {} requests", number(&limits["sweep_requests_without_yes"])),
        format!("1 to {}", number(&limits["max_repetitions"])),
        format!("`\"{placements}\": N` (1 to {})", number(&limits["max_placements"])),
    ] {
        assert!(flowing.contains(&limit), "{} does not state {limit:?}", doc.path);
    }
}

// docs/results-format.md

const RESULTS_FORMAT: &str = "docs/results-format.md";

#[test]
fn every_record_field_and_value_is_in_the_document() {
    let doc = Document::read(RESULTS_FORMAT);
    let names = listed("results-format");
    let kinds: BTreeSet<&str> = strings(&names["kinds"]).into_iter().collect();
    assert_eq!(
        kinds.len(),
        cyclebench_protocol::BenchmarkKind::ALL.len(),
        "the shipped sets and examples no longer hold every kind: {kinds:?}"
    );
    let fields = strings(&names["record_fields"]);
    assert!(fields.len() > 80, "only {} fields: {fields:?}", fields.len());
    let values = strings(&names["values"]);
    assert!(!values.is_empty(), "no listed values");
    let missing = unmentioned(doc.text(), fields.into_iter().chain(values));
    assert!(missing.is_empty(), "{} does not name {missing:?}", doc.path);
}

#[test]
fn every_csv_column_is_in_the_document() {
    let doc = Document::read(RESULTS_FORMAT);
    let names = listed("results-format");
    let columns = strings(&names["csv_columns"]);
    assert!(!columns.is_empty(), "no columns");
    let section = doc.section("`results.csv`").expect("a section on results.csv");
    let missing = unmentioned(section, columns);
    assert!(missing.is_empty(), "{} does not name the columns {missing:?}", doc.path);
}

#[test]
fn every_field_of_run_json_is_in_the_document() {
    let doc = Document::read(RESULTS_FORMAT);
    let names = listed("results-format");
    let fields = strings(&names["run_json_fields"]);
    assert!(!fields.is_empty(), "no fields");
    let section = doc.section("`run.json`").expect("a section on run.json");
    let missing = unmentioned(section, fields);
    assert!(missing.is_empty(), "{} does not name {missing:?} of run.json", doc.path);
}

// docs/implementations.md

#[test]
fn docs_implementations_md_states_the_default_timeouts_the_tool_applies() {
    let help = cyclebench(&["run", "--help"]);
    assert!(help.status.success(), "{}", text(&help));
    let help = String::from_utf8(help.stdout).expect("the help is UTF-8");
    // The request timeout's paragraph, then its default, as clap renders it.
    let after = help
        .split("Seconds to wait for the reply to one request")
        .nth(1)
        .expect("the --timeout help");
    let defaults = after
        .split("[default: ")
        .nth(1)
        .and_then(|d| d.split(']').next())
        .expect("the --timeout default");
    let defaults = defaults.split_whitespace().collect::<Vec<_>>().join(" ");
    let doc = std::fs::read_to_string(repo().join("docs/implementations.md")).unwrap();
    let doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        doc.contains(&format!("in seconds, is {defaults}")),
        "docs/implementations.md must state the default timeouts as the tool applies them: {defaults}"
    );
}

// docs/ci.md

const CI: &str = "docs/ci.md";

/// The comment in `docs/ci.md` right before the example of the gate's output; it names the
/// command that prints the block.
const GATE_EXAMPLE: &str = "<!-- What `cyclebench compare cli/tests/fixtures/gate/base";

/// The fenced block that follows the line of `text` starting with `marker`, with a newline
/// after each of its lines, as a program prints them.
fn block_after(text: &str, marker: &str) -> Option<String> {
    let start = text.lines().position(|l| l.starts_with(marker))?;
    let mut lines = text.lines().skip(start).skip_while(|l| !l.starts_with("```"));
    lines.next()?;
    let block: Vec<&str> = lines.take_while(|l| !l.starts_with("```")).collect();
    Some(block.iter().map(|l| format!("{l}\n")).collect())
}

#[test]
fn a_block_is_read_after_its_marker() {
    let text = "a\n<!-- marker -->\n```\nx: 1\ny\n```\n```\nz\n```\n";
    assert_eq!(block_after(text, "<!-- marker").as_deref(), Some("x: 1\ny\n"));
    assert_eq!(block_after(text, "<!-- other"), None);
}

#[test]
fn the_gate_output_in_docs_ci_md_is_what_the_tool_prints() {
    let doc = Document::read(CI);
    let shown = block_after(doc.text(), GATE_EXAMPLE)
        .unwrap_or_else(|| panic!("{} has no block after a line starting {GATE_EXAMPLE:?}", doc.path));
    let (base, new) = ("cli/tests/fixtures/gate/base", "cli/tests/fixtures/gate/new");
    let out = cyclebench(&["compare", base, new, "--fail-above", "0"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    // The gate names benchmarks by file name; should a line ever name a directory, it is
    // named as the comment names it, whatever the checkout's place.
    let root = format!("{}/", repo().display());
    let printed = String::from_utf8(out.stderr).expect("UTF-8").replace(&root, "");
    assert_eq!(
        shown, printed,
        "{}: the example of the gate's output differs from what `cyclebench compare {base} {new} \
         --fail-above 0` prints on stderr; copy that into the block",
        doc.path
    );
}
