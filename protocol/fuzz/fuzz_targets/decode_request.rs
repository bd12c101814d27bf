//! `decode_request` on arbitrary lines: it never panics, and a request it accepts re-encodes
//! to a frame that decodes to the same request.

#![no_main]

use cyclebench_protocol::wire::{decode_request, encode_request, frame};
use libfuzzer_sys::fuzz_target;

fn round_trip(line: &[u8]) {
    if let Ok((id, request)) = decode_request(line) {
        let encoded = encode_request(id, &request);
        assert_eq!(
            decode_request(encoded.as_bytes()),
            Ok((id, request)),
            "{line:?} re-encoded as {encoded:?}"
        );
    }
}

fuzz_target!(|line: &[u8]| {
    round_trip(line);
    // Almost no mutated line carries a valid checksum; the same bytes with one added reach
    // the message decoder behind it.
    if let Ok(payload) = std::str::from_utf8(line) {
        round_trip(frame(payload.to_owned()).as_bytes());
    }
});
