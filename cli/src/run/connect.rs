//! Starting a run's instances of the target, and a fresh one in place of a lost one.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::config::RunConfig;
use super::pool;
use crate::session::Session;

/// Starts the run's instances of the target on `image` (or what the configuration says) and
/// waits for each one's hello. The processes are started from this thread (a simulator is tied
/// to the thread that started it and dies with it), one after the other so that a firmware or
/// model build happens once; the hellos are awaited side by side. Returns the sessions and the
/// ELF they run, when known.
pub(crate) fn instances(
    config: &RunConfig,
    image: Option<&Path>,
    model: Option<&str>,
    count: usize,
) -> Result<(Vec<Session>, Option<PathBuf>)> {
    let mut links = Vec::with_capacity(count);
    let mut elf = None;
    for index in 0..count {
        let (mut link, built) = config
            .target
            .connect_run(image, config.layout, model)
            .with_context(|| format!("starting instance {} of {count}", index + 1))?;
        if let Some(faults) = config.faults {
            link.inject_faults(faults.rate, faults.seed.wrapping_add(index as u64));
        }
        elf = elf.or(built);
        links.push(link);
    }
    let timing = config.timing;
    let sessions: Vec<Result<Session>> = std::thread::scope(|scope| {
        let waiting: Vec<_> = links
            .into_iter()
            .map(|link| scope.spawn(move || Session::connect(link, timing)))
            .collect();
        waiting
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("waiting for a hello panicked")))
            })
            .collect()
    });
    let mut connected: Vec<Session> = Vec::with_capacity(count);
    for (i, session) in sessions.into_iter().enumerate() {
        let session = session.with_context(|| format!("instance {} of {count}", i + 1))?;
        if let Some(first) = connected.first() {
            if session.hello.platform != first.hello.platform {
                bail!(
                    "instance {} announced platform {}, the first {}",
                    i + 1,
                    session.hello.platform,
                    first.hello.platform
                );
            }
        }
        connected.push(session);
    }
    Ok((connected, elf))
}

/// How the pool starts fresh instances of the target on `image`: in place of a lost one (a
/// request that never returned, an implementation stuck in a loop, a simulator that died
/// costs that request, not the rest of the run), and on another variant of the chip.
pub(crate) fn starter(config: &RunConfig, image: Option<PathBuf>) -> pool::Start {
    let config = StartConfig {
        target: config.target.clone(),
        faults: config.faults,
        timing: config.timing,
        layout: config.layout,
    };
    Box::new(move |model, count| {
        let mut sessions = Vec::with_capacity(count);
        for _ in 0..count {
            let (mut link, _) = config.target.connect_run(image.as_deref(), config.layout, model)?;
            if let Some(faults) = config.faults {
                link.inject_faults(faults.rate, faults.seed);
            }
            sessions.push(Session::connect(link, config.timing)?);
        }
        Ok(sessions)
    })
}

/// What [`starter`] keeps of the run's configuration.
struct StartConfig {
    target: crate::targets::TargetArgs,
    faults: Option<super::config::Faults>,
    timing: crate::session::Timing,
    layout: crate::firmware::layout::Layout,
}
