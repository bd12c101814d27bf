//! `cyclebench run`: every line of every file to the suite, every reply to disk, in file
//! order, from one or several instances of the target.

mod pool;

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use cyclebench_protocol::{Check, Hello, Reply, Request, SuiteState};
use indicatif::{ProgressBar, ProgressStyle};

use crate::bench_file::{self, Action, Line, SweepPoint, SWEEP_REQUESTS_WITHOUT_YES};
use crate::firmware;
use crate::firmware::symbols::Symbols;
use crate::report;
use crate::results::{self as records, Record, ResultsWriter, Status};
use crate::session::{Exchange, Session, Timing, DEFAULT_ATTEMPTS};
use crate::signals;
use crate::summary;
use crate::target::TargetArgs;
use pool::{Pool, Sent};

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
    /// Instances of the target to run side by side, sharing the requests of each file; the
    /// results are the same, in the same order, as with one [default: one per core; one with
    /// --port]
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u64).range(1..=64))]
    jobs: Option<u64>,
    // The help names the threshold from its one definition.
    #[arg(long, help = format!("Run files whose sweeps expand to more than {SWEEP_REQUESTS_WITHOUT_YES} requests"))]
    yes: bool,
}

/// Why requests are no longer sent.
enum Blocked {
    Suspended(String),
    LinkLost(String),
}

/// How many instances to run: `--jobs`, else one per core (one for a board).
fn instances(args: &Args) -> Result<usize> {
    if args.target.port.is_some() {
        if args.jobs.is_some_and(|j| j > 1) {
            bail!("--jobs needs a target the tool starts itself; a board on --port is one instance");
        }
        return Ok(1);
    }
    Ok(args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    ))
}

/// Starts `count` instances of the target and waits for each one's hello. The processes are
/// started from this thread (a simulator is tied to the thread that started it and dies with
/// it), one after the other so that a firmware or model build happens once; the hellos are
/// awaited side by side.
fn connect(args: &Args, count: usize) -> Result<(Vec<Session>, Option<PathBuf>)> {
    let (hello_timeout, timeout) = args.target.timeouts()?;
    let mut links = Vec::with_capacity(count);
    let mut elf = None;
    for index in 0..count {
        let (mut link, built) = args
            .target
            .connect(false)
            .with_context(|| format!("starting instance {} of {count}", index + 1))?;
        if let Some(rate) = args.inject_faults {
            link.inject_faults(rate, args.fault_seed.wrapping_add(index as u64));
        }
        elf = elf.or(built);
        links.push(link);
    }
    let mut timing = Timing::new(hello_timeout, timeout, args.target.quiet());
    timing.attempts = args.attempts;
    let sessions: Vec<Result<Session>> = std::thread::scope(|scope| {
        let waiting: Vec<_> = links
            .into_iter()
            .map(|link| scope.spawn(move || Session::connect(link, timing)))
            .collect();
        waiting
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("waiting for a hello panicked")))
            })
            .collect()
    });
    let mut connected: Vec<Session> = Vec::with_capacity(count);
    for (i, session) in sessions.into_iter().enumerate() {
        let session = session.with_context(|| format!("instance {} of {count}", i + 1))?;
        if let Some(first) = connected.first() {
            if session.hello.platform != first.hello.platform {
                bail!(
                    "instance {} announced platform {}, the first {}",
                    i + 1,
                    session.hello.platform,
                    first.hello.platform
                );
            }
        }
        connected.push(session);
    }
    Ok((connected, elf))
}

/// Where the records of a run go, in file order.
struct Sink<'a> {
    label: &'a str,
    revision: &'a str,
    symbols: Option<&'a Symbols>,
    results: ResultsWriter,
    progress: ProgressBar,
    all: Vec<Record>,
}

impl Sink<'_> {
    /// Writes one line's record and its `.out` entry; a request of a swept line records
    /// where it stands in its sweep.
    fn record(
        &mut self,
        out: &mut impl Write,
        text: &str,
        sweep: Option<&SweepPoint>,
        mut record: Record,
        reply: serde_json::Value,
    ) -> Result<()> {
        if let Some(point) = sweep {
            record.details.insert(String::from(records::SWEEP), point.to_json());
        }
        writeln!(out, "{text}")?;
        writeln!(out, "=> {reply}")?;
        out.flush()?;
        self.results.append(&record)?;
        self.progress.inc(1);
        self.progress.suspend(|| report_line(&record));
        self.all.push(record);
        Ok(())
    }

    fn context<'c>(
        &'c self,
        hello: &'c Hello,
        file: &'c str,
        number: usize,
        text: &'c str,
    ) -> records::RecordContext<'c> {
        records::RecordContext {
            target: self.label,
            hello: Some(hello),
            file,
            line: number,
            text,
            revision: self.revision,
            symbols: self.symbols,
        }
    }

    /// The record of a line that was sent (or could not be): `line` is its file, number, text
    /// and place in its sweep.
    fn sent(
        &mut self,
        out: &mut impl Write,
        line: (&str, usize, &str, Option<&SweepPoint>),
        action: &Action,
        sent: Sent,
    ) -> Result<bool> {
        let (file, number, text, sweep) = line;
        let request = match action {
            Action::Request(r) => Some(r),
            Action::Raw(_) => None,
        };
        let ctx = self.context(&sent.hello, file, number, text);
        let (record, reply, suspended) = match sent.exchanged {
            Ok(Exchange { reply, attempts }) => {
                let suspended = matches!(&reply, Reply::Status(s) if s.state == SuiteState::Suspended);
                let mut record = Record::reply(&ctx, request, &reply);
                record.attempts = Some(attempts);
                (record, serde_json::to_value(&reply)?, suspended)
            }
            Err(error) => (
                Record::error(&ctx, request, error.clone()),
                serde_json::json!({ "host_error": error }),
                false,
            ),
        };
        self.record(out, text, sweep, record, reply)?;
        Ok(suspended)
    }

    /// The record of a line that was not sent: `line` is its file, number, text and place in
    /// its sweep.
    fn not_sent(
        &mut self,
        out: &mut impl Write,
        hello: &Hello,
        line: (&str, usize, &str, Option<&SweepPoint>),
        request: Option<&Request>,
        why: String,
    ) -> Result<()> {
        let (file, number, text, sweep) = line;
        let ctx = self.context(hello, file, number, text);
        let record = Record::error(&ctx, request, why.clone());
        self.record(out, text, sweep, record, serde_json::json!({ "host_error": why }))
    }
}

/// Runs the files; `Ok(false)` when any line failed.
pub fn run(args: Args) -> Result<bool> {
    let read: Vec<(PathBuf, bench_file::BenchFile)> = args
        .files
        .iter()
        .map(|p| bench_file::read(p).map(|f| (p.clone(), f)))
        .collect::<Result<_>>()?;
    if !args.yes {
        check_sweep_sizes(&read)?;
    }
    let files: Vec<(PathBuf, Vec<Line>)> = read.into_iter().map(|(p, f)| (p, f.expand())).collect();
    let label = args.target.label();
    let out_dir = args.out.clone().unwrap_or_else(|| default_out_dir(&label));
    std::fs::create_dir_all(&out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let count = instances(&args)?;

    let started = chrono::Local::now();
    let wall = std::time::Instant::now();
    let spinner = ProgressBar::new_spinner().with_message(format!(
        "starting {label}{} ...",
        if count > 1 {
            format!(" ({count} instances)")
        } else {
            String::new()
        }
    ));
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    let connected = connect(&args, count);
    spinner.finish_and_clear();
    let (sessions, elf) = connected?;
    let mut pool = Pool::new(sessions);
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
    let hello = pool.hello().clone();
    let mut last_cycles: Option<u64> = None;
    eprintln!(
        "connected: platform {} ({}cycle-accurate, {} Hz, measurement overhead {} cycles){}",
        hello.platform,
        if hello.cycle_accurate { "" } else { "NOT " },
        hello.cpu_hz,
        hello.overhead,
        if count > 1 {
            format!(", {count} instances")
        } else {
            String::new()
        }
    );

    let total: usize = files
        .iter()
        .map(|(_, lines)| lines.iter().filter(|l| !matches!(l, Line::Comment(_))).count())
        .sum();
    let progress = ProgressBar::new(total as u64).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed_precise} eta {eta} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut sink = Sink {
        label: &label,
        revision: &revision,
        symbols: symbols.as_ref(),
        results: ResultsWriter::create(&out_dir)?,
        progress,
        all: Vec::new(),
    };
    let mut blocked: Option<Blocked> = None;
    let mut out_names = HashSet::new();
    // A signal stops the run between two requests; what finished stays on disk.
    for (path, lines) in files.iter().take_while(|_| !signals::interrupted()) {
        let file = path.display().to_string();
        let out_path = out_dir.join(out_name(path, &mut out_names));
        let mut out =
            BufWriter::new(File::create(&out_path).with_context(|| format!("creating {}", out_path.display()))?);
        sink.progress.set_message(file.clone());
        // Benchmarks are independent and may run on any instance; control requests and raw
        // lines act on one suite's state, so a file with any runs in order on one instance.
        let parallel = lines.iter().all(|l| match l {
            Line::Action { action, .. } => matches!(action, Action::Request(Request::Benchmark(_))),
            _ => true,
        });
        let actions: Vec<&Action> = lines
            .iter()
            .filter_map(|l| match l {
                Line::Action { action, .. } => Some(action),
                _ => None,
            })
            .collect();
        let mut results: Vec<Option<Sent>> = actions.iter().map(|_| None).collect();
        let mut cursor = 0;
        let mut next_action = 0;
        // Writes every line up to the first action whose result has not come back.
        let mut flush = |results: &mut Vec<Option<Sent>>,
                         sink: &mut Sink<'_>,
                         out: &mut BufWriter<File>,
                         blocked: &mut Option<Blocked>,
                         finished: bool|
         -> Result<()> {
            while let Some(line) = lines.get(cursor) {
                match line {
                    Line::Comment(text) => writeln!(out, "{text}")?,
                    Line::Invalid {
                        number,
                        text,
                        error,
                        sweep,
                    } => {
                        let error = format!("invalid line: {error}");
                        sink.not_sent(out, &hello, (&file, *number, text, sweep.as_ref()), None, error)?;
                    }
                    Line::Action {
                        number,
                        text,
                        action,
                        sweep,
                    } => {
                        let request = match action {
                            Action::Request(r) => Some(r),
                            Action::Raw(_) => None,
                        };
                        let at = (file.as_str(), *number, text.as_str(), sweep.as_ref());
                        match (blocked.as_ref(), results[next_action].take()) {
                            (_, Some(sent)) => {
                                if sink.sent(out, at, action, sent)? {
                                    *blocked = Some(Blocked::Suspended(format!("{file}:{number}")));
                                }
                            }
                            (Some(Blocked::Suspended(by)), None) => {
                                let why = format!("not sent: the suite was suspended by {by}");
                                sink.not_sent(out, &hello, at, request, why)?;
                            }
                            (Some(Blocked::LinkLost(why)), None) if finished => {
                                let why = format!("not sent: {why}");
                                sink.not_sent(out, &hello, at, request, why)?;
                            }
                            (_, None) => return Ok(()),
                        }
                        next_action += 1;
                    }
                }
                cursor += 1;
            }
            Ok(())
        };
        if parallel && blocked.is_none() {
            pool.run_parallel(&actions, |index, sent| {
                results[index] = Some(sent);
                flush(&mut results, &mut sink, &mut out, &mut blocked, false)
            })?;
        } else {
            for (index, action) in actions.iter().enumerate() {
                if signals::interrupted() {
                    break;
                }
                if blocked.is_none() {
                    results[index] = pool.run_one(action);
                }
                flush(&mut results, &mut sink, &mut out, &mut blocked, false)?;
            }
        }
        if blocked.is_none() {
            if let Some(why) = pool.all_lost() {
                blocked = Some(Blocked::LinkLost(why.to_owned()));
            }
        }
        if !signals::interrupted() {
            flush(&mut results, &mut sink, &mut out, &mut blocked, true)?;
        }
        if blocked.is_none() && !signals::interrupted() {
            // Thesis protocol: the end of a file is announced with Done; the status closes the
            // twin (summed over the instances, each of which served part of the file).
            match pool.done() {
                Ok((served, errors, cycles)) => {
                    last_cycles = Some(cycles);
                    writeln!(out, "# done: {served} served, {errors} errors")?
                }
                Err(e) => writeln!(out, "# done: {e}")?,
            }
            if let Some(why) = pool.all_lost() {
                blocked = Some(Blocked::LinkLost(why.to_owned()));
            }
        }
        out.flush()?;
    }
    let Sink {
        progress, results, all, ..
    } = sink;
    progress.finish_and_clear();
    drop(pool);
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
        "max_message": hello.max_message,
        "firmware_revision": revision,
        "started": started.to_rfc3339(),
        "files": args.files,
        "instances": count,
        "link": args.target.link_name(),
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

/// Refuses files whose sweeps ask for more requests than a run makes unasked, naming each
/// with its count.
fn check_sweep_sizes(files: &[(PathBuf, bench_file::BenchFile)]) -> Result<()> {
    let large: Vec<String> = files
        .iter()
        .filter(|(_, f)| f.swept_requests() > SWEEP_REQUESTS_WITHOUT_YES)
        .map(|(p, f)| format!("{}: its sweeps expand to {} requests", p.display(), f.swept_requests()))
        .collect();
    if large.is_empty() {
        return Ok(());
    }
    bail!(
        "{}; more than {SWEEP_REQUESTS_WITHOUT_YES} requests from the sweeps of one file are run only with --yes",
        large.join("; ")
    )
}

fn report_line(r: &Record) {
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
        None => "",
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
