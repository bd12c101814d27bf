//! Renders the report model through the Markdown and HTML templates (minijinja). The
//! templates only lay out; every number comes from the model, formatted by the filters here,
//! so both files show the same figures.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use minijinja::syntax::SyntaxConfig;
use minijinja::value::Serde;
use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;

use super::model::Report;
use super::plots::Plot;

const MARKDOWN: &str = include_str!("templates/report.md.j2");
const HTML: &str = include_str!("templates/report.html.j2");

#[derive(Serialize)]
struct Page<'a> {
    r: &'a Report,
    /// Plot name → SVG document, for the HTML report to embed.
    svg: BTreeMap<&'a str, &'a str>,
}

/// The template environment every generated document starts from: an undefined name fails
/// the render (a misspelt field must not print nothing), and block tags leave no blank lines.
pub fn strict_environment() -> Result<Environment<'static>> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_syntax(
        SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .build()
            .context("template syntax")?,
    );
    Ok(env)
}

fn environment() -> Result<Environment<'static>> {
    let mut env = strict_environment()?;
    env.add_filter("cycles", cycles);
    env.add_filter("fixed", fixed);
    env.add_filter("cell", cell);
    // Escaping follows the name: HTML-escaped for `.html.j2`, verbatim for `.md.j2`.
    env.add_template("report.md.j2", MARKDOWN)
        .context("loading report.md.j2")?;
    env.add_template("report.html.j2", HTML)
        .context("loading report.html.j2")?;
    for (name, text) in super::views::templates() {
        let context = format!("loading {name}");
        env.add_template_owned(name, text).context(context)?;
    }
    Ok(env)
}

/// A cycle count; nothing when the count was not measured.
fn cycles(value: Option<u64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// A number with `places` decimals (2 by default); nothing when it was not measured. A value
/// that rounds to zero has no sign (a fit's residual of -0.00 % is none).
fn fixed(value: Option<f64>, places: Option<usize>) -> String {
    value
        .map(|v| {
            let text = format!("{v:.*}", places.unwrap_or(2));
            match text.strip_prefix('-') {
                Some(unsigned) if unsigned.chars().all(|c| c == '0' || c == '.') => unsigned.to_owned(),
                _ => text,
            }
        })
        .unwrap_or_default()
}

/// Text safe inside a Markdown table cell: no column breaks, no line breaks.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

fn render(name: &str, report: &Report, plots: &[Plot]) -> Result<String> {
    let env = environment()?;
    let svg = plots.iter().map(|p| (p.name.as_str(), p.svg.as_str())).collect();
    let ctx = Page { r: report, svg };
    env.get_template(name)
        .and_then(|t| t.render(minijinja::Value::from(Serde(&ctx))))
        .with_context(|| format!("rendering {name}"))
}

/// `report.md`: tables, and the plots as PNG files under `plots/` with links to the SVGs.
pub fn markdown(report: &Report) -> Result<String> {
    render("report.md.j2", report, &[])
}

/// `report.html`: one self-contained page with the plots embedded as inline SVG.
pub fn html(report: &Report, plots: &[Plot]) -> Result<String> {
    render("report.html.j2", report, plots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmeasured_numbers_print_as_nothing() {
        assert_eq!(cycles(None), "");
        assert_eq!(cycles(Some(42)), "42");
        assert_eq!(fixed(Some(126.5703), None), "126.57");
        assert_eq!(fixed(Some(2.0), Some(3)), "2.000");
        assert_eq!(fixed(None, None), "");
        assert_eq!(fixed(Some(-0.0001), None), "0.00");
        assert_eq!(fixed(Some(-0.004), Some(0)), "0");
        assert_eq!(fixed(Some(-0.5), Some(1)), "-0.5");
    }

    #[test]
    fn table_cells_cannot_break_a_markdown_table() {
        assert_eq!(cell("a | b\nc"), "a \\| b c");
    }
}
