//! Wire form of [`Reply`].
//!
//! ```text
//! H VERSION PLATFORM CPU_HZ a|n OVERHEAD MODULE=h:NAME|s:NAME|- ...   (a = cycle-accurate)
//! S r|z SERVED ERRORS CYCLES
//! E KIND DETAIL...
//! U KIND REASON...                                   unsupported benchmark
//! R h|s k|p|u OVERHEAD REPS SHAPE CYCLES...           measured benchmark
//!   SHAPE hash:  INIT INPUT AWAIT READ [fMAXDEPTH/FULLWAITS]
//!   SHAPE aest:  INIT PROCESS DEINIT BLOCKS
//!   SHAPE aesb:  INIT WRITE COMPUTE READ DEINIT BLOCKS
//!   SHAPE rng:   INIT (GENERATE READ)*
//!   SHAPE micro: EMPTY NOP NOP10 ADD10 LOAD10 STORE10 MUL10 DIV LOOP10
//!   SHAPE sw:    RUN STACK_BYTES ENTRY
//! ```

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use super::{cycles, frame, is_name, tokens, unframe, Tokens, WireError};
use crate::{
    BenchmarkKind, BenchmarkResults, Check, Cycles, ErrorKind, ErrorReply, FifoTrace, GeneratePhases, Hello,
    Implementation, ImplementationKind, Measured, Module, ModuleInfo, Phases, Reply, Status, SuiteState,
    PROTOCOL_VERSION,
};

const ERROR_KINDS: [(ErrorKind, &str); 8] = [
    (ErrorKind::Malformed, "malformed"),
    (ErrorKind::Checksum, "checksum"),
    (ErrorKind::LineTooLong, "too-long"),
    (ErrorKind::UnknownDataset, "dataset"),
    (ErrorKind::InvalidParameter, "param"),
    (ErrorKind::WrongAnswer, "wrong"),
    (ErrorKind::Timeout, "timeout"),
    (ErrorKind::Panic, "panic"),
];

const KINDS: [(BenchmarkKind, &str); 6] = [
    (BenchmarkKind::Aes, "aes"),
    (BenchmarkKind::RngSeeded, "rng"),
    (BenchmarkKind::RngTrueRandom, "trng"),
    (BenchmarkKind::Hash, "hash"),
    (BenchmarkKind::Micro, "micro"),
    (BenchmarkKind::Software, "sw"),
];

fn name_of<T: PartialEq + Copy>(table: &[(T, &'static str)], value: T) -> &'static str {
    table.iter().find(|(v, _)| *v == value).map_or("?", |(_, n)| n)
}

fn value_of<T: Copy>(table: &[(T, &'static str)], name: &str, what: &'static str) -> Result<T, WireError> {
    table
        .iter()
        .find(|(_, n)| *n == name)
        .map(|(v, _)| *v)
        .ok_or(WireError::Malformed(what))
}

/// Replaces anything outside printable ASCII so free text always frames.
fn push_text(out: &mut String, text: &str) {
    let text = text.trim();
    if text.is_empty() {
        out.push_str(" -");
        return;
    }
    out.push(' ');
    let mut last_space = false;
    for c in text.chars() {
        let c = if c == ' ' || c.is_ascii_graphic() { c } else { '?' };
        // Collapse runs of spaces: the tokenizer treats an empty token as malformed.
        if c == ' ' && last_space {
            continue;
        }
        last_space = c == ' ';
        out.push(c);
    }
}

/// Encodes a reply as one frame (without newline). Free text is truncated so that the frame
/// never exceeds [`crate::MAX_LINE_LEN`].
pub fn encode_reply(reply: &Reply) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    match reply {
        Reply::Hello(h) => {
            let _ = write!(
                out,
                "H {} {} {} {} {}",
                h.protocol_version,
                h.platform,
                h.cpu_hz,
                if h.cycle_accurate { "a" } else { "n" },
                h.overhead
            );
            for m in &h.modules {
                let _ = match &m.implementation {
                    Implementation::Hardware(n) => write!(out, " {}=h:{n}", m.module.name()),
                    Implementation::Software(n) => write!(out, " {}=s:{n}", m.module.name()),
                    Implementation::Absent => write!(out, " {}=-", m.module.name()),
                };
            }
        }
        Reply::Status(s) => {
            let state = match s.state {
                SuiteState::Ready => "r",
                SuiteState::Suspended => "z",
            };
            let _ = write!(out, "S {state} {} {} {}", s.served, s.errors, s.cycles);
        }
        Reply::Error(e) => {
            let _ = write!(out, "E {}", name_of(&ERROR_KINDS, e.kind));
            push_text(&mut out, &e.detail);
        }
        Reply::BenchmarkResults(BenchmarkResults::Unsupported { kind, reason }) => {
            let _ = write!(out, "U {}", name_of(&KINDS, *kind));
            push_text(&mut out, reason);
        }
        Reply::BenchmarkResults(BenchmarkResults::Measured(m)) => encode_measured(&mut out, m),
    }
    // Keep room for "*CCCC"; only free text can make a frame this long.
    let limit = crate::MAX_LINE_LEN - 5;
    if out.len() > limit {
        out.truncate(limit);
        while out.ends_with(' ') {
            out.pop();
        }
    }
    frame(out)
}

fn encode_measured(out: &mut String, m: &Measured) {
    let _ = write!(
        out,
        "R {} {} {} {}",
        match m.implementation {
            ImplementationKind::Hardware => "h",
            ImplementationKind::Software => "s",
        },
        match m.check {
            Check::KnownAnswer => "k",
            Check::Plausibility => "p",
            Check::Unverifiable => "u",
        },
        m.overhead,
        m.repetitions
    );
    let all = |out: &mut String, list: &[&Cycles]| list.iter().for_each(|c| cycles::encode(out, c));
    match &m.phases {
        Phases::Hash {
            init,
            input,
            await_digest,
            read_digest,
            fifo,
        } => {
            out.push_str(" hash");
            all(out, &[init, input, await_digest, read_digest]);
            if let Some(f) = fifo {
                let _ = write!(out, " f{}/{}", f.max_depth, f.full_waits);
            }
        }
        Phases::AesTotal {
            init,
            process,
            deinit,
            blocks,
        } => {
            out.push_str(" aest");
            all(out, &[init, process, deinit]);
            let _ = write!(out, " {blocks}");
        }
        Phases::AesPerBlock {
            init,
            write,
            compute,
            read,
            deinit,
            blocks,
        } => {
            out.push_str(" aesb");
            all(out, &[init, write, compute, read, deinit]);
            let _ = write!(out, " {blocks}");
        }
        Phases::Rng { init, generates } => {
            out.push_str(" rng");
            cycles::encode(out, init);
            for g in generates {
                all(out, &[&g.generate, &g.read]);
            }
        }
        Phases::Micro {
            empty,
            nop,
            nop10,
            add10,
            load10,
            store10,
            mul10,
            div,
            loop10,
        } => {
            out.push_str(" micro");
            all(out, &[empty, nop, nop10, add10, load10, store10, mul10, div, loop10]);
        }
        Phases::Software {
            run,
            stack_bytes,
            entry,
        } => {
            out.push_str(" sw");
            cycles::encode(out, run);
            let _ = write!(out, " {stack_bytes} {entry}");
        }
    }
}

/// Decodes one received line (newline stripped) into a reply.
pub fn decode_reply(line: &[u8]) -> Result<Reply, WireError> {
    let payload = unframe(line)?;
    let mut t = tokens(payload);
    match t.next("message tag")? {
        "H" => decode_hello(t).map(Reply::Hello),
        "S" => {
            let state = match t.next("suite state")? {
                "r" => SuiteState::Ready,
                "z" => SuiteState::Suspended,
                _ => return Err(WireError::Malformed("suite state")),
            };
            let status = Status {
                state,
                served: t.number("served")?,
                errors: t.number("errors")?,
                cycles: t.number("cycles")?,
            };
            t.end()?;
            Ok(Reply::Status(status))
        }
        "E" => {
            let kind = value_of(&ERROR_KINDS, t.next("error kind")?, "error kind")?;
            Ok(Reply::Error(ErrorReply { kind, detail: t.rest() }))
        }
        "U" => {
            let kind = value_of(&KINDS, t.next("benchmark kind")?, "benchmark kind")?;
            Ok(Reply::BenchmarkResults(BenchmarkResults::Unsupported {
                kind,
                reason: t.rest(),
            }))
        }
        "R" => decode_measured(t).map(|m| Reply::BenchmarkResults(BenchmarkResults::Measured(m))),
        _ => Err(WireError::Malformed("unknown message tag")),
    }
}

fn decode_hello(mut t: Tokens<'_>) -> Result<Hello, WireError> {
    let protocol_version: u16 = t.number("protocol version")?;
    if protocol_version != PROTOCOL_VERSION {
        return Err(WireError::Version(protocol_version));
    }
    let platform = t.next("platform")?;
    if !is_name(platform) {
        return Err(WireError::Malformed("platform name"));
    }
    let cpu_hz = t.number("cpu clock")?;
    let cycle_accurate = match t.next("cycle accuracy")? {
        "a" => true,
        "n" => false,
        _ => return Err(WireError::Malformed("cycle accuracy")),
    };
    let overhead = t.number("overhead")?;
    let mut modules = Vec::new();
    while let Some(token) = t.optional()? {
        let (module, implementation) = token.split_once('=').ok_or(WireError::Malformed("module entry"))?;
        let module = Module::ALL
            .into_iter()
            .find(|m| m.name() == module)
            .ok_or(WireError::Malformed("module name"))?;
        let implementation = match implementation.split_once(':') {
            None if implementation == "-" => Implementation::Absent,
            Some(("h", n)) if is_name(n) => Implementation::Hardware(String::from(n)),
            Some(("s", n)) if is_name(n) => Implementation::Software(String::from(n)),
            _ => return Err(WireError::Malformed("module implementation")),
        };
        modules.push(ModuleInfo { module, implementation });
    }
    Ok(Hello {
        protocol_version,
        platform: String::from(platform),
        cpu_hz,
        cycle_accurate,
        overhead,
        modules,
    })
}

fn decode_measured(mut t: Tokens<'_>) -> Result<Measured, WireError> {
    let implementation = match t.next("implementation")? {
        "h" => ImplementationKind::Hardware,
        "s" => ImplementationKind::Software,
        _ => return Err(WireError::Malformed("implementation")),
    };
    let check = match t.next("check")? {
        "k" => Check::KnownAnswer,
        "p" => Check::Plausibility,
        "u" => Check::Unverifiable,
        _ => return Err(WireError::Malformed("check")),
    };
    let overhead = t.number("overhead")?;
    let repetitions: u16 = t.number("repetitions")?;
    if repetitions == 0 {
        return Err(WireError::Malformed("repetitions"));
    }
    let phases = match t.next("result shape")? {
        "hash" => {
            let (init, input, await_digest, read_digest) = (c(&mut t)?, c(&mut t)?, c(&mut t)?, c(&mut t)?);
            let fifo = match t.optional()? {
                None => None,
                Some(token) => Some(decode_fifo(token)?),
            };
            Phases::Hash {
                init,
                input,
                await_digest,
                read_digest,
                fifo,
            }
        }
        "aest" => {
            let (init, process, deinit) = (c(&mut t)?, c(&mut t)?, c(&mut t)?);
            Phases::AesTotal {
                init,
                process,
                deinit,
                blocks: t.number("block count")?,
            }
        }
        "aesb" => {
            let (init, write, compute, read, deinit) = (c(&mut t)?, c(&mut t)?, c(&mut t)?, c(&mut t)?, c(&mut t)?);
            Phases::AesPerBlock {
                init,
                write,
                compute,
                read,
                deinit,
                blocks: t.number("block count")?,
            }
        }
        "rng" => {
            let init = c(&mut t)?;
            let mut generates = Vec::new();
            while let Some(token) = t.optional()? {
                let generate = cycles::decode(token)?;
                let read = cycles::decode(t.next("read cycles")?)?;
                generates.push(GeneratePhases { generate, read });
            }
            Phases::Rng { init, generates }
        }
        "micro" => Phases::Micro {
            empty: c(&mut t)?,
            nop: c(&mut t)?,
            nop10: c(&mut t)?,
            add10: c(&mut t)?,
            load10: c(&mut t)?,
            store10: c(&mut t)?,
            mul10: c(&mut t)?,
            div: c(&mut t)?,
            loop10: c(&mut t)?,
        },
        "sw" => Phases::Software {
            run: c(&mut t)?,
            stack_bytes: t.number("stack bytes")?,
            entry: t.number("entry address")?,
        },
        _ => return Err(WireError::Malformed("result shape")),
    };
    t.end()?;
    Ok(Measured {
        implementation,
        check,
        overhead,
        repetitions,
        phases,
    })
}

fn decode_fifo(token: &str) -> Result<FifoTrace, WireError> {
    const WHAT: &str = "fifo trace";
    let (depth, waits) = token
        .strip_prefix('f')
        .and_then(|rest| rest.split_once('/'))
        .ok_or(WireError::Malformed(WHAT))?;
    Ok(FifoTrace {
        max_depth: super::parse_number(depth, WHAT)?,
        full_waits: super::parse_number(waits, WHAT)?,
    })
}

fn c(t: &mut Tokens<'_>) -> Result<Cycles, WireError> {
    cycles::decode(t.next("cycle count")?)
}
