//! The report's charts, drawn with plotters: each one to an SVG (for the HTML report and
//! browsers) and a PNG (for Markdown viewers that do not show SVG) from the same drawing code.

use std::sync::OnceLock;

use anyhow::{anyhow, ensure, Context, Result};
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::charts::{SoftwareAxes, SoftwareChart, SoftwarePoint};
use super::growth::GrowthChart;
use super::model::{category_label, Category, CpbChart, PhaseChart, Segment, Speedup};

/// A drawn chart.
pub struct Plot {
    /// File stem under `plots/`.
    pub name: String,
    /// SVG document.
    pub svg: String,
    /// PNG image of the same drawing.
    pub png: Vec<u8>,
}

/// The one font family the charts use; SVG viewers substitute their own sans-serif face.
pub const FONT: &str = "sans-serif";
const WIDTH: u32 = 1100;
/// Pixel height of one bar row in the bar charts.
const ROW: u32 = 28;

/// Colour-blind-safe palette (Okabe and Ito), one colour per kind of phase.
fn colour(category: Category) -> RGBColor {
    match category {
        Category::Initialisation => RGBColor(0x56, 0xB4, 0xE9),
        Category::Input => RGBColor(0xE6, 0x9F, 0x00),
        Category::Computation => RGBColor(0xD5, 0x5E, 0x00),
        Category::Output => RGBColor(0x00, 0x9E, 0x73),
        Category::Deinitialisation => RGBColor(0x00, 0x72, 0xB2),
        Category::Other => RGBColor(0xCC, 0x79, 0xA7),
    }
}

/// Line colours of the cycles-per-byte series.
const SERIES: [RGBColor; 6] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x56, 0xB4, 0xE9),
];

/// Text measurement and PNG text need real glyphs: plotters draws with a font registered
/// under the family name, so the bundled Ubuntu Light face is registered once per process.
pub fn register_font() -> Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, epaint_default_fonts::HACK_REGULAR).is_ok()
    });
    ensure!(ok, "the bundled plot font could not be loaded");
    Ok(())
}

/// Something that can draw itself on any plotters backend.
trait Figure {
    /// Size in pixels.
    fn size(&self) -> (u32, u32);
    /// Draws on `area`, which covers the whole figure.
    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>;
}

fn render(name: &str, figure: &impl Figure) -> Result<Plot> {
    register_font()?;
    let (width, height) = figure.size();
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        figure.draw(&area).map_err(|e| anyhow!("drawing {name}.svg: {e}"))?;
        area.present().map_err(|e| anyhow!("drawing {name}.svg: {e}"))?;
    }
    let mut rgb = vec![0u8; width as usize * height as usize * 3];
    {
        let area = BitMapBackend::with_buffer(&mut rgb, (width, height)).into_drawing_area();
        figure.draw(&area).map_err(|e| anyhow!("drawing {name}.png: {e}"))?;
        area.present().map_err(|e| anyhow!("drawing {name}.png: {e}"))?;
    }
    let png = encode_png(&rgb, width, height).with_context(|| format!("encoding {name}.png"))?;
    Ok(Plot {
        name: name.to_owned(),
        svg,
        png,
    })
}

fn encode_png(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgb)?;
    writer.finish()?;
    Ok(out)
}

/// The phase breakdown of a group of benchmarks.
pub fn phases(chart: &PhaseChart) -> Result<Plot> {
    render(&chart.name, &Phases(chart))
}

/// Cycles per byte against message size.
pub fn cycles_per_byte(chart: &CpbChart) -> Result<Plot> {
    render(&chart.name, &PerByte(chart))
}

/// Cycles and cycles per byte of a swept line against the bytes processed, with the fits.
pub fn growth(chart: &GrowthChart) -> Result<Plot> {
    render(&chart.name, &Growth(chart))
}

/// Software primitives against limbs or length.
pub fn software(chart: &SoftwareChart) -> Result<Plot> {
    render(&chart.name, &Software(chart))
}

/// Software cycles over hardware cycles per operation.
pub fn speedups(name: &str, pairs: &[Speedup]) -> Result<Plot> {
    render(name, &Speedups(pairs))
}

/// A chart of [`Rows`]: values along x, rows along y.
type RowChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Horizontal bar layout shared by the phase and speed-up charts: one row per label, the
/// first label on top, the value axis along the bottom.
struct Rows<'a> {
    title: &'a str,
    labels: Vec<&'a str>,
    x_max: f64,
    x_desc: &'a str,
}

impl Rows<'_> {
    fn height(&self) -> u32 {
        // Caption, legend strip, x axis and margins, plus the bars.
        150 + ROW * self.labels.len() as u32
    }

    /// Builds the chart and writes the row labels; `draw_bars` then draws in row coordinates
    /// where row `i` (from the top) spans `y` from `n - i - 1` to `n - i`.
    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        legend: &[(String, RGBColor)],
        draw_bars: impl FnOnce(&mut RowChart<DB>) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        area.fill(&WHITE)?;
        let body = area.titled(self.title, (FONT, 20))?;
        let (legend_strip, body) = body.split_vertically(34);
        draw_legend(&legend_strip, legend)?;
        let n = self.labels.len();
        let style = TextStyle::from((FONT, 15).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
        let mut label_area = 0;
        for label in &self.labels {
            label_area = label_area.max(area.estimate_text_size(label, &style)?.0);
        }
        let label_area = (label_area + 24).clamp(100, 560);
        let mut chart = ChartBuilder::on(&body)
            .margin(10)
            .margin_left(label_area)
            .x_label_area_size(40)
            .build_cartesian_2d(0f64..self.x_max, 0f64..n as f64)?;
        // Cycle counts are whole numbers; a small speed-up axis needs its decimal.
        let decimals = usize::from(self.x_max < 10.0);
        chart
            .configure_mesh()
            .disable_y_mesh()
            .disable_y_axis()
            .light_line_style(WHITE)
            .x_desc(self.x_desc)
            .x_label_formatter(&|v| format!("{v:.decimals$}"))
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 15))
            .draw()?;
        for (i, label) in self.labels.iter().enumerate() {
            // The mesh has no labels for rows: place each at its row's centre, left of the axis.
            let (x, y) = chart.backend_coord(&(0.0, (n - i) as f64 - 0.5));
            area.draw(&Text::new(label.to_string(), (x - 8, y), style.clone()))?;
        }
        draw_bars(&mut chart)
    }
}

/// Coloured boxes with names, left to right.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, RGBColor)],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let style = TextStyle::from((FONT, 16).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    let mut x = 20;
    for (label, colour) in entries {
        area.draw(&Rectangle::new([(x, 10), (x + 14, 24)], colour.filled()))?;
        area.draw(&Text::new(label.clone(), (x + 20, 17), style.clone()))?;
        let (w, _) = area.estimate_text_size(label, &style)?;
        x += 20 + w as i32 + 24;
    }
    Ok(())
}

/// A bar from `x0` to `x1` in row `row` of `n` rows, inset from its neighbours.
fn row_bar(n: usize, row: usize, x0: f64, x1: f64, style: ShapeStyle) -> Rectangle<(f64, f64)> {
    let y = (n - row - 1) as f64;
    Rectangle::new([(x0, y + 0.82), (x1, y + 0.18)], style)
}

fn value_label(n: usize, row: usize, x: f64, text: String) -> Text<'static, (f64, f64), String> {
    let style = TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    Text::new(text, (x, (n - row) as f64 - 0.5), style)
}

struct Phases<'a>(&'a PhaseChart);

impl Phases<'_> {
    fn rows(&self) -> Rows<'_> {
        let max = self.0.bars.iter().map(|b| b.total).max().unwrap_or(0).max(1);
        Rows {
            title: &self.0.title,
            labels: self.0.bars.iter().map(|b| b.label.as_str()).collect(),
            // Room right of the longest bar for its total.
            x_max: max as f64 * 1.15,
            x_desc: "cycles (corrected median per phase)",
        }
    }
}

impl Figure for Phases<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, self.rows().height())
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let rows = self.rows();
        let legend: Vec<(String, RGBColor)> = self
            .0
            .categories
            .iter()
            .map(|&c| (category_label(c).to_owned(), colour(c)))
            .collect();
        let bars = &self.0.bars;
        let n = bars.len();
        let gap = rows.x_max * 0.006;
        rows.draw(area, &legend, |chart| {
            for (row, bar) in bars.iter().enumerate() {
                let mut start = 0u64;
                for Segment { category, cycles, .. } in &bar.segments {
                    let (x0, x1) = (start as f64, (start + cycles) as f64);
                    chart.draw_series([row_bar(n, row, x0, x1, colour(*category).filled())])?;
                    // A thin white edge keeps neighbouring phases of one colour apart.
                    chart.draw_series([row_bar(n, row, x0, x1, WHITE.stroke_width(1))])?;
                    start += cycles;
                }
                chart.draw_series([value_label(n, row, bar.total as f64 + gap, bar.total.to_string())])?;
            }
            Ok(())
        })
    }
}

struct Speedups<'a>(&'a [Speedup]);

impl Speedups<'_> {
    fn rows(&self) -> Rows<'_> {
        let max = self.0.iter().map(|p| p.factor).fold(1.0, f64::max);
        Rows {
            title: "Software cycles / hardware cycles (speed-up of the hardware)",
            labels: self.0.iter().map(|p| p.label.as_str()).collect(),
            x_max: max * 1.15,
            x_desc: "speed-up factor",
        }
    }
}

impl Figure for Speedups<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, self.rows().height())
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let rows = self.rows();
        let n = self.0.len();
        let gap = rows.x_max * 0.006;
        let legend = [(String::from("hardware speed-up"), colour(Category::Computation))];
        rows.draw(area, &legend, |chart| {
            for (row, p) in self.0.iter().enumerate() {
                chart.draw_series([row_bar(n, row, 0.0, p.factor, colour(Category::Computation).filled())])?;
                chart.draw_series([value_label(n, row, p.factor + gap, format!("{:.2}x", p.factor))])?;
            }
            // Parity: a bar that ends left of this line is an operation the hardware does slower.
            chart.draw_series(LineSeries::new([(1.0, 0.0), (1.0, n as f64)], BLACK.stroke_width(1)))?;
            Ok(())
        })
    }
}

struct PerByte<'a>(&'a CpbChart);

impl Figure for PerByte<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, 560)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        area.fill(&WHITE)?;
        let points = || self.0.series.iter().flat_map(|s| s.points.iter());
        let bounds = |values: Vec<f64>| {
            let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = values.iter().copied().fold(0.0, f64::max);
            // Log axes: a factor of margin on both ends keeps the points off the frame.
            (lo / 1.6)..(hi * 1.6)
        };
        let x = bounds(points().map(|p| p.bytes as f64).collect());
        let y = bounds(points().map(|p| p.cycles_per_byte).collect());
        let mut chart = ChartBuilder::on(area)
            .caption(&self.0.title, (FONT, 20))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d(x.log_scale(), y.log_scale())?;
        chart
            .configure_mesh()
            .x_desc("message size (bytes, log scale)")
            .y_desc("cycles per byte (log scale)")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| {
                if *v >= 10.0 {
                    format!("{v:.0}")
                } else {
                    format!("{v:.1}")
                }
            })
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 15))
            .draw()?;
        for (i, series) in self.0.series.iter().enumerate() {
            let colour = SERIES[i % SERIES.len()];
            let xy: Vec<(f64, f64)> = series
                .points
                .iter()
                .map(|p| (p.bytes as f64, p.cycles_per_byte))
                .collect();
            chart
                .draw_series(LineSeries::new(xy.clone(), colour.stroke_width(2)))?
                .label(series.label.clone())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], colour.stroke_width(2)));
            chart.draw_series(xy.into_iter().map(|p| Circle::new(p, 4, colour.filled())))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font((FONT, 16))
            .draw()
    }
}

/// How a software variant's line looks, so that variants stay apart where colours (one per
/// primitive) are shared: solid with round points, dashed with triangles, dotted with diamonds.
#[derive(Clone, Copy)]
enum Stroke {
    Solid,
    Dashed,
    Dotted,
}

impl Stroke {
    fn of(variant: &str) -> Self {
        match variant {
            "rv32i" => Self::Dashed,
            "zbb" => Self::Dotted,
            _ => Self::Solid,
        }
    }

    /// Dash and gap in pixels, for the broken strokes.
    fn dashes(self) -> Option<(i32, i32)> {
        match self {
            Self::Solid => None,
            Self::Dashed => Some((9, 5)),
            Self::Dotted => Some((3, 4)),
        }
    }

    /// The point marker's outline, in pixels around the point.
    fn marker(self) -> Vec<(i32, i32)> {
        match self {
            Self::Solid => vec![(-2, -5), (2, -5), (5, -2), (5, 2), (2, 5), (-2, 5), (-5, 2), (-5, -2)],
            Self::Dashed => vec![(0, -6), (6, 4), (-6, 4)],
            Self::Dotted => vec![(0, -6), (6, 0), (0, 6), (-6, 0)],
        }
    }

    /// The marker's outline for a legend sample of `length` pixels, in its middle.
    fn sample_marker(self, length: i32) -> Vec<(i32, i32)> {
        self.marker()
            .into_iter()
            .map(|(dx, dy)| (dx + length / 2, dy))
            .collect()
    }
}

struct Software<'a>(&'a SoftwareChart);

impl Software<'_> {
    fn y(&self, p: &SoftwarePoint) -> f64 {
        match self.0.axes {
            SoftwareAxes::CyclesAgainstLimbs => p.total as f64,
            SoftwareAxes::CyclesPerByteAgainstLength => p.cycles_per_byte.unwrap_or(0.0),
        }
    }

    /// Draws the mesh, the lines and the legend on a chart whose axes are built.
    fn lines<'a, DB: DrawingBackend + 'a, X, Y>(
        &self,
        chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
        descriptions: (&str, &str),
        legend: SeriesLabelPosition,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
    where
        X: Ranged<ValueType = f64> + ValueFormatter<f64>,
        Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        chart
            .configure_mesh()
            .x_desc(descriptions.0)
            .y_desc(descriptions.1)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| {
                // Cycle counts are whole; cycles per byte below 10 keep a decimal.
                if *v >= 10.0 || self.0.axes == SoftwareAxes::CyclesAgainstLimbs {
                    format!("{v:.0}")
                } else {
                    format!("{v:.1}")
                }
            })
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 15))
            .draw()?;
        for series in &self.0.series {
            let i = self
                .0
                .primitives
                .iter()
                .position(|p| *p == series.primitive)
                .unwrap_or(0);
            let colour = SERIES[i % SERIES.len()];
            let stroke = Stroke::of(&series.variant);
            let line = colour.stroke_width(2);
            let xy: Vec<(f64, f64)> = series.points.iter().map(|p| (p.x as f64, self.y(p))).collect();
            let drawn = match stroke.dashes() {
                None => chart.draw_series(LineSeries::new(xy.clone(), line))?,
                Some((dash, gap)) => chart.draw_series(DashedLineSeries::new(xy.clone(), dash, gap, line))?,
            };
            // The legend sample: a short line with the marker in its middle; a dash as long as
            // the sample is a solid line.
            const SAMPLE: i32 = 26;
            let (dash, gap) = stroke.dashes().unwrap_or((SAMPLE, 1));
            drawn.label(series.label()).legend(move |at| {
                EmptyElement::at(at)
                    + DashedPathElement::new([(0, 0), (SAMPLE, 0)], dash, gap, line)
                    + Polygon::new(stroke.sample_marker(SAMPLE), colour.filled())
            });
            let marker = stroke.marker();
            chart.draw_series(
                xy.into_iter()
                    .map(|p| EmptyElement::at(p) + Polygon::new(marker.clone(), colour.filled())),
            )?;
        }
        chart
            .configure_series_labels()
            .position(legend)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font((FONT, 16))
            .legend_area_size(34)
            .draw()
    }
}

impl Figure for Software<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, 600)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        area.fill(&WHITE)?;
        let points = || self.0.series.iter().flat_map(|s| s.points.iter());
        let x_max = points().map(|p| p.x as f64).fold(1.0, f64::max);
        let x_min = points().map(|p| p.x as f64).fold(x_max, f64::min);
        let y_max = points().map(|p| self.y(p)).fold(1.0, f64::max);
        let y_min = points().map(|p| self.y(p)).fold(y_max, f64::min);
        let mut builder = ChartBuilder::on(area);
        builder
            .caption(&self.0.title, (FONT, 20))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(80);
        match self.0.axes {
            SoftwareAxes::CyclesAgainstLimbs => {
                // Growing lines: the legend goes top left, where they are low.
                let mut chart = builder.build_cartesian_2d(0f64..x_max + 1.0, 0f64..y_max * 1.05)?;
                self.lines(
                    &mut chart,
                    ("limbs per operand (32-bit words)", "cycles (corrected)"),
                    SeriesLabelPosition::UpperLeft,
                )
            }
            SoftwareAxes::CyclesPerByteAgainstLength => {
                // Log axes: a factor of margin on both ends keeps the points off the frame.
                let x = (x_min / 1.6)..(x_max * 1.6);
                let y = (y_min / 1.6)..(y_max * 1.6);
                let mut chart = builder.build_cartesian_2d(x.log_scale(), y.log_scale())?;
                self.lines(
                    &mut chart,
                    ("length (bytes, log scale)", "cycles per byte (log scale)"),
                    SeriesLabelPosition::UpperRight,
                )
            }
        }
    }
}

struct Growth<'a>(&'a GrowthChart);

/// What a panel of the cost-growth figure plots against the bytes.
#[derive(Clone, Copy, PartialEq)]
enum GrowthPanel {
    Cycles,
    CyclesPerByte,
}

impl GrowthPanel {
    /// The panel's value for `total` cycles at `bytes`.
    fn y(self, bytes: f64, total: f64) -> f64 {
        match self {
            Self::Cycles => total,
            Self::CyclesPerByte => total / bytes,
        }
    }
}

/// Labels for a logarithmic axis from `lo` to `hi`: 1, 2 and 5 times each power of ten, so
/// that an axis spanning less than a decade still has several.
fn one_two_five(lo: f64, hi: f64) -> Vec<f64> {
    let mut points = Vec::new();
    let mut decade = 10f64.powf(lo.log10().floor());
    while decade <= hi {
        points.extend(
            [1.0, 2.0, 5.0]
                .iter()
                .map(|m| m * decade)
                .filter(|v| (lo..=hi).contains(v)),
        );
        decade *= 10.0;
    }
    points
}

/// Points along a fit, evenly spaced on the logarithmic x axis.
const FIT_SAMPLES: usize = 48;

impl Growth<'_> {
    fn panel<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        panel: GrowthPanel,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let points = || self.0.series.iter().flat_map(|s| s.points.iter());
        let x_max = points().map(|p| p.bytes as f64).fold(1.0, f64::max);
        let x_min = points().map(|p| p.bytes as f64).fold(x_max, f64::min);
        // The fits, sampled evenly on the logarithmic x axis where they are positive (a log
        // axis has no place for the rest); the y axis spans them as well as the points.
        let (lo, hi) = (x_min.ln(), x_max.ln());
        let fits: Vec<Vec<(f64, f64)>> = self
            .0
            .series
            .iter()
            .map(|series| {
                (0..=FIT_SAMPLES)
                    .map(|k| (lo + (hi - lo) * k as f64 / FIT_SAMPLES as f64).exp())
                    .map(|x| (x, panel.y(x, series.fit.at(x))))
                    .filter(|&(_, y)| y > 0.0)
                    .collect()
            })
            .collect();
        let ys = || {
            points()
                .map(|p| panel.y(p.bytes as f64, p.total as f64))
                .chain(fits.iter().flatten().map(|p| p.1))
        };
        let y_max = ys().fold(f64::MIN_POSITIVE, f64::max);
        let y_min = ys().fold(y_max, f64::min);
        let (caption, y_desc) = match panel {
            GrowthPanel::Cycles => (self.0.title.as_str(), "cycles (corrected total, log scale)"),
            GrowthPanel::CyclesPerByte => ("", "cycles per byte (log scale)"),
        };
        let mut builder = ChartBuilder::on(area);
        builder.margin(16).x_label_area_size(44).y_label_area_size(90);
        if !caption.is_empty() {
            builder.caption(caption, (FONT, 20));
        }
        // Log axes: a factor of margin on both ends keeps the points off the frame.
        let (y_lo, y_hi) = (y_min / 1.6, y_max * 1.6);
        let mut chart = builder.build_cartesian_2d(
            ((x_min / 1.6)..(x_max * 1.6)).log_scale(),
            (y_lo..y_hi).log_scale().with_key_points(one_two_five(y_lo, y_hi)),
        )?;
        let x_desc = format!("bytes processed ({} swept, log scale)", self.0.field);
        chart
            .configure_mesh()
            .x_desc(x_desc.as_str())
            .y_desc(y_desc)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| {
                if *v >= 10.0 {
                    format!("{v:.0}")
                } else {
                    format!("{v:.2}")
                }
            })
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 15))
            .draw()?;
        for (i, series) in self.0.series.iter().enumerate() {
            let colour = SERIES[i % SERIES.len()];
            let line = colour.stroke_width(2);
            let xy: Vec<(f64, f64)> = series
                .points
                .iter()
                .map(|p| (p.bytes as f64, panel.y(p.bytes as f64, p.total as f64)))
                .collect();
            chart
                .draw_series(LineSeries::new(xy.clone(), line))?
                .label(series.label.clone())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], line));
            chart.draw_series(xy.into_iter().map(|p| Circle::new(p, 4, colour.filled())))?;
            chart.draw_series(DashedLineSeries::new(fits[i].clone(), 6, 5, colour.stroke_width(1)))?;
        }
        if panel == GrowthPanel::Cycles {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.9))
                .border_style(BLACK)
                .label_font((FONT, 16))
                .draw()?;
        }
        Ok(())
    }
}

impl Figure for Growth<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, 1000)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        area.fill(&WHITE)?;
        let (top, bottom) = area.split_vertically(520);
        self.panel(&top, GrowthPanel::Cycles)?;
        self.panel(&bottom, GrowthPanel::CyclesPerByte)
    }
}

/// One line of a [`LineChart`].
pub struct Line {
    /// Legend label.
    pub label: String,
    /// Points, in x order.
    pub points: Vec<(f64, f64)>,
}

/// Lines over a linear x axis (e.g. a figure against payload size).
pub struct LineChart {
    /// File stem.
    pub name: String,
    /// Caption.
    pub title: String,
    /// X axis description.
    pub x_desc: String,
    /// Y axis description.
    pub y_desc: String,
    /// The lines; each gets its own colour and, in pairs, a solid or a dashed stroke.
    pub lines: Vec<Line>,
}

/// Draws `chart`.
pub fn lines(chart: &LineChart) -> Result<Plot> {
    render(&chart.name, &Lines(chart))
}

struct Lines<'a>(&'a LineChart);

impl Figure for Lines<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, 560)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        area.fill(&WHITE)?;
        let points = || self.0.lines.iter().flat_map(|l| l.points.iter());
        let x_max = points().map(|p| p.0).fold(1.0, f64::max);
        let y_max = points().map(|p| p.1).fold(1.0, f64::max);
        let mut chart = ChartBuilder::on(area)
            .caption(&self.0.title, (FONT, 20))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..x_max * 1.05, 0.0..y_max * 1.15)?;
        chart
            .configure_mesh()
            .x_desc(self.0.x_desc.as_str())
            .y_desc(self.0.y_desc.as_str())
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 15))
            .draw()?;
        for (i, line) in self.0.lines.iter().enumerate() {
            // Lines come in pairs of one operation (two designs): one colour, solid then dashed.
            let colour = SERIES[(i / 2) % SERIES.len()];
            let style = colour.stroke_width(2);
            let drawn = if i % 2 == 0 {
                chart.draw_series(LineSeries::new(line.points.clone(), style))?
            } else {
                chart.draw_series(DashedLineSeries::new(line.points.clone(), 9, 5, style))?
            };
            let dashed = i % 2 == 1;
            drawn.label(line.label.clone()).legend(move |(x, y)| {
                let (dash, gap) = if dashed { (9, 5) } else { (26, 1) };
                DashedPathElement::new([(x, y), (x + 26, y)], dash, gap, style)
            });
            chart.draw_series(line.points.iter().map(|&p| Circle::new(p, 4, colour.filled())))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font((FONT, 16))
            .legend_area_size(34)
            .draw()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::SoftwareSeries;
    use crate::report::model::{Bar, CpbPoint, CpbSeries};
    use cyclebench_protocol::Primitive;

    #[test]
    fn a_chart_becomes_an_svg_and_a_png_of_the_same_size() {
        let chart = PhaseChart {
            name: String::from("phases-01-x-hash"),
            title: String::from("x.bench: hash"),
            bars: vec![Bar {
                label: String::from("msg-256 sha2 tight (line 3)"),
                segments: vec![
                    Segment {
                        phase: String::from("init"),
                        category: Category::Initialisation,
                        cycles: 93,
                    },
                    Segment {
                        phase: String::from("input"),
                        category: Category::Input,
                        cycles: 25851,
                    },
                ],
                total: 25944,
            }],
            categories: vec![Category::Initialisation, Category::Input],
        };
        let plot = phases(&chart).unwrap();
        assert!(plot.svg.starts_with("<svg"), "{}", &plot.svg[..80]);
        assert!(plot.svg.contains("25944") && plot.svg.contains("msg-256 sha2 tight (line 3)"));
        let decoder = png::Decoder::new(std::io::Cursor::new(plot.png));
        let reader = decoder.read_info().unwrap();
        assert_eq!((reader.info().width, reader.info().height), (WIDTH, 150 + ROW));
    }

    #[test]
    fn cycles_per_byte_plots_on_log_axes() {
        let point = |bytes, total| CpbPoint {
            location: String::from("sha2.bench:9"),
            dataset: format!("d{bytes}"),
            bytes,
            total,
            cycles_per_byte: total as f64 / bytes as f64,
        };
        let chart = CpbChart {
            name: String::from("cpb-hash"),
            title: String::from("hash: cycles per byte"),
            series: vec![CpbSeries {
                label: String::from("sha2 api-conform (rustcrypto-sha2)"),
                points: vec![point(3, 6701), point(56, 12977), point(256, 32403)],
            }],
        };
        let plot = cycles_per_byte(&chart).unwrap();
        assert!(plot.svg.contains("sha2 api-conform (rustcrypto-sha2)"));
        assert!(!plot.png.is_empty());
    }

    #[test]
    fn software_lines_plot_with_one_legend_entry_per_primitive_and_variant() {
        let series = |primitive: &str, variant: &str, points: &[(u64, u64)]| SoftwareSeries {
            primitive: primitive.to_owned(),
            variant: variant.to_owned(),
            points: points
                .iter()
                .map(|&(x, total)| SoftwarePoint {
                    location: String::from("sw.bench:1"),
                    x,
                    total,
                    cycles_per_byte: Some(total as f64 / x as f64),
                })
                .collect(),
        };
        for (axes, primitives) in [
            (
                SoftwareAxes::CyclesAgainstLimbs,
                [Primitive::MpMulSchoolbook, Primitive::MpMulKaratsuba].map(Primitive::name),
            ),
            (
                SoftwareAxes::CyclesPerByteAgainstLength,
                [Primitive::Chacha20, Primitive::AesBitslicedCtr].map(Primitive::name),
            ),
        ] {
            let chart = SoftwareChart {
                name: String::from("software-x"),
                title: String::from("software: x"),
                axes,
                primitives: primitives.iter().map(|p| p.to_string()).collect(),
                series: vec![
                    series(primitives[0], "rust", &[(2, 255), (8, 2163), (32, 27794)]),
                    series(primitives[0], "rv32i", &[(2, 176), (8, 1320), (32, 17118)]),
                    series(primitives[1], "zbb", &[(2, 464), (32, 15995)]),
                ],
            };
            let plot = software(&chart).unwrap();
            for label in [" rust", " rv32i", " zbb"] {
                assert!(plot.svg.contains(label), "{label} missing");
            }
            assert!(plot.svg.contains(&format!("{} zbb", primitives[1])));
            let reader = png::Decoder::new(std::io::Cursor::new(plot.png)).read_info().unwrap();
            assert_eq!((reader.info().width, reader.info().height), (WIDTH, 600));
        }
    }

    #[test]
    fn log_axis_labels_are_one_two_five_within_the_range() {
        assert_eq!(one_two_five(16.6, 218.0), [20.0, 50.0, 100.0, 200.0]);
        assert_eq!(one_two_five(0.3, 1.5), [0.5, 1.0]);
    }

    #[test]
    fn cost_growth_plots_both_panels_with_their_fits() {
        use crate::report::growth::{Fit, GrowthPoint, GrowthSeries};
        let series = |label: &str, fixed: u64, slope: u64| {
            let pairs: Vec<(u64, u64)> = [16u64, 256, 4096].iter().map(|&b| (b, fixed + slope * b)).collect();
            let fit = Fit::of(&pairs).unwrap();
            GrowthSeries {
                label: label.to_owned(),
                points: pairs
                    .iter()
                    .map(|&(bytes, total)| GrowthPoint {
                        location: String::from("lengths.bench:4[1]"),
                        value: bytes.to_string(),
                        bytes,
                        total,
                        cycles_per_byte: total as f64 / bytes as f64,
                        fitted: fit.at(bytes as f64),
                        relative_residual: 0.0,
                    })
                    .collect(),
                fit,
            }
        };
        let chart = GrowthChart {
            name: String::from("growth-01-lengths-4-x"),
            title: String::from("lengths.bench:4 x: cycles and cycles per byte against length"),
            location: String::from("lengths.bench:4"),
            field: String::from("length"),
            series: vec![series("variant rust", 500, 30), series("variant rv32i", 300, 20)],
        };
        let plot = growth(&chart).unwrap();
        for text in ["variant rust", "variant rv32i", "length swept", "cycles per byte"] {
            assert!(plot.svg.contains(text), "{text} missing");
        }
        let reader = png::Decoder::new(std::io::Cursor::new(plot.png)).read_info().unwrap();
        assert_eq!((reader.info().width, reader.info().height), (WIDTH, 1000));
    }
}
