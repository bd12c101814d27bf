//! Software primitives on the CPU (seed 2's study, plus key schedules), each in one of its
//! implementation variants: one timed call.
//!
//! Wire: `B sw PRIMITIVE VARIANT [lLENGTH] [xREPS]`; result `sw RUN STACK_BYTES ENTRY`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::kind::{Description, Field, Kind, PhaseCategory, PhaseSpec, Presentation, Shape};
use crate::wire::{self, Options, Tokens, WireError};
use crate::{Cycles, NamedPhase, Phases, MAX_LIMBS, MAX_SOFTWARE_BYTES};

/// A software primitive the suite can time (seed 2's study, plus its key schedules). Its
/// JSON name is its wire name ([`Primitive::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Primitive {
    /// Table-based AES-128 key expansion.
    #[cfg_attr(feature = "serde", serde(rename = "aes-table-ks"))]
    AesTableKeySchedule,
    /// Table-based AES-128 encryption of one 16-byte block.
    #[cfg_attr(feature = "serde", serde(rename = "aes-table"))]
    AesTableEncrypt,
    /// Bitsliced AES-128 key expansion into the bitsliced round-key format.
    #[cfg_attr(feature = "serde", serde(rename = "aes-bs-ks"))]
    AesBitslicedKeySchedule,
    /// Bitsliced AES-128-CTR (two blocks in parallel) over `length` bytes.
    #[cfg_attr(feature = "serde", serde(rename = "aes-bs-ctr"))]
    AesBitslicedCtr,
    /// ChaCha20 over `length` bytes.
    #[cfg_attr(feature = "serde", serde(rename = "chacha20"))]
    Chacha20,
    /// One Keccak-f[1600] permutation of the 200-byte state.
    #[cfg_attr(feature = "serde", serde(rename = "keccak-f1600"))]
    KeccakF1600,
    /// Addition of two `length`-limb integers in radix 2^32 with explicit carries.
    #[cfg_attr(feature = "serde", serde(rename = "mp-add"))]
    MpAddFull,
    /// Limb-wise addition of two `length`-limb integers in a reduced radix (no carries).
    #[cfg_attr(feature = "serde", serde(rename = "mp-add-reduced"))]
    MpAddReduced,
    /// Schoolbook multiplication of two `length`-limb integers, radix 2^32.
    #[cfg_attr(feature = "serde", serde(rename = "mp-mul"))]
    MpMulSchoolbook,
    /// Schoolbook multiplication in a reduced radix.
    #[cfg_attr(feature = "serde", serde(rename = "mp-mul-reduced"))]
    MpMulSchoolbookReduced,
    /// One level of subtractive Karatsuba, radix 2^32 (`length` even).
    #[cfg_attr(feature = "serde", serde(rename = "mp-karatsuba"))]
    MpMulKaratsuba,
    /// One level of subtractive Karatsuba in a reduced radix (`length` even).
    #[cfg_attr(feature = "serde", serde(rename = "mp-karatsuba-reduced"))]
    MpMulKaratsubaReduced,
}

impl Primitive {
    /// The operation a primitive computes, shared by its variants of representation and
    /// algorithm (reports chart a family together); `None` for a primitive of its own.
    pub fn family(self) -> Option<&'static str> {
        match self {
            Self::MpAddFull | Self::MpAddReduced => Some("addition"),
            Self::MpMulSchoolbook
            | Self::MpMulSchoolbookReduced
            | Self::MpMulKaratsuba
            | Self::MpMulKaratsubaReduced => Some("multiplication"),
            Self::AesTableKeySchedule
            | Self::AesTableEncrypt
            | Self::AesBitslicedKeySchedule
            | Self::AesBitslicedCtr
            | Self::Chacha20
            | Self::KeccakF1600 => None,
        }
    }
}

/// What a software benchmark's `length` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LengthUnit {
    /// The primitive works on a fixed size; no length is given.
    Fixed,
    /// Bytes of input, 1 to [`crate::MAX_SOFTWARE_BYTES`].
    Bytes,
    /// 32-bit limbs per operand, 2 to [`crate::MAX_LIMBS`].
    Limbs,
}

impl Primitive {
    /// Every primitive, in report order.
    pub const ALL: [Primitive; 12] = [
        Self::AesTableKeySchedule,
        Self::AesTableEncrypt,
        Self::AesBitslicedKeySchedule,
        Self::AesBitslicedCtr,
        Self::Chacha20,
        Self::KeccakF1600,
        Self::MpAddFull,
        Self::MpAddReduced,
        Self::MpMulSchoolbook,
        Self::MpMulSchoolbookReduced,
        Self::MpMulKaratsuba,
        Self::MpMulKaratsubaReduced,
    ];

    /// Stable name, as on the wire and in results files.
    pub fn name(self) -> &'static str {
        match self {
            Self::AesTableKeySchedule => "aes-table-ks",
            Self::AesTableEncrypt => "aes-table",
            Self::AesBitslicedKeySchedule => "aes-bs-ks",
            Self::AesBitslicedCtr => "aes-bs-ctr",
            Self::Chacha20 => "chacha20",
            Self::KeccakF1600 => "keccak-f1600",
            Self::MpAddFull => "mp-add",
            Self::MpAddReduced => "mp-add-reduced",
            Self::MpMulSchoolbook => "mp-mul",
            Self::MpMulSchoolbookReduced => "mp-mul-reduced",
            Self::MpMulKaratsuba => "mp-karatsuba",
            Self::MpMulKaratsubaReduced => "mp-karatsuba-reduced",
        }
    }

    /// The primitive called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// What `length` counts for this primitive.
    pub fn length_unit(self) -> LengthUnit {
        match self {
            Self::AesBitslicedCtr | Self::Chacha20 => LengthUnit::Bytes,
            Self::MpAddFull
            | Self::MpAddReduced
            | Self::MpMulSchoolbook
            | Self::MpMulSchoolbookReduced
            | Self::MpMulKaratsuba
            | Self::MpMulKaratsubaReduced => LengthUnit::Limbs,
            Self::AesTableKeySchedule | Self::AesTableEncrypt | Self::AesBitslicedKeySchedule | Self::KeccakF1600 => {
                LengthUnit::Fixed
            }
        }
    }

    /// Whether `length` is acceptable for this primitive (`None` for fixed-size ones).
    pub fn accepts(self, length: Option<u32>) -> bool {
        match (self.length_unit(), length) {
            (LengthUnit::Fixed, None) => true,
            (LengthUnit::Bytes, Some(n)) => (1..=MAX_SOFTWARE_BYTES).contains(&n),
            (LengthUnit::Limbs, Some(n)) => (2..=MAX_LIMBS).contains(&n) && (!self.even_limbs() || n % 2 == 0),
            _ => false,
        }
    }

    /// Whether the limb count must be even (one level of Karatsuba splits operands in halves).
    pub fn even_limbs(self) -> bool {
        matches!(self, Self::MpMulKaratsuba | Self::MpMulKaratsubaReduced)
    }

    /// Bytes of data one run processes, where cycles per byte mean something (the seed's
    /// Table 1 divides by 16 for a table-AES block and by 200 for Keccak-f's state).
    pub fn bytes_processed(self, length: Option<u32>) -> Option<u32> {
        match self {
            Self::AesTableEncrypt => Some(16),
            Self::KeccakF1600 => Some(200),
            Self::AesBitslicedCtr | Self::Chacha20 => length,
            _ => None,
        }
    }
}

/// Implementation variant of a software primitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SoftwareVariant {
    /// Portable Rust, compiled for the platform's ISA.
    Rust,
    /// Hand-written RV32I(M) assembly.
    Rv32i,
    /// Hand-written assembly using the Zbb bit-manipulation extension.
    Zbb,
}

impl SoftwareVariant {
    /// Every variant.
    pub const ALL: [SoftwareVariant; 3] = [Self::Rust, Self::Rv32i, Self::Zbb];

    /// Stable name, as on the wire and in results files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rust => "rust",
            Self::Rv32i => "rv32i",
            Self::Zbb => "zbb",
        }
    }

    /// The variant called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == name)
    }
}

/// Software primitive benchmark request.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct SoftwareBenchmark {
    /// What to run.
    pub primitive: Primitive,
    /// Which implementation of it.
    pub variant: SoftwareVariant,
    /// Bytes or limbs (see [`Primitive::length_unit`]); absent for fixed-size primitives.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub length: Option<u32>,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

impl Kind for SoftwareBenchmark {
    const NAME: &'static str = "software";
    const TAG: &'static str = "sw";
    const PHASES: &'static [PhaseSpec] = &[PhaseSpec::once("run", PhaseCategory::Other)];
    // A stacked bar of one phase would only show one block of "other".
    const PRESENTATION: Presentation = Presentation {
        not_stacked: Some("each primitive is a single phase (run), charted under Software primitives"),
        ..Presentation::PHASES
    };

    fn repetitions(&self) -> Option<u16> {
        self.repetitions
    }

    fn describe(&self) -> Description {
        let mut config = format!("{} {}", self.primitive.name(), self.variant.name());
        let mut fields = Vec::from([
            ("primitive", Field::Text(String::from(self.primitive.name()))),
            ("variant", Field::Text(String::from(self.variant.name()))),
        ]);
        if let Some(family) = self.primitive.family() {
            fields.push(("family", Field::Text(String::from(family))));
        }
        match (self.primitive.length_unit(), self.length) {
            (LengthUnit::Bytes, Some(n)) => config.push_str(&format!(" {n} B")),
            (LengthUnit::Limbs, Some(n)) => {
                fields.push(("limbs", Field::Number(u64::from(n))));
                config.push_str(&format!(" {n} limbs"));
            }
            _ => {}
        }
        Description {
            module: None,
            config,
            bytes: self.primitive.bytes_processed(self.length).map(u64::from),
            fields,
        }
    }

    fn check(&self) -> Result<(), String> {
        if self.primitive.accepts(self.length) {
            return Ok(());
        }
        let name = self.primitive.name();
        Err(match self.primitive.length_unit() {
            LengthUnit::Fixed => format!("{name} works on a fixed size: remove \"length\""),
            LengthUnit::Bytes => format!("{name} needs \"length\": 1 to {MAX_SOFTWARE_BYTES} bytes"),
            LengthUnit::Limbs if self.primitive.even_limbs() => {
                format!("{name} needs \"length\": an even number of limbs, 2 to {MAX_LIMBS}")
            }
            LengthUnit::Limbs => format!("{name} needs \"length\": 2 to {MAX_LIMBS} limbs"),
        })
    }

    fn accepts(&self, phases: &Phases) -> bool {
        matches!(phases, Phases::Software(_))
    }

    fn encode(&self, out: &mut String) {
        wire::push(out, self.primitive.name());
        wire::push(out, self.variant.name());
        Options {
            length: self.length,
            repetitions: self.repetitions,
            ..Options::default()
        }
        .encode(out);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let primitive = Primitive::from_name(t.next("primitive")?).ok_or(WireError::Malformed("unknown primitive"))?;
        let variant = SoftwareVariant::from_name(t.next("variant")?).ok_or(WireError::Malformed("unknown variant"))?;
        let o = Options::decode(t, "lx")?;
        if !primitive.accepts(o.length) {
            return Err(WireError::Malformed(
                "length missing, not allowed or out of range for this primitive",
            ));
        }
        Ok(Self {
            primitive,
            variant,
            length: o.length,
            repetitions: o.repetitions,
        })
    }
}

/// Phases of a software primitive: one window around one call.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct SoftwarePhases {
    /// The call.
    pub run: Cycles,
    /// Deepest stack use of the call, in bytes (measured by painting the stack).
    pub stack_bytes: u32,
    /// Address of the function called, so the host can look up its code size in the ELF.
    pub entry: u32,
}

impl Shape for SoftwarePhases {
    const TAG: &'static str = "sw";

    fn named(&self) -> Vec<NamedPhase> {
        NamedPhase::once(&[("run", self.run)])
    }

    fn fields(&self) -> Vec<(&'static str, Field)> {
        Vec::from([
            ("stack_bytes", Field::Number(u64::from(self.stack_bytes))),
            ("entry", Field::Number(u64::from(self.entry))),
        ])
    }

    fn encode(&self, out: &mut String) {
        wire::encode_cycles(out, &self.run);
        wire::push_number(out, self.stack_bytes);
        wire::push_number(out, self.entry);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        Ok(Self {
            run: t.cycles()?,
            stack_bytes: t.number("stack bytes")?,
            entry: t.number("entry address")?,
        })
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    extern crate std;
    use super::*;

    #[test]
    fn json_names_are_wire_names() {
        for p in Primitive::ALL {
            assert_eq!(serde_json::to_value(p).unwrap(), p.name(), "{p:?}");
        }
        for v in SoftwareVariant::ALL {
            assert_eq!(serde_json::to_value(v).unwrap(), v.name(), "{v:?}");
        }
    }
}
