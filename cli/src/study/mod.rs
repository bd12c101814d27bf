//! `cyclebench study render`: studies written as data, rendered over results directories.
//!
//! A study is a directory of two files: `study.md.j2`, a minijinja template that writes the
//! study's part of the document, and `reference.toml`, the published figures it compares with
//! (each with its source) and, under `[study]`, the results it reads and the chips whose facts
//! it uses. A chip's facts (bus and IP timings, the model's identity) are in
//! `chips/<chip>.toml` beside the studies, shared by every study of that chip. The template
//! selects records by their structured fields and computes and words every comparison with the
//! generic functions of [`functions`]; nothing in this module knows a study, a benchmark kind
//! or a primitive. `docs/studies.md` describes the format.

mod chip_bound;
mod functions;
mod records;
mod speed;
#[cfg(test)]
mod testdata;
mod wording;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use minijinja::{Environment, Value};
use serde::Deserialize;

use records::Run;

/// Arguments of `cyclebench study`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Render studies (template + reference figures) over results directories into one
    /// Markdown document.
    Render(RenderArgs),
}

/// Arguments of `cyclebench study render`.
#[derive(clap::Args)]
struct RenderArgs {
    /// Study directories, each holding `study.md.j2` and `reference.toml` (e.g.
    /// `studies/thesis`; docs/studies.md describes both), rendered in this order.
    #[arg(required = true, value_name = "STUDY")]
    studies: Vec<PathBuf>,
    /// A results directory under the name the studies read it by, `NAME=DIR` (e.g.
    /// `unmasked=results/reproduction/unmasked`); once per name. Each study's
    /// `reference.toml` lists the names it needs and those it can do without.
    #[arg(long = "results", value_name = "NAME=DIR", value_parser = named_results)]
    results: Vec<(String, PathBuf)>,
    /// The document's title, its one `#` heading.
    #[arg(long, default_value = "Reproduction of the published measurements")]
    title: String,
    /// Output file (default: standard output). Plots go to `figures/` beside it; none are
    /// drawn without it.
    #[arg(long)]
    out: Option<PathBuf>,
}

fn named_results(text: &str) -> Result<(String, PathBuf), String> {
    match text.split_once('=') {
        Some((name, dir)) if !name.is_empty() && !dir.is_empty() => Ok((name.to_owned(), PathBuf::from(dir))),
        _ => Err(format!("expected NAME=DIR, got {text:?}")),
    }
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<bool> {
    match args.command {
        Command::Render(args) => render_command(args),
    }
}

fn render_command(args: RenderArgs) -> Result<bool> {
    let figures = args
        .out
        .as_deref()
        .map(|out| out.parent().unwrap_or(Path::new(".")).join("figures"));
    let studies = args
        .studies
        .iter()
        .map(|dir| Study::load(dir))
        .collect::<Result<Vec<_>>>()?;
    let out = render(&args.title, &studies, &args.results, figures)?;
    match args.out {
        Some(path) => std::fs::write(&path, &out).with_context(|| format!("writing {}", path.display()))?,
        None => print!("{out}"),
    }
    Ok(true)
}

/// `[study]` of a `reference.toml`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Needs {
    /// Results names the study cannot do without.
    #[serde(default)]
    results: Vec<String>,
    /// Results names the study reads when given (none in the template otherwise).
    #[serde(default)]
    optional_results: Vec<String>,
    /// Chips whose facts the study reads (`chips/<name>.toml`), as `chips.<name>`.
    #[serde(default)]
    chips: Vec<String>,
}

/// One study, loaded.
struct Study {
    /// Its directory's name, which names it in messages.
    name: String,
    /// The template.
    template: String,
    /// `reference.toml` as a whole.
    reference: serde_json::Value,
    /// Its `[study]` table.
    needs: Needs,
    /// The facts of each chip it names.
    chips: BTreeMap<String, serde_json::Value>,
}

/// A TOML file as JSON.
fn read_toml(path: &Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let value: toml::Value = toml::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    serde_json::to_value(value).with_context(|| format!("reading {}", path.display()))
}

impl Study {
    fn load(dir: &Path) -> Result<Self> {
        let (template, reference) = (dir.join("study.md.j2"), dir.join("reference.toml"));
        if !template.is_file() || !reference.is_file() {
            bail!(
                "no study at {}: a study is a directory holding study.md.j2 and reference.toml",
                dir.display()
            );
        }
        let name = dir
            .canonicalize()
            .ok()
            .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| dir.display().to_string());
        let reference = read_toml(&reference)?;
        let needs: Needs = match reference.get("study") {
            Some(table) => serde_json::from_value(table.clone())
                .with_context(|| format!("[study] of {}/reference.toml", dir.display()))?,
            None => bail!("{}/reference.toml has no [study] table", dir.display()),
        };
        let chips_dir = dir.join("..").join("chips");
        let chips = needs
            .chips
            .iter()
            .map(|chip| Ok((chip.clone(), read_toml(&chips_dir.join(format!("{chip}.toml")))?)))
            .collect::<Result<_>>()
            .with_context(|| format!("the chips study {name} names"))?;
        Ok(Self {
            name,
            template: std::fs::read_to_string(&template).with_context(|| format!("reading {}", template.display()))?,
            reference,
            needs,
            chips,
        })
    }
}

fn environment(figures: Option<PathBuf>) -> Result<Environment<'static>> {
    let mut env = crate::report::render::strict_environment()?;
    functions::register(&mut env, figures);
    Ok(env)
}

/// The document: the title, then each study over the results it names.
fn render(title: &str, studies: &[Study], results: &[(String, PathBuf)], figures: Option<PathBuf>) -> Result<String> {
    let mut given: BTreeMap<&str, &Path> = BTreeMap::new();
    for (name, dir) in results {
        if given.insert(name, dir).is_some() {
            bail!("--results {name} given twice");
        }
    }
    for name in given.keys() {
        let read = |s: &Study| {
            s.needs
                .results
                .iter()
                .chain(&s.needs.optional_results)
                .any(|n| n == name)
        };
        if !studies.iter().any(read) {
            let known: Vec<String> = studies
                .iter()
                .map(|s| {
                    let names: Vec<&str> = s
                        .needs
                        .results
                        .iter()
                        .chain(&s.needs.optional_results)
                        .map(String::as_str)
                        .collect();
                    format!(
                        "{} reads {}",
                        s.name,
                        if names.is_empty() {
                            "none".into()
                        } else {
                            names.join(", ")
                        }
                    )
                })
                .collect();
            bail!(
                "--results {name}: no study given reads results of that name ({})",
                known.join("; ")
            );
        }
    }
    let mut runs: BTreeMap<&str, Arc<Run>> = BTreeMap::new();
    for (name, dir) in &given {
        let run = Run::load(dir).with_context(|| format!("--results {name}={}", dir.display()))?;
        runs.insert(name, Arc::new(run));
    }
    let env = environment(figures)?;
    let mut out = format!("# {title}\n\n");
    for study in studies {
        let mut visible = BTreeMap::new();
        for name in &study.needs.results {
            let run = runs.get(name.as_str()).with_context(|| {
                format!(
                    "study {} needs the results named {name}: pass --results {name}=DIR",
                    study.name
                )
            })?;
            visible.insert(name.clone(), Value::from_dyn_object(run.clone()));
        }
        for name in &study.needs.optional_results {
            let run = runs.get(name.as_str()).map(|r| Value::from_dyn_object(r.clone()));
            visible.insert(name.clone(), run.unwrap_or(Value::from(())));
        }
        let context = minijinja::context! {
            results => visible,
            reference => Value::from(minijinja::value::Serde(&study.reference)),
            chips => Value::from(minijinja::value::Serde(&study.chips)),
        };
        let text = env
            .render_named_str(&format!("{}/study.md.j2", study.name), &study.template, context)
            .map_err(|e| anyhow::anyhow!("{}", describe(&e)))
            .with_context(|| format!("rendering study {}", study.name))?;
        out.push_str(&text);
        if !out.ends_with("\n\n") {
            out.push('\n');
        }
    }
    // One newline at the end, however the last study ends.
    let end = out.trim_end().len();
    out.truncate(end);
    out.push('\n');
    Ok(out)
}

/// A template error with where it happened.
fn describe(e: &minijinja::Error) -> String {
    let mut text = e.to_string();
    if let (Some(name), Some(line)) = (e.name(), e.line()) {
        text = format!("{name}:{line}: {text}");
    }
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(&format!(": {s}"));
        source = s.source();
    }
    text
}
