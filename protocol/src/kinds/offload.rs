//! Offload (the co-processor paper, Table I): a host hands a cryptographic job to the chip through
//! a mailbox, the chip's firmware fetches the payload from host memory by page addresses, drives
//! the accelerator, hands the result over through a scratch-pad memory (SPM), and signals
//! completion; the same job then runs in software on the same core for the speed-up: with the
//! constant-time RustCrypto, and with the fastest software the project has where that is another
//! implementation.
//!
//! Wire: `B offload OP KIB d|i c|s [xREPS]`; result
//! `offload SUBMIT MAILBOX PAYLOAD OPERATION COPY HANDOVER COMPLETION DRAIN SOFTWARE r|m
//! FASTEST|- wW1,..,W8 HANDOVERS OVERHEAD HOST_ADDR SPM_ADDR MAILBOX_ADDR` (`r`: the software
//! cycles were reused from an earlier run of the same job, `m`: measured by this request;
//! FASTEST the fastest software's run, `-` for a job whose fastest software is RustCrypto's).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::kind::{Description, Field, Kind, PhaseCategory, PhaseSpec, Shape};
use crate::wire::{self, Options, Tokens, WireError};
use crate::{Cycles, Module, NamedPhase, Phases};

/// Size of one host memory page, the unit of the mailbox's addresses.
pub const OFFLOAD_PAGE_BYTES: u32 = 4096;
/// Address fields in the mailbox (A1–A5).
pub const OFFLOAD_ADDRESS_FIELDS: u32 = 5;
/// Largest payload: five direct pages (the most direct addressing reaches; indirect-L1 could
/// reach further, but the chip's RAM holds no more host memory beside the suite).
pub const MAX_OFFLOAD_BYTES: u32 = OFFLOAD_PAGE_BYTES * OFFLOAD_ADDRESS_FIELDS;
/// Payload sizes are whole KiB: every size has its known answers computed at build time.
pub const OFFLOAD_SIZE_STEP: u32 = 1024;

/// The job handed over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum OffloadOperation {
    /// SHA-256 of the payload (HMAC block in hash mode).
    #[cfg_attr(feature = "serde", serde(rename = "sha256"))]
    Sha256,
    /// SHA3-256 of the payload (KMAC block).
    #[cfg_attr(feature = "serde", serde(rename = "sha3-256"))]
    Sha3_256,
    /// AES-256-CBC encryption of the payload; the ciphertext is the result.
    #[cfg_attr(feature = "serde", serde(rename = "aes-cbc-256"))]
    AesCbc256,
}

impl OffloadOperation {
    /// Every operation, in report order.
    pub const ALL: [OffloadOperation; 3] = [Self::Sha256, Self::Sha3_256, Self::AesCbc256];

    /// Stable name, as in `.bench` files and results.
    pub fn name(self) -> &'static str {
        match self {
            Self::Sha256 => "sha256",
            Self::Sha3_256 => "sha3-256",
            Self::AesCbc256 => "aes-cbc-256",
        }
    }

    /// The accelerator module that serves it.
    pub fn module(self) -> Module {
        match self {
            Self::Sha256 => Module::Sha2,
            Self::Sha3_256 => Module::Sha3,
            Self::AesCbc256 => Module::Aes,
        }
    }

    fn token(self) -> &'static str {
        match self {
            Self::Sha256 => "s2",
            Self::Sha3_256 => "s3",
            Self::AesCbc256 => "ac",
        }
    }

    fn from_token(token: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.token() == token)
    }

    /// The constant-time software every job is measured against (`software_cycles`,
    /// `speedup`): RustCrypto on the same core, as a firmware would link it.
    pub fn software(self) -> &'static str {
        match self {
            Self::Sha256 => "rustcrypto-sha2 (constant time)",
            Self::Sha3_256 => "rustcrypto-sha3 (constant time)",
            Self::AesCbc256 => "rustcrypto-aes + cbc (fixsliced, constant time)",
        }
    }

    /// The fastest software the project has for the job (`fastest_software_cycles`,
    /// `fastest_speedup`): a speed-up against the slower library alone would flatter the
    /// accelerator.
    pub fn fastest_software(self) -> &'static str {
        match self {
            Self::Sha256 => "rustcrypto-sha2 (the project has no faster SHA-256)",
            Self::Sha3_256 => "cyclebench-sha3-keccak-asm (constant time)",
            Self::AesCbc256 => "cyclebench-aes256-table-asm + cbc (T-tables: not constant time)",
        }
    }

    /// Whether the fastest software is another implementation than RustCrypto's, run by the
    /// suite beside it (its result then carries that run).
    pub fn has_faster_software(self) -> bool {
        !matches!(self, Self::Sha256)
    }

    /// Whether the fastest software runs in constant time.
    pub fn fastest_software_constant_time(self) -> bool {
        !matches!(self, Self::AesCbc256)
    }
}

/// How the mailbox's address fields A1–A5 locate the payload (the co-processor paper's schemes;
/// its indirect-L2 is not offered, since the chip's RAM could not hold a payload that needs it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Addressing {
    /// Each field holds the address of one 4 KiB payload page (up to 20 KiB).
    #[default]
    Direct,
    /// Each field holds the address of an index page of payload page addresses.
    IndirectL1,
}

impl Addressing {
    /// Stable name, as in `.bench` files and results.
    pub fn name(self) -> &'static str {
        match self {
            Self::Direct => "direct",
            Self::IndirectL1 => "indirect-l1",
        }
    }
}

/// How the chip's firmware moves data between host memory, accelerator and SPM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum OffloadDesign {
    /// The co-processor paper's design: each page is copied into the firmware's own memory,
    /// processed from there into a local output buffer, and the output copied into the SPM.
    #[default]
    Staging,
    /// Payload words go from host memory straight into the accelerator and its output
    /// straight into the SPM: no staging copy.
    Streaming,
}

impl OffloadDesign {
    /// Stable name, as in `.bench` files and results.
    pub fn name(self) -> &'static str {
        match self {
            Self::Staging => "staging",
            Self::Streaming => "streaming",
        }
    }
}

/// Offload benchmark request.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct OffloadBenchmark {
    /// The job.
    pub operation: OffloadOperation,
    /// Payload size in bytes: a whole number of KiB, at most [`MAX_OFFLOAD_BYTES`].
    pub payload_bytes: u32,
    /// How the mailbox locates the payload (default direct).
    #[cfg_attr(feature = "serde", serde(default))]
    pub addressing: Addressing,
    /// Staging copies (the co-processor paper) or streaming (default staging).
    #[cfg_attr(feature = "serde", serde(default))]
    pub design: OffloadDesign,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

/// Why `bytes` is not a payload size the suite has known answers for.
fn size_problem(bytes: u32) -> Option<String> {
    (bytes == 0 || bytes > MAX_OFFLOAD_BYTES || !bytes.is_multiple_of(OFFLOAD_SIZE_STEP)).then(|| {
        format!(
            "payload_bytes must be a multiple of {OFFLOAD_SIZE_STEP} from {OFFLOAD_SIZE_STEP} to {MAX_OFFLOAD_BYTES}, got {bytes}"
        )
    })
}

impl Kind for OffloadBenchmark {
    const NAME: &'static str = "offload";
    const TAG: &'static str = "offload";
    const PHASES: &'static [PhaseSpec] = &[
        PhaseSpec::once("host_submit", PhaseCategory::Other),
        PhaseSpec::once("mailbox", PhaseCategory::Other),
        PhaseSpec::once("payload", PhaseCategory::Input),
        PhaseSpec::once("operation", PhaseCategory::Computation),
        PhaseSpec::once("result_copy", PhaseCategory::Output),
        PhaseSpec::once("handover", PhaseCategory::Other),
        PhaseSpec::once("completion", PhaseCategory::Other),
        PhaseSpec::once("host_drain", PhaseCategory::Other),
    ];

    fn repetitions(&self) -> Option<u16> {
        self.repetitions
    }

    fn accelerator(&self) -> Option<Module> {
        Some(self.operation.module())
    }

    fn describe(&self) -> Description {
        Description {
            module: Some(self.operation.module()),
            config: format!(
                "{} {} {}",
                self.operation.name(),
                self.addressing.name(),
                self.design.name()
            ),
            bytes: Some(u64::from(self.payload_bytes)),
            fields: Vec::from([
                ("operation", Field::Text(String::from(self.operation.name()))),
                ("payload_bytes", Field::Number(u64::from(self.payload_bytes))),
                ("addressing", Field::Text(String::from(self.addressing.name()))),
                ("design", Field::Text(String::from(self.design.name()))),
                (
                    "software_implementation",
                    Field::Text(String::from(self.operation.software())),
                ),
                (
                    "fastest_software_implementation",
                    Field::Text(String::from(self.operation.fastest_software())),
                ),
                (
                    "fastest_software_constant_time",
                    Field::Flag(self.operation.fastest_software_constant_time()),
                ),
            ]),
        }
    }

    fn check(&self) -> Result<(), String> {
        size_problem(self.payload_bytes).map_or(Ok(()), Err)
    }

    fn accepts(&self, phases: &Phases) -> bool {
        matches!(phases, Phases::Offload(p) if p.fastest_software.is_some() == self.operation.has_faster_software())
    }

    fn encode(&self, out: &mut String) {
        wire::push(out, self.operation.token());
        wire::push(out, &format!("{}", self.payload_bytes / OFFLOAD_SIZE_STEP));
        wire::push(out, wire::pick(self.addressing == Addressing::Direct, "d", "i"));
        wire::push(out, wire::pick(self.design == OffloadDesign::Staging, "c", "s"));
        Options {
            repetitions: self.repetitions,
            ..Options::default()
        }
        .encode(out);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let operation = OffloadOperation::from_token(t.next("offload operation")?)
            .ok_or(WireError::Malformed("offload operation"))?;
        let kib: u32 = t.number("offload payload size")?;
        let payload_bytes = kib
            .checked_mul(OFFLOAD_SIZE_STEP)
            .filter(|&b| size_problem(b).is_none())
            .ok_or(WireError::Malformed("offload payload size"))?;
        let addressing = wire::flag(
            t,
            "offload addressing",
            ("d", Addressing::Direct),
            ("i", Addressing::IndirectL1),
        )?;
        let design = wire::flag(
            t,
            "offload design",
            ("c", OffloadDesign::Staging),
            ("s", OffloadDesign::Streaming),
        )?;
        Ok(Self {
            operation,
            payload_bytes,
            addressing,
            design,
            repetitions: Options::decode(t, "x")?.repetitions,
        })
    }
}

/// Number of offload phases.
pub const OFFLOAD_PHASES: usize = 8;

/// Phases of an offload result, each summing the windows counted in `windows`, plus the
/// software run and where the regions were.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct OffloadPhases {
    /// Host side: writing CMD, LEN, A1–A5 and the flags, then ringing the doorbell.
    pub host_submit: Cycles,
    /// Chip side: taking the doorbell, reading and checking the mailbox, resolving the page
    /// addresses (reading the index pages with indirect-L1 addressing).
    pub mailbox: Cycles,
    /// Chip side: copying payload pages from host memory into the firmware's own buffer
    /// (staging design; no window in the streaming design).
    pub payload: Cycles,
    /// Chip side: the accelerator driven from its configuration to its last output.
    pub operation: Cycles,
    /// Chip side: copying results from the firmware's own buffer into the SPM (staging design).
    pub result_copy: Cycles,
    /// Chip side: signalling a full SPM and taking the host's doorbell to resume.
    pub handover: Cycles,
    /// Chip side: the final completion with F_FINISH and F_STATUS.
    pub completion: Cycles,
    /// Host side: taking each completion, moving the SPM's contents into host memory and
    /// ringing the doorbell (resume, or the final acknowledgement).
    pub host_drain: Cycles,
    /// The same job in software on the same core: one window.
    pub software: Cycles,
    /// Whether the software cycles (both runs) come from an earlier run of the same job
    /// (operation and payload size) in this session rather than from this request.
    pub software_reused: bool,
    /// The same job by the fastest software the project has, where that is not RustCrypto's
    /// ([`OffloadOperation::has_faster_software`]): one window, same payload, same checks.
    pub fastest_software: Option<Cycles>,
    /// Measurement windows summed in each of the eight phases above, in order.
    pub windows: [u32; OFFLOAD_PHASES],
    /// Times the SPM filled before the job was done.
    pub handovers: u32,
    /// The calibrated cost of one empty window, which the host subtracts per window; kept
    /// here so that the overhead share and the speed-up use corrected counts.
    pub window_overhead: u32,
    /// Where the host memory pages started.
    pub host_memory_address: u32,
    /// Where the SPM started.
    pub spm_address: u32,
    /// Where the mailbox was.
    pub mailbox_address: u32,
}

impl OffloadPhases {
    fn in_order(&self) -> [(&'static str, Cycles); OFFLOAD_PHASES] {
        [
            ("host_submit", self.host_submit),
            ("mailbox", self.mailbox),
            ("payload", self.payload),
            ("operation", self.operation),
            ("result_copy", self.result_copy),
            ("handover", self.handover),
            ("completion", self.completion),
            ("host_drain", self.host_drain),
        ]
    }

    /// Median of each phase with the window overhead subtracted, in order.
    pub fn corrected(&self) -> [u64; OFFLOAD_PHASES] {
        let phases = self.in_order();
        core::array::from_fn(|i| {
            let correction = u64::from(self.window_overhead) * u64::from(self.windows[i]);
            phases[i].1.median.saturating_sub(correction)
        })
    }

    /// Software run with the window overhead subtracted.
    pub fn software_cycles(&self) -> u64 {
        self.software.median.saturating_sub(u64::from(self.window_overhead))
    }

    /// The fastest software's run with the window overhead subtracted: RustCrypto's where the
    /// project has nothing faster.
    pub fn fastest_software_cycles(&self) -> u64 {
        self.fastest_software.map_or(self.software_cycles(), |c| {
            c.median.saturating_sub(u64::from(self.window_overhead))
        })
    }

    /// Chip-side cycles that are not the operation: mailbox, payload, result copy, handover
    /// and completion.
    pub fn device_overhead_cycles(&self) -> u64 {
        let c = self.corrected();
        c[1] + c[2] + c[4] + c[5] + c[6]
    }

    /// Host-side cycles: submit and drain.
    pub fn host_cycles(&self) -> u64 {
        let c = self.corrected();
        c[0] + c[7]
    }

    /// Cycles of the accelerator operation.
    pub fn operation_cycles(&self) -> u64 {
        self.corrected()[3]
    }
}

/// `numerator / denominator` rounded to two decimals (integer rounding: `no_std` has no
/// `f64::round`); 0 for a zero denominator.
fn ratio(numerator: u64, denominator: u64) -> f64 {
    if denominator == 0 {
        return 0.0;
    }
    let hundredths = (u128::from(numerator) * 100 + u128::from(denominator) / 2) / u128::from(denominator);
    hundredths as f64 / 100.0
}

/// `part` of `whole` in percent, two decimals.
fn percent(part: u64, whole: u64) -> f64 {
    ratio(part.saturating_mul(100), whole)
}

impl Shape for OffloadPhases {
    const TAG: &'static str = "offload";

    fn named(&self) -> Vec<NamedPhase> {
        self.in_order()
            .iter()
            .zip(self.windows)
            .map(|((name, cycles), windows)| NamedPhase::new(name, *cycles, windows))
            .collect()
    }

    fn fields(&self) -> Vec<(&'static str, Field)> {
        let device = self.device_overhead_cycles();
        let host = self.host_cycles();
        let operation = self.operation_cycles();
        let total = device + host + operation;
        let software = self.software_cycles();
        let fastest = self.fastest_software_cycles();
        // The paper's overhead (its host's share included) first, the chip-side share after.
        Vec::from([
            ("operation_cycles", Field::Number(operation)),
            ("device_overhead_cycles", Field::Number(device)),
            ("host_cycles", Field::Number(host)),
            ("offload_cycles", Field::Number(total)),
            (
                "overhead_with_host_percent",
                Field::Decimal(percent(device + host, total)),
            ),
            ("overhead_percent", Field::Decimal(percent(device, device + operation))),
            ("software_cycles", Field::Number(software)),
            ("speedup", Field::Decimal(ratio(software, total))),
            ("fastest_software_cycles", Field::Number(fastest)),
            ("fastest_speedup", Field::Decimal(ratio(fastest, total))),
            ("software_reused", Field::Number(u64::from(self.software_reused))),
            ("handovers", Field::Number(u64::from(self.handovers))),
            (
                "host_memory_address",
                Field::Number(u64::from(self.host_memory_address)),
            ),
            ("spm_address", Field::Number(u64::from(self.spm_address))),
            ("mailbox_address", Field::Number(u64::from(self.mailbox_address))),
        ])
    }

    fn encode(&self, out: &mut String) {
        for (_, c) in self.in_order() {
            wire::encode_cycles(out, &c);
        }
        wire::encode_cycles(out, &self.software);
        wire::push(out, wire::pick(self.software_reused, "r", "m"));
        match &self.fastest_software {
            Some(c) => wire::encode_cycles(out, c),
            None => wire::push(out, "-"),
        }
        out.push_str(" w");
        for (i, &w) in self.windows.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            wire::push_decimal(out, w);
        }
        for n in [
            self.handovers,
            self.window_overhead,
            self.host_memory_address,
            self.spm_address,
            self.mailbox_address,
        ] {
            wire::push_number(out, n);
        }
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let mut phases = [Cycles::once(0); OFFLOAD_PHASES];
        for p in phases.iter_mut() {
            *p = t.cycles()?;
        }
        let software = t.cycles()?;
        let software_reused = wire::flag(t, "offload software run", ("r", true), ("m", false))?;
        let fastest_software = match t.next("offload fastest software run")? {
            "-" => None,
            token => Some(wire::decode_cycles(token)?),
        };
        const WHAT: &str = "offload windows";
        let list = t.next(WHAT)?.strip_prefix('w').ok_or(WireError::Malformed(WHAT))?;
        let mut windows = [0u32; OFFLOAD_PHASES];
        let mut parts = list.split(',');
        for w in windows.iter_mut() {
            *w = wire::parse_number(parts.next().ok_or(WireError::Malformed(WHAT))?, WHAT)?;
        }
        if parts.next().is_some() {
            return Err(WireError::Malformed(WHAT));
        }
        let [host_submit, mailbox, payload, operation, result_copy, handover, completion, host_drain] = phases;
        Ok(Self {
            host_submit,
            mailbox,
            payload,
            operation,
            result_copy,
            handover,
            completion,
            host_drain,
            software,
            software_reused,
            fastest_software,
            windows,
            handovers: t.number("offload handovers")?,
            window_overhead: t.number("offload window overhead")?,
            host_memory_address: t.number("host memory address")?,
            spm_address: t.number("spm address")?,
            mailbox_address: t.number("mailbox address")?,
        })
    }
}
