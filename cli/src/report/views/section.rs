//! What a view is to the report: the trait each view module implements, its templates and
//! the section it gives, and the columns several views show alike. Every view module imports
//! it (and the report model its `Section`, through `views`); it imports neither a view nor
//! the model.

use serde::Serialize;
use serde_json::Value;

use crate::report::charts::SoftwareChart;
use crate::results::Record;

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
    pub(super) fn new(body: impl Serialize) -> Self {
        Self {
            markdown: String::new(),
            html: String::new(),
            body: serde_json::to_value(body).expect("a report model serialises"),
            charted_elsewhere: None,
            line_charts: Vec::new(),
        }
    }
}

/// `4096 B`, `32 limbs` or nothing, for a record's length column.
pub(super) fn length(limbs: Option<u32>, bytes: Option<u64>) -> String {
    match (limbs, bytes) {
        (Some(limbs), _) => format!("{limbs} limbs"),
        (None, Some(bytes)) => format!("{bytes} B"),
        (None, None) => String::new(),
    }
}

/// A mangled Rust symbol (legacy `_ZN...17h<hash>E` or v0 `_R...`) as a path without its
/// hash (`cyclebench_swcrypto::chacha20::chacha20_rust`); any other name unchanged.
pub(super) fn demangle(symbol: &str) -> String {
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
}
