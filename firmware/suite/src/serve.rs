//! The main loop: read a line, decode, dispatch, reply. Every non-empty line gets exactly one
//! reply, whatever it holds, carrying the request's identifier when it could be read; a
//! repeat request gets the previous reply again.

use alloc::format;
use alloc::string::String;

use cyclebench_protocol::wire::{decode_request, encode_reply, Rejected, WireError};
use cyclebench_protocol::{
    ErrorKind, ErrorReply, Hello, Reply, Request, RequestId, Status, SuiteState, PROTOCOL_VERSION,
};

use crate::benchmarks;
use crate::line::{LineReader, TooLong};
use crate::platform::Platform;
use crate::Implementation;

/// Requests served and failed since boot or the last `Done`.
#[derive(Default)]
struct Counters {
    served: u32,
    errors: u32,
}

/// Sends `reply` answering request `id` and returns the frame, so it can be sent again.
fn send<P: Platform>(platform: &mut P, id: Option<RequestId>, reply: &Reply) -> String {
    let line = encode_reply(id, reply);
    platform.comm().write_line(line.as_bytes());
    line
}

fn error(kind: ErrorKind, detail: String) -> Reply {
    Reply::Error(ErrorReply { kind, detail })
}

/// The suite's introduction.
pub fn hello<P: Platform>(platform: &P, overhead: u32) -> Reply {
    Reply::Hello(Hello {
        protocol_version: PROTOCOL_VERSION,
        platform: String::from(P::NAME),
        cpu_hz: P::CPU_HZ,
        cycle_accurate: P::CYCLE_ACCURATE,
        overhead,
        max_message: cyclebench_protocol::message::MAX_MESSAGE_BYTES,
        modules: platform.modules(),
    })
}

/// Serves requests forever (until `Suspend`).
pub fn run<P: Platform>(platform: &mut P, overhead: u32, implementations: &[Implementation]) -> ! {
    // The suite's own code (decoding, replies, set-up) runs from flash; a cache speeds it up.
    // Every benchmark runs with it off again, as calibration did.
    P::set_instruction_cache(true);
    // A newline first ends any garbage the host's terminal may have buffered.
    platform.comm().write_byte(b'\n');
    // The last request carried out other than a status or repeat request, and its reply:
    // what a repeat request sends again (at first, the unprompted hello).
    let mut last = Carried {
        id: None,
        frame: send(platform, None, &hello(platform, overhead)),
    };
    let mut reader = LineReader::new();
    let mut counters = Counters::default();
    loop {
        let (id, reply) = match reader.read_line(platform.comm()) {
            Err(TooLong) => (
                None,
                error(
                    ErrorKind::LineTooLong,
                    format!("line longer than {} bytes", cyclebench_protocol::MAX_LINE_LEN),
                ),
            ),
            // The host sends an empty line to end a partial one before it resynchronises;
            // answering it would only add a reply nobody asked for.
            Ok([]) => continue,
            Ok(line) => match decode_request(line) {
                Err(Rejected { id, error: e }) => {
                    let kind = match e {
                        WireError::TooLong => ErrorKind::LineTooLong,
                        WireError::Checksum => ErrorKind::Checksum,
                        _ => ErrorKind::Malformed,
                    };
                    (id, error(kind, format!("{e}")))
                }
                Ok((id, request)) => (
                    Some(id),
                    match request {
                        Request::Repeat => {
                            platform.comm().write_line(last.frame.as_bytes());
                            continue;
                        }
                        Request::GetStatus => {
                            send(platform, Some(id), &status(SuiteState::Ready, &counters, last.id));
                            continue;
                        }
                        Request::Hello => hello(platform, overhead),
                        Request::Done => {
                            let reply = status(SuiteState::Ready, &counters, Some(id));
                            counters = Counters::default();
                            reply
                        }
                        Request::Suspend => {
                            send(platform, Some(id), &status(SuiteState::Suspended, &counters, Some(id)));
                            platform.comm().flush();
                            P::stop(true);
                        }
                        Request::Benchmark(b) => {
                            // Outside every measured window: the host now knows to wait.
                            send(platform, Some(id), &Reply::Accepted);
                            P::set_instruction_cache(false);
                            let outcome = benchmarks::run(platform, &b, overhead, implementations);
                            P::set_instruction_cache(true);
                            platform.stop_unused_clocks();
                            match outcome {
                                Ok(results) => {
                                    counters.served += 1;
                                    Reply::BenchmarkResults(results)
                                }
                                Err(e) => error(e.kind, e.detail),
                            }
                        }
                    },
                ),
            },
        };
        if matches!(reply, Reply::Error(_)) {
            counters.errors += 1;
        }
        let frame = send(platform, id, &reply);
        // A line too damaged to name its request is no request the host could ask about.
        if id.is_some() {
            last = Carried { id, frame };
        }
    }
}

/// A request the suite carried out, and the frame it answered with.
struct Carried {
    id: Option<RequestId>,
    frame: String,
}

fn status(state: SuiteState, c: &Counters, last_request: Option<RequestId>) -> Reply {
    Reply::Status(Status {
        state,
        served: c.served,
        errors: c.errors,
        cycles: crate::cycles::now(),
        last_request,
    })
}
