//! Earl Grey model variants: tops generated from the snapshot's own chip description without
//! blocks some requests never use (`sim/earlgrey/variants`, one line each: name, training set,
//! options, the blocks removed). A file runs on the smallest variant that holds every block its
//! requests use, the full chip when none does; a test holds every variant's records to the full
//! chip's.

use std::path::Path;

use anyhow::{Context, Result};
use cyclebench_protocol::{Module, Request};

use crate::bench_file::{Action, Line};

/// The name of the whole chip, which every request can run on.
pub const FULL: &str = "full";

/// The file listing the variants, relative to the repository.
pub const VARIANTS_FILE: &str = "sim/earlgrey/variants";

/// One variant of the chip: its name, as `sim/earlgrey/build.sh` takes it, the blocks it
/// lacks (instance names of `top_earlgrey.hjson`), and whether it can write an instruction
/// trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// Its name.
    pub name: String,
    /// The blocks it lacks.
    pub removed: Vec<String>,
    /// Built with the core's RVFI (no `no-rvfi` option), which the instruction tracer reads:
    /// slower, so chosen only for runs with `--instruction-trace`.
    pub traced: bool,
}

/// The variants listed in `root`'s [`VARIANTS_FILE`] (none when the file is not there: a tree
/// without variants runs everything on the full chip).
pub fn read(root: &Path) -> Result<Vec<Variant>> {
    let path = root.join(VARIANTS_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    Ok(parse(&text))
}

/// The variants of a variants file's text.
fn parse(text: &str) -> Vec<Variant> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let name = words.next()?.to_owned();
            let _training = words.next()?;
            let traced = !words.next()?.split(',').any(|option| option == "no-rvfi");
            let removed = words.map(str::to_owned).collect();
            Some(Variant { name, removed, traced })
        })
        .collect()
}

/// The blocks of the chip a module's driver touches: the block itself and, for every block
/// that draws entropy (AES and KMAC for their masks, OTBN for its random numbers, CSRNG
/// itself), the whole entropy chain.
pub fn blocks(module: Module) -> &'static [&'static str] {
    const CHAIN: [&str; 4] = ["entropy_src", "csrng", "edn0", "edn1"];
    match module {
        Module::Sha2 => &["hmac"],
        Module::Sha3 => &["kmac", CHAIN[0], CHAIN[1], CHAIN[2], CHAIN[3]],
        Module::Aes => &["aes", CHAIN[0], CHAIN[1], CHAIN[2], CHAIN[3]],
        Module::Rng | Module::Entropy => &CHAIN,
        Module::BigNum => &["otbn", CHAIN[0], CHAIN[1], CHAIN[2], CHAIN[3]],
    }
}

/// The blocks the lines use; `None` when some line's needs are unknown (a raw wire line, which
/// may be anything).
pub fn blocks_used(lines: &[Line]) -> Option<Vec<&'static str>> {
    let mut used: Vec<&'static str> = Vec::new();
    for line in lines {
        match line {
            Line::Action {
                action: Action::Request(Request::Benchmark(b)),
                ..
            } => {
                for block in b.accelerator().map(blocks).unwrap_or_default() {
                    if !used.contains(block) {
                        used.push(block);
                    }
                }
            }
            Line::Action {
                action: Action::Raw(_), ..
            } => return None,
            _ => {}
        }
    }
    Some(used)
}

/// The smallest of `variants` (the most blocks removed) that holds every block in `used`; the
/// full chip when none does or the needs are unknown.
pub fn choose<'v>(variants: &'v [Variant], used: Option<&[&str]>) -> &'v str {
    let Some(used) = used else { return FULL };
    variants
        .iter()
        .filter(|v| !v.removed.iter().any(|r| used.contains(&r.as_str())))
        .max_by_key(|v| v.removed.len())
        .map_or(FULL, |v| v.name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench_file::parse as parse_bench;

    const LISTED: &str = "# name bench options blocks\n\
        software  profile-software.bench  no-rvfi  aes kmac keymgr otbn entropy_src csrng edn0 edn1\n\
        \n\
        no-otbn  profile.bench  -  otbn\n\
        software-traced  profile-software.bench  -  aes kmac keymgr otbn entropy_src csrng edn0 edn1\n";

    fn used(text: &str) -> Option<Vec<&'static str>> {
        blocks_used(&parse_bench(text.as_bytes()))
    }

    #[test]
    fn the_variants_file_names_each_variant_and_its_removed_blocks() {
        let variants = parse(LISTED);
        assert_eq!(variants.len(), 3);
        assert_eq!(variants[0].name, "software");
        assert_eq!(variants[0].removed.len(), 8);
        assert!(!variants[0].traced);
        assert_eq!(variants[1].removed, ["otbn"]);
        assert!(variants[1].traced && variants[2].traced);
    }

    #[test]
    fn each_file_runs_on_the_smallest_variant_that_holds_its_blocks() {
        // The traced variants are left to runs that trace (the run's configuration).
        let variants: Vec<Variant> = parse(LISTED)
            .into_iter()
            .filter(|v| v.name != "software-traced")
            .collect();
        let text = format!(
            r#"{{"{}": {{"primitive": "{}", "variant": "rust"}}}}"#,
            cyclebench_protocol::BenchmarkKind::Software.name(),
            cyclebench_protocol::Primitive::Chacha20.name()
        );
        assert_eq!(choose(&variants, used(&text).as_deref()), "software");
        // SHA-256 on the HMAC block: the software variant keeps it.
        let hash = format!(
            r#"{{"{}": {{"algorithm": "sha2", "dataset": "abc"}}}}"#,
            cyclebench_protocol::BenchmarkKind::Hash.name()
        );
        assert_eq!(used(&hash), Some(vec!["hmac"]));
        assert_eq!(choose(&variants, used(&hash).as_deref()), "software");
        // SHA3 on KMAC, which draws entropy: only the full chip... or a variant without OTBN.
        let sha3 = hash.replace("sha2", "sha3");
        assert_eq!(choose(&variants, used(&sha3).as_deref()), "no-otbn");
        assert_eq!(choose(&variants[..1], used(&sha3).as_deref()), FULL);
        // A raw line may be anything.
        assert_eq!(used(r#"{"raw_line": "B hash 9 x"}"#), None);
        assert_eq!(choose(&variants, None), FULL);
        assert_eq!(choose(&[], Some(&[])), FULL);
    }
}
