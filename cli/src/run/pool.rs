//! Several instances of one target, each with its own session, sharing the requests of a
//! file: the next free instance takes the next request, and results come back tagged with
//! their place so they can be written in file order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::Result;
use cyclebench_protocol::{Hello, Request};

use crate::bench_file::Action;
use crate::session::{Exchange, RequestError, Session};
use crate::signals;

/// One instance: its session, or why it can no longer be used.
pub struct Instance {
    session: Session,
    lost: Option<String>,
}

/// The result of sending one line.
pub struct Sent {
    /// The reply and its attempts, or what went wrong.
    pub exchanged: Result<Exchange, String>,
    /// The hello of the instance that served it (every instance runs the same suite).
    pub hello: Hello,
}

/// Starts a fresh instance of the target, in place of one that was lost.
pub type Restart = Box<dyn FnMut() -> Result<Session>>;

/// The running instances.
pub struct Pool {
    instances: Vec<Instance>,
    /// How to start a fresh instance (a target the tool starts; `None` for a board).
    restart: Option<Restart>,
}

impl Pool {
    /// A pool of connected sessions (at least one).
    pub fn new(sessions: Vec<Session>) -> Self {
        Self {
            instances: sessions
                .into_iter()
                .map(|session| Instance { session, lost: None })
                .collect(),
            restart: None,
        }
    }

    /// Lets the pool start a fresh instance in place of one that was lost (a request that
    /// never returned, a simulator that died), so the requests after it still run.
    pub fn restart_with(&mut self, restart: Restart) {
        self.restart = Some(restart);
    }

    /// Starts a fresh instance in place of every lost one, on this thread (a simulator lives
    /// as long as the thread that started it). A failed start ends the restarts: the instance
    /// stays lost, with both reasons. Returns whether any instance serves.
    fn revive(&mut self) -> bool {
        for (i, instance) in self.instances.iter_mut().enumerate() {
            let (Some(why), Some(restart)) = (instance.lost.clone(), self.restart.as_mut()) else {
                continue;
            };
            eprintln!("instance {} lost ({why}): starting a fresh one", i + 1);
            match restart() {
                Ok(session) => {
                    instance.session = session;
                    instance.lost = None;
                }
                Err(e) => {
                    instance.lost = Some(format!("{why}; starting a fresh instance failed: {e:#}"));
                    self.restart = None;
                }
            }
        }
        self.instances.iter().any(|i| i.lost.is_none())
    }

    /// The hello of the first instance.
    pub fn hello(&self) -> &Hello {
        &self.instances[0].session.hello
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
        std::thread::scope(|scope| -> Result<()> {
            for instance in self.instances.iter_mut().filter(|i| i.lost.is_none()) {
                let tx = tx.clone();
                scope.spawn(move || {
                    while !signals::interrupted() {
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        let Some(action) = actions.get(index) else { break };
                        let sent = instance.send(action);
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
        Some(instance.send(action))
    }

    /// Sends `Done` to every instance still serving and adds up their status: the end of a
    /// file, as the thesis's protocol announces it. Returns served, errors and the sum of
    /// their cycle counters, or why it failed.
    pub fn done(&mut self) -> Result<(u32, u32, u64), String> {
        let (mut served, mut errors, mut cycles) = (0, 0, 0);
        for instance in self.instances.iter_mut().filter(|i| i.lost.is_none()) {
            match instance.session.request(&Request::Done).map(|e| e.reply) {
                Ok(cyclebench_protocol::Reply::Status(s)) => {
                    served += s.served;
                    errors += s.errors;
                    cycles += s.cycles;
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
    fn send(&mut self, action: &Action) -> Sent {
        let exchanged = match action {
            Action::Request(r) => self.session.request(r),
            Action::Raw(raw) => self.session.send_raw(raw),
        }
        .map_err(|e| self.note(e));
        Sent {
            exchanged,
            hello: self.session.hello.clone(),
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
