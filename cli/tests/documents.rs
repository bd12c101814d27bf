//! What the documents may state, and how they name things.
//!
//! - Every measured speed or duration (simulated cycles per wall second, seconds or minutes of
//!   a run or a build) is stated once: in `docs/speed.md` or in the generated reproduction
//!   documents. Every other document links there. A setting in seconds (a time-out) is written
//!   as the flag in a code span (`--timeout 7200`), which this check leaves alone.
//! - The studies, sets and files are named after what they reproduce, and no document tells
//!   the story of its own writing.

use std::path::{Path, PathBuf};

/// Root of the repository.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ has a parent")
        .to_path_buf()
}

/// The documents a reader reads: the README, `docs/*.md` and the simulators' READMEs, as
/// (path from the root, text).
fn documents() -> Vec<(String, String)> {
    let root = repo();
    let mut paths = vec![
        PathBuf::from("README.md"),
        PathBuf::from("sim/earlgrey/README.md"),
        PathBuf::from("sim/ibex/README.md"),
    ];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| p.strip_prefix(&root).unwrap().to_path_buf())
        .collect();
    docs.sort();
    paths.extend(docs);
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(root.join(&p)).unwrap();
            (p.display().to_string(), text)
        })
        .collect()
}

/// Where measured speeds and durations live.
fn states_figures_of_speed(path: &str) -> bool {
    path == "docs/speed.md" || path.starts_with("docs/reproduction")
}

/// The prose of a Markdown line: without its code spans. `in_fence` follows fenced blocks,
/// whose lines have no prose.
fn prose(line: &str, in_fence: &mut bool) -> Option<String> {
    if line.trim_start().starts_with("```") {
        *in_fence = !*in_fence;
        return None;
    }
    if *in_fence {
        return None;
    }
    Some(line.split('`').step_by(2).collect::<Vec<_>>().join(" "))
}

/// Units of wall time, as they follow a number ("67 s", "12–15 minutes", "a 15-minute build").
const TIME_UNITS: [&str; 10] = [
    "s", "sec", "second", "seconds", "min", "minute", "minutes", "h", "hour", "hours",
];

/// Phrases of a rate in wall time, which a number before them makes a measured speed.
const RATES: [&str; 4] = ["per second", "per wall second", "/s", "per minute"];

/// Whether `c` can be part of a written number ("1,234.5", "12–15", "2-3").
fn in_number(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, ',' | '.' | '–' | '-')
}

/// The figures of wall time `text` states: a number followed by a unit of time, or a rate in
/// wall time with a number among the words just before it.
fn wall_time_figures(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(at, c)) in chars.iter().enumerate() {
        // The last digit of a number, then optional space or a hyphen, then a unit.
        if !c.is_ascii_digit() || chars.get(k + 1).is_some_and(|&(_, n)| n.is_ascii_digit()) {
            continue;
        }
        let after = &text[at + c.len_utf8()..];
        let unit_text = after
            .strip_prefix(' ')
            .or_else(|| after.strip_prefix('-'))
            .or_else(|| after.strip_prefix('\u{a0}'))
            .unwrap_or(after);
        let word: String = unit_text.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        // A one-letter unit stands apart from its number ("67 s"), not a plural ("SHA-256s").
        let apart = word.len() > 1 || unit_text.len() < after.len();
        if apart && TIME_UNITS.contains(&word.as_str()) {
            let start = chars[..k]
                .iter()
                .rev()
                .take_while(|&&(_, c)| in_number(c))
                .last()
                .map_or(at, |&(i, _)| i);
            found.push(format!(
                "{}{}",
                &text[start..=at],
                &after[..after.len() - unit_text.len() + word.len()]
            ));
        }
    }
    for rate in RATES {
        for (at, _) in text.match_indices(rate) {
            if text[at + rate.len()..].starts_with(|c: char| c.is_alphanumeric()) {
                continue;
            }
            // The six words before the rate.
            let before: Vec<&str> = text[..at].split_whitespace().rev().take(6).collect();
            if before.iter().any(|w| w.chars().any(|c| c.is_ascii_digit())) {
                let mut words = before.clone();
                words.reverse();
                found.push(format!("{} {rate}", words.join(" ")));
            }
        }
    }
    found
}

#[test]
fn a_figure_of_wall_time_is_recognised_and_a_setting_or_a_count_is_not() {
    for figure in [
        "the build takes 12–15 minutes on two cores",
        "a 12-15-minute build",
        "372 requests in 2.2 s wall",
        "each such line took 144 to 197 s",
        "about 24 thousand cycles per wall second",
        "3.52–3.85 M cycles/s",
        "21,300 per second",
        "90.9 benchmarks per minute",
        "2 h",
    ] {
        assert!(!wall_time_figures(figure).is_empty(), "{figure}");
    }
    for not_a_figure in [
        "16 stores, 4 sets",
        "a 64-bit counter and 12 hex digits",
        "measurements per second, measured",
        "the `--timeout 7200` of the OTBN sets",
        "7200-baud UART at about 700 CPU cycles per byte",
        "SHA-256 of 4 KiB",
        "two SHA-256s",
    ] {
        let text = prose(not_a_figure, &mut false).unwrap();
        assert_eq!(wall_time_figures(&text), Vec::<String>::new(), "{not_a_figure}");
    }
}

#[test]
fn speeds_and_durations_are_stated_only_in_the_speed_and_reproduction_documents() {
    let mut stated = Vec::new();
    for (path, text) in documents() {
        if states_figures_of_speed(&path) {
            continue;
        }
        let mut in_fence = false;
        for (n, line) in text.lines().enumerate() {
            let Some(prose) = prose(line, &mut in_fence) else {
                continue;
            };
            for figure in wall_time_figures(&prose) {
                stated.push(format!("{path}:{}: {figure}", n + 1));
            }
        }
    }
    assert!(
        stated.is_empty(),
        "figures of speed or wall time outside docs/speed.md and the reproduction documents \
         (state them there and link to them):\n{}",
        stated.join("\n")
    );
}

/// Where a name a reader does not know may hide: the documents, the studies (templates,
/// figures, paths), the benchmark sets (whose comments every `.out` file repeats) and the
/// reproduction script.
fn named_things() -> Vec<(String, String)> {
    let root = repo();
    let mut found = documents();
    for dir in ["studies", "benchmarks", "docs/figures"] {
        let mut stack = vec![root.join(dir)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                let name = p.strip_prefix(&root).unwrap().display().to_string();
                if p.is_dir() {
                    stack.push(p);
                    found.push((name.clone(), String::new()));
                } else {
                    let text = if name.ends_with(".svg") {
                        String::new()
                    } else {
                        std::fs::read_to_string(&p).unwrap()
                    };
                    found.push((name, text));
                }
            }
        }
    }
    found.push((
        "scripts/reproduce.sh".into(),
        std::fs::read_to_string(root.join("scripts/reproduce.sh")).unwrap(),
    ));
    found
}

/// "seed 2", "Seed 3's", "seed2", "seed-2": a label of a source document, not the seed of a
/// generator (`--fault-seed 2`, `"seed": 2`, "seed 0").
fn seed_labels(text: &str) -> Vec<String> {
    let lower = text.to_ascii_lowercase();
    let mut found = Vec::new();
    for (at, _) in lower.match_indices("seed") {
        let before = lower[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '-' | '_')) {
            continue;
        }
        let after = &lower[at + 4..];
        let number = after.strip_prefix([' ', '-']).unwrap_or(after);
        let digits = number.len() - number.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let label = matches!(&number[..digits], "1" | "2" | "3")
            || number.starts_with('n') && !number[1..].starts_with(char::is_alphabetic);
        if label {
            let end = at + 4 + (after.len() - number.len()) + digits.max(1);
            found.push(text[at..end].to_owned());
        }
    }
    found
}

/// Sentences about how or when a document was written, rather than about the project.
const HISTORY: [&str; 9] = [
    "no longer",
    "used to ",
    "previous recipe",
    "stood in",
    "project's machines",
    "the issue",
    "this issue",
    "until now",
    "earlier build",
];

#[test]
fn a_label_or_a_history_is_recognised_and_a_generator_seed_is_not() {
    for label in [
        "Seed 2's study",
        "seed 3, Table I",
        "studies/seed2/",
        "seed-2 sets",
        "seed N",
    ] {
        assert!(!seed_labels(label).is_empty(), "{label}");
    }
    for seed in [
        "--fault-seed 2",
        "\"seed\": 3",
        "seeds 1",
        "seed 7",
        "the seed never reaches",
        "reseed",
    ] {
        assert_eq!(seed_labels(seed), Vec::<String>::new(), "{seed}");
    }
}

#[test]
fn studies_sets_and_documents_use_names_a_reader_knows_and_tell_no_history() {
    let mut wrong = Vec::new();
    for (path, text) in named_things() {
        for label in seed_labels(&path) {
            wrong.push(format!("{path}: the path is labelled {label:?}"));
        }
        for (n, line) in text.lines().enumerate() {
            for label in seed_labels(line) {
                wrong.push(format!("{path}:{}: {label:?}", n + 1));
            }
            let lower = line.to_lowercase();
            for phrase in HISTORY {
                if lower.contains(phrase) {
                    wrong.push(format!("{path}:{}: {phrase:?}", n + 1));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "name studies after what they reproduce (the thesis, Stoffelen 2019, Musa et al. 2024) and \
         state what the project does, not how it came to:\n{}",
        wrong.join("\n")
    );
}
