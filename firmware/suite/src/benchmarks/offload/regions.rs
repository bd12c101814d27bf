//! The memory the offload protocol shares between host and chip, and the mailbox's layout.
//!
//! The co-processor paper's host memory, SPM and mailbox are separate devices of its SoC. This chip
//! has one RAM, so all three are carved out of it, allocated once per request from the suite's
//! heap: five 4 KiB host pages (20 KiB, what direct addressing reaches), a 4 KiB SPM (one page of
//! output per hand-over), one index page for indirect-L1 addressing (its first 16 entries: a full
//! page holds 1024, and five are ever used) and the mailbox. With the firmware's own staging and
//! output buffers (4 KiB each) that is 36 KiB of the 64 KiB heap.

use alloc::boxed::Box;
use core::sync::atomic::{AtomicU32, Ordering};

use cyclebench_protocol::{OFFLOAD_ADDRESS_FIELDS, OFFLOAD_PAGE_BYTES};

/// Words in a host page.
pub const PAGE_WORDS: usize = OFFLOAD_PAGE_BYTES as usize / 4;
/// Host pages: what the mailbox's five direct address fields reach.
pub const HOST_PAGES: usize = OFFLOAD_ADDRESS_FIELDS as usize;
/// Entries kept of the index page.
pub const INDEX_ENTRIES: usize = 16;

/// Mailbox fields, by word (the co-processor paper, Fig. 2): the eight general-purpose registers,
/// then the doorbell (host to chip) and the completion register (chip to host).
pub mod field {
    /// The command: which job.
    pub const CMD: usize = 0;
    /// Payload length in bytes.
    pub const LEN: usize = 1;
    /// A1; A2–A5 follow.
    pub const A1: usize = 2;
    /// The flags F_STATUS and F_FINISH.
    pub const F: usize = 7;
    /// Doorbell: set by the host to wake the chip.
    pub const DOORBELL: usize = 8;
    /// Completion: set by the chip to signal the host.
    pub const COMPLETION: usize = 9;
    /// Words in the mailbox.
    pub const WORDS: usize = 10;
}

/// F_STATUS: set by the chip with a completion; cleared by the host when it has drained the SPM.
pub const F_STATUS: u32 = 1 << 0;
/// F_FINISH: the job is done (set by the chip with the last completion, kept by the host in
/// its final acknowledgement).
pub const F_FINISH: u32 = 1 << 1;

/// CMD bits 7:0: the job.
pub const CMD_SHA256: u32 = 1;
/// SHA3-256.
pub const CMD_SHA3_256: u32 = 2;
/// AES-256-CBC encryption with the chip's key.
pub const CMD_AES_CBC_256: u32 = 3;
/// CMD bit 8: the address fields point at index pages (indirect-L1) instead of payload pages.
pub const CMD_INDIRECT: u32 = 1 << 8;

/// One 4 KiB page, on a page boundary like the physical pages the co-processor paper's host hands
/// over.
#[repr(C, align(4096))]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Page(pub [u32; PAGE_WORDS]);

/// The shared regions.
pub struct Regions {
    /// Host memory: the payload pages. The host drains results back over pages it has
    /// handed over already (in place, as an in-place encryption call would).
    pub host: Box<[Page; HOST_PAGES]>,
    /// The scratch-pad memory the chip hands results over in.
    pub spm: Box<Page>,
    /// The index page of indirect-L1 addressing: payload page addresses. Atomic words, as
    /// the mailbox's.
    pub index: Box<[AtomicU32; INDEX_ENTRIES]>,
    /// Where the host keeps a digest it drained from the SPM.
    pub host_digest: [u32; 8],
    /// The mailbox. Atomic words: host and chip side are one program here, and every
    /// access must happen as written, as it would on a device.
    pub mailbox: Box<[AtomicU32; field::WORDS]>,
}

impl Regions {
    /// Zeroed regions on the heap; `None` when the heap cannot hold them.
    pub fn allocate() -> Option<Self> {
        Some(Self {
            host: bytemuck::try_zeroed_box().ok()?,
            spm: bytemuck::try_zeroed_box().ok()?,
            index: Box::new(core::array::from_fn(|_| AtomicU32::new(0))),
            host_digest: [0; 8],
            mailbox: Box::new(core::array::from_fn(|_| AtomicU32::new(0))),
        })
    }

    /// The host pages as bytes.
    pub fn host_bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.host[..])
    }

    /// The host pages as bytes, to fill or to encrypt in place.
    pub fn host_bytes_mut(&mut self) -> &mut [u8] {
        bytemuck::cast_slice_mut(&mut self.host[..])
    }

    /// Address of host page `i` as the host hands it over.
    pub fn page_address(&self, i: usize) -> u32 {
        self.host[i].0.as_ptr() as u32
    }

    /// Address of the index page.
    pub fn index_address(&self) -> u32 {
        self.index.as_ptr() as u32
    }

    /// Address of the SPM.
    pub fn spm_address(&self) -> u32 {
        self.spm.0.as_ptr() as u32
    }

    /// Address of the mailbox.
    pub fn mailbox_address(&self) -> u32 {
        self.mailbox.as_ptr() as u32
    }

    /// The host page at `address`, as the chip's bus master sees host memory: an address
    /// outside the host pages or not on a page boundary is refused (a root of trust must not
    /// read where a host points it blindly).
    #[inline(always)]
    pub fn page_at(&self, address: u32) -> Option<usize> {
        let offset = address.wrapping_sub(self.page_address(0));
        let page = (offset / OFFLOAD_PAGE_BYTES) as usize;
        (offset.is_multiple_of(OFFLOAD_PAGE_BYTES) && page < HOST_PAGES).then_some(page)
    }

    /// Reads mailbox word `f`.
    #[inline(always)]
    pub fn get(&self, f: usize) -> u32 {
        self.mailbox[f].load(Ordering::Relaxed)
    }

    /// Entry `i` of the index page.
    #[inline(always)]
    pub fn index_entry(&self, i: usize) -> u32 {
        self.index[i].load(Ordering::Relaxed)
    }

    /// Writes entry `i` of the index page.
    #[inline(always)]
    pub fn set_index(&self, i: usize, address: u32) {
        self.index[i].store(address, Ordering::Relaxed)
    }

    /// Writes mailbox word `f`.
    #[inline(always)]
    pub fn set(&self, f: usize, value: u32) {
        self.mailbox[f].store(value, Ordering::Relaxed)
    }
}
