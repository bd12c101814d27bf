//! One results directory as a study reads it: its records, each with the structured fields a
//! template selects it by, and the view of a record a template sees.
//!
//! A record's selection fields are the fields of its request with the kind's defaults filled
//! in (so `direction: encrypt` matches a request that left the direction out), the fields its
//! kind adds to the result (a software primitive's `primitive`, an offload job's `design`),
//! and `kind`, `file` (the `.bench` file's stem), `dataset` and `implementation`. The
//! free-text `config` is never one of them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Result;
use cyclebench_protocol::Benchmark;
use minijinja::value::{Object, Serde, Value};
use serde_json::{json, Map, Value as Json};

use crate::results::{self as load, Record, Status};

/// One run: its records in file order, their selection fields and views, and its `run.json`.
#[derive(Debug)]
pub struct Run {
    /// The results directory as given.
    pub dir: PathBuf,
    /// Every record in file order.
    pub records: Vec<Record>,
    /// The selection fields of each record.
    selection: Vec<Map<String, Json>>,
    /// What a template sees of each record.
    views: Vec<Value>,
    /// `run.json`, when present and readable.
    pub meta: Option<Json>,
}

impl Run {
    /// Reads the results directory (or `results.jsonl`) at `path`.
    pub fn load(path: &Path) -> Result<Self> {
        let results = load::load(path)?;
        results.warn_about_skipped();
        let meta = std::fs::read_to_string(results.dir.join("run.json"))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok());
        let selection: Vec<Map<String, Json>> = results.records.iter().map(selection).collect();
        let views = results
            .records
            .iter()
            .zip(&selection)
            .map(|(r, s)| Value::from(Serde(view(r, s))))
            .collect();
        Ok(Self {
            dir: results.dir,
            records: results.records,
            selection,
            views,
            meta,
        })
    }

    /// The views of the records whose selection fields hold every `(field, value)` of
    /// `wanted`, in file order; a null value asks for the field to be absent.
    pub fn matching<'a>(&'a self, wanted: &'a [(String, Json)]) -> impl Iterator<Item = &'a Value> + 'a {
        self.selection
            .iter()
            .zip(&self.views)
            .filter(move |(fields, _)| {
                wanted.iter().all(|(name, value)| match fields.get(name) {
                    None | Some(Json::Null) => value.is_null(),
                    Some(have) => have == value,
                })
            })
            .map(|(_, view)| view)
    }

    /// The overhead of one measurement window, from the first record that has one.
    pub fn overhead(&self) -> Option<u32> {
        self.records.iter().find_map(|r| r.overhead)
    }
}

/// A run as a template value: `dir`, `overhead` and `meta` (its `run.json`) are readable; the
/// records are reached through the selection functions.
impl Object for Run {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        match key.as_str()? {
            "dir" => Some(Value::from(self.dir.display().to_string())),
            "overhead" => Some(self.overhead().map_or(Value::from(()), Value::from)),
            "meta" => Some(self.meta.as_ref().map_or(Value::from(()), |m| Value::from(Serde(m)))),
            _ => None,
        }
    }
}

/// The record's selection fields.
fn selection(r: &Record) -> Map<String, Json> {
    let mut fields = request_fields(&r.request).unwrap_or_default();
    // What the kind states in its result wins over what the request asked for.
    fields.extend(r.details.iter().map(|(name, value)| (name.clone(), value.clone())));
    fields.insert(String::from("kind"), json!(r.benchmark));
    fields.insert(String::from("file"), json!(r.file_stem()));
    fields.insert(String::from("dataset"), json!(r.dataset));
    fields.insert(
        String::from("implementation"),
        serde_json::to_value(r.implementation).unwrap_or(Json::Null),
    );
    fields
}

/// The fields of a request (`{"<kind>": {fields}}`), with the kind's defaults when the request
/// parses as a benchmark, else as written.
fn request_fields(request: &str) -> Option<Map<String, Json>> {
    let parsed = serde_json::from_str::<Benchmark>(request)
        .ok()
        .and_then(|b| serde_json::to_value(b).ok())
        .or_else(|| serde_json::from_str::<Json>(request).ok())?;
    let Json::Object(outer) = parsed else {
        return None;
    };
    let (_, inner) = outer.into_iter().next()?;
    match inner {
        Json::Object(fields) => Some(fields),
        _ => None,
    }
}

/// The record's error (or reason) up to its first colon, at most 60 characters.
fn short_error(r: &Record) -> String {
    let e = r.error.as_deref().or(r.reason.as_deref()).unwrap_or("failed");
    let e = e.split(':').next().unwrap_or(e);
    e.chars().take(60).collect()
}

/// What a template sees of a record: `status`, `ok`, `error` (short, when not ok), `failure`
/// (the whole error or reason), `raw` and `corrected` (phase → cycles), `raw_phases` and
/// `phases` (`[name, cycles]` in execution order), `raw_total`, `total` (corrected),
/// `cycles_per_byte`, `stack_bytes`, `code_bytes` and `fields` (the selection fields).
fn view(r: &Record, fields: &Map<String, Json>) -> Json {
    let ok = r.status == Status::Ok;
    let pairs = |phases: &crate::results::Named<u64>| -> Vec<Json> {
        phases.iter().map(|(name, cycles)| json!([name, cycles])).collect()
    };
    let map = |phases: &crate::results::Named<u64>| -> Map<String, Json> {
        phases
            .iter()
            .map(|(name, cycles)| (name.clone(), json!(cycles)))
            .collect()
    };
    json!({
        "status": r.status,
        "ok": ok,
        "error": (!ok).then(|| short_error(r)),
        "failure": r.error.as_deref().or(r.reason.as_deref()),
        "raw": map(&r.raw_phases),
        "corrected": map(&r.phases),
        "raw_phases": pairs(&r.raw_phases),
        "phases": pairs(&r.phases),
        "raw_total": r.raw_total(),
        "total": r.total_cycles,
        "cycles_per_byte": r.cycles_per_byte(),
        "stack_bytes": r.stack_bytes(),
        "code_bytes": r.code_bytes,
        "placements": r.details.get(crate::results::PLACEMENTS),
        "fields": fields,
    })
}

#[cfg(test)]
mod tests {
    use cyclebench_protocol::{AesBenchmark, Kind, Primitive, SoftwareBenchmark};
    use serde_json::json;

    use super::super::testdata::{ok, run_of};

    fn wanted(fields: serde_json::Value) -> Vec<(String, serde_json::Value)> {
        fields.as_object().unwrap().clone().into_iter().collect()
    }

    #[test]
    fn records_are_selected_by_their_request_with_its_defaults_and_by_their_file() {
        let kind = AesBenchmark::NAME;
        let block = json!({ kind: {"dataset": "ecb-256-1b", "granularity": "per_block", "trigger": "manual"} });
        let mut padded = block.clone();
        padded[kind]["status_pad"] = json!(4);
        let (_d, run) = run_of(
            &[
                ok("aes_timed_readout", padded, &[("compute", 40)]),
                ok("aes_timed_readout", block.clone(), &[("compute", 41)]),
                ok("aes_per_block", block, &[("compute", 42)]),
            ],
            None,
        );
        let compute = |fields| -> Vec<String> {
            let wanted = wanted(fields);
            run.matching(&wanted)
                .map(|r| r.get_attr("raw").unwrap().get_attr("compute").unwrap().to_string())
                .collect()
        };
        // The direction left out of the request is its default; no status pad asked for is
        // one that is absent.
        assert_eq!(
            compute(json!({"kind": kind, "direction": "encrypt", "granularity": "per_block", "status_pad": null})),
            ["41", "42"]
        );
        assert_eq!(
            compute(json!({"file": "aes_per_block", "dataset": "ecb-256-1b"})),
            ["42"]
        );
        assert_eq!(compute(json!({"status_pad": 4})), ["40"]);
        assert!(compute(json!({"direction": "decrypt"})).is_empty());
        assert!(compute(json!({"config": "words no study reads"})).is_empty());
    }

    #[test]
    fn the_requests_of_a_swept_line_are_selected_by_their_own_values() {
        let kind = SoftwareBenchmark::NAME;
        let primitive = Primitive::Chacha20.name();
        let records: Vec<serde_json::Value> = [16u64, 64, 256]
            .iter()
            .enumerate()
            .map(|(i, &length)| {
                let request = json!({ kind: {"primitive": primitive, "variant": "rust", "length": length} });
                let mut r = ok("lengths", request, &[("run", 100 + length)]);
                r["sweep"] = json!({"index": i + 1, "of": 3, "values": {"length": length}});
                r
            })
            .collect();
        let (_d, run) = run_of(&records, None);
        let raw = |fields| -> Vec<String> {
            let wanted = wanted(fields);
            run.matching(&wanted)
                .map(|r| r.get_attr("raw").unwrap().get_attr("run").unwrap().to_string())
                .collect()
        };
        assert_eq!(raw(json!({"file": "lengths", "length": 64})), ["164"]);
        assert_eq!(
            raw(json!({"primitive": primitive, "variant": "rust"})),
            ["116", "164", "356"]
        );
    }
}
