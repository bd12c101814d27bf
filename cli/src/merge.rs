//! `cyclebench merge`: the results directories of the shards of one run (`run --shard I/N`)
//! put together into the directory one machine would have written, by the same writer.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::bench_file::Line;
use crate::run::{self, Closing, KnownFile, Meta, Planned, Shard, Todo, Writing};

/// Arguments of `cyclebench merge`.
#[derive(clap::Args)]
pub struct Args {
    /// Results directories of the shards (`cyclebench run --shard I/N`), in any order.
    #[arg(required = true)]
    shards: Vec<PathBuf>,
    /// Results directory to write; it must not hold results yet.
    #[arg(long)]
    out: PathBuf,
    /// Do not write report.md, report.html and plots/ into the results directory.
    #[arg(long)]
    no_report: bool,
}

/// A shard directory and its facts.
struct ShardDir {
    dir: PathBuf,
    meta: Meta,
}

/// Merges the shards; `Ok(false)` when any line failed.
pub fn run(args: Args) -> Result<bool> {
    let shards: Vec<ShardDir> = args
        .shards
        .iter()
        .map(|dir| Meta::read(dir).map(|meta| ShardDir { dir: dir.clone(), meta }))
        .collect::<Result<_>>()?;
    let count = consistent(&shards)?;
    let mut shards = shards;
    shards.sort_by_key(|s| s.meta.shard().index);
    let first = &shards[0].meta;
    run::distinct_files(&first.files)?;
    let files = run::read_files(&first.files, true)?;
    for (file, then) in first.files.iter().zip(&first.inputs) {
        if &run::meta::digest(file)? != then {
            bail!(
                "{} has changed since the shards measured it: its lines can no longer be laid out",
                file.display()
            );
        }
    }
    if args.out.join(run::meta::RUN_JSON).exists() || args.out.join("results.jsonl").exists() {
        bail!(
            "{} already holds results; merge into a new directory",
            args.out.display()
        );
    }

    let numbered = {
        let lines: Vec<&[Line]> = files.iter().map(|(_, l)| l.as_slice()).collect();
        run::units::number(&lines)
    };
    let mut known: Vec<KnownFile> = files
        .iter()
        .map(|(_, lines)| KnownFile {
            lines: lines
                .iter()
                .filter(|l| run::units::is_record_line(l))
                .map(|_| None)
                .collect(),
            done: None,
        })
        .collect();
    // Per file: the closing lines of the shards, by shard.
    let mut closings: Vec<Vec<Option<String>>> = files.iter().map(|_| Vec::new()).collect();
    for shard in shards.iter().filter(|s| s.meta.finished) {
        let own = shard.meta.shard();
        let loaded = run::previous::load(&shard.dir, &files)?;
        for (f, file) in loaded.into_iter().enumerate() {
            for (r, k) in file.lines.into_iter().enumerate() {
                if own.owns(numbered[f][r]) {
                    if let Some(k) = k {
                        known[f].lines[r] = Some(k);
                    }
                }
            }
            closings[f].push(file.done);
        }
    }
    missing(&shards, count, &files, &numbered, &known)?;

    let planned: Vec<Planned> = files
        .into_iter()
        .zip(known)
        .zip(closings)
        .map(|(((path, lines), k), closing)| Planned {
            path,
            lines,
            todo: k
                .lines
                .into_iter()
                .map(|k| Todo::Known(Box::new(k.expect("every line is known once none is missing"))))
                .collect(),
            closing: Closing::Known(summed(&closing)),
            model: None,
        })
        .collect();

    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let mut meta = first.clone();
    meta.shard = None;
    meta.started = shards.iter().map(|s| s.meta.started.clone()).min().unwrap_or_default();
    meta.hello = shards.iter().find_map(|s| s.meta.hello.clone());
    meta.instances = Some(shards.iter().filter_map(|s| s.meta.instances).sum());
    // The shards ran side by side: the run took as long as the longest.
    meta.wall_seconds = shards.iter().filter_map(|s| s.meta.wall_seconds).reduce(f64::max);
    meta.simulated_cycles = Some(shards.iter().filter_map(|s| s.meta.simulated_cycles).sum());
    meta.merged_from = shards.iter().map(|s| s.dir.clone()).collect();
    meta.finished = false;
    meta.write(&args.out)?;
    let (label, revision, hello) = (meta.target.clone(), meta.firmware_revision.clone(), meta.hello.clone());
    let writing = Writing {
        out_dir: &args.out,
        label: &label,
        revision: &revision,
        symbols: None,
        hello: hello.as_ref(),
        implementations: &[],
        // Known records carry their own padding and build; a merge measures nothing.
        layout_pad: 0,
        build: &run::meta::Build::default(),
        placements: &run::Measured::default(),
    };
    let written = run::write_files(&writing, &planned, None)?;
    eprintln!(
        "merged {} shard(s) of {count}: {} records",
        shards.len(),
        written.all.len()
    );
    run::conclude(&args.out, &mut meta, &written.all, args.no_report)
}

/// Checks that the shards are parts of one run: same target, firmware, build, files and number of
/// parts, each part once. Returns the number of parts.
fn consistent(shards: &[ShardDir]) -> Result<usize> {
    let first = &shards[0];
    let f = first.dir.display();
    for s in &shards[1..] {
        let d = s.dir.display();
        let (a, b) = (&first.meta, &s.meta);
        if a.target != b.target {
            bail!(
                "{d} was measured on {}, {f} on {}: shards of different targets",
                b.target,
                a.target
            );
        }
        if a.firmware_revision != b.firmware_revision {
            bail!(
                "{d} was measured with firmware revision {}, {f} with {}: shards of different firmware",
                b.firmware_revision,
                a.firmware_revision
            );
        }
        if a.build != b.build {
            bail!(
                "{d} was measured on an image built as {}, {f} on one built as {}: shards of different builds",
                b.build,
                a.build
            );
        }
        if a.files != b.files || a.inputs != b.inputs {
            bail!("{d} and {f} are runs of different input files (or of different contents of them)");
        }
        if a.shard().count != b.shard().count {
            bail!(
                "{d} is shard {} and {f} shard {}: parts of runs cut differently",
                b.shard(),
                a.shard()
            );
        }
    }
    for (i, s) in shards.iter().enumerate() {
        if let Some(twin) = shards[..i].iter().find(|t| t.meta.shard() == s.meta.shard()) {
            bail!(
                "{} and {} are both shard {}",
                twin.dir.display(),
                s.dir.display(),
                s.meta.shard()
            );
        }
    }
    Ok(first.meta.shard().count)
}

/// Fails saying, per shard, how many requests of each file no finished shard measured, and
/// the command that measures them: a count, not a list, since a lost shard of a large set
/// lacks hundreds.
fn missing(
    shards: &[ShardDir],
    count: usize,
    files: &[(PathBuf, Vec<Line>)],
    numbered: &[Vec<usize>],
    known: &[KnownFile],
) -> Result<()> {
    // Owner shard → file index → requests missing.
    let mut lost: BTreeMap<usize, BTreeMap<usize, usize>> = BTreeMap::new();
    for (f, ((lines, units), k)) in files.iter().map(|(_, l)| l).zip(numbered).zip(known).enumerate() {
        let record_lines = lines.iter().filter(|l| run::units::is_record_line(l));
        for ((_, unit), k) in record_lines.zip(units).zip(&k.lines) {
            if k.is_none() {
                *lost
                    .entry(Shard::of(*unit, count).index)
                    .or_default()
                    .entry(f)
                    .or_default() += 1;
            }
        }
    }
    if lost.is_empty() {
        return Ok(());
    }
    let total: usize = lost.values().flat_map(BTreeMap::values).sum();
    let meta = &shards[0].meta;
    let mut text = format!(
        "the shards do not cover the run: {total} {} of {} {} missing",
        plural(total, "request"),
        lost.len(),
        plural(lost.len(), "shard")
    );
    for (index, per_file) in lost {
        let shard = Shard { index, count };
        let requests: usize = per_file.values().sum();
        let counts: Vec<String> = per_file
            .iter()
            .map(|(&f, n)| format!("{n} of {}", files[f].0.display()))
            .collect();
        let command = match shards.iter().find(|s| s.meta.shard() == shard) {
            Some(s) => format!(
                "{} is unfinished; continue it with: cyclebench run --resume {}",
                s.dir.display(),
                s.dir.display()
            ),
            None => format!(
                "no directory of it was given; run it with: {}",
                shard_command(meta, shard, &sibling(shards, index))
            ),
        };
        text.push_str(&format!(
            "\n  shard {shard}: {requests} {} ({}); {command}",
            plural(requests, "request"),
            counts.join(", ")
        ));
    }
    bail!(text)
}

/// `word`, with an `s` unless there is one.
fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_owned()
    } else {
        format!("{word}s")
    }
}

/// The `cyclebench run` command of one shard of the run `meta` describes.
pub fn shard_command(meta: &Meta, shard: Shard, out: &Path) -> String {
    let mut command = match meta.target.strip_prefix("serial:") {
        Some(port) => format!("cyclebench run --port {port}"),
        None => format!("cyclebench run --target {}", meta.target),
    };
    if let Some(link) = &meta.link {
        command.push_str(&format!(" --link {link}"));
    }
    command.push_str(&format!(" --shard {shard} --out {}", out.display()));
    for file in &meta.files {
        command.push_str(&format!(" {}", file.display()));
    }
    command
}

/// Where shard `index` would go beside the given ones: their directory names with the index
/// of the first replaced (`shards/0` → `shards/2`), else `shard-<index>` beside it.
fn sibling(shards: &[ShardDir], index: usize) -> PathBuf {
    let first = &shards[0];
    let own = first.meta.shard().index.to_string();
    let parent = first.dir.parent().unwrap_or(Path::new("."));
    let name = first
        .dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match name.rfind(&own) {
        Some(at) => parent.join(format!("{}{index}{}", &name[..at], &name[at + own.len()..])),
        None => parent.join(format!("shard-{index}")),
    }
}

/// The closing line of a file from its shards' closing lines: the counts summed (each shard's
/// instances served their part of the file), or the first that reports a failure; none when a
/// shard has none.
fn summed(closings: &[Option<String>]) -> Option<String> {
    let mut served = 0;
    let mut errors = 0;
    for closing in closings {
        let line = closing.as_ref()?;
        match run::previous::done_counts(line) {
            Some((s, e)) => {
                served += s;
                errors += e;
            }
            None => return Some(line.clone()),
        }
    }
    Some(format!(
        "{}{served} served, {errors} errors",
        run::previous::DONE_PREFIX
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closing_lines_add_up_and_a_failure_or_a_gap_shows() {
        let line = |s: &str| Some(String::from(s));
        assert_eq!(
            summed(&[line("# done: 3 served, 0 errors"), line("# done: 4 served, 1 errors")]).as_deref(),
            Some("# done: 7 served, 1 errors")
        );
        assert_eq!(
            summed(&[line("# done: 3 served, 0 errors"), line("# done: link lost")]).as_deref(),
            Some("# done: link lost")
        );
        assert_eq!(summed(&[line("# done: 3 served, 0 errors"), None]), None);
    }

    #[test]
    fn a_missing_shard_is_named_with_its_command() {
        let meta: Meta = serde_json::from_value(serde_json::json!({
            "target": "qemu-virt", "files": ["a.bench", "b.bench"], "inputs": ["x", "y"],
            "shard": {"index": 0, "count": 3}
        }))
        .unwrap();
        let shards = [ShardDir {
            dir: PathBuf::from("out/shards/0"),
            meta: meta.clone(),
        }];
        assert_eq!(sibling(&shards, 2), PathBuf::from("out/shards/2"));
        assert_eq!(
            shard_command(&meta, Shard { index: 2, count: 3 }, &sibling(&shards, 2)),
            "cyclebench run --target qemu-virt --shard 2/3 --out out/shards/2 a.bench b.bench"
        );
    }

    #[test]
    fn shards_built_by_other_compilers_are_not_merged() {
        let shard = |index: usize, rustc: &str| {
            let mut meta: Meta = serde_json::from_value(serde_json::json!({
                "target": "ibex-sim", "files": ["a.bench"], "inputs": ["x"],
                "shard": {"index": index, "count": 2}, "rustc": rustc
            }))
            .unwrap();
            meta.build.image_sha256 = Some(String::from("ab"));
            ShardDir {
                dir: PathBuf::from(format!("out/shards/{index}")),
                meta,
            }
        };
        assert_eq!(consistent(&[shard(0, "rustc 1"), shard(1, "rustc 1")]).unwrap(), 2);
        let e = format!(
            "{:#}",
            consistent(&[shard(0, "rustc 1"), shard(1, "rustc 2")]).unwrap_err()
        );
        assert!(e.contains("shards of different builds") && e.contains("rustc 2"), "{e}");
    }
}
