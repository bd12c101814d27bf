//! "Tool speed": how long each run took and how fast the simulation ran, from each results
//! directory's `run.json`, with the command that repeats the run.

use std::fmt::Write as _;

use serde_json::Value;

use super::records::Run;

/// One line per run that recorded its wall time, then the speed-up of every run over another
/// of the same target and files that used fewer instances.
pub fn write(w: &mut String, runs: &[(&str, &Run)]) {
    let _ = writeln!(w, "### Tool speed\n");
    let timed: Vec<(&str, &Value)> = runs
        .iter()
        .filter_map(|(name, run)| Some((*name, run.meta.as_ref()?)))
        .filter(|(_, meta)| wall(meta) > 0.0)
        .collect();
    for (name, meta) in &timed {
        let wall = wall(meta);
        let requests = meta["requests"].as_u64().unwrap_or(0);
        let instances = match meta["instances"].as_u64() {
            Some(1) => String::from(", one instance"),
            Some(n) => format!(", {n} instances"),
            None => String::new(),
        };
        let link = meta["link"]
            .as_str()
            .map_or(String::new(), |l| format!(" over the {l} link"));
        let speed = meta["simulated_cycles"]
            .as_u64()
            .map_or(String::from("unknown"), |c| cycles_per_second(c as f64 / wall));
        let command = command(meta).map_or(String::new(), |c| format!(": `{c}`"));
        let _ = writeln!(
            w,
            "- {name}: {requests} requests in {wall:.1} s wall{instances}{link} ({:.1} benchmarks per \
             minute), {speed} simulated cycles per wall second (including firmware build check, model \
             start-up and boot){command}",
            requests as f64 * 60.0 / wall
        );
    }
    for (fast_name, fast) in &timed {
        for (slow_name, slow) in &timed {
            let same_work = fast["target"] == slow["target"] && fast["files"] == slow["files"];
            let (Some(more), Some(fewer)) = (fast["instances"].as_u64(), slow["instances"].as_u64()) else {
                continue;
            };
            if same_work && !fast["files"].is_null() && more > fewer {
                let _ = writeln!(
                    w,
                    "- {fast_name} against {slow_name}: {:.2}× as fast in wall time",
                    wall(slow) / wall(fast)
                );
            }
        }
    }
    let _ = writeln!(w);
}

fn wall(meta: &Value) -> f64 {
    meta["wall_seconds"].as_f64().unwrap_or(0.0)
}

/// Millions with two decimals, or whole cycles below a million.
fn cycles_per_second(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.2} M", rate / 1e6)
    } else {
        format!("{rate:.0}")
    }
}

/// The `cyclebench run` command line of a run whose `run.json` names its files.
fn command(meta: &Value) -> Option<String> {
    let files: Vec<&str> = meta["files"].as_array()?.iter().filter_map(Value::as_str).collect();
    let target = meta["target"].as_str()?;
    let mut c = format!("cyclebench run --target {target}");
    if let Some(link) = meta["link"].as_str() {
        let _ = write!(c, " --link {link}");
    }
    if let Some(n) = meta["instances"].as_u64() {
        let _ = write!(c, " --jobs {n}");
    }
    let _ = write!(c, " {}", files.join(" "));
    Some(c)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::testdata::{line, ok, run_of};
    use super::*;

    #[test]
    fn speed_lines_name_instances_link_and_command_and_compare_instance_counts() {
        let files = json!(["benchmarks/a.bench", "benchmarks/b.bench"]);
        let record = [ok("timing", json!({"timing": {}}), &[("nop10", 18)])];
        let (_a, two) = run_of(
            &record,
            Some(json!({"target": "t", "files": files, "instances": 2, "link": "mailbox",
                        "wall_seconds": 50.0, "simulated_cycles": 4_000_000, "requests": 100})),
        );
        let (_b, one) = run_of(
            &record,
            Some(json!({"target": "t", "files": files, "instances": 1, "link": "mailbox",
                        "wall_seconds": 90.0, "simulated_cycles": 4_000_000, "requests": 100})),
        );
        let (_c, old) = run_of(
            &record,
            Some(json!({"wall_seconds": 20.0, "simulated_cycles": 100_000, "requests": 10})),
        );
        let mut out = String::new();
        write(&mut out, &[("two", &two), ("one", &one), ("old", &old)]);
        assert_eq!(
            line(&out, "### Tool speed", "- two:"),
            "- two: 100 requests in 50.0 s wall, 2 instances over the mailbox link (120.0 benchmarks \
             per minute), 80000 simulated cycles per wall second (including firmware build check, \
             model start-up and boot): `cyclebench run --target t --link mailbox --jobs 2 \
             benchmarks/a.bench benchmarks/b.bench`"
        );
        assert_eq!(
            line(&out, "### Tool speed", "- old:"),
            "- old: 10 requests in 20.0 s wall (30.0 benchmarks per minute), 5000 simulated cycles \
             per wall second (including firmware build check, model start-up and boot)"
        );
        assert_eq!(
            line(&out, "### Tool speed", "- two against"),
            "- two against one: 1.80× as fast in wall time"
        );
        assert!(!out.contains("- one against"), "{out}");
    }
}
