//! Report sections of their own: a chart or table that only one benchmark kind has, one
//! module per kind. This file is the one place that says which kind has which view; a kind
//! without one is shown by the generic tables and charts alone.

mod implementation;
mod leakage;
mod pubkey;
mod software;

use cyclebench_protocol::BenchmarkKind;
use serde::Serialize;
use serde_json::Value;

use super::charts::SoftwareChart;
use crate::results::Record;

/// Every kind with a view of its own, in the order the report shows their sections.
const VIEWS: &[(BenchmarkKind, &dyn View)] = &[
    (BenchmarkKind::Software, &software::Primitives),
    (BenchmarkKind::Leakage, &leakage::Tests),
    (BenchmarkKind::Pubkey, &pubkey::HardwareAndSoftware),
    (BenchmarkKind::Implementation, &implementation::Outside),
];

/// A report section of one kind.
pub trait View: Sync {
    /// Its Markdown and HTML templates, which lay out [`Section::body`] as `v.body`; the
    /// report includes them as `views/<kind>.md.j2` and `views/<kind>.html.j2`.
    fn templates(&self) -> Templates;
    /// The section, worked out from the kind's measured records (and from every measured
    /// record, for a view that sets them against others); `None` when they give it nothing to
    /// show.
    fn section(&self, records: &[&Record], measured: &[&Record]) -> Option<Section>;
}

/// A view's Markdown and HTML templates.
#[derive(Clone, Copy, Debug)]
pub struct Templates {
    /// The Markdown template.
    pub markdown: &'static str,
    /// The HTML template.
    pub html: &'static str,
}

/// What one view shows in a report.
#[derive(Clone, Debug, Serialize)]
pub struct Section {
    /// Name of the Markdown template to include.
    pub markdown: String,
    /// Name of the HTML template to include.
    pub html: String,
    /// What its templates lay out.
    pub body: Value,
    /// Where the kind's records that process bytes are charted instead of the
    /// cycles-per-byte charts, for the note when those charts are empty.
    pub charted_elsewhere: Option<&'static str>,
    /// Line charts it draws.
    #[serde(skip)]
    pub line_charts: Vec<SoftwareChart>,
}

impl Section {
    /// A section laying out `body`.
    fn new(body: impl Serialize) -> Self {
        Self {
            markdown: String::new(),
            html: String::new(),
            body: serde_json::to_value(body).expect("a report model serialises"),
            charted_elsewhere: None,
            line_charts: Vec::new(),
        }
    }
}

/// The sections of every view, in registration order, from the measured records.
pub fn sections(measured: &[&Record]) -> Vec<Section> {
    VIEWS
        .iter()
        .filter_map(|(kind, view)| {
            let records: Vec<&Record> = measured
                .iter()
                .copied()
                .filter(|r| r.benchmark_kind() == Some(*kind))
                .collect();
            let (markdown, html) = template_names(*kind);
            view.section(&records, measured)
                .map(|s| Section { markdown, html, ..s })
        })
        .collect()
}

/// The templates of every view, by the names the report includes them as.
pub fn templates() -> impl Iterator<Item = (String, &'static str)> {
    VIEWS.iter().flat_map(|(kind, view)| {
        let (markdown, html) = template_names(*kind);
        let t = view.templates();
        [(markdown, t.markdown), (html, t.html)]
    })
}

fn template_names(kind: BenchmarkKind) -> (String, String) {
    (
        format!("views/{}.md.j2", kind.name()),
        format!("views/{}.html.j2", kind.name()),
    )
}

/// `4096 B`, `32 limbs` or nothing, for a record's length column.
fn length(limbs: Option<u32>, bytes: Option<u64>) -> String {
    match (limbs, bytes) {
        (Some(limbs), _) => format!("{limbs} limbs"),
        (None, Some(bytes)) => format!("{bytes} B"),
        (None, None) => String::new(),
    }
}

/// A mangled Rust symbol (legacy `_ZN...17h<hash>E` or v0 `_R...`) as a path without its
/// hash (`cyclebench_swcrypto::chacha20::chacha20_rust`); any other name unchanged.
fn demangle(symbol: &str) -> String {
    format!("{:#}", rustc_demangle::demangle(symbol))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_symbols_are_demangled_and_others_kept() {
        assert_eq!(
            demangle("_ZN19cyclebench_swcrypto8chacha2013chacha20_rust17h27e33e21b8d2f431E"),
            "cyclebench_swcrypto::chacha20::chacha20_rust"
        );
        assert_eq!(
            demangle("_ZN4core3ptr42drop_in_place$LT$alloc..string..String$GT$17h0123456789abcdefE"),
            "core::ptr::drop_in_place<alloc::string::String>"
        );
        assert_eq!(
            demangle("_RNvNtCs1234_19cyclebench_swcrypto8chacha2013chacha20_rust"),
            "cyclebench_swcrypto::chacha20::chacha20_rust"
        );
        assert_eq!(demangle("cb_chacha20_rv32i"), "cb_chacha20_rv32i");
        assert_eq!(demangle("_ZN3fooE"), "foo");
        assert_eq!(demangle("_ZN99fooE"), "_ZN99fooE");
    }

    #[test]
    fn a_kind_has_one_view_at_most() {
        for (i, (kind, _)) in VIEWS.iter().enumerate() {
            assert!(VIEWS[i + 1..].iter().all(|(other, _)| other != kind), "{kind:?}");
        }
        let names: Vec<String> = templates().map(|(name, _)| name).collect();
        assert_eq!(names.len(), 2 * VIEWS.len());
        // Escaping follows the name: the HTML template's ends in `.html.j2`.
        assert!(names.iter().step_by(2).all(|n| n.ends_with(".md.j2")));
        assert!(names.iter().skip(1).step_by(2).all(|n| n.ends_with(".html.j2")));
    }
}
