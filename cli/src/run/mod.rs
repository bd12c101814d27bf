//! `cyclebench run`: every line of every file to the suite, every reply to disk, in file
//! order, from one or several instances of the target.

pub(crate) mod meta;
mod ordered;
pub(crate) mod placements;
mod pool;
pub(crate) mod previous;
mod recorder;
mod resume;
pub(crate) mod units;

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use cyclebench_protocol::{Check, Hello, Reply, Request, SuiteState};
use indicatif::{ProgressBar, ProgressStyle};

use crate::bench_file::{self, Action, Line, SweepPoint, SWEEP_REQUESTS_WITHOUT_YES};
use crate::firmware;
use crate::firmware::layout::Layout;
use crate::firmware::symbols::Symbols;
use crate::implementation;
use crate::report;
use crate::results::{self as records, Record, ResultsWriter, Status};
use crate::session::{Exchange, Session, Timing, DEFAULT_ATTEMPTS};
use crate::signals;
use crate::summary;
use crate::targets::TargetArgs;
pub use meta::Meta;
use ordered::Ordered;
pub(crate) use pool::Pool;
use pool::Sent;
use previous::Known;
pub(crate) use previous::KnownFile;
use recorder::{Recorder, RunJson};
pub use units::Shard;

/// Arguments of `cyclebench run`.
#[derive(clap::Args)]
pub struct Args {
    /// Benchmark description files (.bench); with --resume, those of the run resumed (or none).
    #[arg(required_unless_present = "resume")]
    files: Vec<PathBuf>,
    #[command(flatten)]
    target: TargetArgs,
    /// Results directory (default: results/<timestamp>-<target>/).
    #[arg(long, conflicts_with = "resume")]
    out: Option<PathBuf>,
    /// Run only the I-th of N parts of the files (0-based, e.g. 2/4): every benchmark line, or
    /// every file whose lines depend on each other, is one unit, and unit k is part k mod N.
    /// The directory holds this part's results; `cyclebench merge` puts the parts together.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Continue the run in DIR, in place: lines it recorded with a reply (on the same target,
    /// firmware revision and input files) are kept, the others are run. Files, target and shard
    /// come from DIR's run.json.
    #[arg(long, value_name = "DIR", conflicts_with = "shard")]
    resume: Option<PathBuf>,
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
    /// An implementation folder from outside the tree (its impl.toml, sources or crate, and
    /// vectors) to build into the image, for `impl` and `leakage` lines that name it; repeat
    /// for several. Not with --port or --firmware.
    #[arg(long = cyclebench_protocol::IMPL_FIELD, value_name = "DIR", conflicts_with_all = ["port", "firmware"])]
    implementations: Vec<PathBuf>,
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

/// The waits and attempts of every session of a run.
fn timing(args: &Args) -> Result<Timing> {
    let (hello_timeout, timeout) = args.target.timeouts()?;
    let mut timing = Timing::new(hello_timeout, timeout, args.target.quiet());
    timing.attempts = args.attempts;
    Ok(timing)
}

/// Starts `count` instances of the target and waits for each one's hello. The processes are
/// started from this thread (a simulator is tied to the thread that started it and dies with
/// it), one after the other so that a firmware or model build happens once; the hellos are
/// awaited side by side.
fn connect(args: &Args, count: usize) -> Result<(Vec<Session>, Option<PathBuf>)> {
    let timing = timing(args)?;
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

/// How the pool starts a fresh instance of the target in place of a lost one: a request
/// that never returned (an implementation stuck in a loop) or a simulator that died costs that
/// request, not the rest of the run. The fresh instance must announce what the first did.
fn restart(args: &Args, expected: Hello) -> Result<pool::Restart> {
    let target = args.target.clone();
    let faults = args.inject_faults.map(|rate| (rate, args.fault_seed));
    let timing = timing(args)?;
    Ok(Box::new(move || {
        let (mut link, _) = target.connect(false)?;
        if let Some((rate, seed)) = faults {
            link.inject_faults(rate, seed);
        }
        let session = Session::connect(link, timing)?;
        if session.hello != expected {
            bail!(
                "the fresh instance announced {}, the first one {}",
                serde_json::to_string(&session.hello)?,
                serde_json::to_string(&expected)?
            );
        }
        Ok(session)
    }))
}

/// Where the records of a run go: each on disk as it arrives, and into the `.out` files in
/// file order.
struct Sink<'a> {
    label: &'a str,
    revision: &'a str,
    symbols: Option<&'a Symbols>,
    recorder: Recorder,
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
    fn record(&mut self, sweep: Option<&SweepPoint>, mut record: Record) -> Result<Record> {
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
    fn sent(&mut self, line: (&str, usize, &str, Option<&SweepPoint>), action: &Action, sent: Sent) -> Result<Arrived> {
        let (file, number, text, sweep) = line;
        let request = match action {
            Action::Request(r) => Some(r),
            Action::Raw(_) => None,
        };
        let ctx = self.context(Some(&sent.hello), file, number, text);
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
        let record = self.record(sweep, record)?;
        Ok(Arrived {
            record,
            reply,
            suspended,
        })
    }

    /// The record of a line that was not sent, taken in and written in file order: `line` is
    /// its file, number, text and place in its sweep.
    fn not_sent(
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
struct Arrived {
    record: Record,
    reply: serde_json::Value,
    suspended: bool,
}

/// What this session does with one record line.
pub(crate) enum Todo {
    /// Written as an earlier run recorded it.
    Known(Box<Known>),
    /// Sent to the suite (or, for a line that is no request, recorded as such).
    Send,
    /// Another shard's: neither sent nor written.
    Skip,
}

/// How a file's closing status line is made.
pub(crate) enum Closing {
    /// Asked of every instance with `done` (the end of a file, as the thesis's protocol
    /// announces it); the counts of lines known from earlier sessions are added.
    Ask {
        /// (served, errors) of the known lines.
        prior: (u32, u32),
    },
    /// Known already: this line, or none (a file an earlier run never finished).
    Known(Option<String>),
}

/// One input file as this session writes it.
pub(crate) struct Planned {
    /// As given on the command line.
    pub path: PathBuf,
    /// Its lines, sweeps expanded.
    pub lines: Vec<Line>,
    /// Per record line, in order.
    pub todo: Vec<Todo>,
    /// Its closing status line.
    pub closing: Closing,
}

impl Planned {
    fn sends(&self) -> bool {
        self.todo.iter().any(|t| matches!(t, Todo::Send))
    }
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
fn write_counted(
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
    let done = previous::DONE_PREFIX;
    match (closing, pool) {
        (Closing::Known(line), _) => line.clone(),
        (Closing::Ask { prior }, Some(pool)) => Some(match pool.done() {
            Ok((served, errors, cycles)) => {
                *last_cycles = Some(cycles);
                format!("{done}{} served, {} errors", served + prior.0, errors + prior.1)
            }
            Err(e) => format!("{done}{e}"),
        }),
        (Closing::Ask { prior }, None) => Some(format!("{done}{} served, {} errors", prior.0, prior.1)),
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

/// Reads the files of a run and their digests, refusing over-large sweeps unless `yes`.
pub(crate) fn read_files(paths: &[PathBuf], yes: bool) -> Result<Vec<(PathBuf, Vec<Line>)>> {
    let read: Vec<(PathBuf, bench_file::BenchFile)> = paths
        .iter()
        .map(|p| bench_file::read(p).map(|f| (p.clone(), f)))
        .collect::<Result<_>>()?;
    if !yes {
        check_sweep_sizes(&read)?;
    }
    Ok(read.into_iter().map(|(p, f)| (p, f.expand())).collect())
}

/// Refuses a file named twice: a shard, a resumed run and a merge tell lines apart by file.
pub(crate) fn distinct_files(paths: &[PathBuf]) -> Result<()> {
    for (i, path) in paths.iter().enumerate() {
        if paths[..i].contains(path) {
            bail!(
                "{} is named twice; a sharded, resumed or merged run needs each file once",
                path.display()
            );
        }
    }
    Ok(())
}

/// Builds the image carrying the `--impl` folders, which the run then starts instead of the
/// suite's own; returns how each implementation was built.
fn build_implementations(args: &mut Args, files: &[(PathBuf, Vec<Line>)]) -> Result<Vec<implementation::Facts>> {
    if args.implementations.is_empty() {
        return Ok(Vec::new());
    }
    let folders: Vec<implementation::Folder> = args
        .implementations
        .iter()
        .map(|dir| implementation::Folder::read(dir))
        .collect::<Result<_>>()?;
    let (features, zbb) = args.target.firmware_build()?;
    eprintln!(
        "building the image with {} ...",
        implementation::Folder::names(&folders)
    );
    let requests = files.iter().flat_map(|(_, lines)| lines).filter_map(|line| match line {
        Line::Action {
            action: Action::Request(Request::Benchmark(b)),
            ..
        } => Some(b),
        _ => None,
    });
    let image = implementation::build(&features, zbb, &folders, requests, Layout::from_env()?)?;
    args.target.firmware = Some(image.elf);
    Ok(image.facts)
}

/// Runs the files; `Ok(false)` when any line failed.
pub fn run(mut args: Args) -> Result<bool> {
    let resuming = match args.resume.clone() {
        Some(dir) => Some(resume::adopt(&dir, &mut args)?),
        None => None,
    };
    let shard = match &resuming {
        Some(meta) => meta.shard(),
        None => args.shard.unwrap_or(Shard::WHOLE),
    };
    if args.shard.is_some() || resuming.is_some() {
        distinct_files(&args.files)?;
    }
    let files = read_files(&args.files, args.yes)?;
    let implementations = build_implementations(&mut args, &files)?;
    let inputs: Vec<String> = args.files.iter().map(|p| meta::digest(p)).collect::<Result<_>>()?;
    let label = args.target.label();
    let revision = if args.target.port.is_some() {
        String::from("external")
    } else {
        firmware::revision()
    };
    let out_dir = match (&args.resume, &args.out) {
        (Some(dir), _) => dir.clone(),
        (None, Some(out)) => out.clone(),
        (None, None) => default_out_dir(&label),
    };
    let known = match &resuming {
        Some(meta) => {
            resume::check(&out_dir, meta, &label, &revision, &inputs, &args.files)?;
            resume::take_over(&out_dir, &files)?
        }
        None => {
            // A shard's directory is what a requeued task resumes: a second shard run must not
            // start it afresh over what the first measured.
            if args.shard.is_some() && out_dir.join(meta::RUN_JSON).exists() {
                bail!(
                    "{} already holds a run; continue it with --resume {}, or choose another --out",
                    out_dir.display(),
                    out_dir.display()
                );
            }
            std::fs::create_dir_all(&out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
            Vec::new()
        }
    };
    // The lines again for the placements, after the run's own requests.
    let lines = files.clone();
    let mut planned = plan(files, shard, known);
    let sending = planned.iter().any(Planned::sends);

    let started = chrono::Local::now();
    let wall = std::time::Instant::now();
    let mut meta = Meta {
        target: label.clone(),
        platform: None,
        cycle_accurate: None,
        cpu_hz: None,
        overhead: None,
        max_message: None,
        firmware_revision: revision.clone(),
        started: started.to_rfc3339(),
        files: args.files.clone(),
        instances: None,
        link: args.target.link_name(),
        wall_seconds: None,
        simulated_cycles: None,
        requests: 0,
        ok: 0,
        unsupported: 0,
        failed: 0,
        interrupted: false,
        finished: false,
        shard: (shard != Shard::WHOLE).then(|| shard.into()),
        inputs,
        hello: None,
        merged_from: Vec::new(),
        implementations: implementations.clone(),
        layout_pad: Layout::from_env()?.pad,
        // The tool builds the image unless it runs a board or an ELF given with --firmware
        // (--impl builds one, which it then starts as if given); the digest follows connect.
        build: meta::Build::compilers(
            sending && args.target.port.is_none() && (args.target.firmware.is_none() || !implementations.is_empty()),
        ),
    };
    if let Some(before) = &resuming {
        meta.started = before.started.clone();
        meta.hello = before.hello.clone();
        if !sending {
            // Nothing is built or measured: the records are all the earlier sessions'.
            meta.build = before.build.clone();
        }
        if before.layout_pad != meta.layout_pad {
            bail!(
                "{} was measured with {} bytes of layout padding, this run has {}: set {} as it was",
                out_dir.display(),
                before.layout_pad,
                meta.layout_pad,
                crate::firmware::layout::PAD_VAR
            );
        }
    }
    fill_hello(&mut meta);
    meta.write(&out_dir)?;

    let (mut pool, symbols, count) = if sending {
        let count = instances(&args)?;
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
        meta.build.image_sha256 = elf.as_deref().map(meta::digest).transpose()?;
        if let Some(before) = &resuming {
            resume::same_build(&out_dir, &before.build, &meta.build)?;
        }
        let mut pool = Pool::new(sessions);
        if args.target.port.is_none() {
            let first = pool.hello().clone();
            pool.restart_with(restart(&args, first)?);
        }
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
        let hello = pool.hello().clone();
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
        if let Some(before) = meta.hello.as_ref().filter(|h| **h != hello) {
            bail!(
                "{} was measured on a suite that announced {}, this one announces {}: resume it where it \
                 was measured",
                out_dir.display(),
                serde_json::to_string(before)?,
                serde_json::to_string(&hello)?
            );
        }
        meta.hello = Some(hello);
        fill_hello(&mut meta);
        meta.instances = Some(count);
        meta.write(&out_dir)?;
        (Some(pool), symbols, count)
    } else {
        (None, None, 0)
    };
    if !sending {
        let before = resuming.as_ref().and_then(|m| m.instances);
        meta.instances = before.or(Some(count));
    }
    let (hello, build) = (meta.hello.clone(), meta.build.clone());
    let writing = Writing {
        out_dir: &out_dir,
        label: &label,
        revision: &revision,
        symbols: symbols.as_ref(),
        hello: hello.as_ref(),
        implementations: &implementations,
        layout_pad: meta.layout_pad,
        build: &build,
    };
    if !sending {
        for planned in &mut planned {
            // Nothing to send: no suite to ask for a status.
            if let Closing::Ask { prior } = planned.closing {
                planned.closing = Closing::Known(Some(format!(
                    "{}{} served, {} errors",
                    previous::DONE_PREFIX,
                    prior.0,
                    prior.1
                )));
            }
        }
    }
    // From here on run.json counts every record as it arrives, and says interrupted as soon
    // as a signal does: a second signal or a kill leaves it true to what is on disk.
    let run_json = RunJson::new(&out_dir, &meta);
    let watching = run_json.watch_signals();
    let mut written = write_counted(&writing, &planned, pool.as_mut(), Some(run_json))?;
    drop(pool);
    // Also when nothing was sent: a run stopped during its placements pass is resumed with
    // every line known and its placements still to measure.
    if placements::measure(&args, &lines, &mut written.all)? {
        // Every record again, the ones with placements now carrying them: new files renamed
        // over the old ones, so that a kill now leaves one whole version or the other.
        ResultsWriter::replace(&out_dir, &written.all)?;
    }

    let earlier = resuming.as_ref();
    let wall_seconds = wall.elapsed().as_secs_f64() + earlier.and_then(|m| m.wall_seconds).unwrap_or(0.0);
    meta.wall_seconds = Some((wall_seconds * 10.0).round() / 10.0);
    // Run-level facts, for tool-speed figures: the suite's cycle counter at the last status
    // counts every simulated cycle since reset.
    meta.simulated_cycles = match (written.last_cycles, earlier.and_then(|m| m.simulated_cycles)) {
        (Some(now), before) => Some(now + before.unwrap_or(0)),
        (None, before) => before,
    };
    // No signal may write run.json over the one the session ends with.
    drop(watching);
    let succeeded = conclude(&out_dir, &mut meta, &written.all, args.no_report)?;
    if meta.finished && resuming.is_some() {
        resume::forget_earlier(&out_dir)?;
    }
    Ok(succeeded)
}

/// Copies the facts of the suite's hello into the fields `run.json` has always had.
fn fill_hello(meta: &mut Meta) {
    if let Some(hello) = &meta.hello {
        meta.platform = Some(hello.platform.clone());
        meta.cycle_accurate = Some(hello.cycle_accurate);
        meta.cpu_hz = Some(hello.cpu_hz);
        meta.overhead = Some(hello.overhead);
        meta.max_message = Some(hello.max_message);
    }
}

/// What to do with every line of `files` in a session that runs `shard`, given what an earlier
/// session left (`known`, per file; empty for a fresh run). A unit is run again unless every
/// line of it got its answer.
pub(crate) fn plan(files: Vec<(PathBuf, Vec<Line>)>, shard: Shard, mut known: Vec<KnownFile>) -> Vec<Planned> {
    let numbered = {
        let lines: Vec<&[Line]> = files.iter().map(|(_, l)| l.as_slice()).collect();
        units::number(&lines)
    };
    known.resize_with(files.len(), KnownFile::default);
    // Units with a line that is not settled.
    let mut open = std::collections::HashSet::new();
    for (((_, lines), units), k) in files.iter().zip(&numbered).zip(&known) {
        let record_lines = lines.iter().filter(|l| units::is_record_line(l));
        for (r, line) in record_lines.enumerate() {
            let settled = k.lines.get(r).and_then(Option::as_ref).is_some_and(|k| k.settled(line));
            if !settled {
                open.insert(units[r]);
            }
        }
    }
    files
        .into_iter()
        .zip(numbered)
        .zip(known)
        .map(|(((path, lines), units), k)| {
            let mut prior = (0, 0);
            let mut all_known = true;
            let mut lines_known = k.lines.into_iter();
            let todo: Vec<Todo> = units
                .iter()
                .map(|&unit| {
                    let known = lines_known.next().flatten();
                    if !shard.owns(unit) {
                        return Todo::Skip;
                    }
                    match known {
                        Some(known) if !open.contains(&unit) => {
                            let (served, errors) = known.counted();
                            prior = (prior.0 + served, prior.1 + errors);
                            Todo::Known(Box::new(known))
                        }
                        _ => {
                            all_known = false;
                            Todo::Send
                        }
                    }
                })
                .collect();
            let closing = match k.done {
                Some(line) if all_known && !todo.is_empty() => Closing::Known(Some(line)),
                _ => Closing::Ask { prior },
            };
            Planned {
                path,
                lines,
                todo,
                closing,
            }
        })
        .collect()
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
        Some(Check::Unverified) => ", unverified (no reference algorithm and no vectors of its own)",
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
