//! The "chip bound" column of the Driver speed table: the least an operation can cost on this
//! chip. It is the IP's documented time where the CPU has to wait for it, plus the register
//! transfers no driver can avoid, each at the cost this chip's bus showed in the same run, plus
//! the status checks the hardware requires (a check is a register load and the two
//! instructions that test its bit and branch on it), plus one calibrated overhead per
//! measurement window (the table compares raw cycles).

use super::earlgrey::{one_block, ONE_BLOCK_THESIS_BOUNDARIES};
use super::record::{Fields, Status};
use super::reference::{self, HMAC_CYCLES_PER_BLOCK, KMAC_CYCLES_PER_PERMUTATION};
use super::results::Run;

/// Words in the thesis's 256-byte message.
const MESSAGE_WORDS: f64 = (reference::MESSAGE_BYTES / reference::WORD_BYTES) as f64;
/// Words per SHA-256 block, and per AES block.
const HMAC_BLOCK_WORDS: f64 = (reference::HMAC_BLOCK_BYTES / reference::WORD_BYTES) as f64;
const AES_BLOCK_WORDS: f64 = 4.0;
/// Digest words of SHA-256 and SHA3-256.
const DIGEST_WORDS: f64 = 8.0;

/// Bus costs measured in one run, corrected cycles.
#[derive(Clone, Copy, Debug)]
pub struct BusCosts {
    /// One store to an accelerator register.
    pub store: f64,
    /// One load from an accelerator register.
    pub load: f64,
    /// One word from an accelerator register into RAM (a load and a RAM store).
    pub to_ram: f64,
    /// One load from RAM (a message or data word the driver sends).
    pub ram_load: f64,
    /// One instruction that touches no memory (the mask and the branch of a check).
    pub instruction: f64,
    /// Calibrated overhead of one window.
    pub overhead: f64,
}

impl BusCosts {
    /// From the AES-256 one-block request at the thesis's boundaries (its write window holds
    /// four register stores, its read window four register loads and four RAM stores) and
    /// the micro-benchmarks' ten RAM stores, ten RAM loads and ten additions.
    pub fn measure(run: &Run) -> Option<Self> {
        let overhead = f64::from(run.overhead()?);
        let corrected = |phase: &str| {
            let raw = run.raw("aes_per_block", &one_block(256), ONE_BLOCK_THESIS_BOUNDARIES, phase);
            raw.value().map(|c| c as f64 - overhead)
        };
        let micro = run
            .records
            .iter()
            .find(|r| r.kind() == "micro" && r.outcome() == Status::Ok)?;
        let ram_store = micro.corrected_phase("store10")? as f64 / 10.0;
        let ram_load = micro.corrected_phase("load10")? as f64 / 10.0;
        let instruction = micro.corrected_phase("add10")? as f64 / 10.0;
        let store = corrected("write")? / AES_BLOCK_WORDS;
        let to_ram = corrected("read")? / AES_BLOCK_WORDS;
        Some(Self {
            store,
            load: (to_ram - ram_store).max(0.0),
            to_ram,
            ram_load,
            instruction,
            overhead,
        })
    }

    /// A status check: the register load, the mask of its bit and the branch on it.
    pub fn check(self) -> f64 {
        self.load + 2.0 * self.instruction
    }
}

/// SHA-256 of the 256-byte message, `checked`: the input-ready check before every word.
///
/// Stores: configuration and start, 64 message words (each loaded from RAM), process. The HMAC
/// compresses a block only once its 16 words are in, and each block takes its documented time.
/// Whichever is slower sets the pace: if the HMAC, the CPU fills the first block and the
/// compressions (padding block included) follow one another; if the CPU, the last data block
/// and the padding block are still to compress when it has sent the last word. Then the digest
/// moves into RAM. Four windows.
pub fn sha256(bus: BusCosts, checked: bool) -> u64 {
    let blocks = reference::sha256_blocks(reference::MESSAGE_BYTES) as f64;
    let per_block = HMAC_CYCLES_PER_BLOCK as f64;
    let word = bus.ram_load + bus.store + if checked { bus.check() } else { 0.0 };
    let first_block = HMAC_BLOCK_WORDS * word;
    let all_words = MESSAGE_WORDS * word + 3.0 * bus.store;
    let hmac_paced = first_block + blocks * per_block;
    let cpu_paced = all_words + 2.0 * per_block;
    round(hmac_paced.max(cpu_paced) + DIGEST_WORDS * bus.to_ram + 4.0 * bus.overhead)
}

/// SHA3-256 of the 256-byte message: the CPU's transfers (as for SHA-256) or the documented
/// permutations, whichever is longer, then the digest. None when the KMAC's documented
/// permutation time cannot be a bound on this RTL, because a measured wait after the last word
/// was shorter.
pub fn sha3(bus: BusCosts, checked: bool, measured_await: Option<u64>) -> Option<u64> {
    if measured_await? < KMAC_CYCLES_PER_PERMUTATION {
        return None;
    }
    let permutations = reference::sha3_256_permutations(reference::MESSAGE_BYTES) as f64;
    let transfers = MESSAGE_WORDS * (bus.ram_load + bus.store) + 3.0 * bus.store;
    let checks = if checked { MESSAGE_WORDS * bus.check() } else { 0.0 };
    let absorb = permutations * KMAC_CYCLES_PER_PERMUTATION as f64;
    Some(round(
        (transfers + checks).max(absorb) + DIGEST_WORDS * bus.to_ram + 4.0 * bus.overhead,
    ))
}

/// The process phase of five AES-256 blocks, automatic start: per block the input-ready
/// check, four data words loaded from RAM and stored, the output-valid check and four words
/// into RAM; the cipher overlaps the CPU's work except for the last block. One window.
pub fn aes_five_blocks(bus: BusCosts, cipher: u64) -> u64 {
    let per_block = 2.0 * bus.check() + AES_BLOCK_WORDS * (bus.ram_load + bus.store) + AES_BLOCK_WORDS * bus.to_ram;
    round(5.0 * per_block + cipher as f64 + bus.overhead)
}

/// The compute phase of one AES-256 block, manual start: the trigger store, the cipher, the
/// output-valid check that sees it. One window.
pub fn aes_compute(bus: BusCosts, cipher: u64) -> u64 {
    round(bus.store + cipher as f64 + bus.check() + bus.overhead)
}

fn round(cycles: f64) -> u64 {
    cycles.round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUS: BusCosts = BusCosts {
        store: 3.0,
        load: 3.0,
        to_ram: 5.0,
        ram_load: 1.0,
        instruction: 1.0,
        overhead: 1.0,
    };

    #[test]
    fn sha256_bound_is_paced_by_the_slower_of_hmac_and_cpu() {
        // HMAC-paced: 16 × (1 + 3) + 5 × 80 = 464 against 64 × 4 + 3 × 3 + 2 × 80 = 425.
        assert_eq!(sha256(BUS, false), 464 + 40 + 4);
        // With a check (3 + 2) per word the CPU is slower: 64 × 9 + 9 + 160 = 745 > 16 × 9 + 400.
        assert_eq!(sha256(BUS, true), 745 + 40 + 4);
        assert_eq!(BUS.check(), 5.0);
    }

    #[test]
    fn sha3_bound_needs_the_documented_permutation_to_hold() {
        assert_eq!(sha3(BUS, false, Some(42)), None);
        assert_eq!(sha3(BUS, false, None), None);
        // max(64 × 4 + 3 × 3, 2 × 96) + 40 + 4.
        assert_eq!(sha3(BUS, false, Some(100)), Some(265 + 40 + 4));
        // The checks: 64 × 5 more.
        assert_eq!(sha3(BUS, true, Some(100)), Some(265 + 320 + 40 + 4));
    }

    #[test]
    fn aes_bounds() {
        assert_eq!(aes_five_blocks(BUS, 16), 5 * (10 + 16 + 20) + 16 + 1);
        assert_eq!(aes_compute(BUS, 16), 3 + 16 + 5 + 1);
    }
}
