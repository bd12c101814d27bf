//! `"placements": N` on a benchmark line: the line is measured again with the measured code at
//! N placements in flash, and its record carries every placement's cycles with their spread.
//! Each placement is an image of its own (the measured block moved as a whole, by a multiple
//! of [`PLACEMENT_STEP`] bytes past its boundary), started as one instance. The placements are
//! planned with the run's other lines and measured before them, each result kept in
//! [`LOG`] as it arrives (a resumed run measures only what is missing), so that a line's record
//! is written once, complete; the default placement's cycles are the record's own.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use cyclebench_protocol::Request;
use serde::{Deserialize, Serialize};

use super::config::{ImageSource, RunConfig};
use super::image;
use super::plan::{Planned, Todo};
use super::units;
use crate::bench_file::{Action, Line};
use crate::firmware::layout::{Layout, PLACEMENT_STEP};
use crate::results::{PlacedField, Placements, Record, RecordContext, Status};
use crate::session::Session;
use crate::signals;

/// The file in a results directory that holds every placement measured so far, one JSON
/// object a line; removed when the run finishes, its contents then in the records.
pub(crate) const LOG: &str = "placements.jsonl";

/// A line of a file, as the log and the records name it: file as given, line number, and the
/// line's text (a swept line's requests share a number).
type LineKey = (String, usize, String);

/// A line that asks for placements, and its request.
pub(crate) struct Wanted {
    key: LineKey,
    request: Request,
    /// Placements asked for, the default one included.
    count: u32,
}

/// The lines of `files` this session sends that ask for more than the default placement.
pub(crate) fn plan(files: &[Planned]) -> Vec<Wanted> {
    let mut wanted = Vec::new();
    for file in files {
        let record_lines = file.lines.iter().filter(|l| units::is_record_line(l));
        for (line, todo) in record_lines.zip(&file.todo) {
            if let (
                Line::Action {
                    number,
                    text,
                    action: Action::Request(request @ Request::Benchmark(_)),
                    placements,
                    ..
                },
                Todo::Send,
            ) = (line, todo)
            {
                if *placements > 1 {
                    wanted.push(Wanted {
                        key: (file.path.display().to_string(), *number, text.clone()),
                        request: request.clone(),
                        count: *placements,
                    });
                }
            }
        }
    }
    wanted
}

/// One placement's measurement of one line, as [`LOG`] holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Entry {
    file: String,
    line: usize,
    text: String,
    /// Bytes past the block's boundary.
    offset: u32,
    /// The numbers a placement can compare (see [`PlacedField`]).
    total_cycles: Option<u64>,
    software_cycles: Option<u64>,
    /// Why there is no number.
    error: Option<String>,
}

impl Entry {
    fn key(&self) -> LineKey {
        (self.file.clone(), self.line, self.text.clone())
    }

    fn cycles(&self, field: PlacedField) -> Option<u64> {
        match field {
            PlacedField::TotalCycles => self.total_cycles,
            PlacedField::SoftwareCycles => self.software_cycles,
        }
    }
}

/// What the placements gave, per line that asked for them.
#[derive(Default)]
pub(crate) struct Measured {
    /// Per line: the placements it asked for, and the entries measured.
    lines: HashMap<LineKey, (u32, Vec<Entry>)>,
    /// Why no placement could be measured at all (a board, a given ELF, a target without the
    /// measured block).
    refused: Option<String>,
}

impl Measured {
    /// Writes the placements of the line `file:number` (`text`) into its record, when the
    /// line asked for them and the record is a measurement.
    pub fn complete(&self, file: &str, number: usize, text: &str, record: &mut Record) {
        let Some((count, entries)) = self.lines.get(&(file.to_owned(), number, text.to_owned())) else {
            return;
        };
        if record.status != Status::Ok || !record.is_measurement() {
            return;
        }
        let field = PlacedField::of(record);
        let mut cycles = vec![field.cycles(record)];
        let mut errors = Vec::new();
        if let Some(why) = &self.refused {
            cycles.extend((1..*count).map(|_| None));
            errors.push(format!("not measured: {why}"));
        } else {
            for k in 1..*count {
                let offset = k * PLACEMENT_STEP;
                let entry = entries.iter().rev().find(|e| e.offset == offset);
                cycles.push(entry.and_then(|e| e.cycles(field)));
                match entry {
                    Some(Entry { error: Some(e), .. }) => errors.push(format!("+{offset} B: {e}")),
                    Some(_) => {}
                    None => errors.push(format!("+{offset} B: not measured")),
                }
            }
        }
        Placements::new(field, PLACEMENT_STEP, cycles, errors).insert_into(record);
    }
}

/// Measures `wanted` at every placement but the default, each placement one image started
/// once; what an earlier session of the run logged in `out_dir` is kept, not measured again.
pub(crate) fn measure(
    config: &RunConfig,
    files: &[(PathBuf, Vec<Line>)],
    wanted: Vec<Wanted>,
    out_dir: &Path,
) -> Result<Measured> {
    let mut measured = Measured::default();
    if wanted.is_empty() {
        return Ok(measured);
    }
    let earlier = read_log(&out_dir.join(LOG))?;
    for w in &wanted {
        let entries = earlier
            .iter()
            .filter(|e| e.key() == w.key && e.error.is_none())
            .cloned()
            .collect();
        measured.lines.insert(w.key.clone(), (w.count, entries));
    }
    if let Err(why) = allowed(config) {
        measured.refused = Some(format!("{why:#}"));
        return Ok(measured);
    }
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out_dir.join(LOG))
        .with_context(|| format!("opening {}", out_dir.join(LOG).display()))?;
    let most = wanted.iter().map(|w| w.count).max().unwrap_or(1);
    for k in 1..most {
        if signals::interrupted() {
            break;
        }
        let offset = k * PLACEMENT_STEP;
        let todo: Vec<&Wanted> = wanted
            .iter()
            .filter(|w| w.count > k && !measured.lines[&w.key].1.iter().any(|e| e.offset == offset))
            .collect();
        if todo.is_empty() {
            continue;
        }
        eprintln!("placement +{offset} B ({} of {most}): {} request(s)", k + 1, todo.len());
        let replies = image::build(config, files, config.layout.placed(offset)).and_then(|built| {
            let elf = built.map(|b| b.elf).context("no image to place")?;
            measure_one(config, &elf, todo.iter().map(|w| &w.request))
        });
        let replies: Vec<Result<Record, String>> = match replies {
            Ok(replies) => replies,
            Err(e) => todo.iter().map(|_| Err(format!("{e:#}"))).collect(),
        };
        for (w, reply) in todo.iter().zip(replies) {
            let (file, line, text) = w.key.clone();
            let entry = match reply {
                Ok(record) => Entry {
                    file,
                    line,
                    text,
                    offset,
                    total_cycles: PlacedField::TotalCycles.cycles(&record),
                    software_cycles: PlacedField::SoftwareCycles.cycles(&record),
                    error: None,
                },
                Err(e) => Entry {
                    file,
                    line,
                    text,
                    offset,
                    total_cycles: None,
                    software_cycles: None,
                    error: Some(e),
                },
            };
            writeln!(log, "{}", serde_json::to_string(&entry)?)?;
            log.flush()?;
            if let Some((_, entries)) = measured.lines.get_mut(&w.key) {
                entries.push(entry);
            }
        }
    }
    Ok(measured)
}

/// Removes the log once the run has finished: its records carry every placement.
pub(crate) fn forget(out_dir: &Path) -> Result<()> {
    match std::fs::remove_file(out_dir.join(LOG)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("removing {}", out_dir.join(LOG).display()))
        }
        _ => Ok(()),
    }
}

/// Whether the run's images can be placed, or why not.
fn allowed(config: &RunConfig) -> Result<()> {
    match config.image {
        ImageSource::Board | ImageSource::Given(_) => {
            bail!("placements need images the tool builds (not with --port or --firmware)")
        }
        ImageSource::Suite | ImageSource::WithImplementations(_) => {
            let (features, _) = config.target.firmware_build()?;
            Layout::default().placed(PLACEMENT_STEP).check_platform(&features)
        }
    }
}

/// The entries of the log at `path`; none when there is none. A line cut short by a kill is
/// skipped: its placement is measured again.
fn read_log(path: &Path) -> Result<Vec<Entry>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

/// Starts one instance on `elf` and sends it `requests`: each one's record, or why there is
/// none (a wrong answer at a placement is an error like any other).
fn measure_one<'r>(
    config: &RunConfig,
    elf: &Path,
    requests: impl Iterator<Item = &'r Request>,
) -> Result<Vec<Result<Record, String>>> {
    let link = config.target.start_image(elf)?;
    let mut session = Session::connect(link, config.timing)?;
    let hello = session.hello.clone();
    let label = config.label();
    let mut replies = Vec::new();
    for request in requests {
        let text = serde_json::to_string(request)?;
        let ctx = RecordContext {
            target: &label,
            hello: Some(&hello),
            file: "",
            line: 0,
            text: &text,
            revision: "",
            symbols: None,
        };
        let record = match session.request(request) {
            Ok(exchange) => Record::reply(&ctx, Some(request), &exchange.reply),
            Err(e) => Record::error(&ctx, Some(request), e.to_string()),
        };
        replies.push(match record.status {
            Status::Ok => Ok(record),
            _ => Err(record.error.clone().or(record.reason.clone()).unwrap_or_default()),
        });
    }
    // A last request to end the instance cleanly is not needed: dropping the link stops it.
    Ok(replies)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench_file::parse;
    use crate::run::plan::{plan as plan_files, Planned};
    use crate::run::units::Shard;

    fn planned(text: &str) -> Vec<Planned> {
        plan_files(
            vec![(PathBuf::from("p.bench"), parse(text.as_bytes()))],
            Shard::WHOLE,
            Vec::new(),
        )
    }

    fn record(total: u64) -> Record {
        let kind = cyclebench_protocol::BenchmarkKind::Software.name();
        serde_json::from_value(serde_json::json!({
            "status": "ok", "benchmark": kind, "total_cycles": total, "phases": {"run": total}
        }))
        .unwrap()
    }

    /// A software line with `extra` fields.
    fn software(extra: &str) -> String {
        let (kind, primitive) = (
            cyclebench_protocol::BenchmarkKind::Software.name(),
            cyclebench_protocol::Primitive::AesTableEncrypt.name(),
        );
        format!(r#"{{"{kind}": {{"primitive": "{primitive}", "variant": "rv32i"{extra}}}}}"#)
    }

    #[test]
    fn only_lines_asking_for_placements_are_planned() {
        let wanted = plan(&planned(&format!(
            "{}\n# c\n{}\n",
            software(""),
            software(r#", "placements": 3"#)
        )));
        let [w] = &wanted[..] else {
            panic!("{} planned", wanted.len())
        };
        assert_eq!((w.key.1, w.count), (3, 3));
        assert!(matches!(w.request, Request::Benchmark(_)));
    }

    #[test]
    fn a_record_gets_every_logged_placement_and_the_missing_ones_say_so() {
        let placed = software(r#", "placements": 3"#);
        let plain = software("");
        let entry = |offset, cycles: Option<u64>, error: Option<&str>| Entry {
            file: String::from("p.bench"),
            line: 1,
            text: placed.clone(),
            offset,
            total_cycles: cycles,
            software_cycles: None,
            error: error.map(str::to_owned),
        };
        let key = entry(2, None, None).key();
        let mut measured = Measured::default();
        measured.lines.insert(key.clone(), (3, vec![entry(2, Some(110), None)]));
        let mut r = record(100);
        measured.complete("p.bench", 1, &placed, &mut r);
        let p = Placements::of(&r).unwrap();
        assert_eq!(p.cycles, [Some(100), Some(110), None]);
        assert_eq!(p.errors, ["+4 B: not measured"]);
        assert!(!p.complete());

        measured.lines.get_mut(&key).unwrap().1.push(entry(4, Some(90), None));
        let mut r = record(100);
        measured.complete("p.bench", 1, &placed, &mut r);
        let p = Placements::of(&r).unwrap();
        assert_eq!((p.min, p.median, p.max), (Some(90), Some(100), Some(110)));

        // Another line, and a record that is no measurement, get nothing.
        let mut other = record(5);
        measured.complete("p.bench", 2, &plain, &mut other);
        assert!(Placements::of(&other).is_none());
        measured.refused = Some(String::from("no images"));
        let mut r = record(100);
        measured.complete("p.bench", 1, &placed, &mut r);
        assert_eq!(Placements::of(&r).unwrap().errors, ["not measured: no images"]);
    }

    #[test]
    fn the_log_survives_a_line_cut_short() {
        let placed = software(r#", "placements": 3"#);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(LOG);
        assert!(read_log(&path).unwrap().is_empty());
        let whole = Entry {
            file: String::from("p.bench"),
            line: 1,
            text: placed.clone(),
            offset: 2,
            total_cycles: Some(7),
            software_cycles: None,
            error: None,
        };
        std::fs::write(
            &path,
            format!("{}\n{{\"file\": \"p.be", serde_json::to_string(&whole).unwrap()),
        )
        .unwrap();
        assert_eq!(read_log(&path).unwrap(), [whole]);
    }
}
