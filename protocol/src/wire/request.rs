//! Wire form of [`Request`]: `ID H|S|D|Z|L`, or `ID B KIND ...` with the kind's own tokens
//! (each kind's file under `kinds/` documents its form; the full grammar is
//! `docs/protocol.md`).

use alloc::string::String;

use super::{frame, parse_number, tokens, unframe, WireError};
use crate::{Benchmark, Request, RequestId};

/// A line the suite cannot serve: why, and the request's identifier when it could be read
/// (the error reply echoes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    /// The identifier, if the frame was intact enough to read it.
    pub id: Option<RequestId>,
    /// What was wrong.
    pub error: WireError,
}

/// Encodes a request with its identifier as one frame (without newline).
pub fn encode_request(id: RequestId, request: &Request) -> String {
    let mut out = alloc::format!("{id} ");
    match request {
        Request::Hello => out.push('H'),
        Request::GetStatus => out.push('S'),
        Request::Done => out.push('D'),
        Request::Suspend => out.push('Z'),
        Request::Repeat => out.push('L'),
        Request::Benchmark(b) => {
            out.push_str("B ");
            b.encode_wire(&mut out);
        }
    }
    frame(out)
}

/// Decodes one received line (newline stripped) into a request.
///
/// Range checks (repetitions, block counts, pads, waits) happen here, so the suite only sees
/// requests it can hold in memory.
pub fn decode_request(line: &[u8]) -> Result<(RequestId, Request), Rejected> {
    let payload = unframe(line).map_err(|error| Rejected { id: None, error })?;
    let mut t = tokens(payload);
    let id: RequestId = t
        .next("request id")
        .and_then(|token| parse_number(token, "request id"))
        .map_err(|error| Rejected { id: None, error })?;
    decode_message(t)
        .map(|r| (id, r))
        .map_err(|error| Rejected { id: Some(id), error })
}

fn decode_message(mut t: super::Tokens<'_>) -> Result<Request, WireError> {
    let request = match t.next("message tag")? {
        "H" => Request::Hello,
        "S" => Request::GetStatus,
        "D" => Request::Done,
        "Z" => Request::Suspend,
        "L" => Request::Repeat,
        "B" => {
            let tag = t.next("benchmark kind")?;
            Request::Benchmark(Benchmark::decode_wire(tag, &mut t)?)
        }
        _ => return Err(WireError::Malformed("unknown message tag")),
    };
    t.end()?;
    Ok(request)
}
