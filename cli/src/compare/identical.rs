//! `cyclebench compare A B --identical`: whether B holds what A holds, as two runs of the same
//! thing must. The one definition of "the same results" that the shard, merge, Slurm and model
//! checks use (`scripts/shard-check.sh`, `scripts/slurm-test.sh`, `scripts/model-speed.sh`):
//!
//! - the same records, in the same order, none twice, each with every field equal but those a
//!   run cannot repeat ([`RUN_FIELDS`]);
//! - `results.csv` alike, row by row, but for the same fields;
//! - the `.out` file of every input file alike, line by line, each reply as JSON.
//!
//! Cycles, checks and statuses are always held. `run.json` is not compared: it says how the run
//! went (wall time, instances, shards, when it started), which differs between one machine and
//! a merge of shards by design, not what was measured. With `--other-image` the fields that
//! name the image rather than what it measured ([`IMAGE_FIELDS`]) are not held either: for two
//! images meant to measure alike, such as a suite that stops idle clocks against one that does
//! not.
//!
//! Some requests cannot be repeated to the cycle. A record says so itself when its block's
//! counts depend on the cycle the request arrived at (`varies`: masked AES and CSRNG on Earl
//! Grey); others are named with `--not-held` (a status reply, which shows the instance's cycle
//! counter; whatever two runs of a baseline disagree on). Such a request is not held: it must
//! still be there, once, in its place, with the same status and check ([`ALWAYS_HELD`]), but
//! the rest of its record, its row and its reply are not compared, and the output lists it.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde_json::{Map, Value};

use crate::results::{self as load, Record, Results};
use crate::run::meta::{Meta, RUN_JSON};
use crate::run::previous::out_names;

/// Record fields that differ between two runs of the same thing: when the reply arrived, how
/// often a noisy link made the tool send the request, and which variant of the chip's model
/// ran it (each variant counts the whole chip's cycles: that is what a comparison holds).
const RUN_FIELDS: [&str; 3] = ["timestamp", "attempts", "model"];

/// Fields that name the image, or where its code lies, rather than what it measured: not held
/// with `--other-image`. Code moved by other code around it keeps its cycles (docs/analysis.md,
/// "Same code, same cycles"), and a Rust symbol's hash changes with its crate's metadata.
const IMAGE_FIELDS: [&str; 9] = [
    "firmware_revision",
    "image_sha256",
    "rustc",
    "clang",
    "impl_compiler",
    // Names the checkout's include folder.
    "impl_flags",
    "layout_pad",
    "entry",
    "code_symbol",
];

/// What is held of a request that is not held: whether it was measured, and how its output was
/// checked. Neither depends on when the request arrived.
const ALWAYS_HELD: [&str; 2] = ["status", "check"];

/// How many field differences one line shows before it counts the rest.
const SHOWN: usize = 4;

/// How many characters of a value a line shows.
const VALUE_CHARS: usize = 80;

/// Options of `compare --identical`.
#[derive(clap::Args)]
pub struct Options {
    /// Instead of comparing cycles, hold B to A as two runs of the same image: the same records
    /// in the same order, none twice, every field equal but `timestamp` and `attempts`;
    /// `results.csv` equal but for those; the `.out` file of every input file equal. The check
    /// that shards merged, a resumed run or a faster model wrote what one uninterrupted run
    /// writes. `run.json` (wall time, instances) is not compared. Requests whose records say
    /// their counts vary between runs (`varies`) are not held, and listed. Prints one line per
    /// difference on stderr, naming the benchmark as compare names it (`file.bench:line`); exit
    /// status 1 if there is any.
    #[arg(long, conflicts_with_all = ["format", "fail_above", "fail_on_change"])]
    pub identical: bool,
    /// With --identical: a request not held, as `file.bench:LINE`, or `file.bench:LINE[K]` for
    /// the K-th request of a swept line (FILE as compare names it, or as given to `run`): it
    /// must still be there, once, in its place, with the same status and check, but the rest
    /// of its record, its `results.csv` row and its reply are not compared. Records that say
    /// their counts vary between runs (`varies`) are not held without it. Listed as not held;
    /// repeatable.
    #[arg(long, value_name = "FILE:LINE", requires = "identical", value_parser = RequestName::parse)]
    pub not_held: Vec<RequestName>,
    /// With --identical: A and B ran different images meant to measure alike (another revision
    /// of the suite): the fields that name the image or where its code lies are not held
    /// either: `firmware_revision`, `image_sha256`, `rustc`, `clang`, `impl_compiler`,
    /// `impl_flags`, `layout_pad`, `entry`, `code_symbol`.
    #[arg(long, requires = "identical")]
    pub other_image: bool,
    /// With --identical: print each request a difference names on stdout, once, as
    /// `FILE:LINE` or `FILE:LINE[K]` with FILE as given to `run`: the form --not-held reads.
    #[arg(long, requires = "identical")]
    pub list: bool,
}

/// A request as `--not-held` names it: `file.bench:LINE` or `file.bench:LINE[K]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestName {
    /// The file name, or the path as given to `run`.
    file: String,
    /// The 1-based line.
    line: usize,
    /// The place in the line's sweep; `None` names every request of the line.
    sweep: Option<u64>,
}

impl RequestName {
    /// Parses `FILE:LINE` or `FILE:LINE[K]`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let wrong = || format!("expected FILE:LINE or FILE:LINE[K], such as rng.bench:3; got '{text}'");
        let (file, place) = text.rsplit_once(':').ok_or_else(wrong)?;
        let (line, sweep) = match place.strip_suffix(']').and_then(|p| p.split_once('[')) {
            Some((line, k)) => (line, Some(k.parse().map_err(|_| wrong())?)),
            None => (place, None),
        };
        let line = line.parse().map_err(|_| wrong())?;
        if file.is_empty() {
            return Err(wrong());
        }
        Ok(Self {
            file: file.to_owned(),
            line,
            sweep,
        })
    }

    fn matches(&self, key: &Key) -> bool {
        (key.file == self.file || key.file_name() == self.file)
            && key.line == self.line
            && self.sweep.is_none_or(|k| key.sweep == Some(k))
    }
}

impl fmt::Display for RequestName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)?;
        match self.sweep {
            Some(k) => write!(f, "[{k}]"),
            None => Ok(()),
        }
    }
}

/// Where a request stands: its file as given to `run`, its line, its place in a swept line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    file: String,
    line: usize,
    sweep: Option<u64>,
}

impl Key {
    fn of(record: &Record) -> Self {
        Self {
            file: record.file.clone(),
            line: record.line,
            sweep: record.sweep_index(),
        }
    }

    fn file_name(&self) -> &str {
        Path::new(&self.file)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(&self.file)
    }

    fn place(&self) -> String {
        match self.sweep {
            Some(k) => format!("{}[{k}]", self.line),
            None => self.line.to_string(),
        }
    }

    /// As `compare` names the request: `file.bench:line`, `[k]` for a request of a sweep.
    fn name(&self) -> String {
        format!("{}:{}", self.file_name(), self.place())
    }

    /// As `--list` prints it and `--not-held` reads it: the file as given to `run`.
    fn full_name(&self) -> String {
        format!("{}:{}", self.file, self.place())
    }
}

/// One way in which B does not hold what A holds.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Difference {
    /// The request it concerns; `None` for a file as a whole.
    request: Option<Key>,
    /// What differs, in words.
    what: String,
}

impl Difference {
    fn of(request: &Key, what: String) -> Self {
        Self {
            request: Some(request.clone()),
            what,
        }
    }

    fn file(what: String) -> Self {
        Self { request: None, what }
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.request {
            Some(key) => write!(f, "{}: {}", key.name(), self.what),
            None => f.write_str(&self.what),
        }
    }
}

/// Why a request is not held.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Unheld {
    /// Named with `--not-held`.
    Named,
    /// Its record in A or B says its counts vary between runs of the same image, and why.
    Varies(String),
}

impl fmt::Display for Unheld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Named => f.write_str("named with --not-held"),
            Self::Varies(why) => write!(f, "its counts vary between runs ({why})"),
        }
    }
}

/// What is held: which fields, and which requests in whole.
struct Held {
    other_image: bool,
    /// The requests of A not held, and why.
    unheld: HashMap<Key, Unheld>,
}

impl Held {
    /// What `args` hold of the requests of `a`, whose records (or `b`'s) may say they vary; an
    /// error when a name matches no request of A, which is a mistake in the name rather than a
    /// request that did not vary.
    fn new(args: &Options, a: &Results, b: &Results) -> Result<Self> {
        if let Some(name) = args
            .not_held
            .iter()
            .find(|name| !a.records.iter().any(|r| name.matches(&Key::of(r))))
        {
            bail!("--not-held {name}: A has no such request");
        }
        // Reversed, so that the first record of a key is the one kept.
        let in_b: HashMap<Key, &Record> = b.records.iter().rev().map(|r| (Key::of(r), r)).collect();
        let mut unheld = HashMap::new();
        for record in &a.records {
            let key = Key::of(record);
            let why = if args.not_held.iter().any(|name| name.matches(&key)) {
                Some(Unheld::Named)
            } else {
                let varies = record.varies_between_runs();
                let varies = varies.or_else(|| in_b.get(&key)?.varies_between_runs());
                varies.map(|why| Unheld::Varies(why.to_owned()))
            };
            if let Some(why) = why {
                unheld.entry(key).or_insert(why);
            }
        }
        Ok(Self {
            other_image: args.other_image,
            unheld,
        })
    }

    /// The requests of `a` not held, one line per reason (a reason is long, and the same for
    /// every request of a block), in A's order.
    fn lines(&self, a: &Results) -> Vec<String> {
        let mut reasons: Vec<(&Unheld, Vec<String>)> = Vec::new();
        let mut seen = HashSet::new();
        for key in a.records.iter().map(Key::of) {
            let Some(why) = self.unheld.get(&key).filter(|_| seen.insert(key.clone())) else {
                continue;
            };
            match reasons.iter_mut().find(|(w, _)| *w == why) {
                Some((_, names)) => names.push(key.name()),
                None => reasons.push((why, vec![key.name()])),
            }
        }
        reasons
            .into_iter()
            .map(|(why, names)| format!("not held, {why}: {}", names.join(", ")))
            .collect()
    }

    /// Whether the field `name` is held.
    fn field(&self, name: &str) -> bool {
        let image = self.other_image && IMAGE_FIELDS.contains(&name);
        !(RUN_FIELDS.contains(&name) || image)
    }

    /// Whether the request at `key` is held in whole.
    fn request(&self, key: &Key) -> bool {
        !self.unheld.contains_key(key)
    }

    /// `value` without the fields not held, at any depth (a reply nests `entry`).
    fn strip(&self, value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.retain(|name, _| self.field(name));
                map.values_mut().for_each(|v| self.strip(v));
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.strip(v)),
            _ => {}
        }
    }
}

/// A record of `results.jsonl` or a row of `results.csv`: where it stands and what it holds.
#[derive(Clone, Debug)]
struct Item {
    key: Key,
    fields: Value,
}

/// Which sequence of items is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// The records of `results.jsonl`.
    Records,
    /// The rows of `results.csv`.
    Csv,
}

impl Place {
    /// What a line about this place starts with, after the request.
    fn prefix(self) -> &'static str {
        match self {
            Self::Records => "",
            Self::Csv => "results.csv: ",
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Self::Records => "record",
            Self::Csv => "row",
        }
    }
}

/// Runs `compare A B --identical`: prints what is not held and every difference on stderr (and
/// with `--list` the requests they name on stdout); returns whether B is identical to A.
pub fn run(a: &Path, b: &Path, args: &Options) -> Result<bool> {
    let (a, b) = (load::load(a)?, load::load(b)?);
    let held = Held::new(args, &a, &b)?;
    let outcome = check(&a, &b, &held)?;
    for line in held.lines(&a) {
        eprintln!("{line}");
    }
    for difference in &outcome.differences {
        eprintln!("{difference}");
    }
    eprintln!("{}", outcome.conclusion(a.records.len(), held.unheld.len()));
    if args.list {
        print_list(&outcome.differences)?;
    }
    Ok(outcome.differences.is_empty())
}

/// Each request the differences name, once, in the form `--not-held` reads.
fn print_list(differences: &[Difference]) -> Result<()> {
    let mut seen = HashSet::new();
    let mut out = std::io::stdout().lock();
    for key in differences.iter().filter_map(|d| d.request.as_ref()) {
        if seen.insert(key) {
            match writeln!(out, "{}", key.full_name()) {
                // A reader that stops early (`| head`) is not an error of the check.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
                other => other?,
            }
        }
    }
    Ok(())
}

/// What the check found.
#[derive(Debug, Default)]
struct Outcome {
    differences: Vec<Difference>,
    /// Whether both directories have a `results.csv`, which was then compared.
    csv: bool,
    /// The `.out` files compared.
    outs: usize,
}

impl Outcome {
    /// The closing line: what was found identical, or how many differences there are.
    fn conclusion(&self, records: usize, unheld: usize) -> String {
        match self.differences.len() {
            0 => {
                let not_held = if unheld > 0 {
                    format!(" ({unheld} not held)")
                } else {
                    String::new()
                };
                let csv = if self.csv { ", results.csv" } else { "" };
                let outs = plural(self.outs, ".out file");
                format!("compare: identical: {records} records{not_held}{csv} and {outs}")
            }
            n => format!("compare: {}: not identical", plural(n, "difference")),
        }
    }
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Every difference between `a` and `b`. A request is named once, for the first place it
/// differs in (record, then row, then reply): its row and reply are written from its record, so
/// they differ with it.
fn check(a: &Results, b: &Results, held: &Held) -> Result<Outcome> {
    let mut outcome = Outcome::default();
    let mut found = unreadable(a, "A");
    found.extend(unreadable(b, "B"));
    found.extend(sequence(Place::Records, &records(a)?, &records(b)?, held));
    let mut named: HashSet<Key> = found.iter().filter_map(|d| d.request.clone()).collect();
    let (csv, compared) = csv_differences(&a.dir, &b.dir, held);
    outcome.csv = compared;
    let (outs, compared) = out_differences(a, &b.dir, held)?;
    outcome.outs = compared;
    for difference in csv.into_iter().chain(outs) {
        let new = difference.request.as_ref().is_none_or(|k| !named.contains(k));
        if new {
            named.extend(difference.request.clone());
            found.push(difference);
        }
    }
    outcome.differences = found;
    Ok(outcome)
}

/// The lines of a `results.jsonl` that hold no record: a results file must be whole.
fn unreadable(results: &Results, side: &str) -> Vec<Difference> {
    results
        .skipped
        .iter()
        .map(|s| {
            Difference::file(format!(
                "results.jsonl: line {} of {side} holds no record: {}",
                s.line, s.reason
            ))
        })
        .collect()
}

/// The records of `results`, each as its fields.
fn records(results: &Results) -> Result<Vec<Item>> {
    results
        .records
        .iter()
        .map(|r| {
            Ok(Item {
                key: Key::of(r),
                fields: serde_json::to_value(r).context("a record as JSON")?,
            })
        })
        .collect()
}

/// What differs between the sequences `a` and `b` of one place: items twice, missing, only in
/// B, out of order, or holding other values.
fn sequence(place: Place, a: &[Item], b: &[Item], held: &Held) -> Vec<Difference> {
    let prefix = place.prefix();
    let mut found = Vec::new();
    let first_a = first_places(a, "A", place, &mut found);
    let first_b = first_places(b, "B", place, &mut found);
    for item in firsts(a, &first_a) {
        match first_b.get(&item.key) {
            None => found.push(Difference::of(&item.key, format!("{prefix}in A, missing in B"))),
            Some(&j) => {
                let fields = match (held.request(&item.key), place) {
                    (true, _) => [item.fields.clone(), b[j].fields.clone()],
                    (false, Place::Records) => [&item.fields, &b[j].fields].map(always_held),
                    // A row holds nothing its record does not; the record's status and check
                    // are held.
                    (false, Place::Csv) => continue,
                };
                if let Some(what) = content(&fields[0], &fields[1], held) {
                    found.push(Difference::of(&item.key, format!("{prefix}{what}")));
                }
            }
        }
    }
    for item in firsts(b, &first_b).filter(|x| !first_a.contains_key(&x.key)) {
        found.push(Difference::of(&item.key, format!("{prefix}only in B")));
    }
    found.extend(out_of_order(place, a, &first_a, b, &first_b));
    found
}

/// The items both `a` and `b` have (at the first places `first_a` and `first_b`) that stand in
/// another order in B: those outside a longest run of B's items in A's order, the fewest moves
/// that explain B's order.
fn out_of_order(
    place: Place,
    a: &[Item],
    first_a: &HashMap<Key, usize>,
    b: &[Item],
    first_b: &HashMap<Key, usize>,
) -> Vec<Difference> {
    let common: Vec<(usize, usize)> = firsts(b, first_b)
        .filter_map(|x| Some((*first_a.get(&x.key)?, first_b[&x.key])))
        .collect();
    let kept = longest_increasing(&common.iter().map(|&(i, _)| i).collect::<Vec<_>>());
    let (prefix, noun) = (place.prefix(), place.noun());
    common
        .iter()
        .zip(kept)
        .filter(|(_, kept)| !kept)
        .map(|(&(i, j), _)| {
            let what = format!("{prefix}out of order: {noun} {} of A, {noun} {} of B", i + 1, j + 1);
            Difference::of(&a[i].key, what)
        })
        .collect()
}

/// The fields of `record` held whether or not its request is: [`ALWAYS_HELD`].
fn always_held(record: &Value) -> Value {
    let kept = ALWAYS_HELD
        .iter()
        .filter_map(|&name| Some((name.to_owned(), record.get(name)?.clone())));
    Value::Object(kept.collect())
}

/// The items of `items` at the first place of their key.
fn firsts<'a>(items: &'a [Item], first: &'a HashMap<Key, usize>) -> impl Iterator<Item = &'a Item> {
    items
        .iter()
        .enumerate()
        .filter(|(i, x)| first[&x.key] == *i)
        .map(|(_, x)| x)
}

/// The first place of each key in `items`; a key found again is a difference of `side`.
fn first_places(items: &[Item], side: &str, place: Place, found: &mut Vec<Difference>) -> HashMap<Key, usize> {
    let mut first = HashMap::new();
    let mut again: Vec<(&Key, usize)> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if first.contains_key(&item.key) {
            match again.iter_mut().find(|(k, _)| *k == &item.key) {
                Some((_, n)) => *n += 1,
                None => again.push((&item.key, 2)),
            }
        } else {
            first.insert(item.key.clone(), i);
        }
    }
    for (key, n) in again {
        let times = if n == 2 {
            String::from("twice")
        } else {
            format!("{n} times")
        };
        found.push(Difference::of(key, format!("{}{times} in {side}", place.prefix())));
    }
    first
}

/// Marks the elements of `values` (distinct) that one longest strictly increasing subsequence
/// keeps.
fn longest_increasing(values: &[usize]) -> Vec<bool> {
    // tails[l]: the element ending the increasing run of length l + 1 with the smallest end.
    let mut tails: Vec<usize> = Vec::new();
    let mut before: Vec<Option<usize>> = vec![None; values.len()];
    for (i, &v) in values.iter().enumerate() {
        let at = tails.partition_point(|&t| values[t] < v);
        before[i] = at.checked_sub(1).map(|l| tails[l]);
        if at == tails.len() {
            tails.push(i);
        } else {
            tails[at] = i;
        }
    }
    let mut kept = vec![false; values.len()];
    let mut next = tails.last().copied();
    while let Some(i) = next {
        kept[i] = true;
        next = before[i];
    }
    kept
}

/// The fields of `a` and `b` that differ, in words, `None` when all held ones are equal.
fn content(a: &Value, b: &Value, held: &Held) -> Option<String> {
    let (mut a, mut b) = (a.clone(), b.clone());
    held.strip(&mut a);
    held.strip(&mut b);
    let mut found = Vec::new();
    differences("", Some(&a), Some(&b), &mut found);
    if found.is_empty() {
        return None;
    }
    let more = found.len().saturating_sub(SHOWN);
    found.truncate(SHOWN);
    if more > 0 {
        found.push(format!("and {}", plural(more, "more field")));
    }
    Some(found.join("; "))
}

/// Each leaf where `a` and `b` differ below `path`, as `path A-value in A, B-value in B`;
/// objects are followed key by key and arrays of one length item by item, so that a line names
/// the phase that moved rather than all of `phases`.
fn differences(path: &str, a: Option<&Value>, b: Option<&Value>, found: &mut Vec<String>) {
    if a == b {
        return;
    }
    let below = |name: &str| {
        if path.is_empty() {
            name.to_owned()
        } else {
            format!("{path}.{name}")
        }
    };
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            for name in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                differences(&below(name), x.get(name), y.get(name), found);
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) if x.len() == y.len() => {
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                differences(&format!("{path}[{i}]"), Some(u), Some(v), found);
            }
        }
        _ => {
            let (x, y) = (shown(a), shown(b));
            found.push(if path.is_empty() {
                format!("{x} in A, {y} in B")
            } else {
                format!("{path} {x} in A, {y} in B")
            });
        }
    }
}

/// A value as a line shows it: JSON, cut short; `absent` for none.
fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| String::from("absent"), |v| cut(&v.to_string()))
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(VALUE_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// What differs between the `results.csv` of `a` and of `b`, and whether both were compared.
fn csv_differences(a: &Path, b: &Path, held: &Held) -> (Vec<Difference>, bool) {
    let file = |dir: &Path| read_csv(&dir.join("results.csv"));
    match (file(a), file(b)) {
        (Ok(None), Ok(None)) => (Vec::new(), false),
        (Ok(Some(x)), Ok(Some(y))) if x.header != y.header => {
            let what = format!(
                "results.csv: columns {} in A, {} in B",
                cut(&x.header.join(",")),
                cut(&y.header.join(","))
            );
            (vec![Difference::file(what)], true)
        }
        (Ok(Some(x)), Ok(Some(y))) => (sequence(Place::Csv, &x.rows, &y.rows, held), true),
        (x, y) => {
            let state = |csv: Result<Option<Csv>>| match csv {
                Ok(Some(_)) => String::from("present"),
                Ok(None) => String::from("missing"),
                Err(e) => format!("unreadable ({e:#})"),
            };
            let what = format!("results.csv: {} in A, {} in B", state(x), state(y));
            (vec![Difference::file(what)], true)
        }
    }
}

/// `results.csv`: its header and rows.
#[derive(Clone, Debug)]
struct Csv {
    header: Vec<String>,
    rows: Vec<Item>,
}

/// `results.csv` at `path`; `None` when there is none.
fn read_csv(path: &Path) -> Result<Option<Csv>> {
    let mut reader = match csv::Reader::from_path(path) {
        Ok(reader) => reader,
        Err(e) if matches!(e.kind(), csv::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound) => {
            return Ok(None)
        }
        Err(e) => return Err(e.into()),
    };
    let header: Vec<String> = reader.headers()?.iter().map(str::to_owned).collect();
    let column = |name: &str| header.iter().position(|h| h == name);
    let (file, line, sweep) = (column("file"), column("line"), column("sweep"));
    let mut rows = Vec::new();
    for row in reader.records() {
        let row = row?;
        let cell = |at: Option<usize>| at.and_then(|i| row.get(i)).unwrap_or("");
        let key = Key {
            file: cell(file).to_owned(),
            line: cell(line).parse().unwrap_or(0),
            sweep: cell(sweep).parse().ok(),
        };
        let fields: Map<String, Value> = header
            .iter()
            .zip(row.iter())
            .map(|(name, value)| (name.clone(), Value::from(value)))
            .collect();
        rows.push(Item {
            key,
            fields: Value::Object(fields),
        });
    }
    Ok(Some(Csv { header, rows }))
}

/// The input files of the run in `a`: those its `run.json` names, else those its records name,
/// in order.
fn input_files(a: &Results) -> Vec<PathBuf> {
    let meta = std::fs::read_to_string(a.dir.join(RUN_JSON))
        .ok()
        .and_then(|text| serde_json::from_str::<Meta>(&text).ok());
    match meta {
        Some(meta) if !meta.files.is_empty() => meta.files,
        _ => {
            let mut files: Vec<PathBuf> = Vec::new();
            for r in &a.records {
                if !files.iter().any(|f| f.as_os_str() == r.file.as_str()) {
                    files.push(PathBuf::from(&r.file));
                }
            }
            files
        }
    }
}

/// What differs between the `.out` files of A's input files in `a` and in `b`, and how many
/// were compared.
fn out_differences(a: &Results, b: &Path, held: &Held) -> Result<(Vec<Difference>, usize)> {
    let files = input_files(a);
    let mut found = Vec::new();
    let mut compared = 0;
    for (file, name) in files.iter().zip(out_names(&files)) {
        let (x, y) = (read_out(&a.dir.join(&name))?, read_out(&b.join(&name))?);
        let (x, y) = match (x, y) {
            (None, None) => continue,
            (Some(_), None) => {
                found.push(Difference::file(format!("{name}: missing in B")));
                continue;
            }
            (None, Some(_)) => {
                found.push(Difference::file(format!("{name}: only in B")));
                continue;
            }
            (Some(x), Some(y)) => (x, y),
        };
        compared += 1;
        // A `.out` file is in file order whatever order the records are in: its k-th entry is
        // the k-th request of its file in A, by line and place in the line's sweep.
        let file = file.display().to_string();
        let mut requests: Vec<Key> = a.records.iter().filter(|r| r.file == file).map(Key::of).collect();
        requests.sort_by_key(|k| (k.line, k.sweep));
        requests.dedup();
        found.extend(out_file(&name, &x, &y, &requests, held));
    }
    Ok((found, compared))
}

/// The text of the `.out` file at `path`; `None` when there is none.
fn read_out(path: &Path) -> Result<Option<String>> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

/// A piece of a `.out` file.
#[derive(Clone, Debug, PartialEq, Eq)]
enum OutItem<'a> {
    /// A request line and the reply below it (without its `=> `).
    Entry { text: &'a str, reply: &'a str },
    /// Any other line: a comment, the closing `# done:` line.
    Line(&'a str),
}

impl OutItem<'_> {
    fn text(&self) -> &str {
        match self {
            Self::Entry { text, .. } | Self::Line(text) => text,
        }
    }
}

/// The pieces of a `.out` text, each with its 1-based line number.
fn out_items(text: &str) -> Vec<(usize, OutItem<'_>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut items = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        // A line followed by a reply is a request, whatever it says.
        match lines.get(i + 1).and_then(|next| next.strip_prefix("=> ")) {
            Some(reply) => {
                items.push((i + 1, OutItem::Entry { text: lines[i], reply }));
                i += 2;
            }
            None => {
                items.push((i + 1, OutItem::Line(lines[i])));
                i += 1;
            }
        }
    }
    items
}

/// What differs between two texts of the `.out` file `name` whose entries are `requests`.
/// Past a line that differs in what it is (another request, a comment) nothing is paired any
/// more, so that line is the one difference named.
fn out_file(name: &str, a: &str, b: &str, requests: &[Key], held: &Held) -> Vec<Difference> {
    let (x, y) = (out_items(a), out_items(b));
    let mut found = Vec::new();
    let mut entries = requests.iter();
    for ((line, u), (_, v)) in x.iter().zip(&y) {
        match (u, v) {
            (OutItem::Entry { text: s, reply: r }, OutItem::Entry { text: t, reply: q }) if s == t => {
                let request = entries.next();
                if request.is_some_and(|k| !held.request(k)) {
                    continue;
                }
                let Some(what) = reply_difference(r, q, held) else {
                    continue;
                };
                found.push(match request {
                    Some(key) => Difference::of(key, format!("{name}: reply {what}")),
                    None => Difference::file(format!("{name}: line {line}: reply {what}")),
                });
            }
            (OutItem::Line(s), OutItem::Line(t)) if s == t => {}
            _ => {
                let what = format!(
                    "{name}: line {line}: `{}` in A, `{}` in B",
                    cut(u.text()),
                    cut(v.text())
                );
                found.push(Difference::file(what));
                return found;
            }
        }
    }
    let (la, lb) = (a.lines().count(), b.lines().count());
    if la != lb {
        found.push(Difference::file(format!("{name}: {la} lines in A, {lb} in B")));
    }
    found
}

/// How two replies differ, `None` when they hold the same; compared as JSON where both are.
fn reply_difference(a: &str, b: &str, held: &Held) -> Option<String> {
    match (serde_json::from_str::<Value>(a), serde_json::from_str::<Value>(b)) {
        (Ok(x), Ok(y)) => content(&x, &y, held),
        _ => (a != b).then(|| format!("`{}` in A, `{}` in B", cut(a), cut(b))),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A measured record of line `line` of `benchmarks/sha2.bench` with `run` cycles.
    fn record(line: usize, run: u64) -> Value {
        let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
        json!({
            "status": "ok", "file": "benchmarks/sha2.bench", "line": line, "benchmark": kind,
            "request": format!(r#"{{"{kind}": {{"algorithm": "sha2", "length": {line}}}}}"#),
            "module": "sha2", "check": "known_answer", "verified": true,
            "phases": {"init": 10, "run": run}, "total_cycles": 10 + run, "attempts": 1,
            "firmware_revision": "r1", "timestamp": format!("2026-11-28T10:00:0{line}Z"),
        })
    }

    fn args(not_held: &[&str], other_image: bool) -> Options {
        Options {
            identical: true,
            not_held: not_held.iter().map(|n| RequestName::parse(n).unwrap()).collect(),
            other_image,
            list: false,
        }
    }

    /// The lines the record check prints for `a` and `b` under `args`.
    fn lines_with(a: &[Value], b: &[Value], args: &Options) -> Vec<String> {
        let (a, b) = (Results::of_values(a), Results::of_values(b));
        let held = Held::new(args, &a, &b).unwrap();
        sequence(Place::Records, &records(&a).unwrap(), &records(&b).unwrap(), &held)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn lines(a: &[Value], b: &[Value]) -> Vec<String> {
        lines_with(a, b, &args(&[], false))
    }

    #[test]
    fn the_same_records_are_identical_whenever_and_however_often_sent() {
        let a = [record(1, 100), record(2, 200)];
        let mut b = a.clone();
        b[0]["timestamp"] = json!("2026-12-01T00:00:00Z");
        b[1]["attempts"] = json!(3);
        assert_eq!(lines(&a, &b), Vec::<String>::new());
    }

    #[test]
    fn a_changed_field_is_named_down_to_the_phase() {
        let a = [record(1, 100), record(2, 200)];
        let mut b = a.clone();
        b[1] = record(2, 201);
        b[0]["check"] = json!("unverified");
        assert_eq!(
            lines(&a, &b),
            [
                r#"sha2.bench:1: check "known_answer" in A, "unverified" in B"#,
                "sha2.bench:2: phases.run 200 in A, 201 in B; total_cycles 210 in A, 211 in B",
            ]
        );
    }

    #[test]
    fn missing_extra_twice_and_moved_records_are_each_named() {
        let a = [record(1, 1), record(2, 2), record(3, 3), record(4, 4), record(5, 5)];
        let b = [
            record(1, 1),
            record(3, 3),
            record(4, 4),
            record(2, 2),
            record(4, 4),
            record(6, 6),
        ];
        assert_eq!(
            lines(&a, &b),
            [
                "sha2.bench:4: twice in B",
                "sha2.bench:5: in A, missing in B",
                "sha2.bench:6: only in B",
                "sha2.bench:2: out of order: record 2 of A, record 4 of B",
            ]
        );
    }

    #[test]
    fn a_field_absent_on_one_side_is_a_difference() {
        let a = [record(1, 1)];
        let mut b = a.clone();
        b[0]["stack_bytes"] = json!(48);
        assert_eq!(lines(&a, &b), ["sha2.bench:1: stack_bytes absent in A, 48 in B"]);
    }

    #[test]
    fn a_line_shows_a_few_differences_and_counts_the_rest() {
        let a = [record(1, 1)];
        let mut b = a.clone();
        for (i, name) in ["a", "b", "c", "d", "e", "f"].into_iter().enumerate() {
            b[0][name] = json!(i);
        }
        let line = &lines(&a, &b)[0];
        assert!(line.ends_with("d absent in A, 3 in B; and 2 more fields"), "{line}");
    }

    #[test]
    fn other_images_leave_the_fields_that_name_the_image() {
        let a = [record(1, 1)];
        let mut b = a.clone();
        b[0]["firmware_revision"] = json!("r2");
        b[0]["rustc"] = json!("rustc 1.96.0");
        assert_eq!(lines(&a, &b).len(), 1);
        assert_eq!(lines_with(&a, &b, &args(&[], true)), Vec::<String>::new());
        // Cycles stay held whatever the image.
        b[0]["total_cycles"] = json!(12);
        assert_eq!(
            lines_with(&a, &b, &args(&[], true)),
            ["sha2.bench:1: total_cycles 11 in A, 12 in B"]
        );
    }

    #[test]
    fn a_request_not_held_must_be_there_once_and_in_its_place_with_its_status_and_check() {
        let a = [record(1, 1), record(2, 2), record(3, 3)];
        let mut b = [record(1, 1), record(3, 30), record(2, 20), record(3, 30)];
        let not_held = args(&["sha2.bench:2", "benchmarks/sha2.bench:3"], false);
        assert_eq!(
            lines_with(&a, &b, &not_held),
            [
                "sha2.bench:3: twice in B",
                "sha2.bench:3: out of order: record 3 of A, record 2 of B"
            ]
        );
        b[2]["check"] = json!("unverified");
        b[2]["status"] = json!("error");
        assert_eq!(
            lines_with(&a, &b, &not_held)[1],
            r#"sha2.bench:2: status "ok" in A, "error" in B; check "known_answer" in A, "unverified" in B"#
        );
    }

    #[test]
    fn a_record_whose_counts_vary_between_runs_is_not_held_without_being_named() {
        let csrng = |run| {
            let mut r = record(1, run);
            r["implementation"] = json!("hardware");
            r["implementation_name"] = json!("csrng");
            r
        };
        let (a, b) = ([csrng(100), record(2, 2)], [csrng(106), record(2, 2)]);
        assert_eq!(lines(&a, &b), Vec::<String>::new());
        let mut a = a.to_vec();
        a.push(csrng(200));
        a[2]["line"] = json!(3);
        let a = Results::of_values(&a);
        let held = Held::new(&args(&["sha2.bench:2"], false), &a, &Results::of_values(&b)).unwrap();
        let listed = held.lines(&a);
        assert_eq!(listed.len(), 2, "{listed:?}");
        assert!(
            listed[0].starts_with("not held, its counts vary between runs (CSRNG")
                && listed[0].ends_with("): sha2.bench:1, sha2.bench:3"),
            "{listed:?}"
        );
        assert_eq!(listed[1], "not held, named with --not-held: sha2.bench:2");
        // A record that says so itself, whatever its block.
        let mut said = record(2, 3);
        said["varies"] = json!("because");
        assert_eq!(lines(&[record(2, 2)], &[said]), Vec::<String>::new());
    }

    #[test]
    fn a_name_that_matches_no_request_of_a_is_an_error() {
        let a = Results::of_values(&[record(1, 1)]);
        for (name, error) in [
            ("sha2.bench:9", "--not-held sha2.bench:9: A has no such request"),
            ("sha2.bench:1[2]", "--not-held sha2.bench:1[2]: A has no such request"),
        ] {
            let e = Held::new(&args(&[name], false), &a, &a).err().unwrap();
            assert_eq!(e.to_string(), error);
        }
    }

    #[test]
    fn requests_are_named_as_compare_names_them_and_read_back_as_listed() {
        let parsed = RequestName::parse("benchmarks/sweeps/lengths.bench:4[2]").unwrap();
        assert_eq!(parsed.to_string(), "benchmarks/sweeps/lengths.bench:4[2]");
        let key = Key {
            file: String::from("benchmarks/sweeps/lengths.bench"),
            line: 4,
            sweep: Some(2),
        };
        assert_eq!(key.name(), "lengths.bench:4[2]");
        assert_eq!(RequestName::parse(&key.full_name()), Ok(parsed.clone()));
        assert!(parsed.matches(&key));
        let whole_line = RequestName::parse("lengths.bench:4").unwrap();
        assert!(whole_line.matches(&key));
        assert!(!RequestName::parse("lengths.bench:4[3]").unwrap().matches(&key));
        for bad in ["lengths.bench", "lengths.bench:x", ":4", "a.bench:4[x]", "a.bench:4[2"] {
            assert!(RequestName::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_moved_records_are_the_fewest_that_explain_the_order() {
        assert_eq!(longest_increasing(&[0, 1, 2]), [true, true, true]);
        assert_eq!(longest_increasing(&[0, 2, 3, 1, 4]), [true, true, true, false, true]);
        assert_eq!(longest_increasing(&[2, 1, 0]).iter().filter(|k| **k).count(), 1);
        assert_eq!(longest_increasing(&[]), Vec::<bool>::new());
    }

    const OUT: &str = "# sha2\n{\"line\": 1}\n=> {\"phases\":{\"run\":5},\"entry\":64}\n\
                       {\"line\": 2}\n=> {\"phases\":{\"run\":6}}\n# done: 2 served, 0 errors\n";

    fn keys() -> Vec<Key> {
        [1, 2]
            .map(|line| Key {
                file: String::from("sha2.bench"),
                line: line + 1,
                sweep: None,
            })
            .to_vec()
    }

    fn held(unheld: &[Key], other_image: bool) -> Held {
        Held {
            other_image,
            unheld: unheld.iter().map(|k| (k.clone(), Unheld::Named)).collect(),
        }
    }

    fn out_lines(b: &str, held: &Held) -> Vec<String> {
        out_file("sha2.out", OUT, b, &keys(), held)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn an_out_file_pairs_requests_with_replies() {
        assert_eq!(
            out_items(OUT)[..2],
            [
                (1, OutItem::Line("# sha2")),
                (
                    2,
                    OutItem::Entry {
                        text: "{\"line\": 1}",
                        reply: "{\"phases\":{\"run\":5},\"entry\":64}"
                    }
                )
            ]
        );
        assert_eq!(out_lines(OUT, &held(&[], false)), Vec::<String>::new());
    }

    #[test]
    fn a_reply_that_differs_names_its_request_unless_not_held() {
        let b = OUT.replace("\"run\":6", "\"run\":7");
        assert_eq!(
            out_lines(&b, &held(&[], false)),
            ["sha2.bench:3: sha2.out: reply phases.run 6 in A, 7 in B"]
        );
        assert_eq!(out_lines(&b, &held(&keys()[1..], false)), Vec::<String>::new());
        // Where the code lies is the image's.
        let moved = OUT.replace("\"entry\":64", "\"entry\":96");
        assert_eq!(out_lines(&moved, &held(&[], false)).len(), 1);
        assert_eq!(out_lines(&moved, &held(&[], true)), Vec::<String>::new());
    }

    #[test]
    fn an_out_file_that_departs_is_named_where_it_departs() {
        let b = OUT.replace("# done: 2 served, 0 errors", "# done: 1 served, 1 errors");
        assert_eq!(
            out_lines(&b, &held(&[], false)),
            ["sha2.out: line 6: `# done: 2 served, 0 errors` in A, `# done: 1 served, 1 errors` in B"]
        );
        let cut = &OUT[..OUT.find("{\"line\": 2}").unwrap()];
        assert_eq!(out_lines(cut, &held(&[], false)), ["sha2.out: 6 lines in A, 3 in B"]);
    }

    /// Two directories with these `results.csv` texts (`None`: no file).
    fn csv_dirs(a: Option<&str>, b: Option<&str>) -> [tempfile::TempDir; 2] {
        [a, b].map(|text| {
            let dir = tempfile::tempdir().unwrap();
            if let Some(text) = text {
                std::fs::write(dir.path().join("results.csv"), text).unwrap();
            }
            dir
        })
    }

    fn csv_lines(a: Option<&str>, b: Option<&str>, held: &Held) -> (Vec<String>, bool) {
        let [x, y] = csv_dirs(a, b);
        let (found, compared) = csv_differences(x.path(), y.path(), held);
        (found.iter().map(ToString::to_string).collect(), compared)
    }

    const CSV: &str = "status,file,line,total_cycles,firmware_revision,sweep\n\
                       ok,benchmarks/sha2.bench,3,110,r1,\n\
                       ok,benchmarks/lengths.bench,2,40,r1,1\n";

    #[test]
    fn results_csv_is_held_row_by_row_but_for_what_is_not_held() {
        let none: Vec<String> = Vec::new();
        assert_eq!(csv_lines(Some(CSV), Some(CSV), &held(&[], false)), (none.clone(), true));
        let other = CSV.replace("40,r1,1", "41,r2,1");
        assert_eq!(
            csv_lines(Some(CSV), Some(&other), &held(&[], false)).0,
            [
                r#"lengths.bench:2[1]: results.csv: total_cycles "40" in A, "41" in B; firmware_revision "r1" in A, "r2" in B"#
            ]
        );
        let swept = Key {
            file: String::from("benchmarks/lengths.bench"),
            line: 2,
            sweep: Some(1),
        };
        assert_eq!(csv_lines(Some(CSV), Some(&other), &held(&[swept], false)).0, none);
        let image = CSV.replace("r1", "r2");
        assert_eq!(csv_lines(Some(CSV), Some(&image), &held(&[], true)).0, none);
    }

    #[test]
    fn a_results_csv_missing_or_with_other_columns_is_a_difference() {
        assert_eq!(csv_lines(None, None, &held(&[], false)), (Vec::new(), false));
        assert_eq!(
            csv_lines(Some(CSV), None, &held(&[], false)).0,
            ["results.csv: present in A, missing in B"]
        );
        let renamed = CSV.replace(",sweep", ",swept");
        let (found, _) = csv_lines(Some(CSV), Some(&renamed), &held(&[], false));
        assert!(
            found[0].starts_with("results.csv: columns status,file") && found[0].ends_with("swept in B"),
            "{found:?}"
        );
        let (found, _) = csv_lines(Some(CSV), Some(&CSV.replace(",sweep", "")), &held(&[], false));
        assert!(
            found[0].starts_with("results.csv: present in A, unreadable (CSV error: record 1"),
            "{found:?}"
        );
    }

    #[test]
    fn the_closing_line_says_what_was_identical_or_how_much_differs() {
        let mut outcome = Outcome {
            differences: Vec::new(),
            csv: true,
            outs: 3,
        };
        assert_eq!(
            outcome.conclusion(120, 4),
            "compare: identical: 120 records (4 not held), results.csv and 3 .out files"
        );
        outcome.csv = false;
        outcome.outs = 1;
        assert_eq!(
            outcome.conclusion(2, 0),
            "compare: identical: 2 records and 1 .out file"
        );
        outcome.differences.push(Difference::file(String::from("x")));
        assert_eq!(outcome.conclusion(2, 0), "compare: 1 difference: not identical");
    }
}
