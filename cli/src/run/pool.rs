//! Several instances of one target, each with its own session, sharing the requests of a
//! file: the next free instance takes the next request, and results come back tagged with
//! their place so they can be written in file order. On a chip with model variants the
//! instances run one variant at a time; a file that needs another one replaces them.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::{bail, Context, Result};
use cyclebench_protocol::{Hello, Request};

use crate::bench_file::Action;
use crate::session::{Exchange, RequestError, Session};
use crate::signals;

/// One instance: its session, or why it can no longer be used.
pub struct Instance {
    session: Session,
    lost: Option<String>,
    /// Its cycle counter at its last status.
    cycles: u64,
}

/// The result of sending one line.
pub struct Sent {
    /// The reply and its attempts, or what went wrong.
    pub exchanged: Result<Exchange, String>,
    /// The hello of the instance that served it (every instance runs the same suite).
    pub hello: Hello,
    /// The variant of the chip it ran on, where the target has variants.
    pub model: Option<String>,
}

/// Starts instances of the target (how many, on which variant of the chip), each with the
/// suite's hello received.
pub type Start = Box<dyn FnMut(Option<&str>, usize) -> Result<Vec<Session>>>;

/// The running instances.
pub struct Pool {
    instances: Vec<Instance>,
    /// How to start fresh instances (a target the tool starts; `None` for a board).
    start: Option<Start>,
    /// The variant of the chip the instances run.
    model: Option<String>,
    /// What the first instance on this variant announced, which a fresh one must announce.
    hello: Hello,
    /// The cycle counters of instances replaced by another variant's, at their last status.
    retired_cycles: u64,
}

impl Pool {
    /// A pool of connected sessions (at least one) running `model`.
    pub fn new(sessions: Vec<Session>, model: Option<String>) -> Self {
        let hello = sessions[0].hello.clone();
        Self {
            instances: sessions.into_iter().map(Instance::new).collect(),
            start: None,
            model,
            hello,
            retired_cycles: 0,
        }
    }

    /// Lets the pool start fresh instances: in place of one that was lost (a request that
    /// never returned, a simulator that died), so the requests after it still run, and on
    /// another variant of the chip.
    pub fn start_with(&mut self, start: Start) {
        self.start = Some(start);
    }

    /// Runs the instances on `model`: the ones running now stay if it is theirs, else as many
    /// fresh ones take their place (each simulates every cycle even when idle, so the old
    /// ones stop). Call it between files, after their closing status.
    pub fn use_model(&mut self, model: Option<&str>) -> Result<(), String> {
        if self.model.as_deref() == model {
            return Ok(());
        }
        let Some(start) = self.start.as_mut() else {
            return Err(String::from("no fresh instance can be started on another model"));
        };
        let count = self.instances.len();
        self.retired_cycles += self.instances.iter().map(|i| i.cycles).sum::<u64>();
        // The old instances stop before the new ones start: they would share the cores.
        self.instances.clear();
        let sessions = start(model, count).map_err(|e| format!("starting the model {}: {e:#}", model.unwrap_or("")))?;
        let hello = sessions[0].hello.clone();
        if hello.platform != self.hello.platform {
            return Err(format!(
                "the model {} announced platform {}, the first one {}",
                model.unwrap_or(""),
                hello.platform,
                self.hello.platform
            ));
        }
        eprintln!("model {}: {count} instance(s) started", model.unwrap_or(""));
        self.instances = sessions.into_iter().map(Instance::new).collect();
        self.model = model.map(str::to_owned);
        self.hello = hello;
        Ok(())
    }

    /// Starts a fresh instance in place of every lost one, on this thread (a simulator lives
    /// as long as the thread that started it). A failed start ends the restarts: the instance
    /// stays lost, with both reasons. Returns whether any instance serves.
    fn revive(&mut self) -> bool {
        for (i, instance) in self.instances.iter_mut().enumerate() {
            let (Some(why), Some(restart)) = (instance.lost.clone(), self.start.as_mut()) else {
                continue;
            };
            eprintln!("instance {} lost ({why}): starting a fresh one", i + 1);
            let fresh = restart(self.model.as_deref(), 1).and_then(|mut sessions| {
                let session = sessions.pop().context("no instance started")?;
                if session.hello != self.hello {
                    bail!(
                        "the fresh instance announced {}, the first one {}",
                        serde_json::to_string(&session.hello)?,
                        serde_json::to_string(&self.hello)?
                    );
                }
                Ok(session)
            });
            match fresh {
                Ok(session) => {
                    instance.session = session;
                    instance.lost = None;
                }
                Err(e) => {
                    instance.lost = Some(format!("{why}; starting a fresh instance failed: {e:#}"));
                    self.start = None;
                }
            }
        }
        self.instances.iter().any(|i| i.lost.is_none())
    }

    /// The hello of the first instance on the variant running now.
    pub fn hello(&self) -> &Hello {
        &self.hello
    }

    /// Why no instance can serve any more, if so.
    pub fn all_lost(&self) -> Option<&str> {
        if self.instances.iter().all(|i| i.lost.is_some()) {
            self.instances.last().and_then(|i| i.lost.as_deref())
        } else {
            None
        }
    }

    /// Sends `actions` in parallel, one instance per action at a time, and hands every result to
    /// `done` with the action's index, on this thread, as it arrives. Stops taking actions when
    /// interrupted; actions never taken get no call.
    pub fn run_parallel(&mut self, actions: &[&Action], mut done: impl FnMut(usize, Sent) -> Result<()>) -> Result<()> {
        let next = AtomicUsize::new(0);
        loop {
            self.run_batch(actions, &next, &mut done)?;
            // Every instance was lost before the actions ran out: fresh ones take the rest.
            if signals::interrupted() || next.load(Ordering::SeqCst) >= actions.len() || !self.revive() {
                return Ok(());
            }
        }
    }

    /// Sends actions from `next` on, one instance per action at a time, until they run out or
    /// no instance serves.
    fn run_batch(
        &mut self,
        actions: &[&Action],
        next: &AtomicUsize,
        done: &mut impl FnMut(usize, Sent) -> Result<()>,
    ) -> Result<()> {
        let (tx, rx) = mpsc::channel::<(usize, Sent)>();
        let model = self.model.as_deref();
        std::thread::scope(|scope| -> Result<()> {
            for instance in self.instances.iter_mut().filter(|i| i.lost.is_none()) {
                let tx = tx.clone();
                scope.spawn(move || {
                    while !signals::interrupted() {
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        let Some(action) = actions.get(index) else { break };
                        let sent = instance.send(action, model);
                        let lost = instance.lost.is_some();
                        if tx.send((index, sent)).is_err() || lost {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            // Results in arrival order; the caller orders them.
            for (index, sent) in rx {
                done(index, sent)?;
            }
            Ok(())
        })
    }

    /// Sends one line on the first instance that can still serve (a fresh one if every
    /// instance was lost).
    pub fn run_one(&mut self, action: &Action) -> Option<Sent> {
        if self.instances.iter().all(|i| i.lost.is_some()) && !self.revive() {
            return None;
        }
        let instance = self.instances.iter_mut().find(|i| i.lost.is_none())?;
        Some(instance.send(action, self.model.as_deref()))
    }

    /// Sends `Done` to every instance still serving and adds up their status: the end of a
    /// file, as the thesis's protocol announces it. Returns served, errors and the sum of
    /// their cycle counters (and of the instances other variants' replaced), or why it failed.
    pub fn done(&mut self) -> Result<(u32, u32, u64), String> {
        let (mut served, mut errors, mut cycles) = (0, 0, self.retired_cycles);
        for instance in self.instances.iter_mut().filter(|i| i.lost.is_none()) {
            match instance.session.request(&Request::Done).map(|e| e.reply) {
                Ok(cyclebench_protocol::Reply::Status(s)) => {
                    served += s.served;
                    errors += s.errors;
                    cycles += s.cycles;
                    instance.cycles = s.cycles;
                }
                Ok(other) => {
                    return Err(format!(
                        "unexpected reply {}",
                        serde_json::to_string(&other).unwrap_or_default()
                    ))
                }
                Err(e) => {
                    let why = e.to_string();
                    if !e.link_usable() {
                        instance.lost = Some(why.clone());
                    }
                    return Err(why);
                }
            }
        }
        Ok((served, errors, cycles))
    }
}

impl Instance {
    fn new(session: Session) -> Self {
        Self {
            session,
            lost: None,
            cycles: 0,
        }
    }

    fn send(&mut self, action: &Action, model: Option<&str>) -> Sent {
        let exchanged = match action {
            Action::Request(r) => self.session.request(r),
            Action::Raw(raw) => self.session.send_raw(raw),
        }
        .map_err(|e| self.note(e));
        Sent {
            exchanged,
            hello: self.session.hello.clone(),
            model: model.map(str::to_owned),
        }
    }

    /// Describes a failed exchange, retiring the instance when its link is gone.
    fn note(&mut self, e: RequestError) -> String {
        let error = e.to_string();
        if !e.link_usable() {
            self.lost = Some(error.clone());
        }
        error
    }
}
