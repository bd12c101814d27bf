//! `cyclebench reference`: reference documents generated from the tool's own definitions, so
//! that they cannot say other than what the tool does. `docs/cli.md` is rendered here; for the
//! hand-written `docs/bench-format.md` and `docs/results-format.md`, the parser's and the
//! writer's own lists of what those documents must name are printed as JSON, and the tests in
//! `cli/tests/reference_docs.rs` hold each document to what the tool prints.

mod bench_format;
mod cli;
mod results_format;

use anyhow::Result;
use clap::CommandFactory;
use serde::Serialize;

/// Arguments of `cyclebench reference`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    document: Document,
}

/// The documents `reference` renders.
#[derive(clap::Subcommand)]
enum Document {
    /// The command-line reference (docs/cli.md): every command, argument and option with its
    /// default, values and help, in Markdown on standard output.
    Cli,
    /// What docs/bench-format.md must name, as JSON: every kind with its options and the
    /// values the tool lists, every form of line, and the limits the tool enforces.
    BenchFormat,
    /// What docs/results-format.md must name, as JSON: every field a record can carry, the
    /// listed values of its fields, every results.csv column and every field of run.json.
    ResultsFormat,
}

/// Prints the document asked for.
pub fn run(args: Args) -> Result<bool> {
    match args.document {
        Document::Cli => print!("{}", cli::render(crate::Cli::command())),
        Document::BenchFormat => print_json(&bench_format::names())?,
        Document::ResultsFormat => print_json(&results_format::names()?)?,
    }
    Ok(true)
}

/// `value` as indented JSON on standard output.
fn print_json(value: &impl Serialize) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}
