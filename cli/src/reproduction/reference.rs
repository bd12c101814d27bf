//! Every figure the reproduction document quotes rather than measures, in one place: the
//! thesis's Earl Grey tables, seed 2's tables (Stoffelen, "Efficient cryptography on the RISC-V
//! architecture", LATINCRYPT 2019), the throughput bounds of the OpenTitan IP documentation,
//! and the descriptions of the platforms compared.
//!
//! Nothing here comes from a results directory; everything the document derives from these
//! (sums, bounds per message, rates per word) is computed by the functions below, so a changed
//! source figure changes every sentence that uses it.

// ----- The platforms compared -----

/// What the thesis measured.
pub const THESIS_PLATFORM: &str = "the FPGA measurements of `earlgrey_silver_v5` (June 2021)";
/// What our Earl Grey targets simulate.
pub const EARLGREY_MODEL: &str =
    "the Verilator model of the March 2021 snapshot in PyPI `pythondata-misc-opentitan` 0.0.post5550";
/// What seed 2 measured (the paper's description of its platform).
pub const PAPER_PLATFORM: &str = "a SiFive E31 (RV32IMAC, 5-stage pipeline, branch prediction)";
/// What our Ibex targets simulate (`sim/ibex/README.md`, "Configurations").
pub const IBEX_MODEL: &str =
    "the Ibex RTL in its small configuration (2-stage pipeline, fast multiplier, single-cycle RAM)";

// ----- The thesis (Earl Grey, FPGA) -----

/// Raw cycles of one measurement window's own overhead, lowest and highest (thesis, chapter 6).
pub const THESIS_WINDOW_OVERHEAD: (u64, u64) = (4, 6);

/// One step of the thesis's hashing tables: raw cycles for HMAC (SHA-256) and KMAC (SHA3-256).
pub struct HashStep {
    /// The step as the thesis names it.
    pub name: &'static str,
    /// The phase our hash benchmarks record for it.
    pub phase: &'static str,
    /// HMAC SHA-256 cycles.
    pub hmac: u64,
    /// KMAC SHA3-256 cycles.
    pub kmac: u64,
}

const fn step(name: &'static str, phase: &'static str, hmac: u64, kmac: u64) -> HashStep {
    HashStep {
        name,
        phase,
        hmac,
        kmac,
    }
}

/// Thesis Table 6.1: hashing 256 bytes, API-conform input.
pub const TABLE_6_1: [HashStep; 4] = [
    step("Initialization", "init", 21, 20),
    step("Input Data", "input", 1694, 1634),
    step("Await Digest", "await_digest", 154, 67),
    step("Read Digest", "read_digest", 74, 81),
];

/// Thesis Table 6.2: hashing 256 bytes, tight input (no ready check).
pub const TABLE_6_2: [HashStep; 4] = [
    step("Initialization", "init", 27, 27),
    step("Input Data", "input", 911, 913),
    step("Await Digest", "await_digest", 159, 70),
    step("Read Digest", "read_digest", 77, 81),
];

/// One step of thesis Table 6.3.
pub struct AesStep {
    /// The step as the thesis names it.
    pub name: &'static str,
    /// The phase our AES benchmarks record for it.
    pub phase: &'static str,
    /// Raw cycles, unmasked AES-256.
    pub cycles: u64,
}

/// Thesis Table 6.3: unmasked AES-256, one block, manual start.
pub const TABLE_6_3: [AesStep; 5] = [
    AesStep {
        name: "Initialization",
        phase: "init",
        cycles: 306,
    },
    AesStep {
        name: "Write Block",
        phase: "write",
        cycles: 24,
    },
    AesStep {
        name: "Compute Block",
        phase: "compute",
        cycles: 41,
    },
    AesStep {
        name: "Read Block",
        phase: "read",
        cycles: 37,
    },
    AesStep {
        name: "Deinitialization",
        phase: "deinit",
        cycles: 44,
    },
];

/// The thesis's own suite run on this project's Earl Grey model (the March 2021 snapshot, masked
/// AES: the model's default), its register offsets ported to the snapshot and nothing else
/// changed: one AES-256 block, manual start, raw cycles at its own window boundaries (the
/// block already in registers when the write window opens; the read window four loads from the
/// AES and the stores into RAM). Same steps and phases as [`TABLE_6_3`].
pub const TABLE_6_3_THESIS_CODE_ON_MODEL: [u64; 5] = [214, 18, 86, 25, 33];

/// The Table 6.3 step of `phase`.
pub fn table_6_3(phase: &str) -> Option<&'static AesStep> {
    TABLE_6_3.iter().find(|s| s.phase == phase)
}

/// Thesis Fig. 6.3: raw cycles of five AES-256 blocks, automatic start (the same for every
/// key length in the thesis).
pub const FIG_6_3_FIVE_BLOCKS: u64 = 491;

/// Thesis Fig. 6.7: the largest saving of a timed status readout over the ordinary wait, %.
pub const FIG_6_7_BEST_SAVING_PERCENT: f64 = 40.0;

/// A thesis table's total: the sum of its steps for HMAC and for KMAC.
pub fn hash_totals(table: &[HashStep]) -> (u64, u64) {
    (table.iter().map(|s| s.hmac).sum(), table.iter().map(|s| s.kmac).sum())
}

// ----- OpenTitan IP documentation: throughput bounds -----

/// Bytes hashed in the thesis's tables (its 2048-bit message; our dataset `msg-256`).
pub const MESSAGE_BYTES: u64 = 256;
/// Bytes per bus word (RV32).
pub const WORD_BYTES: u64 = 4;
/// HMAC: cycles per SHA-256 block.
pub const HMAC_CYCLES_PER_BLOCK: u64 = 80;
/// SHA-256 block size.
pub const HMAC_BLOCK_BYTES: u64 = 64;
/// SHA-256 padding: at least one `0x80` byte and the 8-byte length (FIPS 180-4, 5.1.1).
const SHA256_MIN_PADDING: u64 = 9;
/// KMAC: cycles per Keccak-f[1600] permutation.
pub const KMAC_CYCLES_PER_PERMUTATION: u64 = 96;
/// SHA3-256 rate in bytes (FIPS 202).
pub const SHA3_256_RATE_BYTES: u64 = 136;
/// Unmasked AES: cycles per block, by key length in bits.
pub const AES_CYCLES_PER_BLOCK: [(u32, u64); 3] = [(128, 12), (192, 14), (256, 16)];

/// SHA-256 blocks hashed for `bytes` of message, padding included.
pub fn sha256_blocks(bytes: u64) -> u64 {
    (bytes + SHA256_MIN_PADDING).div_ceil(HMAC_BLOCK_BYTES)
}

/// Keccak-f permutations absorbing `bytes` of message into SHA3-256, padding included.
pub fn sha3_256_permutations(bytes: u64) -> u64 {
    (bytes + 1).div_ceil(SHA3_256_RATE_BYTES)
}

/// The HMAC's bound for hashing `bytes`.
pub fn hmac_bound(bytes: u64) -> u64 {
    sha256_blocks(bytes) * HMAC_CYCLES_PER_BLOCK
}

/// The KMAC's bound for hashing `bytes`.
pub fn kmac_bound(bytes: u64) -> u64 {
    sha3_256_permutations(bytes) * KMAC_CYCLES_PER_PERMUTATION
}

/// Cycles the HMAC spends per input word at its bound.
pub fn hmac_cycles_per_word() -> f64 {
    HMAC_CYCLES_PER_BLOCK as f64 / (HMAC_BLOCK_BYTES / WORD_BYTES) as f64
}

/// Cycles the KMAC spends per input word at its bound.
pub fn kmac_cycles_per_word() -> f64 {
    KMAC_CYCLES_PER_PERMUTATION as f64 / (SHA3_256_RATE_BYTES / WORD_BYTES) as f64
}

/// The unmasked AES's cycles per block for a `key`-bit key.
pub fn aes_cycles_per_block(key: u32) -> Option<u64> {
    AES_CYCLES_PER_BLOCK.iter().find(|&&(k, _)| k == key).map(|&(_, c)| c)
}

// ----- Seed 2 (Stoffelen 2019) -----

/// A row of seed 2's Table 1.
pub struct Table1Row {
    /// The row as the paper names it.
    pub name: &'static str,
    /// Our software primitive.
    pub primitive: &'static str,
    /// Input bytes our request asks for, where the primitive takes a length.
    pub length: Option<u64>,
    /// E31 cycles.
    pub e31: f64,
    /// E31 cycles per byte, where the paper gives them.
    pub e31_per_byte: Option<f64>,
    /// Cortex-M4 cycles (the paper's comparison).
    pub cortex_m4: f64,
}

const fn t1(
    name: &'static str,
    primitive: &'static str,
    length: Option<u64>,
    e31: f64,
    e31_per_byte: Option<f64>,
    cortex_m4: f64,
) -> Table1Row {
    Table1Row {
        name,
        primitive,
        length,
        e31,
        e31_per_byte,
        cortex_m4,
    }
}

/// Seed 2, Table 1: E31 cycles (and cycles per byte) against the Cortex-M4.
pub const TABLE_1: [Table1Row; 6] = [
    t1("Table AES-128 key schedule", "aes-table-ks", None, 340.0, None, 254.9),
    t1("Table AES-128, one block", "aes-table", None, 912.0, Some(57.0), 644.7),
    t1(
        "Bitsliced AES-128 key schedule",
        "aes-bs-ks",
        None,
        1239.0,
        None,
        1033.8,
    ),
    t1(
        "Bitsliced AES-128-CTR, 4096 B",
        "aes-bs-ctr",
        Some(4096),
        509_622.0,
        Some(124.4),
        414_617.6,
    ),
    t1(
        "ChaCha20, 4096 B",
        "chacha20",
        Some(4096),
        114_365.0,
        Some(27.9),
        56_934.4,
    ),
    t1("Keccak-f[1600]", "keccak-f1600", None, 13_774.0, Some(68.9), 12_969.0),
];

/// A row of seed 2's Table 2: rotations counted (per `unit` bytes of input), estimated gain
/// and cycles per byte with a one-cycle rotation.
pub struct Table2Row {
    /// The scheme as the paper names it.
    pub name: &'static str,
    /// Our software primitive.
    pub primitive: &'static str,
    /// Input bytes our request asks for, where the primitive takes a length.
    pub length: Option<u64>,
    /// Rotations the paper counted per `unit` bytes.
    pub rotations: u32,
    /// Bytes the count refers to.
    pub unit: u64,
    /// Estimated gain, %.
    pub gain: f64,
    /// Estimated cycles per byte.
    pub estimate: f64,
}

impl Table2Row {
    /// Rotations the paper counts for the input our request processes.
    pub fn rotations_for_input(&self) -> f64 {
        let bytes = self.length.unwrap_or(self.unit) as f64;
        f64::from(self.rotations) * bytes / self.unit as f64
    }

    /// Bytes our request processes.
    pub fn input_bytes(&self) -> u64 {
        self.length.unwrap_or(self.unit)
    }
}

/// Seed 2, Table 2.
pub const TABLE_2: [Table2Row; 4] = [
    Table2Row {
        name: "Table-based AES",
        primitive: "aes-table",
        length: None,
        rotations: 0,
        unit: 16,
        gain: 0.0,
        estimate: 57.0,
    },
    Table2Row {
        name: "Bitsliced AES-CTR",
        primitive: "aes-bs-ctr",
        length: Some(4096),
        rotations: 144,
        // Per pair of blocks, the unit the bitsliced code works on.
        unit: 32,
        gain: 7.0,
        estimate: 115.7,
    },
    Table2Row {
        name: "ChaCha20",
        primitive: "chacha20",
        length: Some(4096),
        rotations: 320,
        unit: 64,
        gain: 35.8,
        estimate: 17.9,
    },
    Table2Row {
        name: "Keccak-f[1600]",
        primitive: "keccak-f1600",
        length: None,
        rotations: 1248,
        unit: 200,
        gain: 18.1,
        estimate: 56.4,
    },
];

/// Cycles of the RV32I sequence a rotation replaces (two shifts and an or), as seed 2 counts.
pub const ROTATION_SEQUENCE_CYCLES: u64 = 3;
/// Cycles seed 2 assumes for a rotation instruction (Table 2's estimates).
pub const PAPER_ROTATION_CYCLES: u64 = 1;
/// Cycles a rotation takes on Ibex with any RV32B option (`sim/ibex/README.md`,
/// "Configurations": `rtl/ibex_decoder.sv`, `rtl/ibex_alu.sv`).
pub const IBEX_ROTATION_CYCLES: u64 = 2;

/// Cycles seed 2 assumes each rotation saves.
pub fn paper_saving_per_rotation() -> u64 {
    ROTATION_SEQUENCE_CYCLES - PAPER_ROTATION_CYCLES
}

/// Seed 2's gain of the reduced radix over the full one at the largest size, % (the text on
/// its Figures 1 and 2): addition, schoolbook multiplication, Karatsuba multiplication.
pub const PAPER_REDUCED_RADIX_GAIN: [(&str, f64); 3] = [("mp-add", 37.0), ("mp-mul", 8.0), ("mp-karatsuba", 21.0)];

/// Seed 2's finding on one-level Karatsuba against schoolbook multiplication (text on its
/// Figure 2).
pub const PAPER_KARATSUBA: &str = "faster from small sizes on";

/// Seed 2's gain of the reduced radix for the full-radix primitive `primitive`, %.
pub fn paper_reduced_radix_gain(primitive: &str) -> Option<f64> {
    PAPER_REDUCED_RADIX_GAIN
        .iter()
        .find(|&&(p, _)| p == primitive)
        .map(|&(_, g)| g)
}

/// Every number above and every number derived from them that the document prints, for the
/// test that checks each number in the document's prose is measured or quoted.
#[cfg(test)]
pub fn figures() -> Vec<f64> {
    let mut all: Vec<f64> = vec![
        THESIS_WINDOW_OVERHEAD.0 as f64,
        THESIS_WINDOW_OVERHEAD.1 as f64,
        FIG_6_3_FIVE_BLOCKS as f64,
        FIG_6_7_BEST_SAVING_PERCENT,
        MESSAGE_BYTES as f64,
        HMAC_CYCLES_PER_BLOCK as f64,
        HMAC_BLOCK_BYTES as f64,
        KMAC_CYCLES_PER_PERMUTATION as f64,
        SHA3_256_RATE_BYTES as f64,
        sha256_blocks(MESSAGE_BYTES) as f64,
        sha3_256_permutations(MESSAGE_BYTES) as f64,
        hmac_bound(MESSAGE_BYTES) as f64,
        kmac_bound(MESSAGE_BYTES) as f64,
        hmac_cycles_per_word(),
        kmac_cycles_per_word(),
        paper_saving_per_rotation() as f64,
        PAPER_ROTATION_CYCLES as f64,
    ];
    for table in [&TABLE_6_1, &TABLE_6_2] {
        all.extend(table.iter().flat_map(|s| [s.hmac as f64, s.kmac as f64]));
        let (h, k) = hash_totals(table);
        all.extend([h as f64, k as f64]);
    }
    all.extend(TABLE_6_3.iter().map(|s| s.cycles as f64));
    for (key, cycles) in AES_CYCLES_PER_BLOCK {
        all.extend([f64::from(key), cycles as f64]);
    }
    for row in &TABLE_1 {
        all.extend([row.e31, row.cortex_m4]);
        all.extend(row.e31_per_byte);
    }
    for row in &TABLE_2 {
        all.extend([f64::from(row.rotations), row.gain, row.estimate]);
    }
    all.extend(PAPER_REDUCED_RADIX_GAIN.iter().map(|&(_, g)| g));
    all
}

// ----- Seed 3 (OpenTitan as a security co-processor, Table I) -----

/// What seed 3 measured: a CVA6 host running Linux and OpenTitan's Ibex on one FPGA SoC.
pub const OFFLOAD_PLATFORM: &str =
    "a CVA6 host under Linux handing jobs to OpenTitan's Ibex through a mailbox, on an FPGA SoC";

/// One row of seed 3's Table I, in cycles.
pub struct OffloadRow {
    /// Payload bytes.
    pub bytes: u64,
    /// Host (CVA6) driver overhead.
    pub cva6: u64,
    /// Ibex firmware overhead.
    pub ibex: u64,
    /// Accelerator operation.
    pub operation: u64,
    /// CVA6 + Ibex + operation.
    pub total: u64,
    /// Overhead share as printed, percent.
    pub overhead_percent: f64,
    /// `openssl speed` on the CVA6.
    pub software: u64,
    /// Speed-up as printed.
    pub speedup: f64,
}

/// Seed 3, Table I, SHA-256.
pub const TABLE_I_SHA256: [OffloadRow; 3] = [
    OffloadRow {
        bytes: 1024,
        cva6: 1347,
        ibex: 801,
        operation: 10454,
        total: 12602,
        overhead_percent: 17.0,
        software: 144231,
        speedup: 11.4,
    },
    OffloadRow {
        bytes: 2048,
        cva6: 1270,
        ibex: 801,
        operation: 20416,
        total: 22487,
        overhead_percent: 9.2,
        software: 276753,
        speedup: 12.3,
    },
    OffloadRow {
        bytes: 4096,
        cva6: 1263,
        ibex: 801,
        operation: 40394,
        total: 42458,
        overhead_percent: 4.9,
        software: 541516,
        speedup: 12.8,
    },
];

/// Seed 3, Table I, AES-CBC-256.
pub const TABLE_I_AES_CBC_256: [OffloadRow; 3] = [
    OffloadRow {
        bytes: 1024,
        cva6: 7436,
        ibex: 8271,
        operation: 29944,
        total: 45651,
        overhead_percent: 34.4,
        software: 182039,
        speedup: 4.0,
    },
    OffloadRow {
        bytes: 2048,
        cva6: 14730,
        ibex: 15925,
        operation: 46600,
        total: 77255,
        overhead_percent: 39.7,
        software: 364078,
        speedup: 4.7,
    },
    OffloadRow {
        bytes: 4096,
        cva6: 26334,
        ibex: 31281,
        operation: 79939,
        total: 137554,
        overhead_percent: 41.9,
        software: 724638,
        speedup: 5.3,
    },
];

/// The goal set for the streaming design at 4 KiB, chip side: overhead at most this share of
/// chip-side cycles, percent (SHA-256, AES-CBC-256).
pub const OFFLOAD_OVERHEAD_GOAL_PERCENT: (f64, f64) = (5.0, 20.0);
