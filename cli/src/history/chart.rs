//! One benchmark's counts over the runs, drawn as SVG for the page: a small panel per count
//! (the total, then each phase), each with its own vertical axis, since a phase of a hundred
//! cycles beside a total of thirty thousand would otherwise lie flat on the axis. A step the
//! gate fails is drawn in another colour and shape, so it stands out without colour too.

use anyhow::{anyhow, Result};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::model::{Line, Point};
use crate::report::{register_font, FONT};

/// Width of the whole figure in pixels.
const WIDTH: u32 = 1100;
/// Height of one row of panels.
const PANEL_HEIGHT: u32 = 190;
/// Panels side by side.
const COLUMNS: usize = 4;
/// A count's line (Okabe and Ito's blue, as the report's first series).
const COUNT: RGBColor = RGBColor(0x00, 0x72, 0xB2);
/// A step the gate fails (Okabe and Ito's vermillion, apart from the blue for every reader).
pub const FAILING: RGBColor = RGBColor(0xD5, 0x5E, 0x00);

/// The counts of one benchmark: a panel per line that has counts, over `runs` runs.
pub fn draw(lines: &[Line], runs: usize) -> Result<String> {
    register_font()?;
    let panels: Vec<&Line> = lines.iter().filter(|l| l.points.iter().any(Option::is_some)).collect();
    if panels.is_empty() {
        return Ok(String::new());
    }
    let columns = panels.len().min(COLUMNS);
    let rows = panels.len().div_ceil(columns);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, PANEL_HEIGHT * rows as u32)).into_drawing_area();
        let fail = |e: DrawingAreaErrorKind<_>| anyhow!("drawing the history chart: {e}");
        root.fill(&WHITE).map_err(fail)?;
        // Panels keep the width of a row of four, so that a benchmark of two counts does not
        // draw them twice as wide as one of eight.
        let (used, _) = root.split_horizontally(WIDTH * columns as u32 / COLUMNS as u32);
        for (panel, area) in panels.iter().zip(used.split_evenly((rows, columns))) {
            draw_panel(&area, panel, runs).map_err(fail)?;
        }
        root.present().map_err(fail)?;
    }
    Ok(svg)
}

/// The vertical range of a panel: its counts and their ranges, with a margin, never empty.
fn y_range(points: &[Point]) -> (f64, f64) {
    let lo = points
        .iter()
        .map(|p| p.range.map_or(p.value, |r| r[0]))
        .min()
        .unwrap_or(0) as f64;
    let hi = points
        .iter()
        .map(|p| p.range.map_or(p.value, |r| r[1]))
        .max()
        .unwrap_or(0) as f64;
    let margin = ((hi - lo) * 0.15).max(hi * 0.01).max(1.0);
    ((lo - margin).max(0.0), hi + margin)
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    line: &Line,
    runs: usize,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let failing = line.failing_runs();
    let present: Vec<Point> = line.points.iter().flatten().copied().collect();
    let (lo, hi) = y_range(&present);
    let mut chart = ChartBuilder::on(area)
        .caption(&line.name, (FONT, 15))
        .margin(6)
        .margin_right(14)
        .x_label_area_size(22)
        .y_label_area_size(62)
        .build_cartesian_2d(0.5f64..runs as f64 + 0.5, lo..hi)?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_labels(runs.min(12))
        .y_labels(4)
        // Runs are numbered as on the page; the axis shows no place between two runs.
        .x_label_formatter(&|x| {
            if (x - x.round()).abs() < 1e-6 {
                format!("{x:.0}")
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style((FONT, 12))
        .draw()?;
    let xy = |run: usize, p: &Point| ((run + 1) as f64, p.value as f64);
    for (run, pair) in line.points.windows(2).enumerate() {
        if let [Some(a), Some(b)] = pair {
            let style = if failing.contains(&(run + 1)) {
                FAILING.stroke_width(3)
            } else {
                COUNT.stroke_width(2)
            };
            chart.draw_series(LineSeries::new([xy(run, a), xy(run + 1, b)], style))?;
        }
    }
    for (run, point) in line.points.iter().enumerate() {
        let Some(p) = point else { continue };
        let colour = if failing.contains(&run) { FAILING } else { COUNT };
        if let Some([min, max]) = p.range {
            let x = (run + 1) as f64;
            chart.draw_series(LineSeries::new(
                [(x, min as f64), (x, max as f64)],
                colour.stroke_width(1),
            ))?;
        }
        if failing.contains(&run) {
            chart.draw_series([TriangleMarker::new(xy(run, p), 7, FAILING.filled())])?;
        } else {
            chart.draw_series([Circle::new(xy(run, p), 3, COUNT.filled())])?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::model::Cell;

    fn line(name: &str, values: &[Option<u64>], failing: &[usize]) -> Line {
        Line {
            name: name.to_owned(),
            cells: (0..values.len())
                .map(|i| Cell {
                    fails: failing.contains(&i),
                    ..Cell::default()
                })
                .collect(),
            points: values
                .iter()
                .map(|v| v.map(|value| Point { value, range: None }))
                .collect(),
        }
    }

    #[test]
    fn a_panel_per_count_with_the_failing_step_in_its_own_colour() {
        let lines = [
            line("total", &[Some(1040), Some(1040), Some(1070)], &[2]),
            line("finish", &[Some(1000), Some(1000), Some(1030)], &[2]),
            line("init", &[Some(40), None, Some(40)], &[]),
            line("outcome", &[None, None, None], &[]),
        ];
        let svg = draw(&lines, 3).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
        for caption in ["total", "finish", "init"] {
            assert!(svg.contains(&format!("\n{caption}\n</text>")), "{caption} missing");
        }
        assert!(!svg.contains("\noutcome\n"), "a line without counts has no panel");
        assert!(svg.contains("#D55E00"), "the failing step is not drawn in its colour");
        assert!(svg.contains(&format!("height=\"{PANEL_HEIGHT}\"")), "one row of panels");
        // Nothing failing: no failing colour.
        let calm = [line("total", &[Some(5), Some(5)], &[])];
        assert!(!draw(&calm, 2).unwrap().contains("#D55E00"));
        assert_eq!(draw(&lines[3..], 3).unwrap(), "");
    }

    #[test]
    fn the_vertical_axis_holds_every_count_and_range_with_a_margin() {
        let p = |value, range| Point { value, range };
        let (lo, hi) = y_range(&[p(1000, None), p(1030, Some([1010, 1060]))]);
        assert!(lo < 1000.0 && hi > 1060.0, "{lo}..{hi}");
        let (lo, hi) = y_range(&[p(0, None), p(0, None)]);
        assert!(lo == 0.0 && hi > 0.0, "{lo}..{hi}");
    }
}
