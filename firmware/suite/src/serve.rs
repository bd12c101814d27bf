//! The main loop: read a line, decode, dispatch, reply. Every line gets exactly one reply,
//! whatever it holds.

use alloc::format;
use alloc::string::String;

use cyclebench_protocol::wire::{decode_request, encode_reply, WireError};
use cyclebench_protocol::{ErrorKind, ErrorReply, Hello, Reply, Request, Status, SuiteState, PROTOCOL_VERSION};

use crate::benchmarks;
use crate::line::{LineReader, TooLong};
use crate::platform::Platform;

/// Requests served and failed since boot or the last `Done`.
#[derive(Default)]
struct Counters {
    served: u32,
    errors: u32,
}

fn send<P: Platform>(platform: &mut P, reply: &Reply) {
    let line = encode_reply(reply);
    platform.comm().write_line(line.as_bytes());
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
        modules: platform.modules(),
    })
}

/// Serves requests forever (until `Suspend`).
pub fn run<P: Platform>(platform: &mut P, overhead: u32) -> ! {
    // A newline first ends any garbage the host's terminal may have buffered.
    platform.comm().write_byte(b'\n');
    let reply = hello(platform, overhead);
    send(platform, &reply);
    let mut reader = LineReader::new();
    let mut counters = Counters::default();
    loop {
        let reply = match reader.read_line(platform.comm()) {
            Err(TooLong) => error(
                ErrorKind::LineTooLong,
                format!("line longer than {} bytes", cyclebench_protocol::MAX_LINE_LEN),
            ),
            Ok([]) => continue,
            Ok(line) => match decode_request(line) {
                Err(e) => {
                    let kind = match e {
                        WireError::TooLong => ErrorKind::LineTooLong,
                        WireError::Checksum => ErrorKind::Checksum,
                        _ => ErrorKind::Malformed,
                    };
                    error(kind, format!("{e}"))
                }
                Ok(request) => match request {
                    Request::Hello => hello(platform, overhead),
                    Request::GetStatus => status(SuiteState::Ready, &counters),
                    Request::Done => {
                        let reply = status(SuiteState::Ready, &counters);
                        counters = Counters::default();
                        reply
                    }
                    Request::Suspend => {
                        send(platform, &status(SuiteState::Suspended, &counters));
                        platform.comm().flush();
                        P::stop(true);
                    }
                    Request::Benchmark(b) => match benchmarks::run(platform, &b, overhead) {
                        Ok(results) => {
                            counters.served += 1;
                            Reply::BenchmarkResults(results)
                        }
                        Err(e) => error(e.kind, e.detail),
                    },
                },
            },
        };
        if matches!(reply, Reply::Error(_)) {
            counters.errors += 1;
        }
        send(platform, &reply);
    }
}

fn status(state: SuiteState, c: &Counters) -> Reply {
    Reply::Status(Status {
        state,
        served: c.served,
        errors: c.errors,
        cycles: crate::cycles::now(),
    })
}
