//! AES over a dataset of blocks (thesis Figs. 6.3–6.7, Table 6.3), one configuration (mode,
//! key) per dataset; or over data the request describes (a mode and key length, a seeded
//! stream of any length or bytes given inline, a seeded or given key and IV), with the SHA-256
//! of the expected output worked out by the host, which the suite compares with the digest of
//! its output after the measured windows.
//!
//! Wire: `B aes DATASET|- e|d t|b|i a|m c|t [s] [pPAD] [lLENGTH] [gSEED] [yMODEBITS] [kKEY]
//! [iIV] [mHEX] [dDIGEST] [xREPS]`; results `aest INIT PROCESS DEINIT BLOCKS` or `aesb INIT
//! WRITE COMPUTE READ DEINIT BLOCKS`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::kind::{DatasetFamily, Description, Field, Kind, PhaseCategory, PhaseSpec, Shape};
use crate::message::{fill_seeded, from_hex, to_hex, MAX_MESSAGE_BYTES, MAX_REPEATED_MESSAGE_BYTES};
use crate::wire::{self, Options, Tokens, WireError};
use crate::{Cycles, DatasetId, Module, NamedPhase, Phases, SoftwareLibrary, MAX_STATUS_PAD};

/// Encrypt or decrypt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Direction {
    /// Plaintext in, ciphertext out.
    #[default]
    Encrypt,
    /// Ciphertext in, plaintext out.
    Decrypt,
}

/// Whether an AES result breaks every block into write / compute / read or times the whole
/// stream of blocks (thesis Figs. 6.3 and 6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Granularity {
    /// One window around all blocks; automatic mode may pipeline two blocks.
    #[default]
    Total,
    /// Separate windows for writing, computing and reading every block.
    PerBlock,
    /// Per block, with the thesis's window boundaries: the block is in registers and the
    /// engine ready (checked, unless tight) before the write window opens, which then holds
    /// only the four register stores; the read window holds the four register loads and the
    /// stores of the result into RAM.
    Interface,
}

/// Whether the AES engine starts on its own when a block is written, or on a trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Trigger {
    /// The engine starts as soon as a full input block is written.
    #[default]
    Automatic,
    /// The suite writes the start trigger after each block.
    Manual,
}

/// Block cipher mode of data a request describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum CipherMode {
    /// Electronic code book.
    Ecb,
    /// Cipher block chaining.
    Cbc,
    /// Cipher feedback, 128-bit segments.
    Cfb,
    /// Output feedback.
    Ofb,
    /// Counter (the IV is the first counter block, its last 32 bits counting big-endian).
    Ctr,
}

impl CipherMode {
    /// Every mode.
    pub const ALL: [CipherMode; 5] = [Self::Ecb, Self::Cbc, Self::Cfb, Self::Ofb, Self::Ctr];

    /// Stable name, as in `.bench` files and on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Self::Ecb => "ecb",
            Self::Cbc => "cbc",
            Self::Cfb => "cfb",
            Self::Ofb => "ofb",
            Self::Ctr => "ctr",
        }
    }

    /// Whether the data must be whole blocks (the stream modes take any length: the suite pads
    /// the last block and compares only the bytes asked for).
    pub fn whole_blocks(self) -> bool {
        matches!(self, Self::Ecb | Self::Cbc)
    }
}

/// Most bytes of data given inline (`message_hex`) to an AES request: with the key, the IV and
/// the expected digest it must fit one wire line.
pub const MAX_AES_INLINE_BYTES: usize = 64;

/// The data, key and IV of an AES request that describes them, as the host and the suite both
/// derive them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AesData {
    /// The mode.
    pub mode: CipherMode,
    /// The key (16, 24 or 32 bytes).
    pub key: Vec<u8>,
    /// The IV (all modes but ECB; zero for ECB).
    pub iv: [u8; 16],
    /// The input: all of it, or the block that repeats.
    pub input: Vec<u8>,
    /// Bytes of the whole input when `input` is a block repeated.
    pub repeated_to: Option<u32>,
}

impl AesData {
    /// Bytes processed.
    pub fn len(&self) -> u32 {
        self.repeated_to.unwrap_or(self.input.len() as u32)
    }

    /// Whether no byte is processed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// AES benchmark request (thesis `AESDataSet`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct AesBenchmark {
    /// Dataset: key, mode, IV, blocks and expected output. Without one, the request describes
    /// its data (`mode`, `key_bits`, and `length` or `message_hex`).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub dataset: Option<DatasetId>,
    /// Mode of described data.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub mode: Option<CipherMode>,
    /// Key length in bits of described data: 128, 192 or 256 (taken from `key_hex` if given).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub key_bits: Option<u16>,
    /// Bytes of described data: the seeded stream of `seed` (a multiple of 16 for ECB and CBC,
    /// at most the suite's in-RAM limit).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub length: Option<u32>,
    /// Data longer than the suite holds in RAM: the first `repeated_block` bytes of the seeded
    /// stream (a multiple of 16, at most half the suite's limit, dividing `length`), repeated;
    /// the suite keeps the output of the last pass, whose SHA-256 it checks. Total granularity
    /// only.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repeated_block: Option<u32>,
    /// Seed of the described data, and of the key and IV not given (default 0).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub seed: Option<u32>,
    /// A key of the user's own, as hex.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub key_hex: Option<String>,
    /// An IV of the user's own, as hex (16 bytes).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub iv_hex: Option<String>,
    /// Data of the user's own, as hex.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub message_hex: Option<String>,
    /// SHA-256 of the expected output of described data, worked out on the host
    /// (`Kind::complete`, which replaces any value a `.bench` line gives).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub expected: Option<[u8; 32]>,
    /// Encrypt the plaintext or decrypt the ciphertext of the dataset.
    #[cfg_attr(feature = "serde", serde(default))]
    pub direction: Direction,
    /// Per-block breakdown or one total.
    #[cfg_attr(feature = "serde", serde(default))]
    pub granularity: Granularity,
    /// Automatic or manual start.
    #[cfg_attr(feature = "serde", serde(default))]
    pub trigger: Trigger,
    /// Skip the input-ready check before writing a block (safe only when the engine is known
    /// to be idle; the output is still checked).
    #[cfg_attr(feature = "serde", serde(default))]
    pub tight: bool,
    /// Timed status readout (thesis Fig. 6.7, per-block only): execute this many `nop`s after
    /// starting a block, then read the status once; the busy-wait only runs if that read found
    /// no output yet. At most [`crate::MAX_STATUS_PAD`].
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub status_pad: Option<u16>,
    /// Run one of the suite's software implementations of the module instead of the
    /// platform's: on a chip with the accelerator, the same operation in software on the
    /// same core.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub software: Option<SoftwareLibrary>,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

impl AesBenchmark {
    /// The data the request describes, if it names no dataset; says what is wrong with the
    /// description.
    pub fn described(&self) -> Result<Option<AesData>, String> {
        let describing = self.mode.is_some()
            || self.key_bits.is_some()
            || self.length.is_some()
            || self.repeated_block.is_some()
            || self.seed.is_some()
            || self.key_hex.is_some()
            || self.iv_hex.is_some()
            || self.message_hex.is_some();
        if self.dataset.is_some() {
            return if describing {
                Err(String::from(
                    "give a dataset or describe the data (mode, key_bits, length or message_hex), not both",
                ))
            } else {
                Ok(None)
            };
        }
        let mode = self.mode.ok_or_else(|| {
            String::from("no data: give a dataset, or a \"mode\" with a \"length\" or \"message_hex\"")
        })?;
        let seed = self.seed.unwrap_or(0);
        let key = match (&self.key_hex, self.key_bits) {
            (Some(hex), bits) => {
                let key = from_hex(hex).map_err(|e| format!("key_hex: {e}"))?;
                if ![16, 24, 32].contains(&key.len()) {
                    return Err(format!(
                        "key_hex holds {} bytes; an AES key has 16, 24 or 32",
                        key.len()
                    ));
                }
                if bits.is_some_and(|b| usize::from(b) != 8 * key.len()) {
                    return Err(format!(
                        "key_bits {} but key_hex holds a {}-bit key",
                        bits.unwrap_or(0),
                        8 * key.len()
                    ));
                }
                key
            }
            (None, Some(bits @ (128 | 192 | 256))) => {
                let mut key = alloc::vec![0; usize::from(bits) / 8];
                fill_seeded(seed ^ 0x6b65_7900, &mut key);
                key
            }
            (None, Some(bits)) => return Err(format!("key_bits must be 128, 192 or 256, got {bits}")),
            (None, None) => return Err(String::from("give \"key_bits\" (128, 192 or 256) or \"key_hex\"")),
        };
        let iv = match &self.iv_hex {
            Some(_) if mode == CipherMode::Ecb => return Err(String::from("ECB takes no IV")),
            Some(hex) => from_hex(hex)
                .map_err(|e| format!("iv_hex: {e}"))?
                .try_into()
                .map_err(|v: Vec<u8>| format!("iv_hex holds {} bytes; an IV has 16", v.len()))?,
            None if mode == CipherMode::Ecb => [0; 16],
            None => {
                let mut iv = [0; 16];
                fill_seeded(seed ^ 0x6976_0000, &mut iv);
                iv
            }
        };
        let input = match (self.length, &self.message_hex) {
            (Some(_), Some(_)) => return Err(String::from("give length or message_hex, not both")),
            (None, None) => {
                return Err(String::from(
                    "give the data's \"length\" (with an optional \"seed\") or \"message_hex\"",
                ))
            }
            (None, Some(hex)) => {
                let bytes = from_hex(hex).map_err(|e| format!("message_hex: {e}"))?;
                if bytes.len() > MAX_AES_INLINE_BYTES {
                    return Err(format!(
                        "message_hex holds {} bytes, more than one line carries with a key and IV ({MAX_AES_INLINE_BYTES}); \
                         describe longer data by \"length\" and \"seed\"",
                        bytes.len()
                    ));
                }
                bytes
            }
            (Some(length), None) => {
                let stored = match self.repeated_block {
                    None if length > MAX_MESSAGE_BYTES => {
                        return Err(format!(
                            "length {length} is above the {MAX_MESSAGE_BYTES} bytes a suite holds in RAM; \
                             add \"repeated_block\" (e.g. 4096) to process a seeded block repeated"
                        ))
                    }
                    None => length,
                    Some(block) if block == 0 || !block.is_multiple_of(16) || block > MAX_MESSAGE_BYTES / 2 => {
                        return Err(format!(
                            "repeated_block must be a multiple of 16 from 16 to {}, got {block}",
                            MAX_MESSAGE_BYTES / 2
                        ))
                    }
                    Some(block) if !length.is_multiple_of(block) => {
                        return Err(format!(
                            "a repeated block must divide the length: {length} is not a multiple of {block}"
                        ))
                    }
                    Some(_) if length > MAX_REPEATED_MESSAGE_BYTES => {
                        return Err(format!(
                            "length {length} is above the {MAX_REPEATED_MESSAGE_BYTES} bytes repeated data may have"
                        ))
                    }
                    Some(_) if self.granularity != Granularity::Total => {
                        return Err(String::from("repeated_block needs \"granularity\": \"total\""))
                    }
                    Some(block) => block,
                };
                let mut bytes = alloc::vec![0; stored as usize];
                fill_seeded(seed, &mut bytes);
                bytes
            }
        };
        let repeated_to = match (self.repeated_block, self.length) {
            (Some(_), Some(length)) => Some(length),
            (Some(_), None) => {
                return Err(String::from(
                    "repeated_block describes data of \"length\" bytes, not message_hex",
                ))
            }
            (None, _) => None,
        };
        if input.is_empty() {
            return Err(String::from("AES needs at least one byte of data"));
        }
        if mode.whole_blocks() && !input.len().is_multiple_of(16) {
            return Err(format!(
                "{} takes whole 16-byte blocks; {} bytes is not a multiple of 16",
                mode.name(),
                input.len()
            ));
        }
        Ok(Some(AesData {
            mode,
            key,
            iv,
            input,
            repeated_to,
        }))
    }

    /// Works out on the host the SHA-256 of the output of the described data.
    #[cfg(feature = "std")]
    fn digest(&mut self) -> Result<(), String> {
        use sha2::Digest as _;
        let Some(data) = self.described()? else {
            return Ok(());
        };
        let output = reference_output(&data, self.direction == Direction::Encrypt);
        self.expected = Some(sha2::Sha256::digest(&output).into());
        Ok(())
    }
}

/// The output of `data` under RustCrypto's AES in its mode, for `encrypt` or decryption; of
/// repeated data, the output of the last pass.
#[cfg(feature = "std")]
pub fn reference_output(data: &AesData, encrypt: bool) -> Vec<u8> {
    use aes::cipher::{BlockDecryptMut, BlockEncryptMut, KeyInit, KeyIvInit, StreamCipher};
    fn blocks(data: &mut [u8], mut f: impl FnMut(&mut aes::Block)) {
        for chunk in data.chunks_exact_mut(16) {
            f(aes::Block::from_mut_slice(chunk));
        }
    }
    macro_rules! with_key {
        ($key:expr, |$cipher:ident| $body:expr) => {
            match $key.len() {
                16 => {
                    type $cipher = aes::Aes128;
                    $body
                }
                24 => {
                    type $cipher = aes::Aes192;
                    $body
                }
                _ => {
                    type $cipher = aes::Aes256;
                    $body
                }
            }
        };
    }
    let passes = data.len() as usize / data.input.len().max(1);
    let (key, iv) = (&data.key[..], &data.iv);
    let mut out = data.input.clone();
    // Every pass starts from the block; the cipher's state (chain, counter, feedback) carries
    // from one pass to the next. Whole blocks except in a single pass of a stream mode.
    let mut each = |f: &mut dyn FnMut(&mut [u8])| {
        for _ in 0..passes {
            out.copy_from_slice(&data.input);
            f(&mut out);
        }
    };
    with_key!(key, |C| match (data.mode, encrypt) {
        (CipherMode::Ecb, true) => {
            let mut c = ecb::Encryptor::<C>::new_from_slice(key).expect("key length checked");
            each(&mut |o| blocks(o, |b| c.encrypt_block_mut(b)));
        }
        (CipherMode::Ecb, false) => {
            let mut c = ecb::Decryptor::<C>::new_from_slice(key).expect("key length checked");
            each(&mut |o| blocks(o, |b| c.decrypt_block_mut(b)));
        }
        (CipherMode::Cbc, true) => {
            let mut c = cbc::Encryptor::<C>::new_from_slices(key, iv).expect("key length checked");
            each(&mut |o| blocks(o, |b| c.encrypt_block_mut(b)));
        }
        (CipherMode::Cbc, false) => {
            let mut c = cbc::Decryptor::<C>::new_from_slices(key, iv).expect("key length checked");
            each(&mut |o| blocks(o, |b| c.decrypt_block_mut(b)));
        }
        (CipherMode::Cfb, true) => {
            let mut c = cfb_mode::BufEncryptor::<C>::new_from_slices(key, iv).expect("key length checked");
            each(&mut |o| c.encrypt(o));
        }
        (CipherMode::Cfb, false) => {
            let mut c = cfb_mode::BufDecryptor::<C>::new_from_slices(key, iv).expect("key length checked");
            each(&mut |o| c.decrypt(o));
        }
        (CipherMode::Ofb, _) => {
            let mut c = ofb::Ofb::<C>::new_from_slices(key, iv).expect("key length checked");
            each(&mut |o| c.apply_keystream(o));
        }
        (CipherMode::Ctr, _) => {
            let mut c = ctr::Ctr32BE::<C>::new_from_slices(key, iv).expect("key length checked");
            each(&mut |o| c.apply_keystream(o));
        }
    });
    out
}

impl Kind for AesBenchmark {
    const NAME: &'static str = "aes";
    const TAG: &'static str = "aes";
    const PHASES: &'static [PhaseSpec] = &[
        PhaseSpec::once("init", PhaseCategory::Initialisation),
        PhaseSpec::once("process", PhaseCategory::Computation),
        PhaseSpec::once("write", PhaseCategory::Input),
        PhaseSpec::once("compute", PhaseCategory::Computation),
        PhaseSpec::once("read", PhaseCategory::Output),
        PhaseSpec::once("deinit", PhaseCategory::Deinitialisation),
    ];

    fn repetitions(&self) -> Option<u16> {
        self.repetitions
    }

    fn dataset(&self) -> Option<(DatasetFamily, &DatasetId)> {
        self.dataset.as_ref().map(|d| (DatasetFamily::Aes, d))
    }

    fn describe(&self) -> Description {
        let direction = wire::pick(self.direction == Direction::Encrypt, "encrypt", "decrypt");
        let granularity = match self.granularity {
            Granularity::Total => "total",
            Granularity::PerBlock => "per-block",
            Granularity::Interface => "interface",
        };
        let trigger = wire::pick(self.trigger == Trigger::Automatic, "automatic", "manual");
        let mut config = format!("{direction} {granularity} {trigger}");
        if self.tight {
            config.push_str(" tight");
        }
        if let Some(pad) = self.status_pad {
            config.push_str(&format!(" status-pad {pad}"));
        }
        let data = self.described().ok().flatten();
        if let Some(d) = &data {
            let given = if self.message_hex.is_some() { " given" } else { "" };
            config = format!(
                "{}-{} {config} {} B{given} seed {}",
                d.mode.name(),
                8 * d.key.len(),
                d.len(),
                self.seed.unwrap_or(0)
            );
            if d.repeated_to.is_some() {
                config.push_str(&format!(" block {} repeated", d.input.len()));
            }
        }
        let mut fields = Vec::new();
        if let Some(d) = data.as_ref().filter(|d| d.repeated_to.is_some()) {
            fields.push(("repeated_block", Field::Number(d.input.len() as u64)));
        }
        Description {
            module: Some(Module::Aes),
            config,
            bytes: data.map(|d| u64::from(d.len())),
            fields,
        }
    }

    #[cfg(feature = "std")]
    fn complete(&mut self) -> Result<(), String> {
        self.digest()
    }

    fn check(&self) -> Result<(), String> {
        self.described()?;
        match self.status_pad {
            Some(pad) if pad > MAX_STATUS_PAD => Err(format!("status_pad must be 0 to {MAX_STATUS_PAD}, got {pad}")),
            Some(_) if self.granularity == Granularity::Total => Err(String::from(
                "status_pad needs \"granularity\": \"per_block\" or \"interface\"",
            )),
            _ => Ok(()),
        }
    }

    fn software(&self) -> Option<SoftwareLibrary> {
        self.software
    }

    fn accelerator(&self) -> Option<Module> {
        self.software.is_none().then_some(Module::Aes)
    }

    fn accepts(&self, phases: &Phases) -> bool {
        match self.granularity {
            Granularity::Total => matches!(phases, Phases::AesTotal(_)),
            Granularity::PerBlock | Granularity::Interface => matches!(phases, Phases::AesPerBlock(_)),
        }
    }

    fn encode(&self, out: &mut String) {
        wire::push(out, self.dataset.as_ref().map_or("-", DatasetId::as_str));
        wire::push(out, wire::pick(self.direction == Direction::Encrypt, "e", "d"));
        wire::push(
            out,
            match self.granularity {
                Granularity::Total => "t",
                Granularity::PerBlock => "b",
                Granularity::Interface => "i",
            },
        );
        wire::push(out, wire::pick(self.trigger == Trigger::Automatic, "a", "m"));
        wire::push(out, wire::pick(self.tight, "t", "c"));
        Options {
            software: self.software,
            pad: self.status_pad,
            length: self.length,
            seed: self.seed,
            block: self.repeated_block,
            cipher: self.mode.map(|m| (m, self.key_bits)),
            key: self.key_hex.as_deref().and_then(|h| from_hex(h).ok()),
            iv: self.iv_hex.as_deref().and_then(|h| from_hex(h).ok()),
            message: self.message_hex.as_deref().and_then(|h| from_hex(h).ok()),
            digest: self.expected,
            repetitions: self.repetitions,
            ..Options::default()
        }
        .encode(out);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let dataset = wire::optional_dataset(t)?;
        let direction = wire::flag(t, "direction", ("e", Direction::Encrypt), ("d", Direction::Decrypt))?;
        let granularity = match t.next("granularity")? {
            "t" => Granularity::Total,
            "b" => Granularity::PerBlock,
            "i" => Granularity::Interface,
            _ => return Err(WireError::Malformed("granularity")),
        };
        let trigger = wire::flag(t, "trigger", ("a", Trigger::Automatic), ("m", Trigger::Manual))?;
        let tight = wire::flag(t, "tightness", ("t", true), ("c", false))?;
        let o = Options::decode(t, "splgbykimdx")?;
        let request = Self {
            dataset,
            mode: o.cipher.map(|(m, _)| m),
            key_bits: o.cipher.and_then(|(_, bits)| bits),
            length: o.length,
            repeated_block: o.block,
            seed: o.seed,
            key_hex: o.key.as_deref().map(to_hex),
            iv_hex: o.iv.as_deref().map(to_hex),
            message_hex: o.message.as_deref().map(to_hex),
            expected: o.digest,
            direction,
            granularity,
            trigger,
            tight,
            status_pad: o.pad,
            software: o.software,
            repetitions: o.repetitions,
        };
        // The description itself is checked where the data is made (the suite's job, the
        // host's `check`): working it out here would generate the data twice on the device.
        if request.dataset.is_none() && request.expected.is_none() {
            return Err(WireError::Malformed("aes data without its digest"));
        }
        Ok(request)
    }
}

/// AES phases with one window around all blocks (thesis Fig. 6.3).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct AesTotalPhases {
    /// `init`: configuration, key shares, IV.
    pub init: Cycles,
    /// Writing, processing and reading all blocks.
    pub process: Cycles,
    /// `deinit`.
    pub deinit: Cycles,
    /// Number of blocks processed.
    pub blocks: u32,
}

impl Shape for AesTotalPhases {
    const TAG: &'static str = "aest";

    fn named(&self) -> Vec<NamedPhase> {
        NamedPhase::once(&[("init", self.init), ("process", self.process), ("deinit", self.deinit)])
    }

    fn fields(&self) -> Vec<(&'static str, Field)> {
        Vec::from([("blocks", Field::Number(u64::from(self.blocks)))])
    }

    fn encode(&self, out: &mut String) {
        for c in [&self.init, &self.process, &self.deinit] {
            wire::encode_cycles(out, c);
        }
        wire::push_number(out, self.blocks);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        Ok(Self {
            init: t.cycles()?,
            process: t.cycles()?,
            deinit: t.cycles()?,
            blocks: t.number("block count")?,
        })
    }
}

/// AES phases with each block split into write / compute / read (thesis Table 6.3, Fig. 6.4);
/// block phases are summed over all blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct AesPerBlockPhases {
    /// `init`.
    pub init: Cycles,
    /// `write_block` for all blocks.
    pub write: Cycles,
    /// Trigger (manual) and `wait_for_output` for all blocks.
    pub compute: Cycles,
    /// `read_block` for all blocks.
    pub read: Cycles,
    /// `deinit`.
    pub deinit: Cycles,
    /// Number of blocks processed.
    pub blocks: u32,
}

impl Shape for AesPerBlockPhases {
    const TAG: &'static str = "aesb";

    fn named(&self) -> Vec<NamedPhase> {
        let blocks = self.blocks;
        Vec::from([
            NamedPhase::new("init", self.init, 1),
            NamedPhase::new("write", self.write, blocks),
            NamedPhase::new("compute", self.compute, blocks),
            NamedPhase::new("read", self.read, blocks),
            NamedPhase::new("deinit", self.deinit, 1),
        ])
    }

    fn fields(&self) -> Vec<(&'static str, Field)> {
        Vec::from([("blocks", Field::Number(u64::from(self.blocks)))])
    }

    fn encode(&self, out: &mut String) {
        for c in [&self.init, &self.write, &self.compute, &self.read, &self.deinit] {
            wire::encode_cycles(out, c);
        }
        wire::push_number(out, self.blocks);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        Ok(Self {
            init: t.cycles()?,
            write: t.cycles()?,
            compute: t.cycles()?,
            read: t.cycles()?,
            deinit: t.cycles()?,
            blocks: t.number("block count")?,
        })
    }
}
