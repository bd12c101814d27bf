//! The options of `cyclebench run` a submission passes on to every shard's command: how long a
//! shard waits for its target, how often it sends a request again, whether large sweeps may
//! run, and what it runs besides the suite. The batch job runs on a node where no one can add
//! them by hand, so whatever `run` would need there must be said at submission.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};
use cyclebench_protocol::IMPL_FIELD;

use crate::bench_file::SWEEP_REQUESTS_WITHOUT_YES;
use crate::targets::timeout_seconds;

/// The `run` options of every shard, spelt and checked as `run` spells and checks them.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct RunOptions {
    /// Seconds each shard waits for the reply to one request (`run --timeout`; not the job's
    /// time limit, which is --time) [default: the target's, as for `run`]
    #[arg(long, value_name = "SECONDS", value_parser = timeout_seconds)]
    timeout: Option<Duration>,
    /// Seconds each shard waits for the suite's hello (`run --hello-timeout`) [default: the
    /// target's, as for `run`]
    #[arg(long, value_name = "SECONDS", value_parser = timeout_seconds)]
    hello_timeout: Option<Duration>,
    /// Most times a shard sends one request when the link loses or damages it (`run
    /// --attempts`) [default: as for `run`]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    attempts: Option<u32>,
    // The help names the threshold from its one definition.
    #[arg(long, help = format!(
        "Let every shard run files whose sweeps expand to more than {SWEEP_REQUESTS_WITHOUT_YES} requests (`run --yes`)"
    ))]
    yes: bool,
    /// An implementation folder from outside the tree for every shard's image (`run --impl`),
    /// named as the jobs see it from this directory; repeat for several
    #[arg(long = IMPL_FIELD, value_name = "DIR", conflicts_with = "firmware")]
    implementations: Vec<PathBuf>,
    /// A suite ELF every shard runs instead of the firmware the build job builds (`run
    /// --firmware`), named as the jobs see it from this directory
    #[arg(long, value_name = "ELF")]
    firmware: Option<PathBuf>,
}

impl RunOptions {
    /// Refuses folders and files that are not there: a shard would fail on each node only
    /// after the build job ran.
    pub fn check(&self) -> Result<()> {
        for folder in &self.implementations {
            if !folder.is_dir() {
                bail!("--{IMPL_FIELD} {}: not a directory", folder.display());
            }
        }
        if let Some(elf) = &self.firmware {
            if !elf.is_file() {
                bail!("--firmware {}: not a file", elf.display());
            }
        }
        Ok(())
    }

    /// The options as the words of a `run` command line, each given one only.
    pub fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        let mut option = |name: &str, value: Option<String>| {
            words.push(format!("--{name}"));
            words.extend(value);
        };
        if let Some(timeout) = self.timeout {
            option("timeout", Some(seconds(timeout)));
        }
        if let Some(timeout) = self.hello_timeout {
            option("hello-timeout", Some(seconds(timeout)));
        }
        if let Some(attempts) = self.attempts {
            option("attempts", Some(attempts.to_string()));
        }
        if self.yes {
            option("yes", None);
        }
        for folder in &self.implementations {
            option(IMPL_FIELD, Some(folder.display().to_string()));
        }
        if let Some(elf) = &self.firmware {
            option("firmware", Some(elf.display().to_string()));
        }
        words
    }
}

/// A duration as `run` reads it back: whole seconds as an integer (`7200`), else a decimal.
fn seconds(duration: Duration) -> String {
    format!("{}", duration.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        options: RunOptions,
    }

    fn words(args: &[&str]) -> Result<Vec<String>, String> {
        Cli::try_parse_from(std::iter::once("slurm").chain(args.iter().copied()))
            .map(|cli| cli.options.words())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn each_option_given_is_passed_on_as_run_spells_it() {
        assert_eq!(words(&[]).unwrap(), Vec::<String>::new());
        let given = [
            "--timeout",
            "7200",
            "--hello-timeout",
            "2.5",
            "--attempts",
            "3",
            "--yes",
            "--impl",
            "a",
            "--impl",
            "b",
        ];
        assert_eq!(words(&given).unwrap(), given);
        assert_eq!(
            words(&["--firmware", "suite.elf"]).unwrap(),
            ["--firmware", "suite.elf"]
        );
    }

    #[test]
    fn what_run_would_refuse_is_refused_at_submission() {
        for (args, needle) in [
            (&["--timeout", "0"][..], "more than 0"),
            (&["--attempts", "0"], "--attempts"),
            (&["--impl", "a", "--firmware", "b"], "cannot be used with"),
        ] {
            let e = words(args).unwrap_err();
            assert!(e.contains(needle), "{args:?}: {e}");
        }
        let missing = RunOptions {
            implementations: vec![PathBuf::from("no/such/folder")],
            ..RunOptions::default()
        };
        assert!(missing.check().unwrap_err().to_string().contains("no/such/folder"));
    }
}
