//! `"placements": N` on a benchmark line: the run measures the line again with the measured
//! code at N placements in flash, and its record carries every placement's cycles with their
//! spread. Each placement is an image of its own (the measured block moved as a whole, by a
//! multiple of [`PLACEMENT_STEP`] bytes past its boundary), started as one instance after the
//! run's own requests; the default placement's cycles are the record's own.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use cyclebench_protocol::Request;
use serde_json::{json, Value};

use super::{timing, Action, Args, Line};
use crate::bench_file;
use crate::firmware;
use crate::firmware::layout::{Layout, PLACEMENT_STEP};
use crate::implementation;
use crate::results::{self as records, Record, RecordContext, Status};
use crate::session::Session;
use crate::signals;

/// The detail a placement's cycles are taken from: the software side of an offload record
/// (what the placement moves; the chip's side runs from RAM), else the record's total.
const SOFTWARE_CYCLES: &str = "software_cycles";
const TOTAL_CYCLES: &str = "total_cycles";

/// A record whose line asked for placements, and what they gave.
struct Wanted {
    index: usize,
    request: Request,
    count: u32,
    field: &'static str,
    cycles: Vec<Option<u64>>,
    failures: Vec<String>,
}

/// Measures the records of `records` whose lines ask for placements at every placement but the
/// default, and writes each one's spread into it. Returns whether any record asked.
pub(crate) fn measure(args: &Args, files: &[(PathBuf, Vec<Line>)], records: &mut [Record]) -> Result<bool> {
    let mut wanted: Vec<Wanted> = records
        .iter()
        .enumerate()
        .filter(|(_, r)| r.status == Status::Ok && r.is_measurement())
        // A resumed run keeps the placements an earlier session measured in full.
        .filter(|(_, r)| r.details.get(records::PLACEMENTS).and_then(|p| p.get("min")).is_none())
        .filter_map(|(index, r)| {
            let count = bench_file::placements(&r.request);
            let request = match bench_file::scan(r.request.as_bytes()).expand().into_iter().next() {
                Some(Line::Action {
                    action: Action::Request(request),
                    ..
                }) => request,
                _ => return None,
            };
            let field = if r.details.contains_key(SOFTWARE_CYCLES) {
                SOFTWARE_CYCLES
            } else {
                TOTAL_CYCLES
            };
            let default = cycles_of(r, field);
            (count > 1).then(|| Wanted {
                index,
                request,
                count,
                field,
                cycles: std::iter::once(default).chain((1..count).map(|_| None)).collect(),
                failures: Vec::new(),
            })
        })
        .collect();
    if wanted.is_empty() {
        return Ok(false);
    }
    let most = wanted.iter().map(|w| w.count).max().unwrap_or(1);
    if args.target.port.is_some() || (args.target.firmware.is_some() && args.implementations.is_empty()) {
        let why = "not measured: placements need images the tool builds (not with --port or --firmware)";
        for w in &mut wanted {
            w.failures.push(String::from(why));
        }
    } else if let Err(e) = placement_allowed(args) {
        for w in &mut wanted {
            w.failures.push(format!("not measured: {e:#}"));
        }
    } else {
        let layout = Layout::from_env()?;
        for k in 1..most {
            let offset = k * PLACEMENT_STEP;
            // What was measured is kept; the placements not reached say so.
            if signals::interrupted() {
                for w in wanted.iter_mut().filter(|w| w.count > k) {
                    w.failures
                        .push(format!("+{offset} B and after: not measured, the run was interrupted"));
                }
                break;
            }
            let todo: Vec<usize> = (0..wanted.len()).filter(|&i| wanted[i].count > k).collect();
            eprintln!("placement +{offset} B ({} of {most}): {} request(s)", k + 1, todo.len());
            let measured = image(args, files, layout.placed(offset))
                .and_then(|elf| measure_one(args, &elf, todo.iter().map(|&i| &wanted[i].request)));
            match measured {
                Ok(replies) => {
                    for (&i, reply) in todo.iter().zip(replies) {
                        let w = &mut wanted[i];
                        match reply {
                            Ok(record) => w.cycles[k as usize] = cycles_of(&record, w.field),
                            Err(e) => w.failures.push(format!("+{offset} B: {e}")),
                        }
                    }
                }
                Err(e) => {
                    for &i in &todo {
                        wanted[i].failures.push(format!("+{offset} B: {e:#}"));
                    }
                }
            }
        }
    }
    for w in wanted {
        let value = spread(w.field, &w.cycles, &w.failures);
        records[w.index]
            .details
            .insert(String::from(records::PLACEMENTS), value);
    }
    Ok(true)
}

/// Whether the run's target has placements (Earl Grey), or why not.
fn placement_allowed(args: &Args) -> Result<()> {
    let (features, _) = args.target.firmware_build()?;
    Layout::default().placed(PLACEMENT_STEP).check_platform(&features)
}

/// `field` of a record: a detail, or its total.
fn cycles_of(record: &Record, field: &str) -> Option<u64> {
    match field {
        TOTAL_CYCLES => record.total_cycles,
        _ => record.details.get(field).and_then(Value::as_u64),
    }
}

/// The image of this run at `layout`: the suite's own, or the one with the run's
/// implementations.
fn image(args: &Args, files: &[(PathBuf, Vec<Line>)], layout: Layout) -> Result<PathBuf> {
    let (features, zbb) = args.target.firmware_build()?;
    if args.implementations.is_empty() {
        return firmware::build_with(&features, zbb, false, layout);
    }
    let folders: Vec<implementation::Folder> = args
        .implementations
        .iter()
        .map(|dir| implementation::Folder::read(dir))
        .collect::<Result<_>>()?;
    let requests = files.iter().flat_map(|(_, lines)| lines).filter_map(|line| match line {
        Line::Action {
            action: Action::Request(Request::Benchmark(b)),
            ..
        } => Some(b),
        _ => None,
    });
    Ok(implementation::build(&features, zbb, &folders, requests, layout)?.elf)
}

/// Starts one instance on `elf` and sends it `requests`: each one's record, or why there is
/// none (a wrong answer at a placement is an error like any other).
fn measure_one<'r>(
    args: &Args,
    elf: &Path,
    requests: impl Iterator<Item = &'r Request>,
) -> Result<Vec<Result<Record, String>>> {
    let link = args.target.start_image(elf)?;
    let mut session = Session::connect(link, timing(args)?)?;
    let hello = session.hello.clone();
    let label = args.target.label();
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
    if replies.is_empty() {
        bail!("no requests for this placement");
    }
    Ok(replies)
}

/// A record's placements field: `field`'s `cycles` at each placement (`None` where none was
/// measured, with the reasons in `failures`), and their spread when every one was.
pub(crate) fn spread(field: &str, cycles: &[Option<u64>], failures: &[String]) -> Value {
    let offsets: Vec<u32> = (0..cycles.len() as u32).map(|k| k * PLACEMENT_STEP).collect();
    let mut measured: Vec<u64> = cycles.iter().flatten().copied().collect();
    measured.sort_unstable();
    let mut value = json!({
        "default": 0,
        "offsets": offsets,
        "field": field,
        "cycles": cycles,
    });
    if measured.len() == cycles.len() && !measured.is_empty() {
        value["min"] = json!(measured[0]);
        // The lower median of an even count: a cycle count one placement gave.
        value["median"] = json!(measured[(measured.len() - 1) / 2]);
        value["max"] = json!(measured[measured.len() - 1]);
    }
    if !failures.is_empty() {
        value["errors"] = json!(failures);
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spread_is_stated_only_when_every_placement_was_measured() {
        let all = spread(TOTAL_CYCLES, &[Some(10), Some(12), Some(9), Some(12)], &[]);
        assert_eq!(all["offsets"], json!([0, 2, 4, 6]));
        assert_eq!(
            (&all["min"], &all["median"], &all["max"]),
            (&json!(9), &json!(10), &json!(12))
        );
        assert!(all.get("errors").is_none());
        let partial = spread(SOFTWARE_CYCLES, &[Some(10), None], &[String::from("+2 B: lost")]);
        assert!(partial.get("min").is_none(), "{partial}");
        assert_eq!(partial["errors"], json!(["+2 B: lost"]));
    }
}
