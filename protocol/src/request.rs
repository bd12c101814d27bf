//! Messages from the host to the suite (thesis Table 4.2) and the benchmark requests they
//! carry (thesis Table 5.1).

use crate::Benchmark;

/// A message from the host to the suite. Every request gets exactly one reply.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case", deny_unknown_fields))]
pub enum Request {
    /// Ask the suite to introduce itself again (reply: [`crate::Reply::Hello`]).
    Hello,
    /// Ask for the suite's current status (reply: [`crate::Reply::Status`]).
    GetStatus,
    /// The host has sent all requests of a file; the suite replies with a status summary and
    /// resets its per-session counters.
    Done,
    /// Stop the suite for good: it replies with a `Suspended` status and serves nothing more
    /// until it is reset.
    Suspend,
    /// Send the last reply again, verbatim and with its own identifier, without running
    /// anything: how the host recovers a reply that was corrupted on the way, and learns
    /// whether a request it sent ever arrived.
    Repeat,
    /// Run one benchmark (reply: [`crate::Reply::BenchmarkResults`] or [`crate::Reply::Error`]).
    Benchmark(Benchmark),
}

#[cfg(feature = "serde")]
impl Request {
    /// The JSON name of the request that carries a benchmark: `{"benchmark": {...}}`.
    pub const BENCHMARK: &'static str = "benchmark";

    /// The JSON names of the control requests (`"hello"`, `"get_status"`, ...), the requests
    /// other than a benchmark, as a `.bench` line writes them.
    pub fn control_names() -> alloc::vec::Vec<&'static str> {
        crate::json_names::<Self>()
            .iter()
            .copied()
            .filter(|name| *name != Self::BENCHMARK)
            .collect()
    }
}
