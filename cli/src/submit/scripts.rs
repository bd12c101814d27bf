//! The text of the batch scripts of a submission: a build job, an array job of shards, a merge
//! job, and `submit.sh`, which submits them with their dependencies.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Everything the scripts name.
pub struct Jobs {
    /// The checkout the build job builds the tool in.
    pub repo: PathBuf,
    /// The directory the jobs run in, from which the files are named.
    pub here: PathBuf,
    /// The run's directory: scripts, logs, shards and the merged results.
    pub out: PathBuf,
    /// The cache of models every node sees.
    pub cache: PathBuf,
    /// The target every shard runs on.
    pub target: &'static str,
    /// The host link, where the target offers a choice.
    pub link: Option<String>,
    /// The `.bench` files.
    pub files: Vec<String>,
    /// The options of `run` every shard's command carries, as words.
    pub run_options: Vec<String>,
    /// Parts of the run, one array task each.
    pub shards: u32,
    /// CPUs of each task.
    pub cpus: u32,
    /// Slurm partition.
    pub partition: Option<String>,
    /// Slurm time limit of each job.
    pub time: Option<String>,
}

/// A word for bash, single-quoted.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A word for bash: as it is when the shell reads none of its characters specially
/// (`--timeout`, `7200`), else quoted.
fn word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_owned()
    } else {
        quote(text)
    }
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

    /// The `run` options of every shard, each word quoted, after a space; empty for none.
    fn run_options(&self) -> String {
        self.run_options.iter().map(|w| format!(" {}", word(w))).collect()
    }

    /// `build.sbatch`: the host tool, then the model and firmware (`prepare`), once.
    pub fn build(&self) -> String {
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

    /// `shards.sbatch`: one requeued array task per shard, which resumes when run again.
    pub fn shard(&self) -> String {
        let mut s = self.header("shards", "shard-%a-%A.log");
        let _ = writeln!(s, "#SBATCH --array=0-{}", self.shards - 1);
        // A task run again writes on after its first attempt's log.
        s.push_str("#SBATCH --requeue\n#SBATCH --open-mode=append\n");
        s.push_str(&self.environment());
        let _ = writeln!(s, "dir={}/\"$SLURM_ARRAY_TASK_ID\"", q(&self.out.join("shards")));
        s.push_str("jobs=\"${SLURM_CPUS_PER_TASK:-1}\"\n");
        s.push_str(
            "# A task Slurm runs again (its node died, it was preempted) continues what it measured.\n\
             if [ -e \"$dir/run.json\" ]; then\n  echo \"shard $SLURM_ARRAY_TASK_ID: resuming $dir (restart ${SLURM_RESTART_COUNT:-0})\"\n",
        );
        let _ = writeln!(
            s,
            "  exec \"$cli\" run --resume \"$dir\" --jobs \"$jobs\" --no-report{}\nfi",
            self.run_options()
        );
        let files: Vec<String> = self.files.iter().map(|f| quote(f)).collect();
        let _ = writeln!(
            s,
            "exec \"$cli\" run {} --shard \"$SLURM_ARRAY_TASK_ID/{}\" --out \"$dir\" --jobs \"$jobs\" --no-report{} {}",
            self.target_options(),
            self.shards,
            self.run_options(),
            files.join(" ")
        );
        s
    }

    /// `merge.sbatch`: the shards' directories merged, naming what is missing.
    pub fn merge(&self) -> String {
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

    /// `submit.sh`: the three jobs submitted, each after the one it needs.
    pub fn submit(&self) -> String {
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
            run_options: Vec::new(),
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
    fn both_commands_of_a_shard_carry_the_run_options() {
        let j = Jobs {
            run_options: ["--timeout", "7200", "--impl", "my impl"].map(String::from).to_vec(),
            ..jobs()
        };
        let s = j.shard();
        let runs: Vec<&str> = s.lines().filter(|l| l.contains("\"$cli\" run ")).collect();
        assert_eq!(runs.len(), 2, "{s}");
        for run in runs {
            assert!(run.contains(" --no-report --timeout 7200 --impl 'my impl'"), "{run}");
        }
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
