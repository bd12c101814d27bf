//! `cyclebench`: runs benchmark description files on a target (a simulator it starts itself
//! or a board on a serial port) and records every result.

mod bench_file;
mod compare;
mod firmware;
mod history;
mod implementation;
mod link;
mod merge;
mod prepare;
mod reference;
mod report;
mod results;
mod run;
mod selftest;
mod session;
mod signals;
mod study;
mod submit;
mod summary;
mod targets;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Cycle-accurate benchmarking of security-critical operations on RISC-V roots of trust.
#[derive(Parser)]
#[command(name = "cyclebench", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run .bench files on a target (or one shard of them) and write a results directory.
    Run(run::Args),
    /// Put the results directories of a run's shards together into one.
    Merge(merge::Args),
    /// Write (and with --now submit) the batch jobs that run files as shards on a cluster.
    Submit(submit::Args),
    /// Build the model and the firmware a run on a target needs, or a board's image, without
    /// running anything.
    Prepare(prepare::Args),
    /// Build the suite's self-test firmware, run it on a target and report its verdict.
    Selftest(selftest::Args),
    /// Write report.md and report.html with plots for a results directory.
    Report(report::Args),
    /// Compare two results directories benchmark by benchmark.
    Compare(compare::Args),
    /// Write one page of every benchmark's cycles over a series of runs, marking each step
    /// from one run to the next that the gate of `compare --fail-above` would fail.
    History(history::Args),
    /// Render reproduction studies (a template and its reference figures each) over results
    /// directories into one document (docs/reproduction.md).
    Study(study::Args),
    /// Print a reference document generated from the tool's own definitions (docs/cli.md).
    #[command(hide = true)]
    Reference(reference::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(e) = signals::install() {
        eprintln!("error: {e:#}");
        return ExitCode::from(2);
    }
    let outcome = match cli.command {
        Command::Run(args) => run::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Submit(args) => submit::run(args),
        Command::Prepare(args) => prepare::run(args),
        Command::Selftest(args) => selftest::run(args),
        Command::Report(args) => report::run(args),
        Command::Compare(args) => compare::run(args),
        Command::History(args) => history::run(args),
        Command::Study(args) => study::run(args),
        Command::Reference(args) => reference::run(args),
    };
    let code = match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    };
    // A run stopped by a signal has written what it finished; it still ends as the signal
    // would have ended it, never with success.
    if let Some(signal) = signals::received() {
        signals::terminate(signal);
    }
    code
}
