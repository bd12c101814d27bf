//! `cyclebench run`: every line of every file to the suite, every reply to disk.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use cyclebench_protocol::{Reply, Request, SuiteState};
use indicatif::{ProgressBar, ProgressStyle};

use crate::bench_file::{self, Action, Line};
use crate::firmware;
use crate::firmware::symbols::Symbols;
use crate::report;
use crate::results::{self as records, Record, ResultsWriter, Status};
use crate::session::{Exchange, RequestError, Session, Timing, DEFAULT_ATTEMPTS};
use crate::signals;
use crate::summary;
use crate::target::TargetArgs;

/// Arguments of `cyclebench run`.
#[derive(clap::Args)]
pub struct Args {
    /// Benchmark description files (.bench).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    target: TargetArgs,
    /// Results directory (default: results/<timestamp>-<target>/).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Do not write report.md, report.html and plots/ into the results directory at the end.
    #[arg(long)]
    no_report: bool,
    /// Most times one request is sent when the link loses or damages it (benchmarks are
    /// idempotent, so a retried request measures the same).
    #[arg(long, default_value_t = DEFAULT_ATTEMPTS, value_parser = clap::value_parser!(u32).range(1..=100))]
    attempts: u32,
    /// Testing aid: damage this fraction of the link's bytes in both directions (flip a bit,
    /// drop the byte or insert one, in equal shares), seeded by --fault-seed.
    #[arg(long, hide = true, value_parser = parse_fault_rate)]
    inject_faults: Option<f64>,
    /// Seed of --inject-faults.
    #[arg(long, hide = true, default_value_t = 1)]
    fault_seed: u64,
}

/// Why requests are no longer sent.
enum Blocked {
    Suspended(String),
    LinkLost(String),
}

/// Runs the files; `Ok(false)` when any line failed.
pub fn run(args: Args) -> Result<bool> {
    let (hello_timeout, timeout) = args.target.timeouts()?;
    let files: Vec<(PathBuf, Vec<Line>)> = args
        .files
        .iter()
        .map(|p| bench_file::read(p).map(|l| (p.clone(), l)))
        .collect::<Result<_>>()?;
    let label = args.target.label();
    let out_dir = args.out.clone().unwrap_or_else(|| default_out_dir(&label));
    std::fs::create_dir_all(&out_dir).with_context(|| format!("creating {}", out_dir.display()))?;

    let started = chrono::Local::now();
    let wall = std::time::Instant::now();
    let spinner = ProgressBar::new_spinner().with_message(format!("starting {label} ..."));
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    let connected = args.target.connect(false).and_then(|(mut link, elf)| {
        let mut timing = Timing::new(hello_timeout, timeout, args.target.quiet());
        if let Some(rate) = args.inject_faults {
            link.inject_faults(rate, args.fault_seed);
        }
        timing.attempts = args.attempts;
        Session::connect(link, timing).map(|session| (session, elf))
    });
    spinner.finish_and_clear();
    let (mut session, elf) = connected?;
    // Code sizes of software primitives come from the firmware's symbol table; without it
    // (a board on --port) they are simply not reported.
    let symbols = match elf.as_deref().map(Symbols::load) {
        Some(Ok(symbols)) => Some(symbols),
        Some(Err(e)) => {
            eprintln!("warning: no code sizes: {e:#}");
            None
        }
        None => None,
    };
    let revision = if args.target.port.is_some() {
        String::from("external")
    } else {
        firmware::revision()
    };
    let hello = session.hello.clone();
    let mut last_cycles: Option<u64> = None;
    eprintln!(
        "connected: platform {} ({}cycle-accurate, {} Hz, measurement overhead {} cycles)",
        hello.platform,
        if hello.cycle_accurate { "" } else { "NOT " },
        hello.cpu_hz,
        hello.overhead
    );

    let total: usize = files
        .iter()
        .map(|(_, lines)| lines.iter().filter(|l| !matches!(l, Line::Comment(_))).count())
        .sum();
    let progress = ProgressBar::new(total as u64).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed_precise} eta {eta} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut results = ResultsWriter::create(&out_dir)?;
    let mut all: Vec<Record> = Vec::new();
    let mut blocked: Option<Blocked> = None;
    let mut out_names = HashSet::new();
    // A signal stops the run between two requests; what finished stays on disk.
    for (path, lines) in files.iter().take_while(|_| !signals::interrupted()) {
        let file = path.display().to_string();
        let out_path = out_dir.join(out_name(path, &mut out_names));
        let mut out =
            BufWriter::new(File::create(&out_path).with_context(|| format!("creating {}", out_path.display()))?);
        for line in lines.iter().take_while(|_| !signals::interrupted()) {
            let (number, text, record, reply_json) = match line {
                Line::Comment(text) => {
                    writeln!(out, "{text}")?;
                    continue;
                }
                Line::Invalid { number, text, error } => {
                    let ctx = context(&label, &session, &file, *number, text, &revision, symbols.as_ref());
                    let error = format!("invalid line: {error}");
                    let record = Record::error(&ctx, None, error.clone());
                    (*number, text, record, serde_json::json!({ "host_error": error }))
                }
                Line::Action { number, text, action } => {
                    progress.set_message(format!("{file}:{number}"));
                    let request = match action {
                        Action::Request(r) => Some(r),
                        Action::Raw(_) => None,
                    };
                    let exchanged = match (&blocked, action) {
                        (Some(Blocked::Suspended(at)), _) => Err(format!("not sent: the suite was suspended by {at}")),
                        (Some(Blocked::LinkLost(why)), _) => Err(format!("not sent: {why}")),
                        (None, Action::Request(r)) => session.request(r).map_err(|e| note_lost(e, &mut blocked)),
                        (None, Action::Raw(raw)) => session.send_raw(raw).map_err(|e| note_lost(e, &mut blocked)),
                    };
                    let ctx = context(&label, &session, &file, *number, text, &revision, symbols.as_ref());
                    match exchanged {
                        Ok(Exchange { reply, attempts }) => {
                            if matches!(&reply, Reply::Status(s) if s.state == SuiteState::Suspended) {
                                blocked = Some(Blocked::Suspended(format!("{file}:{number}")));
                            }
                            let mut record = Record::reply(&ctx, request, &reply);
                            record.attempts = Some(attempts);
                            (*number, text, record, serde_json::to_value(&reply)?)
                        }
                        Err(error) => {
                            let record = Record::error(&ctx, request, error.clone());
                            (*number, text, record, serde_json::json!({ "host_error": error }))
                        }
                    }
                }
            };
            writeln!(out, "{text}")?;
            writeln!(out, "=> {reply_json}")?;
            out.flush()?;
            results.append(&record)?;
            progress.inc(1);
            progress.suspend(|| report_line(&record, number));
            all.push(record);
        }
        if blocked.is_none() && !signals::interrupted() {
            // Thesis protocol: the end of a file is announced with Done; the status closes the twin.
            match session.request(&Request::Done).map(|e| e.reply) {
                Ok(Reply::Status(s)) => {
                    last_cycles = Some(s.cycles);
                    writeln!(out, "# done: {} served, {} errors", s.served, s.errors)?
                }
                Ok(other) => writeln!(out, "# done: unexpected reply {}", serde_json::to_string(&other)?)?,
                Err(e) => {
                    writeln!(out, "# done: {e}")?;
                    if !e.link_usable() {
                        blocked = Some(Blocked::LinkLost(e.to_string()));
                    }
                }
            }
        }
        out.flush()?;
    }
    progress.finish_and_clear();
    drop(session);
    drop(results);

    println!("{}", summary::table(&all));
    let failed = all.iter().filter(|r| r.status == Status::Error).count();
    let ok = all.iter().filter(|r| r.status == Status::Ok).count();
    let unsupported = all.iter().filter(|r| r.status == Status::Unsupported).count();
    let wall_seconds = wall.elapsed().as_secs_f64();
    // Run-level facts, for tool-speed figures: the suite's cycle counter at the last status
    // counts every simulated cycle since reset.
    let run = serde_json::json!({
        "target": label,
        "platform": hello.platform,
        "cycle_accurate": hello.cycle_accurate,
        "cpu_hz": hello.cpu_hz,
        "overhead": hello.overhead,
        "firmware_revision": revision,
        "started": started.to_rfc3339(),
        "wall_seconds": (wall_seconds * 10.0).round() / 10.0,
        "simulated_cycles": last_cycles,
        "requests": all.len(),
        "ok": ok,
        "unsupported": unsupported,
        "failed": failed,
        "interrupted": signals::interrupted(),
    });
    std::fs::write(out_dir.join("run.json"), serde_json::to_string_pretty(&run)? + "\n")
        .with_context(|| format!("writing {}", out_dir.join("run.json").display()))?;
    println!(
        "{ok} ok, {unsupported} unsupported, {failed} failed; results in {}",
        out_dir.display()
    );
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
    if !args.no_report {
        // Every result is already on disk: a report that cannot be written must neither cost
        // them nor change the run's exit status.
        match report::write(&out_dir) {
            Ok(written) => println!("report: {} and {}", written.markdown.display(), written.html.display()),
            Err(e) => eprintln!(
                "warning: no report written ({e:#}); the results in {} are complete",
                out_dir.display()
            ),
        }
    }
    Ok(failed == 0)
}

/// Describes a failed exchange, remembering when the link can no longer be used.
fn note_lost(e: RequestError, blocked: &mut Option<Blocked>) -> String {
    let error = e.to_string();
    if !e.link_usable() {
        *blocked = Some(Blocked::LinkLost(error.clone()));
    }
    error
}

fn context<'a>(
    label: &'a str,
    session: &'a Session,
    file: &'a str,
    line: usize,
    text: &'a str,
    revision: &'a str,
    symbols: Option<&'a Symbols>,
) -> records::RecordContext<'a> {
    records::RecordContext {
        target: label,
        hello: Some(&session.hello),
        file,
        line,
        text,
        revision,
        symbols,
    }
}

fn report_line(r: &Record, number: usize) {
    let what = format!("{}:{number} {}", r.file, r.benchmark);
    match r.status {
        Status::Ok => match r.total_cycles {
            Some(c) => eprintln!("{what}: {c} cycles{}", if r.verified { ", verified" } else { "" }),
            None => eprintln!("{what}: ok"),
        },
        Status::Unsupported => eprintln!("{what}: unsupported ({})", r.reason.as_deref().unwrap_or("")),
        Status::Error => eprintln!("{what}: ERROR {}", r.error.as_deref().unwrap_or("")),
    }
}

fn default_out_dir(label: &str) -> PathBuf {
    let safe: String = label
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' })
        .collect();
    PathBuf::from("results").join(format!("{}-{safe}", chrono::Local::now().format("%Y%m%d-%H%M%S")))
}

/// `<stem>.out`, made unique when two inputs share a name.
fn out_name(path: &Path, taken: &mut HashSet<String>) -> String {
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

fn parse_fault_rate(text: &str) -> Result<f64, String> {
    let rate: f64 = text.parse().map_err(|e| format!("{e}"))?;
    if (0.0..=0.5).contains(&rate) {
        Ok(rate)
    } else {
        Err(format!("a fault rate is a fraction from 0 to 0.5, got {text}"))
    }
}
