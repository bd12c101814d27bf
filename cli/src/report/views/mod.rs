//! Report sections of their own: a chart or table that only one benchmark kind has, one
//! module per kind. This file is the one place that says which kind has which view; a kind
//! without one is shown by the generic tables and charts alone.

mod implementation;
mod leakage;
mod pubkey;
mod section;
mod software;

use cyclebench_protocol::BenchmarkKind;

pub use self::section::Section;
use self::section::View;
use crate::results::Record;

/// Every kind with a view of its own, in the order the report shows their sections.
const VIEWS: &[(BenchmarkKind, &dyn View)] = &[
    (BenchmarkKind::Software, &software::Primitives),
    (BenchmarkKind::Leakage, &leakage::Tests),
    (BenchmarkKind::Pubkey, &pubkey::HardwareAndSoftware),
    (BenchmarkKind::Implementation, &implementation::Outside),
];

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

#[cfg(test)]
mod tests {
    use super::*;

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
