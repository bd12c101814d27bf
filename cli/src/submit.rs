//! `cyclebench submit slurm`: the batch scripts that run a set as N shards on a Slurm cluster
//! and merge them. Slurm does the scheduling, the placement and the requeueing of the tasks of
//! a node that died; the scripts only say what each job runs:
//!
//! 1. a build job: the host tool, the model and the firmware, once, into a cache directory every
//!    node sees;
//! 2. an array job, one task per shard (`--requeue`), after the build: `run --shard i/N`, or
//!    `run --resume` of the task's own directory when Slurm runs the task again;
//! 3. a merge job after every task has ended, which names any unit still missing.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::firmware;
use crate::target::{LinkKind, Target};

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

/// Everything the scripts name.
struct Jobs {
    repo: PathBuf,
    here: PathBuf,
    out: PathBuf,
    cache: PathBuf,
    target: &'static str,
    link: Option<String>,
    files: Vec<String>,
    shards: u32,
    cpus: u32,
    partition: Option<String>,
    time: Option<String>,
}

/// A word for bash, single-quoted.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

fn q(path: &Path) -> String {
    quote(&path.display().to_string())
}

impl Jobs {
    /// The `#SBATCH` lines and start every script shares.
    fn header(&self, name: &str, log: &str) -> String {
        let mut s = String::from("#!/usr/bin/env bash\n");
        let _ = writeln!(s, "#SBATCH --job-name=cyclebench-{name}");
        let _ = writeln!(
            s,
            "#SBATCH --output={}",
            self.out.join("slurm/logs").join(log).display()
        );
        let _ = writeln!(s, "#SBATCH --chdir={}", self.here.display());
        let _ = writeln!(s, "#SBATCH --cpus-per-task={}", self.cpus);
        if let Some(p) = &self.partition {
            let _ = writeln!(s, "#SBATCH --partition={p}");
        }
        if let Some(t) = &self.time {
            let _ = writeln!(s, "#SBATCH --time={t}");
        }
        s
    }

    fn environment(&self) -> String {
        format!(
            "set -euo pipefail\n# Models are built into, and found in, the cache every node sees.\nexport CYCLEBENCH_CACHE={}\ncli={}\n",
            q(&self.cache),
            q(&self.repo.join("target/release/cyclebench"))
        )
    }

    fn target_options(&self) -> String {
        let mut s = format!("--target {}", self.target);
        if let Some(link) = &self.link {
            let _ = write!(s, " --link {link}");
        }
        s
    }

    fn build(&self) -> String {
        let mut s = self.header("build", "build-%j.log");
        s.push_str(&self.environment());
        let _ = writeln!(s, "export CYCLEBENCH_JOBS=\"${{SLURM_CPUS_PER_TASK:-1}}\"");
        let _ = writeln!(
            s,
            "(cd {} && cargo build --release --quiet -p cyclebench)",
            q(&self.repo)
        );
        let _ = writeln!(s, "\"$cli\" prepare {}", self.target_options());
        s
    }

    fn shard(&self) -> String {
        let mut s = self.header("shards", "shard-%a-%A.log");
        let _ = writeln!(s, "#SBATCH --array=0-{}", self.shards - 1);
        // A task run again writes on after its first attempt's log.
        s.push_str("#SBATCH --requeue\n#SBATCH --open-mode=append\n");
        s.push_str(&self.environment());
        let _ = writeln!(s, "dir={}/\"$SLURM_ARRAY_TASK_ID\"", q(&self.out.join("shards")));
        s.push_str("jobs=\"${SLURM_CPUS_PER_TASK:-1}\"\n");
        s.push_str(
            "# A task Slurm runs again (its node died, it was preempted) continues what it measured.\n\
             if [ -e \"$dir/run.json\" ]; then\n  echo \"shard $SLURM_ARRAY_TASK_ID: resuming $dir (restart ${SLURM_RESTART_COUNT:-0})\"\n  exec \"$cli\" run --resume \"$dir\" --jobs \"$jobs\" --no-report\nfi\n",
        );
        let files: Vec<String> = self.files.iter().map(|f| quote(f)).collect();
        let _ = writeln!(
            s,
            "exec \"$cli\" run {} --shard \"$SLURM_ARRAY_TASK_ID/{}\" --out \"$dir\" --jobs \"$jobs\" --no-report {}",
            self.target_options(),
            self.shards,
            files.join(" ")
        );
        s
    }

    fn merge(&self) -> String {
        let mut s = self.header("merge", "merge-%j.log");
        s.push_str(&self.environment());
        let _ = writeln!(s, "shards=()");
        let _ = writeln!(s, "for i in $(seq 0 {}); do", self.shards - 1);
        let _ = writeln!(
            s,
            "  [ -d {}/\"$i\" ] && shards+=({}/\"$i\")",
            q(&self.out.join("shards")),
            q(&self.out.join("shards"))
        );
        s.push_str("done\n");
        s.push_str("# Names every unit no shard finished, with the command that runs it.\n");
        let _ = writeln!(
            s,
            "exec \"$cli\" merge \"${{shards[@]}}\" --out {}",
            q(&self.out.join("merged"))
        );
        s
    }

    fn submit(&self) -> String {
        let slurm = self.out.join("slurm");
        format!(
            "#!/usr/bin/env bash\n\
             # Submits the build job, the shards after it, and the merge after every shard ended.\n\
             set -euo pipefail\n\
             build=$(sbatch --parsable {build})\n\
             shards=$(sbatch --parsable --dependency=afterok:\"${{build%%;*}}\" --kill-on-invalid-dep=yes {shards})\n\
             merge=$(sbatch --parsable --dependency=afterany:\"${{shards%%;*}}\" --kill-on-invalid-dep=yes {merge})\n\
             echo \"submitted: build job ${{build%%;*}}, shard array ${{shards%%;*}}, merge job ${{merge%%;*}}\"\n\
             echo \"merged results will be in {merged}\"\n",
            build = q(&slurm.join("build.sbatch")),
            shards = q(&slurm.join("shards.sbatch")),
            merge = q(&slurm.join("merge.sbatch")),
            merged = self.out.join("merged").display(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs() -> Jobs {
        Jobs {
            repo: PathBuf::from("/repo"),
            here: PathBuf::from("/work"),
            out: PathBuf::from("/shared/run"),
            cache: PathBuf::from("/shared/cache"),
            target: "qemu-virt",
            link: None,
            files: vec![String::from("benchmarks/sha2.bench"), String::from("it's.bench")],
            shards: 4,
            cpus: 2,
            partition: Some(String::from("short")),
            time: None,
        }
    }

    #[test]
    fn the_array_has_one_requeued_task_per_shard_which_resumes_when_run_again() {
        let s = jobs().shard();
        assert!(s.contains("#SBATCH --array=0-3\n#SBATCH --requeue\n"), "{s}");
        assert!(
            s.contains("#SBATCH --cpus-per-task=2\n#SBATCH --partition=short\n"),
            "{s}"
        );
        assert!(s.contains("export CYCLEBENCH_CACHE='/shared/cache'"), "{s}");
        assert!(s.contains("run --resume \"$dir\" --jobs \"$jobs\""), "{s}");
        assert!(
            s.contains(
                "run --target qemu-virt --shard \"$SLURM_ARRAY_TASK_ID/4\" --out \"$dir\" --jobs \"$jobs\" \
                 --no-report 'benchmarks/sha2.bench' 'it'\\''s.bench'"
            ),
            "{s}"
        );
    }

    #[test]
    fn the_jobs_depend_on_each_other() {
        let j = jobs();
        let submit = j.submit();
        assert!(submit.contains("--dependency=afterok:\"${build%%;*}\""), "{submit}");
        assert!(submit.contains("--dependency=afterany:\"${shards%%;*}\""), "{submit}");
        assert!(j.build().contains("\"$cli\" prepare --target qemu-virt"));
        assert!(j.merge().contains("merge \"${shards[@]}\" --out '/shared/run/merged'"));
    }
}
