//! `cyclebench reference`: reference documents generated from the tool's own definitions, so
//! that they cannot say other than what the tool does. `docs/cli.md` is rendered here; the
//! tests beside it check the hand-written `docs/bench-format.md` and `docs/results-format.md`
//! against the parser's and the writer's own lists of names.

#[cfg(test)]
mod bench_format;
mod cli;
#[cfg(test)]
mod document;
#[cfg(test)]
mod results_format;

use anyhow::Result;
use clap::CommandFactory;

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
}

/// Prints the document asked for.
pub fn run(args: Args) -> Result<bool> {
    match args.document {
        Document::Cli => print!("{}", cli::render(crate::Cli::command())),
    }
    Ok(true)
}
