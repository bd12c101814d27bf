//! A session with a running suite: the hello handshake, then one request at a time, each
//! paired with its reply by the request's identifier and recovered from a noisy link.
//!
//! Recovery works because the suite answers lines in order and benchmarks are idempotent:
//! - every request carries a fresh identifier; a reply is accepted only if it echoes that
//!   identifier and fits the request (its kind and result shape), so a reply is never
//!   paired with another request;
//! - every request is preceded by an empty line, which ends whatever partial line a lost
//!   newline left in the suite's buffer (the suite ignores empty lines);
//! - after a quiet spell the host probes with a status request of its own identifier: the
//!   suite answers it only when idle, after any reply it owed; if the reply never came (or
//!   came corrupted), the host asks the suite to repeat its last reply, and if the suite
//!   never got the request, the host sends it again under a new identifier;
//! - every wait is bounded, and so is the number of attempts per request.

use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use cyclebench_protocol::wire::{decode_reply, encode_request, WireError};
use cyclebench_protocol::{BenchmarkResults, Hello, Reply, Request, RequestId, SuiteState};

use crate::link::{Link, ReadError};

/// How many of the latest identifiers count as this session's own when a reply arrives
/// out of turn.
const RECENT_IDS: RequestId = 1024;

/// How long to listen for a spontaneous hello before asking for one.
const SPONTANEOUS_HELLO: Duration = Duration::from_secs(3);

/// Most attempts at one request: a corrupted request or reply costs one, a lost probe or
/// repeat a fraction. At 1 % byte errors a request and its reply both arrive intact about
/// two times in five, so this many attempts lose a request about once in ten thousand.
pub const DEFAULT_ATTEMPTS: u32 = 12;

/// Why a request got no reply.
#[derive(Debug)]
pub enum RequestError {
    /// Nothing at all within the timeout; the link is considered dead.
    Timeout(Duration),
    /// The suite took the request and gave no result within the timeout: the request hung
    /// (a loop that never ends), or runs longer than the timeout allows.
    Hung(Duration),
    /// The link closed; says why.
    Closed(String),
    /// The suite started over (it sent an unprompted hello).
    Reset(Box<Hello>),
    /// Every attempt was lost or corrupted; says what happened last.
    Exhausted { attempts: u32, last: String },
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Timeout(t) => write!(
                f,
                "no reply within {:.0} s, the timeout that applied: the target does not answer",
                t.as_secs_f64()
            ),
            Self::Hung(t) => write!(
                f,
                "hung: the suite took the request and gave no result within {:.0} s, the timeout that \
                 applied (a benchmark that runs longer needs a larger --timeout)",
                t.as_secs_f64()
            ),
            Self::Closed(why) => write!(f, "link lost: {why}"),
            Self::Reset(hello) => write!(
                f,
                "the target reset during this request (it sent a new hello as {})",
                hello.platform
            ),
            Self::Exhausted { attempts, last } => {
                write!(f, "no intact reply after {attempts} attempts (last: {last})")
            }
        }
    }
}

impl RequestError {
    /// Whether further requests can still be sent.
    pub fn link_usable(&self) -> bool {
        matches!(self, Self::Reset(_) | Self::Exhausted { .. })
    }
}

/// A reply and what it took to get it.
#[derive(Debug)]
pub struct Exchange {
    /// The reply, echoing the request's identifier and fitting the request.
    pub reply: Reply,
    /// How many times the request was sent (1 on a clean link).
    pub attempts: u32,
}

/// How one attempt ended.
enum Attempt {
    Answered(Box<Reply>),
    /// The suite never got the request, or its reply could not be recovered; try again.
    Lost(String),
}

/// Timing of a session.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Longest wait for a hello.
    pub hello_timeout: Duration,
    /// Longest wait for one reply (a benchmark may run this long).
    pub timeout: Duration,
    /// Time without a byte after which the host first probes the suite; the wait before the
    /// next probe doubles each time, so a long benchmark draws only a few probes.
    pub silence: Duration,
    /// Most attempts per request.
    pub attempts: u32,
}

impl Timing {
    /// Timing with these waits and the default number of attempts.
    pub fn new(hello_timeout: Duration, timeout: Duration, silence: Duration) -> Self {
        Self {
            hello_timeout,
            timeout,
            silence,
            attempts: DEFAULT_ATTEMPTS,
        }
    }
}

/// A connected suite.
pub struct Session {
    link: Link,
    /// The suite's latest hello.
    pub hello: Hello,
    timing: Timing,
    next_id: RequestId,
}

impl Session {
    /// Waits for the suite's hello, asking for it again and again if the suite was already
    /// running or the hello was lost.
    pub fn connect(mut link: Link, timing: Timing) -> Result<Self> {
        let start = Instant::now();
        let mut noise: Vec<String> = Vec::new();
        let mut next_id: RequestId = 1;
        let mut next_ask = SPONTANEOUS_HELLO.min(timing.hello_timeout / 2);
        let mut asked: Option<RequestId> = None;
        let mut asked_at: Option<Duration> = None;
        loop {
            let elapsed = start.elapsed();
            if elapsed >= timing.hello_timeout {
                bail!(
                    "no hello from the suite on {} within {:.0} s{}",
                    link.description,
                    timing.hello_timeout.as_secs_f64(),
                    describe_noise(&noise)
                );
            }
            if elapsed >= next_ask {
                let id = next_id;
                next_id = next_id.wrapping_add(1);
                link.write_line("")?;
                link.write_line(&encode_request(id, &Request::Hello))?;
                asked = Some(id);
                asked_at = Some(elapsed);
                // Asking again only helps if the first hello or the question was lost; the
                // interval leaves a booting target time to answer.
                next_ask = elapsed + timing.hello_timeout / 10;
            }
            let wait = (timing.hello_timeout - elapsed)
                .min(next_ask.saturating_sub(elapsed))
                .max(Duration::from_millis(10));
            match link.read_line(wait) {
                Ok(line) => match decode_reply(line.as_bytes()) {
                    Ok((id, Reply::Hello(hello))) if id.is_none() || id == asked => {
                        return Ok(Self {
                            link,
                            hello,
                            timing,
                            next_id,
                        })
                    }
                    Err(WireError::Version(v)) => bail!(
                        "the suite speaks protocol version {v}, this cyclebench speaks {}: rebuild one of them from the same revision",
                        cyclebench_protocol::PROTOCOL_VERSION
                    ),
                    _ if !line.trim().is_empty() => {
                        noise.push(line);
                        // The line may have been a damaged hello: ask at once (but not more
                        // often than a quiet spell, so a chatty boot is not flooded).
                        let soonest = asked_at.map_or(Duration::ZERO, |t| t + timing.silence);
                        next_ask = next_ask.min(soonest.max(start.elapsed()));
                    }
                    _ => {}
                },
                Err(ReadError::Timeout) => {}
                Err(ReadError::Closed(why)) => {
                    bail!("{} ended before the suite said hello: {why}{}", link.description, describe_noise(&noise))
                }
            }
        }
    }

    fn fresh_id(&mut self) -> RequestId {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        id
    }

    /// Whether `id` is one this session used recently: a reply carrying it that arrives
    /// out of turn answers an earlier request or probe.
    fn issued_recently(&self, id: RequestId) -> bool {
        self.next_id.wrapping_sub(id).wrapping_sub(1) < RECENT_IDS
    }

    /// Sends `request` and waits for its reply, retrying on a noisy link.
    pub fn request(&mut self, request: &Request) -> Result<Exchange, RequestError> {
        let mut last = String::from("nothing received");
        for attempt in 1..=self.timing.attempts {
            let id = self.fresh_id();
            self.send(&encode_request(id, request))?;
            match self.await_reply(id, request)? {
                Attempt::Answered(reply) => {
                    return Ok(Exchange {
                        reply: *reply,
                        attempts: attempt,
                    })
                }
                Attempt::Lost(why) => last = why,
            }
        }
        Err(RequestError::Exhausted {
            attempts: self.timing.attempts,
            last,
        })
    }

    /// Sends `line` verbatim (for testing the suite's input handling) and returns what the
    /// suite answered before a status probe sent right after it.
    pub fn send_raw(&mut self, line: &str) -> Result<Exchange, RequestError> {
        self.send(line)?;
        let probe = self.fresh_id();
        self.send(&encode_request(probe, &Request::GetStatus))?;
        let start = Instant::now();
        let mut answer: Option<Reply> = None;
        loop {
            match self.next_line(start, self.timing.timeout)? {
                Some(line) => match decode_reply(line.as_bytes()) {
                    Ok((Some(id), Reply::Status(_))) if id == probe => {
                        return match answer {
                            Some(reply) => Ok(Exchange { reply, attempts: 1 }),
                            None => Err(RequestError::Exhausted {
                                attempts: 1,
                                last: String::from("the suite did not answer the line"),
                            }),
                        }
                    }
                    Ok((None, Reply::Hello(hello))) => return Err(self.reset(hello)),
                    // Late answers to earlier probes are not the raw line's.
                    Ok((Some(id), _)) if self.issued_recently(id) => {}
                    // A benchmark line is accepted first; its answer follows.
                    Ok((_, Reply::Accepted)) => {}
                    Ok((_, reply)) => {
                        answer.get_or_insert(reply);
                    }
                    Err(_) => {}
                },
                None => {
                    return Err(RequestError::Exhausted {
                        attempts: 1,
                        last: String::from("no answer to the raw line's status probe"),
                    })
                }
            }
        }
    }

    /// Writes one request line, preceded by an empty line that ends any partial line.
    fn send(&mut self, line: &str) -> Result<(), RequestError> {
        self.link
            .write_line("")
            .and_then(|()| self.link.write_line(line))
            .map_err(|e| RequestError::Closed(format!("{e:#}")))
    }

    /// The next line, or `None` after `quiet`; fails after the full timeout.
    fn next_line(&mut self, start: Instant, quiet: Duration) -> Result<Option<String>, RequestError> {
        let remaining = self
            .timing
            .timeout
            .checked_sub(start.elapsed())
            .ok_or(RequestError::Timeout(self.timing.timeout))?;
        match self.link.read_line(remaining.min(quiet)) {
            Ok(line) => Ok(Some(line)),
            Err(ReadError::Timeout) => Ok(None),
            Err(ReadError::Closed(why)) => Err(RequestError::Closed(why)),
        }
    }

    fn reset(&mut self, hello: Hello) -> RequestError {
        self.hello = hello.clone();
        RequestError::Reset(Box::new(hello))
    }

    /// Waits for the reply to request `id`, probing the suite after a quiet spell or a
    /// damaged line.
    fn await_reply(&mut self, id: RequestId, request: &Request) -> Result<Attempt, RequestError> {
        let start = Instant::now();
        // The outstanding probe, if any, how many were sent, and when the next may go.
        let mut probe: Option<RequestId> = None;
        let mut probes = 0;
        let mut backoff = self.timing.silence;
        let mut next_probe = start;
        // Whether the suite said it took the request: then it is busy until the reply, and
        // only a reply stuck mid-line or damaged calls for a probe.
        let mut accepted = false;
        loop {
            let line = match self.next_line(start, self.timing.silence) {
                Err(RequestError::Timeout(t)) if accepted => return Err(RequestError::Hung(t)),
                line => line?,
            };
            let decoded = line.as_deref().map(|l| decode_reply(l.as_bytes()));
            let suspicious = match &decoded {
                // No line: suspicious only if no byte came either (a slow link may be in the
                // middle of a reply).
                None => {
                    self.link.idle() >= self.timing.silence
                        && (!accepted || self.link.partial_line() || probe.is_some())
                }
                Some(Ok((Some(r), Reply::Accepted))) if *r == id => {
                    // Busy with the request: an outstanding probe is answered only after it,
                    // so it is no reason to keep probing.
                    accepted = true;
                    probe = None;
                    backoff = self.timing.silence;
                    false
                }
                Some(Ok((Some(r), reply))) if *r == id => {
                    return Ok(if fits(request, reply) {
                        Attempt::Answered(Box::new(reply.clone()))
                    } else {
                        Attempt::Lost(format!(
                            "a reply that does not fit the request: {}",
                            line.unwrap_or_default()
                        ))
                    });
                }
                Some(Ok((Some(r), Reply::Status(status)))) if Some(*r) == probe => {
                    // The suite answers a probe only when idle, after any reply it owed us;
                    // being answered, it may be asked again at once.
                    probe = None;
                    backoff = self.timing.silence;
                    if status.last_request != Some(id) {
                        return Ok(Attempt::Lost(String::from("the request did not arrive intact")));
                    }
                    // It carried the request out, but the reply was lost: ask for it again.
                    let r = self.fresh_id();
                    self.send(&encode_request(r, &Request::Repeat))?;
                    // The repeat is answered at once, so silence now means it was lost.
                    accepted = false;
                    false
                }
                Some(Ok((None, Reply::Hello(hello)))) if *request != Request::Hello => {
                    let hello = hello.clone();
                    return Err(self.reset(hello));
                }
                // Errors without an identifier answer lines that arrived damaged, ours or an
                // earlier one's; a damaged line may have been our reply or the probe's answer.
                Some(Ok((None, Reply::Error(_)))) | Some(Err(_)) => {
                    !line.as_deref().is_some_and(|l| l.trim().is_empty())
                }
                // Answers to earlier requests and probes are stale.
                Some(Ok(_)) => false,
            };
            // A probe goes at once when none is outstanding, or when a damaged line shows the
            // suite is talking (so probably answered the last one); after a quiet spell, the
            // next waits longer each time, so a busy or slow suite is asked only a few times.
            let talking = line.is_some();
            if suspicious && (probe.is_none() || talking || Instant::now() >= next_probe) {
                if probes >= self.timing.attempts {
                    return Ok(Attempt::Lost(String::from("no answer to repeated probes")));
                }
                let p = self.fresh_id();
                self.send(&encode_request(p, &Request::GetStatus))?;
                probe = Some(p);
                probes += 1;
                next_probe = Instant::now() + backoff;
                backoff = (backoff * 2).min(self.timing.silence * 64);
            }
        }
    }
}

/// Whether `reply` can be the answer to `request`.
fn fits(request: &Request, reply: &Reply) -> bool {
    match (request, reply) {
        (_, Reply::Error(_)) => true,
        (Request::Hello, Reply::Hello(_)) => true,
        (Request::GetStatus | Request::Done, Reply::Status(s)) => s.state == SuiteState::Ready,
        (Request::Suspend, Reply::Status(s)) => s.state == SuiteState::Suspended,
        (Request::Benchmark(b), Reply::BenchmarkResults(BenchmarkResults::Measured(m))) => b.accepts(&m.phases),
        (Request::Benchmark(b), Reply::BenchmarkResults(BenchmarkResults::Unsupported { kind, .. })) => {
            *kind == b.kind()
        }
        _ => false,
    }
}

fn describe_noise(noise: &[String]) -> String {
    if noise.is_empty() {
        return String::from(" (it sent nothing)");
    }
    let tail: Vec<&str> = noise.iter().rev().take(5).rev().map(String::as_str).collect();
    format!("; last output:\n  {}", tail.join("\n  "))
}
