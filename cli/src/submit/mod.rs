//! `cyclebench submit slurm`: the batch scripts that run a set as N shards on a Slurm cluster
//! and merge them. Slurm does the scheduling, the placement and the requeueing of the tasks of
//! a node that died; the scripts only say what each job runs:
//!
//! 1. a build job: the host tool, the model and the firmware, once, into a cache directory every
//!    node sees;
//! 2. an array job, one task per shard (`--requeue`), after the build: `run --shard i/N`, or
//!    `run --resume` of the task's own directory when Slurm runs the task again;
//! 3. a merge job after every task has ended, which names any unit still missing.
//!
//! Both commands of a shard carry the `run` options given at submission ([`RunOptions`]).

mod run_options;
mod scripts;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::firmware;
use crate::targets::{LinkKind, Target};
use run_options::RunOptions;
use scripts::Jobs;

/// Arguments of `cyclebench submit`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    scheduler: Scheduler,
}

/// The schedulers `submit` writes jobs for.
#[derive(clap::Subcommand)]
enum Scheduler {
    /// Slurm: a build job, an array job of shards, a merge job (sbatch scripts).
    Slurm(SlurmArgs),
}

/// Arguments of `cyclebench submit slurm`.
#[derive(clap::Args)]
pub struct SlurmArgs {
    /// Benchmark description files (.bench), named as the jobs see them from this directory.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Parts to cut the run into, one array task each.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10000))]
    shards: u32,
    /// Target every shard runs on. Default: earlgrey-sim-unmasked, as for `run`.
    #[arg(long, value_enum)]
    target: Option<Target>,
    /// Host link on a simulated Earl Grey.
    #[arg(long, value_enum)]
    link: Option<LinkKind>,
    /// Slurm partition of every job.
    #[arg(long)]
    partition: Option<String>,
    /// CPUs of each shard's task; the shard runs as many instances of the target (--jobs).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    cpus_per_task: u32,
    /// Time limit of each job (Slurm's --time, e.g. 2:00:00).
    #[arg(long)]
    time: Option<String>,
    /// Cache directory on storage every node sees, where the build job puts the models and
    /// the shards find them (the per-user ~/.cache/cyclebench of one node is no use to another).
    #[arg(long, env = "CYCLEBENCH_CACHE")]
    cache: PathBuf,
    /// Directory of the run, on storage every node sees: `slurm/` (scripts, logs),
    /// `shards/<i>/` (each shard's results) and `merged/` (default: results/<timestamp>-<target>-slurm/).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Submit the jobs with sbatch now, rather than only writing the scripts.
    #[arg(long)]
    now: bool,
    #[command(flatten)]
    run: RunOptions,
}

/// Writes (and with `--now` submits) the jobs.
pub fn run(args: Args) -> Result<bool> {
    let Scheduler::Slurm(args) = args.scheduler;
    let target = args.target.as_ref().unwrap_or_else(|| Target::default_target());
    target.link(args.link)?;
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("results").join(format!(
            "{}-{}-slurm",
            chrono::Local::now().format("%Y%m%d-%H%M%S"),
            target.name
        ))
    });
    for file in &args.files {
        if !file.is_file() {
            bail!("{} is not a file", file.display());
        }
    }
    args.run.check()?;
    let here = std::env::current_dir().context("the current directory")?;
    let absolute = |p: &Path| if p.is_absolute() { p.to_path_buf() } else { here.join(p) };
    let jobs = Jobs {
        repo: firmware::repo_root(),
        here: here.clone(),
        out: absolute(&out),
        cache: absolute(&args.cache),
        target: target.name,
        link: args.link.map(|l| format!("{l:?}").to_lowercase()),
        files: args.files.iter().map(|f| f.display().to_string()).collect(),
        run_options: args.run.words(),
        shards: args.shards,
        cpus: args.cpus_per_task,
        partition: args.partition.clone(),
        time: args.time.clone(),
    };
    let slurm = jobs.out.join("slurm");
    std::fs::create_dir_all(slurm.join("logs")).with_context(|| format!("creating {}", slurm.display()))?;
    for (name, text) in [
        ("build.sbatch", jobs.build()),
        ("shards.sbatch", jobs.shard()),
        ("merge.sbatch", jobs.merge()),
        ("submit.sh", jobs.submit()),
    ] {
        let path = slurm.join(name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    let submit = slurm.join("submit.sh");
    if !args.now {
        println!(
            "wrote {}/{{build,shards,merge}}.sbatch; submit them with: bash {}",
            slurm.display(),
            submit.display()
        );
        return Ok(true);
    }
    let status = Command::new("bash")
        .arg(&submit)
        .status()
        .with_context(|| format!("running {}", submit.display()))?;
    if !status.success() {
        bail!(
            "submitting the jobs failed ({status}); the scripts are in {}",
            slurm.display()
        );
    }
    Ok(true)
}
