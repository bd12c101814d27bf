//! The line charts of software primitives and the plot file names: data that the report
//! model, the views that build these charts and the plots that draw them all share.

use serde::Serialize;

/// What a software chart plots against what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SoftwareAxes {
    /// Corrected total cycles against limbs per operand (multi-precision arithmetic).
    CyclesAgainstLimbs,
    /// Cycles per byte against the length processed (stream ciphers).
    CyclesPerByteAgainstLength,
}

/// A point of a software series.
#[derive(Clone, Debug, Serialize)]
pub struct SoftwarePoint {
    /// `file.bench:line` of the record the point comes from.
    pub location: String,
    /// Limbs or bytes.
    pub x: u64,
    /// Corrected total cycles.
    pub total: u64,
    /// Cycles per byte, where bytes were processed.
    pub cycles_per_byte: Option<f64>,
}

/// One primitive in one variant at several sizes.
#[derive(Clone, Debug, Serialize)]
pub struct SoftwareSeries {
    /// Primitive (`mp-mul`, `chacha20`).
    pub primitive: String,
    /// Variant (`rust`, `rv32i`, `zbb`); empty when the record does not say.
    pub variant: String,
    /// Points by growing size.
    pub points: Vec<SoftwarePoint>,
}

impl SoftwareSeries {
    /// Legend text.
    pub fn label(&self) -> String {
        format!("{} {}", self.primitive, self.variant).trim().to_owned()
    }
}

/// A line chart of software primitives: one line per primitive and variant.
#[derive(Clone, Debug, Serialize)]
pub struct SoftwareChart {
    /// File stem of the plot under `plots/`.
    pub name: String,
    /// Caption.
    pub title: String,
    /// What is plotted.
    pub axes: SoftwareAxes,
    /// Primitives in order of first appearance (one colour each).
    pub primitives: Vec<String>,
    /// Its series.
    pub series: Vec<SoftwareSeries>,
}

/// File stem for a plot: lower-case letters, digits and dashes.
pub fn slug(parts: &[&str]) -> String {
    let joined = parts.join("-");
    let mut slug = String::new();
    for c in joined.chars() {
        let c = if c.is_ascii_alphanumeric() {
            c.to_ascii_lowercase()
        } else {
            '-'
        };
        if !(c == '-' && slug.ends_with('-')) {
            slug.push(c);
        }
    }
    slug.trim_matches('-').to_owned()
}
