//! The functions a study template calls: selecting records, the cells of a table, numbers and
//! comparisons in words, plots, the tool-speed lines and the chip's cost models. Every
//! function here is generic: what a study reads and what it compares with is in the study's
//! files.

use std::path::PathBuf;
use std::sync::Arc;

use minijinja::value::{Kwargs, Rest, Serde, Value};
use minijinja::{Environment, Error, ErrorKind};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value as Json;

use super::chip_bound;
use super::records::Run;
use super::{speed, wording};
use crate::report::{line_plot as draw, Line, LineChart};

/// Adds the functions to `env`; plots go into `figures` (none: no plots drawn).
pub fn register(env: &mut Environment<'static>, figures: Option<PathBuf>) {
    env.add_function("find", find);
    env.add_function("select", select);
    env.add_function("complete", complete);
    env.add_function("raw", raw);
    env.add_function("corrected", corrected);
    env.add_function("raw_cell", raw_cell);
    env.add_function("total", total);
    env.add_function("total_cell", total_cell);
    env.add_function("per_byte", per_byte);
    env.add_function("memory", memory);
    env.add_function("percent_change", percent_change);
    env.add_function("fixed", fixed);
    env.add_function("div_ceil", |a: u64, b: u64| a.div_ceil(b.max(1)));
    env.add_function("cost_change", wording::cost_change);
    env.add_function("cost_range", |ratios: Vec<f64>, what: String| {
        wording::cost_range(&ratios, &what)
    });
    env.add_function("span", |values: Vec<f64>, decimals: usize| {
        wording::span(&values, |v| format!("{v:.decimals$}"))
    });
    env.add_function("per_key", |values: Vec<u64>, keys: usize| {
        wording::per_key(&values, keys)
    });
    env.add_function("cycles", wording::cycles);
    env.add_function("join_and", |items: Vec<Value>| wording::join_and(&items));
    env.add_function("is_are", |n: usize| wording::is_are(n));
    env.add_function("tool_speed", tool_speed);
    env.add_function("bus_costs", |kwargs: Kwargs| {
        let get = |name: &str| kwargs.get::<Option<u64>>(name);
        let bus = chip_bound::bus_costs(
            get("overhead")?,
            get("write")?,
            get("read")?,
            get("store10")?,
            get("load10")?,
            get("add10")?,
        );
        Ok::<_, Error>(bus.map(|b| Value::from(Serde(b))))
    });
    env.add_function("sha256_bound", |bus: Value, hmac: Value, bytes: u64, checked: bool| {
        Ok::<_, Error>(chip_bound::sha256_bound(typed(bus)?, typed(hmac)?, bytes, checked))
    });
    env.add_function(
        "sha3_bound",
        |bus: Value, kmac: Value, bytes: u64, checked: bool, measured_await: Option<u64>| {
            Ok::<_, Error>(chip_bound::sha3_bound(
                typed(bus)?,
                typed(kmac)?,
                bytes,
                checked,
                measured_await,
            ))
        },
    );
    env.add_function("aes_blocks_bound", |bus: Value, blocks: u64, cipher: u64| {
        Ok::<_, Error>(chip_bound::aes_blocks_bound(typed(bus)?, blocks, cipher))
    });
    env.add_function("aes_compute_bound", |bus: Value, cipher: u64| {
        Ok::<_, Error>(chip_bound::aes_compute_bound(typed(bus)?, cipher))
    });
    env.add_function(
        "line_plot",
        move |name: String, title: String, x: String, y: String, lines: Value| {
            line_plot(figures.as_ref(), name, title, x, y, typed(lines)?)
        },
    );
}

/// What a function returns for a figure that is not there.
fn none() -> Value {
    Value::from(())
}

/// A template value as the Rust type a function takes.
fn typed<T: DeserializeOwned>(value: Value) -> Result<T, Error> {
    T::deserialize(value)
}

/// The run a template passes, or none when the study's optional results were not given.
fn run_of(value: &Value) -> Result<Option<Arc<Run>>, Error> {
    if value.is_none() || value.is_undefined() {
        return Ok(None);
    }
    value
        .downcast_object::<Run>()
        .map(Some)
        .ok_or_else(|| Error::new(ErrorKind::InvalidOperation, "expected a run (one of `results`)"))
}

/// The keyword arguments as selection fields: each name with its value as JSON.
fn wanted(kwargs: &Kwargs) -> Result<Vec<(String, Json)>, Error> {
    kwargs
        .args()
        .map(|name| {
            let value: Value = kwargs.get(name)?;
            let json = serde_json::to_value(&value)
                .map_err(|e| Error::new(ErrorKind::InvalidOperation, format!("field {name}: {e}")))?;
            Ok((name.to_owned(), json))
        })
        .collect()
}

/// `find(run, field=value, ...)`: the first record of `run`, in file order, whose selection
/// fields hold every value given (`none`: the field is absent); none when there is none.
fn find(run: Value, kwargs: Kwargs) -> Result<Value, Error> {
    let wanted = wanted(&kwargs)?;
    Ok(run_of(&run)?
        .and_then(|run| run.matching(&wanted).next().cloned())
        .unwrap_or_else(none))
}

/// `select(run, field=value, ...)`: every such record, in file order.
fn select(run: Value, kwargs: Kwargs) -> Result<Value, Error> {
    let wanted = wanted(&kwargs)?;
    let found: Vec<Value> = run_of(&run)?.map_or_else(Vec::new, |run| run.matching(&wanted).cloned().collect());
    Ok(Value::from(found))
}

/// Whether `record` was measured (not none, status ok).
fn measured(record: &Value) -> bool {
    record.get_attr("ok").is_ok_and(|ok| ok.is_true())
}

/// `complete(record, field, ...)`: whether `record` was measured and its kind's result holds
/// every field named.
fn complete(record: Value, names: Rest<String>) -> bool {
    measured(&record) && names.iter().all(|name| number(&record, &["fields", name]).is_some())
}

/// A number field of a record view, when present.
fn number(record: &Value, path: &[&str]) -> Option<Value> {
    let mut value = record.clone();
    for key in path {
        value = value.get_attr(key).ok().filter(|v| !v.is_undefined() && !v.is_none())?;
    }
    Some(value)
}

/// `raw(record, phase)`: raw cycles of `phase` (or of all phases together without one) of a
/// measured record; none otherwise.
fn raw(record: Value, phase: Option<String>) -> Value {
    if !measured(&record) {
        return none();
    }
    match phase {
        Some(phase) => number(&record, &["raw", &phase]),
        None => number(&record, &["raw_total"]),
    }
    .unwrap_or_else(none)
}

/// `corrected(record, phase)`: corrected cycles of `phase` of a measured record; none
/// otherwise.
fn corrected(record: Value, phase: String) -> Value {
    if !measured(&record) {
        return none();
    }
    number(&record, &["corrected", &phase]).unwrap_or_else(none)
}

/// `raw_cell(record, phase)`: [`raw`] as a table cell: the cycles, `error: <why>` for a failed
/// record, `not run` for none or a phase it does not have.
fn raw_cell(record: Value, phase: Option<String>) -> String {
    if record.is_none() || record.is_undefined() {
        return String::from("not run");
    }
    if !measured(&record) {
        return format!("error: {}", record.get_attr("error").unwrap_or_default());
    }
    let value = raw(record, phase);
    if value.is_none() {
        String::from("not run")
    } else {
        value.to_string()
    }
}

/// `total(record)`: corrected cycles of all phases of a measured record; none otherwise.
fn total(record: Value) -> Value {
    if !measured(&record) {
        return none();
    }
    number(&record, &["total"]).unwrap_or_else(none)
}

/// `total_cell(record)`: [`total`] as a table cell: the cycles, or why there are none (`not
/// run`, `no cycles`, `—` for a request the platform does not support, `error: <why>`).
fn total_cell(record: Value) -> String {
    if record.is_none() || record.is_undefined() {
        return String::from("not run");
    }
    let status = record.get_attr("status").unwrap_or_default();
    match status.as_str() {
        Some("ok") => number(&record, &["total"]).map_or(String::from("no cycles"), |c| c.to_string()),
        Some("unsupported") => String::from("—"),
        _ => format!("error: {}", record.get_attr("error").unwrap_or_default()),
    }
}

/// `per_byte(record)`: cycles per byte of a measured record to one decimal, or nothing.
fn per_byte(record: Value) -> String {
    let cycles = total(record.clone());
    match number(&record, &["cycles_per_byte"]).and_then(|c| f64::try_from(c).ok()) {
        Some(c) if !cycles.is_none() => format!("{c:.1}"),
        _ => String::new(),
    }
}

/// `memory(record)`: `stack / code` bytes of a measured record (`?` for either not known), or
/// nothing.
fn memory(record: Value) -> String {
    if total(record.clone()).is_none() {
        return String::new();
    }
    let field = |name: &str| number(&record, &[name]).map_or(String::from("?"), |v| v.to_string());
    format!("{} / {}", field("stack_bytes"), field("code_bytes"))
}

/// `percent_change(ours, reference, decimals=0)`: the signed change of `ours` against
/// `reference`, `+17 %`; nothing when `ours` is none.
fn percent_change(ours: Option<f64>, reference: f64, decimals: Option<usize>) -> String {
    let decimals = decimals.unwrap_or(0);
    ours.map_or_else(String::new, |o| {
        format!("{:+.decimals$} %", (o / reference - 1.0) * 100.0)
    })
}

/// `fixed(value, decimals)`: a number with that many decimals; nothing when it is none.
fn fixed(value: Option<f64>, decimals: usize) -> String {
    value.map_or_else(String::new, |v| format!("{v:.decimals$}"))
}

/// `tool_speed([label, run], ...)`: the "Tool speed" lines of the runs given (none skipped).
fn tool_speed(runs: Rest<Value>) -> Result<String, Error> {
    let mut named = Vec::new();
    for pair in runs.iter() {
        let label = pair.get_item(&Value::from(0))?;
        if let Some(run) = run_of(&pair.get_item(&Value::from(1))?)? {
            named.push((label.to_string(), run));
        }
    }
    let runs: Vec<(&str, &Run)> = named.iter().map(|(l, r)| (l.as_str(), r.as_ref())).collect();
    let mut out = String::new();
    speed::write(&mut out, &runs);
    Ok(out)
}

/// One line of a plot as a template gives it.
#[derive(Deserialize)]
pub struct PlotLine {
    label: String,
    points: Vec<(f64, f64)>,
}

/// `line_plot(name, title, x, y, lines)`: draws the lines (`{label, points: [[x, y], ...]}`;
/// those without points left out) into `figures/<name>.svg` and returns that path; none when
/// no line has points or the document goes to standard output.
fn line_plot(
    figures: Option<&PathBuf>,
    name: String,
    title: String,
    x_desc: String,
    y_desc: String,
    lines: Vec<PlotLine>,
) -> Result<Value, Error> {
    let lines: Vec<Line> = lines
        .into_iter()
        .filter(|l| !l.points.is_empty())
        .map(|l| Line {
            label: l.label,
            points: l.points,
        })
        .collect();
    let Some(dir) = figures.filter(|_| !lines.is_empty()) else {
        return Ok(none());
    };
    let chart = LineChart {
        name,
        title,
        x_desc,
        y_desc,
        lines,
    };
    let failed = |e: String| Error::new(ErrorKind::InvalidOperation, e);
    let plot = draw(&chart).map_err(|e| failed(format!("{e:#}")))?;
    std::fs::create_dir_all(dir).map_err(|e| failed(format!("creating {}: {e}", dir.display())))?;
    let path = dir.join(format!("{}.svg", plot.name));
    std::fs::write(&path, &plot.svg).map_err(|e| failed(format!("writing {}: {e}", path.display())))?;
    Ok(Value::from(format!("figures/{}.svg", plot.name)))
}
