//! Wire form of [`Request`].
//!
//! ```text
//! H | S | D | Z
//! B aes DATASET e|d t|b a|m c|t [pPAD] [xREPS]   direction, total/per-block, auto/manual, checked/tight
//! B rng DATASET [wWAIT] [xREPS]
//! B trng BLOCKS [wWAIT] [xREPS]
//! B hash 2|3 DATASET a|t -|f [xREPS]            api-conform/tight, fifo tracking off/on
//! B micro [xREPS]
//! B sw PRIMITIVE VARIANT [lLENGTH] [xREPS]        e.g. `B sw chacha20 rv32i l4096 x5`
//! ```

use alloc::string::String;
use core::fmt::Write;

use super::{frame, parse_number, tokens, unframe, Tokens, WireError};
use crate::{
    AesBenchmark, Benchmark, DatasetId, Direction, Granularity, HashAlgorithm, HashBenchmark, HashStyle,
    MicroBenchmark, Primitive, Request, RngSeededBenchmark, RngTrueRandomBenchmark, SoftwareBenchmark, SoftwareVariant,
    Trigger, MAX_INIT_WAIT, MAX_REPETITIONS, MAX_RNG_BLOCKS, MAX_STATUS_PAD,
};

/// Optional trailing `<letter><number>` tokens, encoded in this order.
#[derive(Default)]
struct Options {
    pad: Option<u16>,
    wait: Option<u32>,
    length: Option<u32>,
    repetitions: Option<u16>,
}

impl Options {
    fn encode(&self, out: &mut String) {
        // Writing into a String cannot fail.
        if let Some(p) = self.pad {
            let _ = write!(out, " p{p}");
        }
        if let Some(w) = self.wait {
            let _ = write!(out, " w{w}");
        }
        if let Some(l) = self.length {
            let _ = write!(out, " l{l}");
        }
        if let Some(n) = self.repetitions {
            let _ = write!(out, " x{n}");
        }
    }

    /// Reads the remaining tokens; `allowed` lists the letters this benchmark takes. Each
    /// option may appear once, in canonical order.
    fn decode(t: &mut Tokens<'_>, allowed: &str) -> Result<Self, WireError> {
        let mut options = Self::default();
        let mut last = 0usize;
        while let Some(token) = t.optional()? {
            let mut chars = token.chars();
            let letter = chars.next().unwrap_or(' ');
            let rank = "pwlx".find(letter).ok_or(WireError::Malformed("unknown option"))? + 1;
            if !allowed.contains(letter) || rank <= last {
                return Err(WireError::Malformed("option not allowed here or out of order"));
            }
            last = rank;
            let number = chars.as_str();
            match letter {
                'p' => {
                    let pad: u16 = parse_number(number, "status pad")?;
                    if pad > MAX_STATUS_PAD {
                        return Err(WireError::Malformed("status pad out of range"));
                    }
                    options.pad = Some(pad);
                }
                'w' => {
                    let wait: u32 = parse_number(number, "init wait")?;
                    if wait > MAX_INIT_WAIT {
                        return Err(WireError::Malformed("init wait out of range"));
                    }
                    options.wait = Some(wait);
                }
                'l' => options.length = Some(parse_number(number, "length")?),
                _ => {
                    let n: u16 = parse_number(number, "repetitions")?;
                    if n == 0 || n > MAX_REPETITIONS {
                        return Err(WireError::Malformed("repetitions out of range"));
                    }
                    options.repetitions = Some(n);
                }
            }
        }
        Ok(options)
    }
}

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
            let options = match b {
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
                    Options {
                        pad: a.status_pad,
                        repetitions: a.repetitions,
                        ..Options::default()
                    }
                }
                Benchmark::RngSeeded(r) => {
                    let _ = write!(out, "B rng {}", r.dataset);
                    Options {
                        wait: r.init_wait,
                        repetitions: r.repetitions,
                        ..Options::default()
                    }
                }
                Benchmark::RngTrueRandom(r) => {
                    let _ = write!(out, "B trng {}", r.blocks);
                    Options {
                        wait: r.init_wait,
                        repetitions: r.repetitions,
                        ..Options::default()
                    }
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
                    Options {
                        repetitions: h.repetitions,
                        ..Options::default()
                    }
                }
                Benchmark::Micro(m) => {
                    out.push_str("B micro");
                    Options {
                        repetitions: m.repetitions,
                        ..Options::default()
                    }
                }
                Benchmark::Software(s) => {
                    let _ = write!(out, "B sw {} {}", s.primitive.name(), s.variant.name());
                    Options {
                        length: s.length,
                        repetitions: s.repetitions,
                        ..Options::default()
                    }
                }
            };
            options.encode(&mut out);
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
/// Range checks (repetitions, block counts, pads, waits) happen here, so the suite only sees
/// requests it can hold in memory.
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
        "aes" => {
            let dataset = dataset(&mut t)?;
            let direction = flag(
                &mut t,
                "direction",
                ("e", Direction::Encrypt),
                ("d", Direction::Decrypt),
            )?;
            let granularity = flag(
                &mut t,
                "granularity",
                ("t", Granularity::Total),
                ("b", Granularity::PerBlock),
            )?;
            let trigger = flag(&mut t, "trigger", ("a", Trigger::Automatic), ("m", Trigger::Manual))?;
            let tight = flag(&mut t, "tightness", ("t", true), ("c", false))?;
            let o = Options::decode(&mut t, "px")?;
            Benchmark::Aes(AesBenchmark {
                dataset,
                direction,
                granularity,
                trigger,
                tight,
                status_pad: o.pad,
                repetitions: o.repetitions,
            })
        }
        "rng" => {
            let dataset = dataset(&mut t)?;
            let o = Options::decode(&mut t, "wx")?;
            Benchmark::RngSeeded(RngSeededBenchmark {
                dataset,
                init_wait: o.wait,
                repetitions: o.repetitions,
            })
        }
        "trng" => {
            let blocks: u8 = t.number("block count")?;
            if blocks == 0 || blocks > MAX_RNG_BLOCKS {
                return Err(WireError::Malformed("block count out of range"));
            }
            let o = Options::decode(&mut t, "wx")?;
            Benchmark::RngTrueRandom(RngTrueRandomBenchmark {
                blocks,
                init_wait: o.wait,
                repetitions: o.repetitions,
            })
        }
        "hash" => {
            let algorithm = flag(
                &mut t,
                "hash algorithm",
                ("2", HashAlgorithm::Sha2),
                ("3", HashAlgorithm::Sha3),
            )?;
            let dataset = dataset(&mut t)?;
            let style = flag(
                &mut t,
                "hash style",
                ("a", HashStyle::ApiConform),
                ("t", HashStyle::Tight),
            )?;
            let track_fifo = flag(&mut t, "fifo tracking", ("f", true), ("-", false))?;
            let o = Options::decode(&mut t, "x")?;
            Benchmark::Hash(HashBenchmark {
                algorithm,
                dataset,
                style,
                track_fifo,
                repetitions: o.repetitions,
            })
        }
        "micro" => Benchmark::Micro(MicroBenchmark {
            repetitions: Options::decode(&mut t, "x")?.repetitions,
        }),
        "sw" => {
            let primitive =
                Primitive::from_name(t.next("primitive")?).ok_or(WireError::Malformed("unknown primitive"))?;
            let variant =
                SoftwareVariant::from_name(t.next("variant")?).ok_or(WireError::Malformed("unknown variant"))?;
            let o = Options::decode(&mut t, "lx")?;
            if !primitive.accepts(o.length) {
                return Err(WireError::Malformed(
                    "length missing, not allowed or out of range for this primitive",
                ));
            }
            Benchmark::Software(SoftwareBenchmark {
                primitive,
                variant,
                length: o.length,
                repetitions: o.repetitions,
            })
        }
        _ => return Err(WireError::Malformed("unknown benchmark kind")),
    };
    t.end()?;
    Ok(benchmark)
}

fn dataset(t: &mut Tokens<'_>) -> Result<DatasetId, WireError> {
    DatasetId::new(t.next("dataset id")?).map_err(|_| WireError::Malformed("invalid dataset id"))
}

fn flag<T>(t: &mut Tokens<'_>, what: &'static str, a: (&str, T), b: (&str, T)) -> Result<T, WireError> {
    let token = t.next(what)?;
    if token == a.0 {
        Ok(a.1)
    } else if token == b.0 {
        Ok(b.1)
    } else {
        Err(WireError::Malformed(what))
    }
}
