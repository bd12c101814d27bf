//! Wire form of [`Request`]: `H`, `S`, `D`, `Z`, or `B KIND ...` with the kind's own tokens
//! (each kind's file under `kinds/` documents its form; the full grammar is
//! `docs/protocol.md`).

use alloc::string::String;

use super::{frame, tokens, unframe, WireError};
use crate::{Benchmark, Request};

/// Encodes a request as one frame (without newline).
pub fn encode_request(request: &Request) -> String {
    let mut out = String::new();
    match request {
        Request::Hello => out.push('H'),
        Request::GetStatus => out.push('S'),
        Request::Done => out.push('D'),
        Request::Suspend => out.push('Z'),
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
pub fn decode_request(line: &[u8]) -> Result<Request, WireError> {
    let payload = unframe(line)?;
    let mut t = tokens(payload);
    let request = match t.next("message tag")? {
        "H" => Request::Hello,
        "S" => Request::GetStatus,
        "D" => Request::Done,
        "Z" => Request::Suspend,
        "B" => {
            let tag = t.next("benchmark kind")?;
            Request::Benchmark(Benchmark::decode_wire(tag, &mut t)?)
        }
        _ => return Err(WireError::Malformed("unknown message tag")),
    };
    t.end()?;
    Ok(request)
}
