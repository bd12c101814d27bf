//! SIGINT, SIGTERM and SIGHUP. A run stops between two requests with every finished result on
//! disk; anything else, or a second signal, ends the tool at once. Simulators never outlive
//! the tool either way: each is started to die with it (see `link::process`).
//!
//! The signals are handled on a thread of their own. Until something polls [`interrupted`],
//! nothing would notice a flag, so a signal ends the tool at once, the way the signal itself
//! would have. From the first poll on, the first signal only sets the flag (the poller stops
//! on its own), and a second one ends the tool at once.
//!
//! "At once" never cuts a piece of work that must land whole: the handling of every signal
//! waits for work done under [`hold`] (a record and the counts that follow it), and then runs
//! the hook a caller set with [`on_signal`] (a run marks its `run.json` interrupted), so that
//! what the tool leaves says what it had done.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use anyhow::Result;

/// The first signal received, 0 before any.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// Whether anything polls [`interrupted`], and so stops by itself.
static POLLED: AtomicBool = AtomicBool::new(false);

/// Held by work a signal must not cut in two, and by the signal thread while it handles one.
static HOLD: Mutex<()> = Mutex::new(());

/// What the signal thread does at every signal before the tool may end.
type Hook = Box<dyn Fn() + Send>;

/// The hook [`on_signal`] set, if any.
static HOOK: Mutex<Option<Hook>> = Mutex::new(None);

/// Holds off the handling of signals until the guard drops: work done under it (a record and
/// the counts that follow it) is never cut in two by a signal that ends the tool. Keep it
/// short: a second Ctrl-C waits for it.
pub fn hold() -> MutexGuard<'static, ()> {
    HOLD.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs `hook` on the signal thread at every signal, after the work under [`hold`] and before
/// the tool may end, until the returned guard drops. The hook must not call [`hold`].
#[must_use = "the hook is removed when the guard drops"]
pub fn on_signal(hook: impl Fn() + Send + 'static) -> OnSignal {
    *HOOK.lock().unwrap_or_else(PoisonError::into_inner) = Some(Box::new(hook));
    OnSignal(())
}

/// Removes the hook of [`on_signal`] when dropped, once a hook under way has returned.
pub struct OnSignal(());

impl Drop for OnSignal {
    fn drop(&mut self) {
        *HOOK.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

/// Runs the hook set with [`on_signal`], if any.
fn run_hook() {
    if let Some(hook) = HOOK.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
        hook();
    }
}

/// Starts handling SIGINT, SIGTERM and SIGHUP (each unless it is ignored, as `nohup` ignores
/// SIGHUP) on a thread of its own.
#[cfg(unix)]
pub fn install() -> Result<()> {
    use anyhow::Context;
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;

    let handled: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
        .into_iter()
        .filter(|&signal| !ignored(signal))
        .collect();
    let mut signals = Signals::new(&handled).context("installing the signal handlers")?;
    std::thread::Builder::new()
        .name(String::from("signals"))
        .spawn(move || {
            for signal in signals.forever() {
                // Between two pieces of held work, never in one.
                let _held = hold();
                let first = RECEIVED
                    .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok();
                run_hook();
                if first && POLLED.load(Ordering::SeqCst) {
                    say(&format!(
                        "{}: stopping after the current request; send it again to stop at once",
                        name(signal)
                    ));
                } else {
                    say(&format!("{}: stopping now", name(signal)));
                    terminate(signal);
                }
            }
        })
        .context("starting the signal thread")?;
    Ok(())
}

/// Without Unix signals there is nothing to handle: Ctrl-C ends the tool as it always does.
#[cfg(not(unix))]
pub fn install() -> Result<()> {
    Ok(())
}

/// Whether SIGINT, SIGTERM or SIGHUP arrived. The first call tells the signal handler that the
/// caller polls this and stops on its own: from then on a first signal only sets the flag.
pub fn interrupted() -> bool {
    POLLED.store(true, Ordering::SeqCst);
    RECEIVED.load(Ordering::SeqCst) != 0
}

/// The signal that interrupted the tool, if one did.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// Ends the tool the way `signal` would have, so that a calling shell sees it (a shell loop
/// stops on SIGINT only if its command died of it); destructors do not run, and simulators
/// die with the tool.
pub fn terminate(signal: i32) -> ! {
    #[cfg(unix)]
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    std::process::exit(128 + signal)
}

/// Whether `signal` is ignored, as it was when the tool started.
#[cfg(unix)]
fn ignored(signal: i32) -> bool {
    // SAFETY: a null new action only queries the current one, into a zeroed C struct.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut current) == 0 && current.sa_sigaction == libc::SIG_IGN
    }
}

#[cfg(unix)]
fn name(signal: i32) -> &'static str {
    signal_hook::low_level::signal_name(signal).unwrap_or("signal")
}

/// One line on stderr, on a line of its own after a progress bar; a closed terminal (the
/// usual reason for SIGHUP) is no reason to fail.
#[cfg(unix)]
fn say(message: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "\ncyclebench: {message}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polling_declares_a_clean_stop_and_reports_no_signal_before_one() {
        assert_eq!(received(), None);
        assert!(!interrupted());
        assert!(POLLED.load(Ordering::SeqCst));
    }

    #[test]
    fn a_hook_runs_until_its_guard_drops() {
        let calls = std::sync::Arc::new(AtomicI32::new(0));
        let counted = calls.clone();
        let guard = on_signal(move || {
            counted.fetch_add(1, Ordering::SeqCst);
        });
        run_hook();
        drop(guard);
        run_hook();
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }
}
