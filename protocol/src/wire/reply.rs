//! Wire form of [`Reply`].
//!
//! ```text
//! Every reply starts with the identifier of the request it answers, or `-` for none.
//! ID H VERSION PLATFORM CPU_HZ a|n OVERHEAD MODULE=h:NAME|s:NAME|- ...   (a = cycle-accurate)
//! ID S r|z SERVED ERRORS CYCLES
//! ID E KIND DETAIL...
//! ID U KIND REASON...                                   unsupported benchmark
//! ID R h|s k|p|u OVERHEAD REPS SHAPE CYCLES...           measured benchmark
//!   SHAPE and its tokens: see the kind's file under `kinds/`
//! ```

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use super::{frame, is_name, push_decimal, push_number, tokens, unframe, Tokens, WireError};
use crate::{
    BenchmarkKind, BenchmarkResults, Check, ErrorKind, ErrorReply, Hello, Implementation, ImplementationKind, Measured,
    Module, ModuleInfo, Phases, Reply, RequestId, Status, SuiteState, PROTOCOL_VERSION,
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
pub fn encode_reply(id: Option<RequestId>, reply: &Reply) -> String {
    let mut out = String::with_capacity(crate::MAX_LINE_LEN);
    match id {
        Some(id) => push_decimal(&mut out, id),
        None => out.push('-'),
    }
    out.push(' ');
    // Writing into a String cannot fail.
    match reply {
        Reply::Hello(h) => {
            let _ = write!(
                out,
                "H {} {} {} {} {} {}",
                h.protocol_version,
                h.platform,
                h.cpu_hz,
                if h.cycle_accurate { "a" } else { "n" },
                h.overhead,
                h.max_message
            );
            for m in &h.modules {
                let _ = match &m.implementation {
                    Implementation::Hardware(n) => write!(out, " {}=h:{n}", m.module.name()),
                    Implementation::Software(n) => write!(out, " {}=s:{n}", m.module.name()),
                    Implementation::Absent => write!(out, " {}=-", m.module.name()),
                };
            }
        }
        Reply::Accepted => out.push('A'),
        Reply::Status(s) => {
            let state = match s.state {
                SuiteState::Ready => "r",
                SuiteState::Suspended => "z",
            };
            out.push_str("S ");
            out.push_str(state);
            for n in [u64::from(s.served), u64::from(s.errors), s.cycles] {
                push_number(&mut out, n);
            }
            match s.last_request {
                Some(id) => push_number(&mut out, id),
                None => out.push_str(" -"),
            }
        }
        Reply::Error(e) => {
            let _ = write!(out, "E {}", name_of(&ERROR_KINDS, e.kind));
            push_text(&mut out, &e.detail);
        }
        Reply::BenchmarkResults(BenchmarkResults::Unsupported { kind, reason }) => {
            let _ = write!(out, "U {}", kind.tag());
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
    out.push_str(match m.implementation {
        ImplementationKind::Hardware => "R h",
        ImplementationKind::Software => "R s",
    });
    out.push_str(match m.check {
        Check::KnownAnswer => " k",
        Check::Plausibility => " p",
        Check::Unverifiable => " u",
        Check::Unverified => " n",
    });
    push_number(out, m.overhead);
    push_number(out, m.repetitions);
    out.push(' ');
    m.phases.encode_wire(out);
}

/// Decodes one received line (newline stripped) into a reply.
pub fn decode_reply(line: &[u8]) -> Result<(Option<RequestId>, Reply), WireError> {
    let payload = unframe(line)?;
    let mut t = tokens(payload);
    let id = match t.next("request id")? {
        "-" => None,
        // A version-1 suite sends no identifier; say so rather than "malformed".
        "H" => return Err(WireError::Version(t.number("protocol version")?)),
        token => Some(super::parse_number(token, "request id")?),
    };
    decode_message(t).map(|reply| (id, reply))
}

fn decode_message(mut t: Tokens<'_>) -> Result<Reply, WireError> {
    match t.next("message tag")? {
        "H" => decode_hello(t).map(Reply::Hello),
        "A" => {
            t.end()?;
            Ok(Reply::Accepted)
        }
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
                last_request: match t.next("last request")? {
                    "-" => None,
                    token => Some(super::parse_number(token, "last request")?),
                },
            };
            t.end()?;
            Ok(Reply::Status(status))
        }
        "E" => {
            let kind = value_of(&ERROR_KINDS, t.next("error kind")?, "error kind")?;
            Ok(Reply::Error(ErrorReply {
                kind,
                detail: t.text()?,
            }))
        }
        "U" => {
            let kind =
                BenchmarkKind::from_tag(t.next("benchmark kind")?).ok_or(WireError::Malformed("benchmark kind"))?;
            Ok(Reply::BenchmarkResults(BenchmarkResults::Unsupported {
                kind,
                reason: t.text()?,
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
    let max_message = t.number("largest message")?;
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
        max_message,
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
        "n" => Check::Unverified,
        _ => return Err(WireError::Malformed("check")),
    };
    let overhead = t.number("overhead")?;
    let repetitions: u16 = t.number("repetitions")?;
    if repetitions == 0 {
        return Err(WireError::Malformed("repetitions"));
    }
    let tag = t.next("result shape")?;
    let phases = Phases::decode_wire(tag, &mut t)?;
    t.end()?;
    Ok(Measured {
        implementation,
        check,
        overhead,
        repetitions,
        phases,
    })
}
