//! Cycle sums per offload phase: a phase is entered many times (once per page, per
//! hand-over), and each entry is one measurement window.

use cyclebench_protocol::OFFLOAD_PHASES;

use crate::cycles::{stamp, Stamp};

/// The offload phases, in the order results carry them.
#[derive(Clone, Copy)]
pub enum Phase {
    /// Host: index page, mailbox, doorbell.
    HostSubmit = 0,
    /// Chip: doorbell, mailbox fields, page addresses.
    Mailbox,
    /// Chip: staging copies of payload pages.
    Payload,
    /// Chip: the accelerator.
    Operation,
    /// Chip: results into the SPM.
    ResultCopy,
    /// Chip: signalling a full SPM and resuming.
    Handover,
    /// Chip: the final completion and its acknowledgement.
    Completion,
    /// Host: taking completions, moving SPM contents, ringing the doorbell.
    HostDrain,
}

/// Cycles and windows summed per phase.
#[derive(Default)]
pub struct Clock {
    /// Raw cycles per phase.
    pub sums: [u64; OFFLOAD_PHASES],
    /// Windows per phase.
    pub windows: [u32; OFFLOAD_PHASES],
}

impl Clock {
    /// Closes a window of `phase` opened at `start`.
    #[inline(always)]
    pub fn add(&mut self, phase: Phase, start: Stamp) {
        let end = stamp();
        self.sums[phase as usize] += end.since(start);
        self.windows[phase as usize] += 1;
    }
}
