//! Public-key operations on a big-number accelerator (OTBN): ECDSA P-256 sign and verify, RSA
//! encrypt (e = 65537) and decrypt, each split into the thesis's phases — program load
//! (instruction memory and static data), input (operands), compute (start to done), output
//! (result read) and clean-up (operands and result wiped from the accelerator; for verify the
//! CPU's final comparison). A request keeps the program loaded across repetitions or reloads
//! it for each, so the cost of reprogramming is measured.
//!
//! Wire: `B pk s|v|e|d BITS -|c k|r [xREPS]` (operation, modulus or curve bits, signature
//! valid or corrupted, program kept loaded or reloaded); result
//! `pk LOAD INPUT COMPUTE OUTPUT CLEANUP IMEM/DMEM ACCEPTED` (words loaded per load; for
//! verify `a` accepted or `r` rejected, else `-`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::kind::{Description, Field, Kind, PhaseCategory, PhaseSpec, Shape};
use crate::wire::{self, Options, Tokens, WireError};
use crate::{Cycles, Module, NamedPhase, Phases, Primitive};

/// The operation a public-key benchmark runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PubkeyOperation {
    /// ECDSA P-256 signature with a given nonce k.
    EcdsaP256Sign,
    /// ECDSA P-256 signature verification.
    EcdsaP256Verify,
    /// RSA encryption (modular exponentiation with e = 65537).
    RsaEncrypt,
    /// RSA decryption (modular exponentiation with the private exponent).
    RsaDecrypt,
}

impl PubkeyOperation {
    /// Every operation, in wire-letter order.
    pub const ALL: [Self; 4] = [
        Self::EcdsaP256Sign,
        Self::EcdsaP256Verify,
        Self::RsaEncrypt,
        Self::RsaDecrypt,
    ];

    /// Stable name, as in `.bench` files and results.
    pub fn name(self) -> &'static str {
        match self {
            Self::EcdsaP256Sign => "ecdsa_p256_sign",
            Self::EcdsaP256Verify => "ecdsa_p256_verify",
            Self::RsaEncrypt => "rsa_encrypt",
            Self::RsaDecrypt => "rsa_decrypt",
        }
    }

    fn letter(self) -> &'static str {
        match self {
            Self::EcdsaP256Sign => "s",
            Self::EcdsaP256Verify => "v",
            Self::RsaEncrypt => "e",
            Self::RsaDecrypt => "d",
        }
    }

    /// Whether this is an RSA operation (its size is the modulus length).
    pub fn is_rsa(self) -> bool {
        matches!(self, Self::RsaEncrypt | Self::RsaDecrypt)
    }

    /// The same operation in software on the core, at `bits`: the baseline the report sets
    /// a hardware record against.
    pub fn software_counterpart(self, bits: u16) -> Option<Primitive> {
        Primitive::from_name(&match self {
            Self::EcdsaP256Sign => String::from("ecdsa-p256-sign"),
            Self::EcdsaP256Verify => String::from("ecdsa-p256-verify"),
            Self::RsaEncrypt => format!("rsa-{bits}-encrypt"),
            Self::RsaDecrypt => format!("rsa-{bits}-decrypt"),
        })
    }

    /// The sizes in bits the suite has inputs and known answers for.
    pub fn sizes(self) -> &'static [u16] {
        match self {
            Self::EcdsaP256Sign | Self::EcdsaP256Verify => &[256],
            Self::RsaEncrypt => &RSA_ENCRYPT_BITS,
            // Decryption is a full-length exponent: 2048 bits are some 17 M accelerator
            // cycles, a quarter of an hour on the chip model; longer ones are left out.
            Self::RsaDecrypt => &RSA_DECRYPT_BITS,
        }
    }
}

/// Modulus lengths RSA encryption is offered at.
pub const RSA_ENCRYPT_BITS: [u16; 4] = [1024, 2048, 3072, 4096];
/// Modulus lengths RSA decryption is offered at.
pub const RSA_DECRYPT_BITS: [u16; 2] = [1024, 2048];

/// Public-key benchmark request.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct PubkeyBenchmark {
    /// The operation.
    pub operation: PubkeyOperation,
    /// Modulus length for RSA (1024 to 4096); 256 for ECDSA P-256, the default there.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub bits: Option<u16>,
    /// Verify a signature with one bit of s flipped: the known answer is a rejection.
    #[cfg_attr(feature = "serde", serde(default))]
    pub corrupted: bool,
    /// Load the program once, before the first repetition, and keep it for the others (their
    /// load phase is then zero cycles); otherwise every repetition loads it again.
    #[cfg_attr(feature = "serde", serde(default))]
    pub keep_loaded: bool,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

impl PubkeyBenchmark {
    /// The size in bits: the request's, or the curve's for ECDSA.
    pub fn size(&self) -> u16 {
        self.bits.unwrap_or(if self.operation.is_rsa() { 0 } else { 256 })
    }

    /// The answer a verification must give: accept a valid signature, reject a corrupted one.
    pub fn expects_accept(&self) -> Option<bool> {
        (self.operation == PubkeyOperation::EcdsaP256Verify).then_some(!self.corrupted)
    }
}

fn check_request(operation: PubkeyOperation, bits: u16, corrupted: bool) -> Result<(), String> {
    if !operation.sizes().contains(&bits) {
        let sizes: Vec<String> = operation.sizes().iter().map(|b| format!("{b}")).collect();
        return Err(format!(
            "{} takes bits {}, got {bits}",
            operation.name(),
            sizes.join(", ")
        ));
    }
    if corrupted && operation != PubkeyOperation::EcdsaP256Verify {
        return Err(format!("corrupted is for ecdsa_p256_verify, not {}", operation.name()));
    }
    Ok(())
}

impl Kind for PubkeyBenchmark {
    const NAME: &'static str = "pubkey";
    const TAG: &'static str = "pk";
    const PHASES: &'static [PhaseSpec] = &[
        PhaseSpec::once("load", PhaseCategory::Initialisation),
        PhaseSpec::once("input", PhaseCategory::Input),
        PhaseSpec::once("compute", PhaseCategory::Computation),
        PhaseSpec::once("output", PhaseCategory::Output),
        PhaseSpec::once("cleanup", PhaseCategory::Deinitialisation),
    ];

    fn repetitions(&self) -> Option<u16> {
        self.repetitions
    }

    fn describe(&self) -> Description {
        let mut config = format!("{} {}", self.operation.name(), self.size());
        if self.corrupted {
            config.push_str(" corrupted");
        }
        config.push_str(if self.keep_loaded { " keep-loaded" } else { " reload" });
        let mut fields = Vec::from([
            ("operation", Field::Text(String::from(self.operation.name()))),
            ("bits", Field::Number(u64::from(self.size()))),
            ("keep_loaded", Field::Flag(self.keep_loaded)),
        ]);
        if let Some(primitive) = self.operation.software_counterpart(self.size()) {
            fields.push(("software_counterpart", Field::Text(String::from(primitive.name()))));
        }
        if let Some(accept) = self.expects_accept() {
            fields.push((
                "expected",
                Field::Text(String::from(if accept { "accept" } else { "reject" })),
            ));
        }
        Description {
            module: Some(Module::BigNum),
            config,
            bytes: None,
            fields,
        }
    }

    fn check(&self) -> Result<(), String> {
        check_request(self.operation, self.size(), self.corrupted)
    }

    fn accepts(&self, phases: &Phases) -> bool {
        match phases {
            Phases::Pubkey(p) => p.accepted == self.expects_accept(),
            _ => false,
        }
    }

    fn encode(&self, out: &mut String) {
        wire::push(out, self.operation.letter());
        wire::push(out, &format!("{}", self.size()));
        wire::push(out, wire::pick(self.corrupted, "c", "-"));
        wire::push(out, wire::pick(self.keep_loaded, "k", "r"));
        Options {
            repetitions: self.repetitions,
            ..Options::default()
        }
        .encode(out);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let letter = t.next("public-key operation")?;
        let operation = PubkeyOperation::ALL
            .into_iter()
            .find(|o| o.letter() == letter)
            .ok_or(WireError::Malformed("public-key operation"))?;
        let bits: u16 = t.number("public-key bits")?;
        let corrupted = wire::flag(t, "signature", ("c", true), ("-", false))?;
        let keep_loaded = wire::flag(t, "program loading", ("k", true), ("r", false))?;
        check_request(operation, bits, corrupted)
            .map_err(|_| WireError::Malformed("public-key request out of range"))?;
        let repetitions = Options::decode(t, "x")?.repetitions;
        Ok(Self {
            operation,
            // ECDSA's size is the curve's; the canonical request leaves it out.
            bits: operation.is_rsa().then_some(bits),
            corrupted,
            keep_loaded,
            repetitions,
        })
    }
}

/// Phases of a public-key result.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct PubkeyPhases {
    /// The program's instruction memory and static data memory written.
    pub load: Cycles,
    /// The operands written into data memory.
    pub input: Cycles,
    /// Start to done, with the error check.
    pub compute: Cycles,
    /// The result read from data memory.
    pub output: Cycles,
    /// Operands and result wiped from data memory; for verify, the CPU's comparison first.
    pub cleanup: Cycles,
    /// Words written to instruction memory by one load.
    pub imem_words: u32,
    /// Words written to data memory by one load.
    pub dmem_words: u32,
    /// For verify, whether the signature was accepted; `None` for the other operations.
    pub accepted: Option<bool>,
}

impl Shape for PubkeyPhases {
    const TAG: &'static str = "pk";

    fn named(&self) -> Vec<NamedPhase> {
        NamedPhase::once(&[
            ("load", self.load),
            ("input", self.input),
            ("compute", self.compute),
            ("output", self.output),
            ("cleanup", self.cleanup),
        ])
    }

    fn fields(&self) -> Vec<(&'static str, Field)> {
        let mut fields = Vec::from([
            ("imem_words", Field::Number(u64::from(self.imem_words))),
            ("dmem_words", Field::Number(u64::from(self.dmem_words))),
        ]);
        if let Some(accepted) = self.accepted {
            fields.push(("accepted", Field::Flag(accepted)));
        }
        fields
    }

    fn encode(&self, out: &mut String) {
        for c in [&self.load, &self.input, &self.compute, &self.output, &self.cleanup] {
            wire::encode_cycles(out, c);
        }
        out.push(' ');
        wire::push_decimal(out, self.imem_words);
        out.push('/');
        wire::push_decimal(out, self.dmem_words);
        wire::push(
            out,
            match self.accepted {
                Some(true) => "a",
                Some(false) => "r",
                None => "-",
            },
        );
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let (load, input, compute, output, cleanup) = (t.cycles()?, t.cycles()?, t.cycles()?, t.cycles()?, t.cycles()?);
        const WORDS: &str = "words loaded";
        let (imem, dmem) = t.next(WORDS)?.split_once('/').ok_or(WireError::Malformed(WORDS))?;
        let accepted = match t.next("verification answer")? {
            "a" => Some(true),
            "r" => Some(false),
            "-" => None,
            _ => return Err(WireError::Malformed("verification answer")),
        };
        Ok(Self {
            load,
            input,
            compute,
            output,
            cleanup,
            imem_words: wire::parse_number(imem, WORDS)?,
            dmem_words: wire::parse_number(dmem, WORDS)?,
            accepted,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{decode_request, encode_request};
    use crate::{Benchmark, Request};

    fn request(operation: PubkeyOperation, bits: Option<u16>, corrupted: bool) -> PubkeyBenchmark {
        PubkeyBenchmark {
            operation,
            bits,
            corrupted,
            keep_loaded: true,
            repetitions: Some(3),
        }
    }

    fn round_trip(b: &PubkeyBenchmark) -> Result<PubkeyBenchmark, WireError> {
        let line = encode_request(7, &Request::Benchmark(Benchmark::Pubkey(b.clone())));
        match decode_request(line.as_bytes()) {
            Ok((_, Request::Benchmark(Benchmark::Pubkey(b)))) => Ok(b),
            Ok(_) => Err(WireError::Malformed("another request")),
            Err(rejected) => Err(rejected.error),
        }
    }

    #[test]
    fn requests_round_trip_and_ecdsa_leaves_its_size_out() {
        for b in [
            request(PubkeyOperation::EcdsaP256Sign, None, false),
            request(PubkeyOperation::EcdsaP256Verify, None, true),
            request(PubkeyOperation::RsaEncrypt, Some(4096), false),
            request(PubkeyOperation::RsaDecrypt, Some(2048), false),
        ] {
            assert_eq!(b.check(), Ok(()));
            assert_eq!(round_trip(&b).as_ref(), Ok(&b));
        }
        let explicit = request(PubkeyOperation::EcdsaP256Sign, Some(256), false);
        assert_eq!(round_trip(&explicit).map(|b| b.bits), Ok(None));
    }

    #[test]
    fn every_offered_operation_has_a_software_counterpart() {
        for operation in PubkeyOperation::ALL {
            for &bits in operation.sizes() {
                assert!(
                    operation.software_counterpart(bits).is_some(),
                    "{} {bits}",
                    operation.name()
                );
            }
        }
        assert_eq!(
            PubkeyOperation::RsaEncrypt
                .software_counterpart(3072)
                .map(Primitive::name),
            Some("rsa-3072-encrypt")
        );
    }

    #[test]
    fn sizes_and_corruption_outside_the_offer_are_refused() {
        for b in [
            request(PubkeyOperation::RsaEncrypt, None, false),
            request(PubkeyOperation::RsaEncrypt, Some(1000), false),
            request(PubkeyOperation::RsaDecrypt, Some(4096), false),
            request(PubkeyOperation::EcdsaP256Sign, Some(384), false),
            request(PubkeyOperation::EcdsaP256Sign, None, true),
        ] {
            assert!(b.check().is_err(), "{b:?}");
            assert!(round_trip(&b).is_err(), "{b:?}");
        }
    }

    #[test]
    fn a_verification_result_fits_only_its_expected_answer() {
        let phases = |accepted| {
            Phases::Pubkey(PubkeyPhases {
                load: Cycles::once(1),
                input: Cycles::once(2),
                compute: Cycles::once(3),
                output: Cycles::once(4),
                cleanup: Cycles::once(5),
                imem_words: 6,
                dmem_words: 7,
                accepted,
            })
        };
        let valid = request(PubkeyOperation::EcdsaP256Verify, None, false);
        let corrupted = request(PubkeyOperation::EcdsaP256Verify, None, true);
        let sign = request(PubkeyOperation::EcdsaP256Sign, None, false);
        assert!(valid.accepts(&phases(Some(true))) && !valid.accepts(&phases(Some(false))));
        assert!(corrupted.accepts(&phases(Some(false))) && !corrupted.accepts(&phases(Some(true))));
        assert!(sign.accepts(&phases(None)) && !sign.accepts(&phases(Some(true))));
    }
}
