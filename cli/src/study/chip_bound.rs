//! The chip bound: the least an operation can cost on an Earl Grey chip. It is the IP's
//! documented time where the CPU has to wait for it, plus the register transfers no driver can
//! avoid, each at the cost the chip's bus showed in the same run, plus the status checks the
//! hardware requires (a check is a register load and the two instructions that test its bit
//! and branch on it), plus one calibrated overhead per measurement window (the bound compares
//! with raw cycles).
//!
//! The IP's documented times come from the chip's facts file (`studies/chips/*.toml`); the
//! bus costs from the run ([`bus_costs`]). Templates call these as functions.

use serde::{Deserialize, Serialize};

/// Bus costs measured in one run, corrected cycles.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
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
    /// A status check: the register load, the mask of its bit and the branch on it.
    pub check: f64,
}

/// The documented timing of the chip's HMAC (SHA-256) and KMAC (SHA3-256), and the words an
/// AES block and a digest move (`[hmac]`, `[kmac]` and `[bus]` of the chip's facts).
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct Hashing {
    /// Bytes per bus word.
    pub word_bytes: u64,
    /// Cycles the accelerator takes per block (SHA-256) or per permutation (Keccak-f).
    pub cycles_per_block: u64,
    /// Bytes per block (SHA-256) or per rate (SHA3-256).
    pub block_bytes: u64,
    /// Bytes of padding at least (SHA-256: the `0x80` byte and the 8-byte length; SHA3: one).
    pub min_padding: u64,
    /// Digest words read back.
    pub digest_words: u64,
}

impl Hashing {
    /// Blocks (or permutations) hashing `bytes` of message takes, padding included.
    pub fn blocks(&self, bytes: u64) -> u64 {
        (bytes + self.min_padding).div_ceil(self.block_bytes)
    }
}

/// Bus costs from `overhead` (of one window) and raw cycles measured in the same run: the
/// write and read windows of one AES block at the thesis's boundaries (four register stores;
/// four register loads and four RAM stores), and the corrected cycles of ten RAM stores, ten
/// RAM loads and ten additions. None when any is missing.
pub fn bus_costs(
    overhead: Option<u64>,
    write: Option<u64>,
    read: Option<u64>,
    store10: Option<u64>,
    load10: Option<u64>,
    add10: Option<u64>,
) -> Option<BusCosts> {
    const AES_BLOCK_WORDS: f64 = 4.0;
    let overhead = overhead? as f64;
    let ram_store = store10? as f64 / 10.0;
    let instruction = add10? as f64 / 10.0;
    let store = (write? as f64 - overhead) / AES_BLOCK_WORDS;
    let to_ram = (read? as f64 - overhead) / AES_BLOCK_WORDS;
    let load = (to_ram - ram_store).max(0.0);
    Some(BusCosts {
        store,
        load,
        to_ram,
        ram_load: load10? as f64 / 10.0,
        instruction,
        overhead,
        check: load + 2.0 * instruction,
    })
}

/// SHA-256 of `bytes`, `checked`: the input-ready check before every word.
///
/// Stores: configuration and start, the message words (each loaded from RAM), process. The HMAC
/// compresses a block only once its words are in, and each block takes its documented time.
/// Whichever is slower sets the pace: if the HMAC, the CPU fills the first block and the
/// compressions (padding block included) follow one another; if the CPU, the last data block
/// and the padding block are still to compress when it has sent the last word. Then the digest
/// moves into RAM. Four windows.
pub fn sha256_bound(bus: BusCosts, hmac: Hashing, bytes: u64, checked: bool) -> u64 {
    let blocks = hmac.blocks(bytes) as f64;
    let per_block = hmac.cycles_per_block as f64;
    let word = bus.ram_load + bus.store + if checked { bus.check } else { 0.0 };
    let first_block = (hmac.block_bytes / hmac.word_bytes) as f64 * word;
    let all_words = (bytes / hmac.word_bytes) as f64 * word + 3.0 * bus.store;
    let hmac_paced = first_block + blocks * per_block;
    let cpu_paced = all_words + 2.0 * per_block;
    round(hmac_paced.max(cpu_paced) + hmac.digest_words as f64 * bus.to_ram + 4.0 * bus.overhead)
}

/// SHA3-256 of `bytes`: the CPU's transfers (as for SHA-256) or the documented permutations,
/// whichever is longer, then the digest. None when the KMAC's documented permutation time
/// cannot be a bound on this RTL, because the measured wait after the last word
/// (`measured_await`) was shorter.
pub fn sha3_bound(bus: BusCosts, kmac: Hashing, bytes: u64, checked: bool, measured_await: Option<u64>) -> Option<u64> {
    if measured_await? < kmac.cycles_per_block {
        return None;
    }
    let words = (bytes / kmac.word_bytes) as f64;
    let transfers = words * (bus.ram_load + bus.store) + 3.0 * bus.store;
    let checks = if checked { words * bus.check } else { 0.0 };
    let absorb = (kmac.blocks(bytes) * kmac.cycles_per_block) as f64;
    Some(round(
        (transfers + checks).max(absorb) + kmac.digest_words as f64 * bus.to_ram + 4.0 * bus.overhead,
    ))
}

/// The process phase of `blocks` AES blocks, automatic start: per block the input-ready check,
/// four data words loaded from RAM and stored, the output-valid check and four words into RAM;
/// the cipher (`cipher` cycles per block) overlaps the CPU's work except for the last block.
/// One window.
pub fn aes_blocks_bound(bus: BusCosts, blocks: u64, cipher: u64) -> u64 {
    let per_block = 2.0 * bus.check + 4.0 * (bus.ram_load + bus.store) + 4.0 * bus.to_ram;
    round(blocks as f64 * per_block + cipher as f64 + bus.overhead)
}

/// The compute phase of one AES block, manual start: the trigger store, the cipher, the
/// output-valid check that sees it. One window.
pub fn aes_compute_bound(bus: BusCosts, cipher: u64) -> u64 {
    round(bus.store + cipher as f64 + bus.check + bus.overhead)
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
        check: 5.0,
    };

    const HMAC: Hashing = Hashing {
        word_bytes: 4,
        cycles_per_block: 80,
        block_bytes: 64,
        min_padding: 9,
        digest_words: 8,
    };

    const KMAC: Hashing = Hashing {
        word_bytes: 4,
        cycles_per_block: 96,
        block_bytes: 136,
        min_padding: 1,
        digest_words: 8,
    };

    #[test]
    fn sha256_bound_is_paced_by_the_slower_of_hmac_and_cpu() {
        // HMAC-paced: 16 × (1 + 3) + 5 × 80 = 464 against 64 × 4 + 3 × 3 + 2 × 80 = 425.
        assert_eq!(sha256_bound(BUS, HMAC, 256, false), 464 + 40 + 4);
        // With a check (3 + 2) per word the CPU is slower: 64 × 9 + 9 + 160 = 745 > 16 × 9 + 400.
        assert_eq!(sha256_bound(BUS, HMAC, 256, true), 745 + 40 + 4);
    }

    #[test]
    fn sha3_bound_needs_the_documented_permutation_to_hold() {
        let bound = |checked, wait| sha3_bound(BUS, KMAC, 256, checked, wait);
        assert_eq!(bound(false, Some(42)), None);
        assert_eq!(bound(false, None), None);
        // max(64 × 4 + 3 × 3, 2 × 96) + 40 + 4.
        assert_eq!(bound(false, Some(100)), Some(265 + 40 + 4));
        // The checks: 64 × 5 more.
        assert_eq!(bound(true, Some(100)), Some(265 + 320 + 40 + 4));
    }

    #[test]
    fn aes_bounds() {
        assert_eq!(aes_blocks_bound(BUS, 5, 16), 5 * (10 + 16 + 20) + 16 + 1);
        assert_eq!(aes_compute_bound(BUS, 16), 3 + 16 + 5 + 1);
    }

    #[test]
    fn bus_costs_come_from_the_aes_windows_and_the_micro_benchmarks() {
        // Write 16 raw - 6 = 10 over four stores; read 27 - 6 = 21 over four; RAM store 2.2.
        let bus = bus_costs(Some(6), Some(16), Some(27), Some(22), Some(24), Some(12)).unwrap();
        assert_eq!(bus.store, 2.5);
        assert!((bus.load - 3.05).abs() < 1e-9);
        assert!((bus.check - 5.45).abs() < 1e-9);
        assert!(bus_costs(Some(6), None, Some(27), Some(22), Some(24), Some(12)).is_none());
    }
}
