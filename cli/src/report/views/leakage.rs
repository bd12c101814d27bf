//! Constant-time tests: a table of verdicts, the largest |t| (unbounded where the classes'
//! timings make it so) and the timings of both classes.

use serde::Serialize;

use super::section::{demangle, length, Section, Templates, View};
use crate::results::Record;

/// The leakage view.
pub struct Tests;

/// A row of the leakage table: one constant-time test.
#[derive(Clone, Debug, Serialize)]
pub struct LeakageRow {
    /// `file.bench:line`.
    pub location: String,
    /// Primitive or control timed.
    pub operation: String,
    /// Variant.
    pub variant: String,
    /// The input that was random in class 1 (`key` or `data`).
    pub secret: String,
    /// `64 B` or `8 limbs`; empty for fixed-size operations.
    pub length: String,
    /// Timed calls, both classes.
    pub measurements: Option<u64>,
    /// The largest |t| of the tests, when bounded.
    pub max_abs_t: Option<f64>,
    /// How the table shows an unbounded |t| (two constant classes with different times).
    pub unbounded: Option<&'static str>,
    /// Which test gave it: `uncropped` or `crop k`.
    pub test: String,
    /// `leak` or `no-leak-detected`.
    pub verdict: String,
    /// Mean cycles of class 0 (fixed input).
    pub class0_mean: Option<f64>,
    /// Variance of class 0.
    pub class0_variance: Option<f64>,
    /// Mean cycles of class 1 (random input).
    pub class1_mean: Option<f64>,
    /// Variance of class 1.
    pub class1_variance: Option<f64>,
    /// Function timed (Rust names demangled).
    pub code_symbol: String,
}

#[derive(Serialize)]
struct Body {
    rows: Vec<LeakageRow>,
}

impl View for Tests {
    fn templates(&self) -> Templates {
        Templates {
            markdown: include_str!("leakage.md.j2"),
            html: include_str!("leakage.html.j2"),
        }
    }

    fn section(&self, records: &[&Record], _measured: &[&Record]) -> Option<Section> {
        let rows: Vec<LeakageRow> = records.iter().map(|r| row(r)).collect();
        (!rows.is_empty()).then(|| Section::new(Body { rows }))
    }
}

fn row(r: &Record) -> LeakageRow {
    let text = |field: &str| r.text(field).unwrap_or_default().to_owned();
    LeakageRow {
        location: r.location(),
        operation: text("operation"),
        variant: text("variant"),
        secret: text("secret"),
        length: length(r.limbs(), r.number("length_bytes")),
        measurements: r.number("measurements"),
        max_abs_t: r.decimal("max_abs_t"),
        unbounded: r.unbounded("max_abs_t").map(|u| u.shown),
        test: match r.number("max_abs_t_test") {
            Some(0) => String::from("uncropped"),
            Some(k) => format!("crop {k}"),
            None => String::new(),
        },
        verdict: text("verdict"),
        class0_mean: r.decimal("class0_mean"),
        class0_variance: r.decimal("class0_variance"),
        class1_mean: r.decimal("class1_mean"),
        class1_variance: r.decimal("class1_variance"),
        code_symbol: r.code_symbol.as_deref().map(demangle).unwrap_or_default(),
    }
}
