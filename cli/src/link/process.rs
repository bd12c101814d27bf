//! A simulator spawned by the tool, its UART on stdin/stdout.

use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::Link;

/// Starts `command`, whose stdin/stdout carry the target's UART; stderr is inherited only
/// when `show_stderr` (otherwise discarded, and summarised if the process dies).
pub fn spawn(mut command: Command, show_stderr: bool) -> Result<Link> {
    let program = command.get_program().to_string_lossy().into_owned();
    command.stdin(Stdio::piped()).stdout(Stdio::piped());
    command.stderr(if show_stderr { Stdio::inherit() } else { Stdio::null() });
    dies_with_tool(&mut command);
    let mut child = command.spawn().with_context(|| {
        format!("cannot start {program}; install it with scripts/setup.sh (Debian: apt install qemu-system-misc)")
    })?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        stop(&mut child);
        bail!("{program} started without the pipes of its UART");
    };
    let description = format!("{program} (pid {})", child.id());
    Ok(Link::new(
        Box::new(stdout),
        Box::new(stdin),
        Some(child),
        description,
        "simulator closed its output",
    ))
}

/// Makes the process `command` starts die with the tool, however the tool ends (an error, a
/// signal, SIGKILL, a crash): a simulator left behind runs at full speed until someone finds
/// it. On Linux the kernel kills it when the thread that spawned it ends, so it is spawned
/// from the main thread; elsewhere a [`Link`] still kills it when dropped.
pub(super) fn dies_with_tool(command: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let tool = std::process::id();
        // SAFETY: the closure runs between fork and exec, where only async-signal-safe calls
        // are allowed: it makes two system calls and allocates nothing.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The tool may have ended between fork and prctl; then nobody kills this one.
                if u32::try_from(libc::getppid()) != Ok(tool) {
                    return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// How long a simulator gets to end by itself after SIGINT before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// Stops a simulator the tool no longer uses and waits for it to go: SIGINT first, which the
/// Earl Grey model answers by ending its simulation cleanly (its exit handlers run, so a
/// profile-instrumented build writes its profile), then SIGKILL if it is still there.
pub(super) fn stop(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        use nix::sys::signal::{kill, Signal};
        if kill(nix::unistd::Pid::from_raw(pid), Signal::SIGINT).is_ok() {
            let deadline = Instant::now() + STOP_GRACE;
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}
