//! Writing a session's results: every file's `.out`, and its records to `results.jsonl` and
//! `results.csv`, in file order, each record on disk as it arrives; then `run.json`, the
//! summary and the report.

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

use anyhow::Result;
use cyclebench_protocol::{Check, Hello, Reply, Request, SuiteState};
use indicatif::{ProgressBar, ProgressStyle};

use super::meta::{self, Meta};
use super::ordered::Ordered;
use super::placements::Measured;
use super::plan::{Closing, Planned, Todo};
use super::pool::{Pool, Sent};
use super::previous;
use super::recorder::{Recorder, RunJson};
use super::units;
use crate::bench_file::{Action, SweepPoint};
use crate::firmware::symbols::Symbols;
use crate::implementation;
use crate::report;
use crate::results::{self as records, Record, Status};
use crate::session::Exchange;
use crate::signals;
use crate::summary;

/// Why requests are no longer sent.
pub(super) enum Blocked {
    Suspended(String),
    LinkLost(String),
}

/// Where the records of a run go: each on disk as it arrives, and into the `.out` files in
/// file order.
pub(super) struct Sink<'a> {
    label: &'a str,
    revision: &'a str,
    symbols: Option<&'a Symbols>,
    pub recorder: Recorder,
    /// The lines' measurements at other placements of the measured code.
    placements: &'a Measured,
    /// The implementations from outside the tree in the image.
    implementations: &'a [implementation::Facts],
    /// Bytes of layout padding in the image.
    layout_pad: u32,
    /// What built the image, which every record it measures names.
    build: &'a meta::Build,
}

impl Sink<'_> {
    /// Completes one line's record and takes it in (on disk at once); a request of a swept
    /// line records where it stands in its sweep.
    pub fn record(&mut self, sweep: Option<&SweepPoint>, mut record: Record) -> Result<Record> {
        if let Some(point) = sweep {
            record.details.insert(String::from(records::SWEEP), point.to_json());
        }
        implementation::describe(&mut record, self.implementations);
        self.build.stamp(&mut record);
        if self.layout_pad != 0 {
            record
                .details
                .insert(String::from(records::LAYOUT_PAD), self.layout_pad.into());
        }
        self.recorder.receive(&record)?;
        Ok(record)
    }

    fn context<'c>(
        &'c self,
        hello: Option<&'c Hello>,
        file: &'c str,
        number: usize,
        text: &'c str,
    ) -> records::RecordContext<'c> {
        records::RecordContext {
            target: self.label,
            hello,
            file,
            line: number,
            text,
            revision: self.revision,
            symbols: self.symbols,
        }
    }

    /// The record of a line that was sent (or could not be), taken in as it arrives: `line` is
    /// its file, number, text and place in its sweep.
    pub fn sent(
        &mut self,
        line: (&str, usize, &str, Option<&SweepPoint>),
        action: &Action,
        sent: Sent,
    ) -> Result<Arrived> {
        let (file, number, text, sweep) = line;
        let request = match action {
            Action::Request(r) => Some(r),
            Action::Raw(_) => None,
        };
        let ctx = self.context(Some(&sent.hello), file, number, text);
        let model = sent.model.clone();
        let (record, reply, suspended) = match sent.exchanged {
            Ok(Exchange { reply, attempts }) => {
                let suspended = matches!(&reply, Reply::Status(s) if s.state == SuiteState::Suspended);
                let mut record = Record::reply(&ctx, request, &reply);
                record.attempts = Some(attempts);
                self.placements.complete(file, number, text, &mut record);
                (record, serde_json::to_value(&reply)?, suspended)
            }
            Err(error) => (
                Record::error(&ctx, request, error.clone()),
                serde_json::json!({ "host_error": error }),
                false,
            ),
        };
        let mut record = record;
        if let Some(model) = model {
            record.details.insert(String::from(records::MODEL), model.into());
        }
        let record = self.record(sweep, record)?;
        Ok(Arrived {
            record,
            reply,
            suspended,
        })
    }

    /// The record of a line that was not sent, taken in and written in file order: `line` is
    /// its file, number, text and place in its sweep.
    pub fn not_sent(
        &mut self,
        out: &mut impl Write,
        hello: Option<&Hello>,
        line: (&str, usize, &str, Option<&SweepPoint>),
        request: Option<&Request>,
        why: String,
    ) -> Result<()> {
        let (file, number, text, sweep) = line;
        let ctx = self.context(hello, file, number, text);
        let record = Record::error(&ctx, request, why.clone());
        let record = self.record(sweep, record)?;
        self.recorder
            .place(out, text, record, &serde_json::json!({ "host_error": why }))
    }
}

/// A line's result as it came in: its record (on disk already), the reply for its `.out`
/// entry, and whether the reply says the suite is suspended.
pub(super) struct Arrived {
    pub record: Record,
    pub reply: serde_json::Value,
    pub suspended: bool,
}

/// Where and as what a session writes its records.
pub(crate) struct Writing<'a> {
    /// The results directory.
    pub out_dir: &'a Path,
    /// Target label.
    pub label: &'a str,
    /// Firmware revision.
    pub revision: &'a str,
    /// The firmware's function symbols, for code sizes.
    pub symbols: Option<&'a Symbols>,
    /// The suite's hello (from the instances, or from the run that measured the known lines).
    pub hello: Option<&'a Hello>,
    /// The implementations from outside the tree the image carries, whose records name how
    /// they were built.
    pub implementations: &'a [implementation::Facts],
    /// Bytes of layout padding the image carries, which every record it measures names.
    pub layout_pad: u32,
    /// The compilers that built the image and its digest, which every record it measures
    /// names (none for a merge: its records name their own).
    pub build: &'a meta::Build,
    /// The lines' measurements at other placements, which complete their records (none for
    /// a merge).
    pub placements: &'a Measured,
}

/// What writing the files gave: every record in file order, and the suite's cycle counter at
/// the last status (summed over instances).
pub(crate) struct Written {
    /// Every record written, in file order.
    pub all: Vec<Record>,
    /// The suite's cycle counter at the last `done`, summed over the instances; `None` when no
    /// instance was asked.
    pub last_cycles: Option<u64>,
}

/// Writes every file's `.out`, and its records to `results.jsonl` and `results.csv`, in file
/// order: known lines as recorded, the others as the pool's instances answer them. The one
/// writer of a results directory, for a run, a resumed run and a merge.
pub(crate) fn write_files(w: &Writing<'_>, files: &[Planned], pool: Option<&mut Pool>) -> Result<Written> {
    write_counted(w, files, pool, None)
}

/// [`write_files`], with `run_json` counting every record as it arrives.
pub(super) fn write_counted(
    w: &Writing<'_>,
    files: &[Planned],
    mut pool: Option<&mut Pool>,
    run_json: Option<RunJson>,
) -> Result<Written> {
    let total: usize = files
        .iter()
        .map(|f| f.todo.iter().filter(|t| !matches!(t, Todo::Skip)).count())
        .sum();
    let progress = if pool.is_some() {
        ProgressBar::new(total as u64).with_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed_precise} eta {eta} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        )
    } else {
        ProgressBar::hidden()
    };
    let mut sink = Sink {
        label: w.label,
        revision: w.revision,
        symbols: w.symbols,
        recorder: Recorder::create(w.out_dir, progress, pool.is_none(), run_json)?,
        placements: w.placements,
        implementations: w.implementations,
        layout_pad: w.layout_pad,
        build: w.build,
    };
    let mut last_cycles: Option<u64> = None;
    let mut blocked: Option<Blocked> = None;
    let names = previous::out_names(&files.iter().map(|f| f.path.clone()).collect::<Vec<_>>());
    // A signal stops the run between two requests; what finished stays on disk.
    for (planned, name) in files.iter().zip(names).take_while(|_| !signals::interrupted()) {
        let mut file = Ordered::create(&w.out_dir.join(name), planned, w.hello)?;
        sink.recorder.show_file(file.name());
        // The variant of the chip the file's requests need, started before any is sent.
        if let (Some(pool), None, true) = (pool.as_deref_mut(), &blocked, planned.sends()) {
            if let Err(why) = pool.use_model(planned.model.as_deref()) {
                blocked = Some(Blocked::LinkLost(why));
            }
        }
        let to_send = file.to_send();
        // Known lines before the first one to send are written before anything is sent.
        file.flush(&mut sink, &mut blocked, false)?;
        match pool.as_deref_mut() {
            Some(pool) if units::parallel(&planned.lines) && blocked.is_none() && !to_send.is_empty() => {
                let actions: Vec<&Action> = to_send.iter().map(|(_, a)| *a).collect();
                pool.run_parallel(&actions, |index, sent| {
                    file.arrive(&mut sink, &mut blocked, to_send[index].0, sent)
                })?;
            }
            Some(pool) => {
                for &(r, action) in &to_send {
                    if signals::interrupted() {
                        break;
                    }
                    // Known lines before it may have suspended the suite.
                    file.flush(&mut sink, &mut blocked, false)?;
                    if blocked.is_none() {
                        if let Some(sent) = pool.run_one(action) {
                            file.arrive(&mut sink, &mut blocked, r, sent)?;
                        }
                    }
                    file.flush(&mut sink, &mut blocked, false)?;
                }
            }
            None => {}
        }
        if blocked.is_none() {
            if let Some(why) = pool.as_deref().and_then(Pool::all_lost) {
                blocked = Some(Blocked::LinkLost(why.to_owned()));
            }
        }
        if !signals::interrupted() {
            file.flush(&mut sink, &mut blocked, true)?;
        }
        let mut closing = None;
        if blocked.is_none() && !signals::interrupted() {
            closing = closing_line(&planned.closing, pool.as_deref_mut(), &mut last_cycles);
            if let Some(why) = pool.as_deref().and_then(Pool::all_lost) {
                blocked = Some(Blocked::LinkLost(why.to_owned()));
            }
        }
        file.close(closing)?;
    }
    let all = sink.recorder.finish()?;
    Ok(Written { all, last_cycles })
}

/// A file's closing status line: known, or asked of the instances (their status closes the
/// twin, summed over the instances, each of which served part of the file, and over the lines
/// earlier sessions measured).
fn closing_line(closing: &Closing, pool: Option<&mut Pool>, last_cycles: &mut Option<u64>) -> Option<String> {
    match (closing, pool) {
        (Closing::Known(line), _) => line.clone(),
        (Closing::Ask { prior }, Some(pool)) => Some(match pool.done() {
            Ok((served, errors, cycles)) => {
                *last_cycles = Some(cycles);
                previous::done_line((served + prior.0, errors + prior.1))
            }
            Err(e) => format!("{}{e}", previous::DONE_PREFIX),
        }),
        (Closing::Ask { prior }, None) => Some(previous::done_line(*prior)),
    }
}

/// Ends a session: `run.json` (counts, and whether the run is finished), the summary, and the
/// report unless `no_report`. Returns whether no line failed.
pub(crate) fn conclude(out_dir: &Path, meta: &mut Meta, all: &[Record], no_report: bool) -> Result<bool> {
    println!("{}", summary::table(all));
    let failed = all.iter().filter(|r| r.status == Status::Error).count();
    let ok = all.iter().filter(|r| r.status == Status::Ok).count();
    let unsupported = all.iter().filter(|r| r.status == Status::Unsupported).count();
    meta.requests = all.len();
    meta.ok = ok;
    meta.unsupported = unsupported;
    meta.failed = failed;
    meta.interrupted = signals::interrupted();
    meta.finished = !meta.interrupted;
    meta.write(out_dir)?;
    println!(
        "{ok} ok, {unsupported} unsupported, {failed} failed; results in {}",
        out_dir.display()
    );
    if let Some(hello) = &meta.hello {
        if !hello.cycle_accurate {
            println!(
                "note: {} is not cycle-accurate; its cycle counts are functional indications only",
                hello.platform
            );
        }
        println!(
            "cycle counts are corrected: each measurement window minus the calibrated overhead ({} cycles)",
            hello.overhead
        );
    }
    if !no_report {
        // Every result is already on disk: a report that cannot be written must neither cost
        // them nor change the run's exit status.
        match report::write(out_dir) {
            Ok(written) => println!("report: {} and {}", written.markdown.display(), written.html.display()),
            Err(e) => eprintln!(
                "warning: no report written ({e:#}); the results in {} are complete",
                out_dir.display()
            ),
        }
    }
    Ok(failed == 0)
}

/// A record's progress line, as it arrives.
pub(super) fn report_line(r: &Record) {
    let what = format!("{}:{} {}", r.file, r.line_label(), r.benchmark);
    match r.status {
        Status::Ok => match r.total_cycles {
            Some(c) => eprintln!("{what}: {c} cycles{}", checked(r.check)),
            None if !r.result_fields.is_empty() => {
                eprintln!("{what}: {}{}", r.headline(), checked(r.check))
            }
            None => eprintln!("{what}: ok"),
        },
        Status::Unsupported => eprintln!("{what}: unsupported ({})", r.reason.as_deref().unwrap_or("")),
        Status::Error => eprintln!("{what}: ERROR {}", r.error.as_deref().unwrap_or("")),
    }
}

/// How the output of a measured request was checked, for its progress line.
fn checked(check: Option<Check>) -> &'static str {
    match check {
        Some(Check::KnownAnswer) => ", verified",
        Some(Check::Plausibility) => ", plausible (no known answer on this hardware)",
        Some(Check::Unverifiable) => ", unverifiable on this hardware",
        Some(Check::Unverified) => ", unverified (no reference algorithm and no vectors of its own)",
        None => "",
    }
}

/// `<stem>.out`, made unique when two inputs share a name.
pub(super) fn out_name(path: &Path, taken: &mut HashSet<String>) -> String {
    let stem = path
        .file_stem()
        .map_or_else(|| String::from("bench"), |s| s.to_string_lossy().into_owned());
    let mut name = format!("{stem}.out");
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{stem}-{n}.out");
        n += 1;
    }
    name
}
