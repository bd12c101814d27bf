//! The host's side of the protocol, played by the same core.
//!
//! The co-processor paper's host is a CVA6 running a Linux driver; this chip has one core, so the
//! suite plays the host between the chip-side steps: it writes the mailbox and rings the doorbell,
//! and on each completion moves the SPM's contents into host memory and rings again. Its windows
//! are the `host_submit` and `host_drain` phases, kept apart from the chip side's. What they cost
//! here is a stand-in: an Ibex storing to its own RAM, not a CVA6 behind caches and an AXI bridge
//! (the paper's "CVA6" column has no counterpart on this chip).

use cyclebench_drivers::mmio::copy_words;

use super::clock::{Clock, Phase};
use super::regions::{field, Regions, CMD_INDIRECT, F_FINISH, HOST_PAGES};
use crate::cycles::stamp;

/// Hands a job over: for indirect-L1 addressing the index page first, then CMD, LEN, the
/// address fields and the cleared flags, and last the doorbell.
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
pub fn submit(r: &Regions, command: u32, len: u32, pages: usize, clock: &mut Clock) {
    let start = stamp();
    let mut addresses = [0u32; HOST_PAGES];
    if command & CMD_INDIRECT != 0 {
        for i in 0..pages {
            r.set_index(i, r.page_address(i));
        }
        addresses[0] = r.index_address();
    } else {
        for (i, a) in addresses.iter_mut().enumerate().take(pages) {
            *a = r.page_address(i);
        }
    }
    r.set(field::CMD, command);
    r.set(field::LEN, len);
    for (i, &a) in addresses.iter().enumerate() {
        r.set(field::A1 + i, a);
    }
    r.set(field::F, 0);
    r.set(field::DOORBELL, 1);
    clock.add(Phase::HostSubmit, start);
}

/// Where the host puts what it takes out of the SPM.
#[derive(Clone, Copy)]
pub enum Destination {
    /// Back over host page `page`, the first `words` words (a ciphertext in place).
    Page { page: usize, words: usize },
    /// The host's digest buffer (eight words).
    Digest,
}

/// Takes a completion: clears it, reads the flags, moves the SPM's contents to `to`, and
/// rings the doorbell, acknowledging the end (F_FINISH kept) or letting the chip resume
/// (flags cleared).
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
pub fn drain(r: &mut Regions, to: Destination, clock: &mut Clock) {
    let start = stamp();
    r.set(field::COMPLETION, 0);
    let flags = r.get(field::F);
    match to {
        Destination::Page { page, words } => copy_words(&mut r.host[page].0[..words], &r.spm.0[..words]),
        Destination::Digest => copy_words(&mut r.host_digest, &r.spm.0[..8]),
    }
    r.set(field::F, flags & F_FINISH);
    r.set(field::DOORBELL, 1);
    clock.add(Phase::HostDrain, start);
}
