//! The chip's side of the protocol: the firmware that takes the doorbell, reads the mailbox,
//! fetches the payload by its page addresses, drives the accelerator, hands results over
//! through the SPM and signals completion. One function per kind of accelerator; the host's
//! steps (`host.rs`) are called where the protocol waits for them.

use cyclebench_drivers::mmio::copy_words;
use cyclebench_modules::{AesConfig, AesEngine, Hasher, ModuleError};
use cyclebench_protocol::OffloadDesign;

use super::clock::{Clock, Phase};
use super::host::{self, Destination};
use super::regions::{field, Regions, CMD_INDIRECT, F_FINISH, F_STATUS, HOST_PAGES, PAGE_WORDS};
use crate::benchmarks::aes::pipeline;
use crate::cycles::stamp;

/// A job as the chip read it from the mailbox.
pub struct Job {
    /// CMD bits 7:0.
    pub command: u32,
    /// Payload length in words.
    pub words: usize,
    /// Host page of each payload page, in order.
    pub pages: [usize; HOST_PAGES],
    /// Payload pages.
    pub page_count: usize,
}

impl Job {
    /// Payload words on page `k` of the job.
    #[inline(always)]
    fn words_on(&self, k: usize) -> usize {
        (self.words - k * PAGE_WORDS).min(PAGE_WORDS)
    }
}

/// Takes the doorbell and reads the job: CMD, LEN, and the payload pages from the address
/// fields (direct) or from the index page A1 points at (indirect-L1). Every address must be
/// a host page; anything else ends the job with a usage error, as a root of trust would.
#[inline(always)]
fn take_job(r: &Regions) -> Result<Job, ModuleError> {
    if r.get(field::DOORBELL) == 0 {
        return Err(ModuleError::Usage("offload: no doorbell"));
    }
    r.set(field::DOORBELL, 0);
    let cmd = r.get(field::CMD);
    let len = r.get(field::LEN) as usize;
    let words = len / 4;
    let page_count = words.div_ceil(PAGE_WORDS);
    if !len.is_multiple_of(4) || page_count == 0 || page_count > HOST_PAGES {
        return Err(ModuleError::Usage("offload: payload length"));
    }
    let mut pages = [0usize; HOST_PAGES];
    let indirect = cmd & CMD_INDIRECT != 0;
    if indirect && r.get(field::A1) != r.index_address() {
        return Err(ModuleError::Usage("offload: A1 is not an index page"));
    }
    for (k, page) in pages.iter_mut().enumerate().take(page_count) {
        let address = if indirect {
            r.index_entry(k)
        } else {
            r.get(field::A1 + k)
        };
        *page = r
            .page_at(address)
            .ok_or(ModuleError::Usage("offload: address outside host memory"))?;
    }
    Ok(Job {
        command: cmd & 0xff,
        words,
        pages,
        page_count,
    })
}

/// Signals a full SPM (completion without F_FINISH), lets the host drain page `page` of
/// results, and resumes on its doorbell.
#[inline(always)]
fn hand_over(r: &mut Regions, page: usize, words: usize, clock: &mut Clock) -> Result<(), ModuleError> {
    let start = stamp();
    r.set(field::F, F_STATUS);
    r.set(field::COMPLETION, 1);
    clock.add(Phase::Handover, start);
    host::drain(r, Destination::Page { page, words }, clock);
    let start = stamp();
    let resumed = r.get(field::DOORBELL) != 0 && r.get(field::F) & F_STATUS == 0;
    r.set(field::DOORBELL, 0);
    clock.add(Phase::Handover, start);
    if resumed {
        Ok(())
    } else {
        Err(ModuleError::Usage("offload: host did not drain the SPM"))
    }
}

/// Signals the end (F_FINISH and F_STATUS), lets the host take the last results, and takes
/// its acknowledgement.
#[inline(always)]
fn complete(r: &mut Regions, to: Destination, clock: &mut Clock) -> Result<(), ModuleError> {
    let start = stamp();
    r.set(field::F, F_FINISH | F_STATUS);
    r.set(field::COMPLETION, 1);
    clock.add(Phase::Completion, start);
    host::drain(r, to, clock);
    let start = stamp();
    let acknowledged = r.get(field::DOORBELL) != 0 && r.get(field::F) == F_FINISH;
    r.set(field::DOORBELL, 0);
    clock.add(Phase::Completion, start);
    if acknowledged {
        Ok(())
    } else {
        Err(ModuleError::Usage("offload: host did not acknowledge the end"))
    }
}

/// Serves a hash job: every payload word into the hash module (staged through `staging`,
/// or straight from host memory), the digest into the SPM.
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
pub fn serve_hash<M: Hasher>(
    h: &mut M,
    r: &mut Regions,
    staging: &mut [u32],
    design: OffloadDesign,
    clock: &mut Clock,
) -> Result<u32, ModuleError> {
    let start = stamp();
    let job = take_job(r)?;
    clock.add(Phase::Mailbox, start);
    let start = stamp();
    h.init()?;
    clock.add(Phase::Operation, start);
    for k in 0..job.page_count {
        let words = job.words_on(k);
        let page = &r.host[job.pages[k]].0[..words];
        match design {
            OffloadDesign::Staging => {
                let start = stamp();
                copy_words(&mut staging[..words], page);
                clock.add(Phase::Payload, start);
                let start = stamp();
                h.write_inputs(&staging[..words]);
                clock.add(Phase::Operation, start);
            }
            OffloadDesign::Streaming => {
                let start = stamp();
                h.write_inputs(page);
                clock.add(Phase::Operation, start);
            }
        }
    }
    let mut digest = [0u32; 8];
    let start = stamp();
    h.wait_for_completion()?;
    match design {
        OffloadDesign::Staging => {
            h.read_digest(&mut digest);
            clock.add(Phase::Operation, start);
            let start = stamp();
            copy_words(&mut r.spm.0[..8], &digest);
            clock.add(Phase::ResultCopy, start);
        }
        OffloadDesign::Streaming => {
            if let Ok(spm) = <&mut [u32; 8]>::try_from(&mut r.spm.0[..8]) {
                h.read_digest(spm);
            }
            clock.add(Phase::Operation, start);
        }
    }
    complete(r, Destination::Digest, clock)?;
    Ok(job.command)
}

/// Serves an AES job: each payload page through the engine (staged through `staging` into
/// `output` and copied into the SPM, or straight from host memory into the SPM), the SPM
/// handed over after every page but the last.
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
pub fn serve_aes<M: AesEngine>(
    e: &mut M,
    config: &AesConfig,
    r: &mut Regions,
    staging: &mut [u32],
    output: &mut [u32],
    design: OffloadDesign,
    clock: &mut Clock,
) -> Result<u32, ModuleError> {
    let start = stamp();
    let job = take_job(r)?;
    clock.add(Phase::Mailbox, start);
    let start = stamp();
    e.init(config)?;
    clock.add(Phase::Operation, start);
    let last = job.page_count - 1;
    for k in 0..job.page_count {
        let words = job.words_on(k);
        let page = job.pages[k];
        match design {
            OffloadDesign::Staging => {
                let start = stamp();
                copy_words(&mut staging[..words], &r.host[page].0[..words]);
                clock.add(Phase::Payload, start);
                let start = stamp();
                pipeline(
                    e,
                    bytemuck::cast_slice(&staging[..words]),
                    bytemuck::cast_slice_mut(&mut output[..words]),
                    false,
                )?;
                clock.add(Phase::Operation, start);
                let start = stamp();
                copy_words(&mut r.spm.0[..words], &output[..words]);
                clock.add(Phase::ResultCopy, start);
            }
            OffloadDesign::Streaming => {
                let start = stamp();
                let (host, spm) = (&r.host[page].0[..words], &mut r.spm.0[..words]);
                pipeline(e, bytemuck::cast_slice(host), bytemuck::cast_slice_mut(spm), false)?;
                clock.add(Phase::Operation, start);
            }
        }
        if k == last {
            let start = stamp();
            e.deinit()?;
            clock.add(Phase::Operation, start);
            complete(r, Destination::Page { page, words }, clock)?;
        } else {
            hand_over(r, page, words, clock)?;
        }
    }
    Ok(job.command)
}
