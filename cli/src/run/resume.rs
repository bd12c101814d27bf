//! `run --resume DIR`: an interrupted or failed run continued in place.
//!
//! Nothing measured is overwritten before it is written again: a session moves the results
//! files it finds into `DIR/.earlier/<n>/` before it writes new ones in their place (every
//! known line first, in file order), and only a session that finishes removes `.earlier`. A
//! session killed in turn leaves its own files and the earlier ones, and the next reads all of
//! them, the newest answer of a line winning.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::meta::{Build, Meta};
use super::previous::{self, KnownFile};
use crate::bench_file::Line;
use crate::results::ResultsWriter;

/// Where earlier sessions' files are kept until a session finishes.
const EARLIER: &str = ".earlier";

/// Refuses to resume `dir` on another target, with other firmware or other input files.
pub fn check(dir: &Path, meta: &Meta, label: &str, revision: &str, inputs: &[String], files: &[PathBuf]) -> Result<()> {
    let dir = dir.display();
    if meta.target != label {
        bail!("{dir} was measured on {}, not {label}", meta.target);
    }
    if meta.firmware_revision != revision {
        bail!(
            "{dir} was measured with firmware revision {}, and this tree is revision {revision}: its records \
             and new ones would not be comparable (resume it from a checkout of {}, or start a new run)",
            meta.firmware_revision,
            meta.firmware_revision
        );
    }
    for ((file, now), then) in files.iter().zip(inputs).zip(&meta.inputs) {
        if now != then {
            bail!("{} has changed since {dir} measured it", file.display());
        }
    }
    Ok(())
}

/// Refuses to resume `dir`, measured on an image built as `before` says, on one built as `now`
/// says: other compilers, or another image, give other cycles. What one side does not know (a
/// run from before these facts, a board) is not held against the other.
pub fn same_build(dir: &Path, before: &Build, now: &Build) -> Result<()> {
    // The compilers name themselves in their versions; the digest needs saying what it is.
    let image = |digest: &Option<String>| digest.as_ref().map(|d| format!("the image of SHA-256 {d}"));
    let facts = [
        (before.rustc.clone(), now.rustc.clone()),
        (before.clang.clone(), now.clang.clone()),
        (image(&before.image_sha256), image(&now.image_sha256)),
    ];
    for (then, this) in facts {
        if let (Some(then), Some(this)) = (then, this) {
            if then != this {
                bail!(
                    "{} was measured with {then}, and this session has {this}: its records and new ones would \
                     not be comparable (resume it as it was built, or start a new run)",
                    dir.display()
                );
            }
        }
    }
    Ok(())
}

/// The results files of a run of `files` in a directory.
fn run_files(files: &[(PathBuf, Vec<Line>)]) -> Vec<String> {
    let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
    let mut names = vec![
        String::from("results.jsonl"),
        String::from("results.csv"),
        String::from(ResultsWriter::PENDING),
    ];
    names.extend(previous::out_names(&paths));
    names
}

/// Moves the results files of `dir` into `into` (made first as `<into>.partial`, so that a
/// move cut short is finished by the next session rather than splitting a session's files).
fn move_files(dir: &Path, names: &[String], partial: &Path, into: &Path) -> Result<()> {
    std::fs::create_dir_all(partial).with_context(|| format!("creating {}", partial.display()))?;
    for name in names {
        let from = dir.join(name);
        if from.exists() {
            std::fs::rename(&from, partial.join(name)).with_context(|| format!("moving {}", from.display()))?;
        }
    }
    std::fs::rename(partial, into).with_context(|| format!("moving {} to {}", partial.display(), into.display()))
}

/// Everything `dir` and its earlier sessions know of `files`, the newest answer of each line
/// winning; then moves `dir`'s results files aside so that the new session writes its own.
pub fn take_over(dir: &Path, files: &[(PathBuf, Vec<Line>)]) -> Result<Vec<KnownFile>> {
    let earlier = dir.join(EARLIER);
    let names = run_files(files);
    let mut generations: Vec<u32> = Vec::new();
    if earlier.is_dir() {
        for entry in std::fs::read_dir(&earlier).with_context(|| format!("reading {}", earlier.display()))? {
            let name = entry?.file_name().to_string_lossy().into_owned();
            if let Some(n) = name.strip_suffix(".partial").and_then(|n| n.parse::<u32>().ok()) {
                // A move an earlier session did not finish: the rest of its files are in `dir`.
                move_files(dir, &names, &earlier.join(&name), &earlier.join(n.to_string()))?;
                generations.push(n);
            } else if let Ok(n) = name.parse::<u32>() {
                generations.push(n);
            }
        }
    }
    generations.sort_unstable();
    generations.dedup();
    let mut sources: Vec<PathBuf> = generations.iter().map(|n| earlier.join(n.to_string())).collect();
    sources.push(dir.to_path_buf());
    let loaded: Vec<Vec<KnownFile>> = sources
        .iter()
        .map(|s| previous::load(s, files))
        .collect::<Result<_>>()?;
    let union = newest_first(files, loaded);
    let next = generations.last().map_or(1, |n| n + 1);
    move_files(
        dir,
        &names,
        &earlier.join(format!("{next}.partial")),
        &earlier.join(next.to_string()),
    )?;
    Ok(union)
}

/// Per line, the newest settled answer (else the newest of any); a file's closing line only
/// from the source every one of its chosen lines came from.
fn newest_first(files: &[(PathBuf, Vec<Line>)], loaded: Vec<Vec<KnownFile>>) -> Vec<KnownFile> {
    let mut union: Vec<KnownFile> = Vec::with_capacity(files.len());
    for (f, (_, lines)) in files.iter().enumerate() {
        let record_lines: Vec<&Line> = lines.iter().filter(|l| super::units::is_record_line(l)).collect();
        let mut chosen: Vec<Option<(usize, previous::Known)>> = record_lines.iter().map(|_| None).collect();
        for (source, known) in loaded.iter().enumerate() {
            let Some(file) = known.get(f) else { continue };
            for (r, k) in file.lines.iter().enumerate() {
                let Some(k) = k else { continue };
                let replace = match &chosen[r] {
                    None => true,
                    Some((_, old)) => k.settled(record_lines[r]) || !old.settled(record_lines[r]),
                };
                if replace {
                    chosen[r] = Some((source, k.clone()));
                }
            }
        }
        let done = loaded
            .iter()
            .enumerate()
            .rev()
            .find_map(|(source, known)| Some((source, known.get(f)?.done.clone()?)))
            .filter(|(source, _)| chosen.iter().flatten().all(|(s, _)| s == source))
            .map(|(_, line)| line);
        union.push(KnownFile {
            lines: chosen.into_iter().map(|c| c.map(|(_, k)| k)).collect(),
            done,
        });
    }
    union
}

/// Removes the earlier sessions' files once a session has finished: it wrote every line they
/// knew.
pub fn forget_earlier(dir: &Path) -> Result<()> {
    let earlier = dir.join(EARLIER);
    if earlier.exists() {
        std::fs::remove_dir_all(&earlier).with_context(|| format!("removing {}", earlier.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench_file::parse;
    use crate::run::previous::Known;

    fn known(attempts: Option<u32>, tag: i64) -> Option<Known> {
        let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
        let mut record = crate::results::parse(&format!(r#"{{"status":"ok","benchmark":"{kind}"}}"#)).unwrap();
        record.attempts = attempts;
        Some(Known {
            record,
            reply: serde_json::json!(tag),
        })
    }

    #[test]
    fn the_newest_answer_wins_and_a_closing_line_needs_its_own_lines() {
        let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
        let line = format!(r#"{{"{kind}": {{"algorithm": "sha2", "dataset": "abc"}}}}"#);
        let files = vec![(
            PathBuf::from("a.bench"),
            parse(format!("{line}\n{line}\n{line}\n").as_bytes()),
        )];
        let older = KnownFile {
            lines: vec![known(Some(1), 1), known(Some(1), 2), known(Some(1), 3)],
            done: Some(String::from("# done: 3 served, 0 errors")),
        };
        // The newer session re-measured the first line, and lost the link on the second.
        let newer = KnownFile {
            lines: vec![known(Some(1), 10), known(None, 20), None],
            done: None,
        };
        let union = newest_first(&files, vec![vec![older.clone()], vec![newer]]);
        let tags: Vec<i64> = union[0]
            .lines
            .iter()
            .map(|k| k.as_ref().unwrap().reply.as_i64().unwrap())
            .collect();
        assert_eq!(tags, [10, 2, 3]);
        // Its lines come from two sessions: the older closing line does not count them all.
        assert_eq!(union[0].done, None);
        let alone = newest_first(&files, vec![vec![older]]);
        assert_eq!(alone[0].done.as_deref(), Some("# done: 3 served, 0 errors"));
    }

    #[test]
    fn a_run_is_resumed_only_on_an_image_built_alike() {
        let build = |rustc: Option<&str>, image: Option<&str>| Build {
            rustc: rustc.map(str::to_owned),
            clang: Some(String::from("clang 14")),
            image_sha256: image.map(str::to_owned),
        };
        let dir = Path::new("results/r");
        let before = build(Some("rustc 1"), Some("aa"));
        assert!(same_build(dir, &before, &before).is_ok());
        // Not known on one side: a board, a run from before these facts, the image not started yet.
        assert!(same_build(dir, &before, &build(None, None)).is_ok());
        assert!(same_build(dir, &build(None, None), &before).is_ok());
        assert!(same_build(dir, &before, &build(Some("rustc 1"), None)).is_ok());
        let e = format!(
            "{:#}",
            same_build(dir, &before, &build(Some("rustc 2"), Some("aa"))).unwrap_err()
        );
        assert!(e.contains("with rustc 1, and this session has rustc 2"), "{e}");
        let e = format!(
            "{:#}",
            same_build(dir, &before, &build(Some("rustc 1"), Some("bb"))).unwrap_err()
        );
        assert!(
            e.contains("SHA-256 aa, and this session has the image of SHA-256 bb"),
            "{e}"
        );
    }
}
