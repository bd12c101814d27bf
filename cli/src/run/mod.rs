//! `cyclebench run`: every line of every file to the suite, every reply to disk, in file
//! order, from one or several instances of the target. The pipeline: the command line resolved
//! once ([`config`]), the files read and every line planned ([`plan`], [`placements`]), the
//! image built ([`image`]), the placements measured, the instances started ([`connect`]), and
//! every line written as its answer comes in ([`write`]).

mod config;
mod connect;
mod image;
pub(crate) mod meta;
mod ordered;
pub(crate) mod placements;
pub(crate) mod plan;
mod pool;
pub(crate) mod previous;
mod recorder;
mod resume;
pub(crate) mod units;
mod write;

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use indicatif::ProgressBar;

use crate::bench_file::SWEEP_REQUESTS_WITHOUT_YES;
use crate::firmware;
use crate::firmware::layout::Layout;
use crate::firmware::symbols::Symbols;
use crate::session::DEFAULT_ATTEMPTS;
use crate::signals;
use crate::targets::TargetArgs;
use config::{ImageSource, RunConfig};
pub use meta::Meta;
pub(crate) use placements::Measured;
pub(crate) use plan::{distinct_files, read_files, Closing, Planned, Todo};
pub(crate) use pool::Pool;
pub(crate) use previous::KnownFile;
use recorder::RunJson;
pub use units::Shard;
pub(crate) use write::{conclude, write_files, Writing};

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

/// Runs the files; `Ok(false)` when any line failed.
pub fn run(args: Args) -> Result<bool> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let config = RunConfig::resolve(args, Layout::from_env()?, cores)?;
    if config.sharded || config.resuming.is_some() {
        distinct_files(&config.files)?;
    }
    let files = read_files(&config.files, config.yes)?;
    // An image with implementations is built before anything else: a mistake in the user's
    // code costs no time on the target.
    let built = match config.image {
        ImageSource::WithImplementations(_) => image::build(&config, &files, config.layout)?,
        _ => None,
    };
    let implementations = built.as_ref().map(|b| b.facts.clone()).unwrap_or_default();
    let elf = built.map(|b| b.elf);
    let inputs: Vec<String> = config.files.iter().map(|p| meta::digest(p)).collect::<Result<_>>()?;
    let label = config.label();
    let revision = match config.image {
        ImageSource::Board => String::from("external"),
        _ => firmware::revision(),
    };
    let known = take_out_dir(&config, &files, &label, &revision, &inputs)?;
    let mut planned = plan::plan(files.clone(), config.shard, known);
    for file in &mut planned {
        file.model = config.model.for_lines(&file.lines);
    }
    let sending = planned.iter().any(Planned::sends);
    let wall = std::time::Instant::now();
    let mut meta = Meta {
        firmware_revision: revision.clone(),
        started: chrono::Local::now().to_rfc3339(),
        link: config.target.link_name(),
        shard: (config.shard != Shard::WHOLE).then(|| config.shard.into()),
        inputs,
        implementations: implementations.clone(),
        layout_pad: config.layout.pad,
        models: planned
            .iter()
            .filter(|p| p.sends())
            .filter_map(|p| p.model.clone())
            .fold(Vec::new(), |mut m, v| {
                if !m.contains(&v) {
                    m.push(v);
                }
                m
            }),
        // The digest follows the start of the instances.
        build: meta::Build::compilers(sending && config.image.built_here()),
        ..Meta::new(&label, config.files.clone())
    };
    if let Some(before) = &config.resuming {
        meta.started = before.started.clone();
        meta.set_hello(before.hello.clone());
        if !sending {
            // Nothing is built or measured: the records are all the earlier sessions'.
            meta.build = before.build.clone();
        }
    }
    meta.write(&config.out_dir)?;

    // The placements first, so that each line's record is written once, complete.
    let placed = placements::measure(&config, &files, placements::plan(&planned), &config.out_dir)?;
    let (mut pool, symbols) = if sending && !signals::interrupted() {
        // The instances start on the model of the first file they serve.
        let first = planned.iter().find(|p| p.sends()).and_then(|p| p.model.clone());
        let (pool, symbols) = start(&config, elf, first, &mut meta)?;
        (Some(pool), symbols)
    } else {
        let before = config.resuming.as_ref().and_then(|m| m.instances);
        meta.instances = before.or(Some(0));
        for planned in &mut planned {
            // Nothing to send: no suite to ask for a status.
            if let Closing::Ask { prior } = planned.closing {
                planned.closing = Closing::Known(Some(previous::done_line(prior)));
            }
        }
        (None, None)
    };
    let (hello, build) = (meta.hello.clone(), meta.build.clone());
    let writing = Writing {
        out_dir: &config.out_dir,
        label: &label,
        revision: &revision,
        symbols: symbols.as_ref(),
        hello: hello.as_ref(),
        implementations: &implementations,
        layout_pad: meta.layout_pad,
        build: &build,
        placements: &placed,
    };
    // From here on run.json counts every record as it arrives, and says interrupted as soon
    // as a signal does: a second signal or a kill leaves it true to what is on disk.
    let run_json = RunJson::new(&config.out_dir, &meta);
    let watching = run_json.watch_signals();
    let written = write::write_counted(&writing, &planned, pool.as_mut(), Some(run_json))?;
    drop(pool);

    let earlier = config.resuming.as_ref();
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
    let succeeded = conclude(&config.out_dir, &mut meta, &written.all, config.no_report)?;
    if meta.finished {
        placements::forget(&config.out_dir)?;
        if earlier.is_some() {
            resume::forget_earlier(&config.out_dir)?;
        }
    }
    Ok(succeeded)
}

/// Makes the results directory ready: for a resumed run, checks that it may be continued and
/// returns what it knows (its files moved aside); else creates it, refusing a shard's
/// directory that holds a run already (a requeued task resumes it instead).
fn take_out_dir(
    config: &RunConfig,
    files: &[(PathBuf, Vec<crate::bench_file::Line>)],
    label: &str,
    revision: &str,
    inputs: &[String],
) -> Result<Vec<KnownFile>> {
    let out_dir = &config.out_dir;
    if let Some(meta) = &config.resuming {
        resume::check(out_dir, meta, label, revision, inputs, &config.files)?;
        return resume::take_over(out_dir, files);
    }
    if config.sharded && out_dir.join(meta::RUN_JSON).exists() {
        bail!(
            "{} already holds a run; continue it with --resume {}, or choose another --out",
            out_dir.display(),
            out_dir.display()
        );
    }
    std::fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    Ok(Vec::new())
}

/// Starts the run's instances on `elf` (or the image the configuration names) and the chip
/// variant `model`, with a pool that restarts a lost one and changes variants; records in
/// `meta` what answered and what it runs. Returns the pool and the image's symbols, for code
/// sizes.
fn start(
    config: &RunConfig,
    elf: Option<PathBuf>,
    model: Option<String>,
    meta: &mut Meta,
) -> Result<(Pool, Option<Symbols>)> {
    let count = config.instances;
    let many = if count > 1 {
        format!(" ({count} instances)")
    } else {
        String::new()
    };
    let spinner = ProgressBar::new_spinner().with_message(format!("starting {}{many} ...", config.label()));
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    let connected = connect::instances(config, elf.as_deref(), model.as_deref(), count);
    spinner.finish_and_clear();
    let (sessions, elf) = connected?;
    meta.build.image_sha256 = elf.as_deref().map(meta::digest).transpose()?;
    if let Some(before) = &config.resuming {
        resume::same_build(&config.out_dir, &before.build, &meta.build)?;
    }
    let mut pool = Pool::new(sessions, model);
    if config.image != ImageSource::Board {
        pool.start_with(connect::starter(config, elf.clone()));
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
            "{} was measured on a suite that announced {}, this one announces {}: resume it where it was \
             measured",
            config.out_dir.display(),
            serde_json::to_string(before)?,
            serde_json::to_string(&hello)?
        );
    }
    meta.set_hello(Some(hello));
    meta.instances = Some(count);
    meta.write(&config.out_dir)?;
    Ok((pool, symbols))
}

fn parse_fault_rate(text: &str) -> Result<f64, String> {
    let rate: f64 = text.parse().map_err(|e| format!("{e}"))?;
    if (0.0..=0.5).contains(&rate) {
        Ok(rate)
    } else {
        Err(format!("a fault rate is a fraction from 0 to 0.5, got {text}"))
    }
}
