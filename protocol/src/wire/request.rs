//! Wire form of [`Request`].
//!
//! ```text
//! H | S | D | Z
//! B aes DATASET e|d t|b a|m c|t [xREPS]     direction, total/per-block, auto/manual, checked/tight
//! B rng DATASET [xREPS]
//! B trng BLOCKS [xREPS]
//! B hash 2|3 DATASET a|t -|f [xREPS]        api-conform/tight, fifo tracking off/on
//! B micro [xREPS]
//! ```

use alloc::string::String;
use core::fmt::Write;

use super::{frame, tokens, unframe, Tokens, WireError};
use crate::{
    AesBenchmark, Benchmark, DatasetId, Direction, Granularity, HashAlgorithm, HashBenchmark,
    HashStyle, MicroBenchmark, Request, RngSeededBenchmark, RngTrueRandomBenchmark, Trigger,
    MAX_REPETITIONS, MAX_RNG_BLOCKS,
};

/// Encodes a request as one frame (without newline).
pub fn encode_request(request: &Request) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    match request {
        Request::Hello => out.push('H'),
        Request::GetStatus => out.push('S'),
        Request::Done => out.push('D'),
        Request::Suspend => out.push('Z'),
        Request::Benchmark(b) => {
            let reps = match b {
                Benchmark::Aes(a) => {
                    let _ = write!(
                        out,
                        "B aes {} {} {} {} {}",
                        a.dataset,
                        pick(a.direction == Direction::Encrypt, "e", "d"),
                        pick(a.granularity == Granularity::Total, "t", "b"),
                        pick(a.trigger == Trigger::Automatic, "a", "m"),
                        pick(a.tight, "t", "c"),
                    );
                    a.repetitions
                }
                Benchmark::RngSeeded(r) => {
                    let _ = write!(out, "B rng {}", r.dataset);
                    r.repetitions
                }
                Benchmark::RngTrueRandom(r) => {
                    let _ = write!(out, "B trng {}", r.blocks);
                    r.repetitions
                }
                Benchmark::Hash(h) => {
                    let _ = write!(
                        out,
                        "B hash {} {} {} {}",
                        pick(h.algorithm == HashAlgorithm::Sha2, "2", "3"),
                        h.dataset,
                        pick(h.style == HashStyle::ApiConform, "a", "t"),
                        pick(h.track_fifo, "f", "-"),
                    );
                    h.repetitions
                }
                Benchmark::Micro(m) => {
                    out.push_str("B micro");
                    m.repetitions
                }
            };
            if let Some(n) = reps {
                let _ = write!(out, " x{n}");
            }
        }
    }
    frame(out)
}

fn pick(first: bool, a: &'static str, b: &'static str) -> &'static str {
    if first {
        a
    } else {
        b
    }
}

/// Decodes one received line (newline stripped) into a request.
///
/// Range checks (repetitions, block counts) happen here, so the suite only sees requests it
/// can hold in memory.
pub fn decode_request(line: &[u8]) -> Result<Request, WireError> {
    let payload = unframe(line)?;
    let mut t = tokens(payload);
    let request = match t.next("message tag")? {
        "H" => Request::Hello,
        "S" => Request::GetStatus,
        "D" => Request::Done,
        "Z" => Request::Suspend,
        "B" => return decode_benchmark(t).map(Request::Benchmark),
        _ => return Err(WireError::Malformed("unknown message tag")),
    };
    t.end()?;
    Ok(request)
}

fn decode_benchmark(mut t: Tokens<'_>) -> Result<Benchmark, WireError> {
    let benchmark = match t.next("benchmark kind")? {
        "aes" => Benchmark::Aes(AesBenchmark {
            dataset: dataset(&mut t)?,
            direction: flag(
                &mut t,
                "direction",
                ("e", Direction::Encrypt),
                ("d", Direction::Decrypt),
            )?,
            granularity: flag(
                &mut t,
                "granularity",
                ("t", Granularity::Total),
                ("b", Granularity::PerBlock),
            )?,
            trigger: flag(
                &mut t,
                "trigger",
                ("a", Trigger::Automatic),
                ("m", Trigger::Manual),
            )?,
            tight: flag(&mut t, "tightness", ("t", true), ("c", false))?,
            repetitions: repetitions(&mut t)?,
        }),
        "rng" => Benchmark::RngSeeded(RngSeededBenchmark {
            dataset: dataset(&mut t)?,
            repetitions: repetitions(&mut t)?,
        }),
        "trng" => {
            let blocks: u8 = t.number("block count")?;
            if blocks == 0 || blocks > MAX_RNG_BLOCKS {
                return Err(WireError::Malformed("block count out of range"));
            }
            Benchmark::RngTrueRandom(RngTrueRandomBenchmark {
                blocks,
                repetitions: repetitions(&mut t)?,
            })
        }
        "hash" => Benchmark::Hash(HashBenchmark {
            algorithm: flag(
                &mut t,
                "hash algorithm",
                ("2", HashAlgorithm::Sha2),
                ("3", HashAlgorithm::Sha3),
            )?,
            dataset: dataset(&mut t)?,
            style: flag(
                &mut t,
                "hash style",
                ("a", HashStyle::ApiConform),
                ("t", HashStyle::Tight),
            )?,
            track_fifo: flag(&mut t, "fifo tracking", ("f", true), ("-", false))?,
            repetitions: repetitions(&mut t)?,
        }),
        "micro" => Benchmark::Micro(MicroBenchmark {
            repetitions: repetitions(&mut t)?,
        }),
        _ => return Err(WireError::Malformed("unknown benchmark kind")),
    };
    t.end()?;
    Ok(benchmark)
}

fn dataset(t: &mut Tokens<'_>) -> Result<DatasetId, WireError> {
    DatasetId::new(t.next("dataset id")?).map_err(|_| WireError::Malformed("invalid dataset id"))
}

fn flag<T>(
    t: &mut Tokens<'_>,
    what: &'static str,
    a: (&str, T),
    b: (&str, T),
) -> Result<T, WireError> {
    let token = t.next(what)?;
    if token == a.0 {
        Ok(a.1)
    } else if token == b.0 {
        Ok(b.1)
    } else {
        Err(WireError::Malformed(what))
    }
}

/// The optional trailing `xN`; consumes it when present.
fn repetitions(t: &mut Tokens<'_>) -> Result<Option<u16>, WireError> {
    const WHAT: &str = "repetitions";
    let Some(token) = t.optional()? else {
        return Ok(None);
    };
    let n: u16 = super::parse_number(
        token.strip_prefix('x').ok_or(WireError::Malformed(WHAT))?,
        WHAT,
    )?;
    if n == 0 || n > MAX_REPETITIONS {
        return Err(WireError::Malformed("repetitions out of range"));
    }
    Ok(Some(n))
}
