//! Software primitives on the CPU (the RV32I study (Stoffelen 2019), plus key schedules), each in
//! one of its implementation variants: one timed call.
//!
//! Wire: `B sw PRIMITIVE VARIANT [lLENGTH] [xREPS]`; result `sw RUN STACK_BYTES ENTRY`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::kind::{Description, Field, Kind, PhaseCategory, PhaseSpec, Presentation, Shape};
use crate::wire::{self, Options, Tokens, WireError};
use crate::Secret;
use crate::{Cycles, NamedPhase, Phases, MAX_LIMBS, MAX_SOFTWARE_BYTES};

/// Bytes of data one run of a primitive processes, where cycles per byte mean something.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PerRun {
    /// None: cycles per byte of a key schedule or an integer operation mean nothing.
    Nothing,
    /// A fixed size (the seed's Table 1 divides by 16 for a table-AES block and by 200 for
    /// Keccak-f's state).
    Fixed(u32),
    /// The request's `length`, in bytes.
    Length,
}

/// What a primitive's `length` counts, with the parity rule of Karatsuba's halves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Size {
    Fixed,
    Bytes,
    Limbs,
    /// An even number of limbs: one level of Karatsuba splits operands in halves.
    EvenLimbs,
}

/// The primitive table: one line per primitive, from which the enum, its names (wire and
/// JSON alike), its length rule, its bytes per run, the secrets a leakage test may pick and
/// its report family are generated.
macro_rules! primitives {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $name:literal, $size:ident, $per_run:expr, [$($secret:ident),+], $family:expr;
    )*) => {
        /// A software primitive the suite can time (the RV32I study (Stoffelen 2019), plus its key
        /// schedules). Its JSON name is its wire name ([`Primitive::name`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub enum Primitive {
            $(
                $(#[$doc])*
                #[cfg_attr(feature = "serde", serde(rename = $name))]
                $variant,
            )*
        }

        impl Primitive {
            /// Every primitive, in report order.
            pub const ALL: [Primitive; [$(stringify!($variant)),*].len()] = [$(Self::$variant),*];

            /// Stable name, as on the wire and in results files.
            pub fn name(self) -> &'static str {
                match self { $(Self::$variant => $name,)* }
            }

            fn size(self) -> Size {
                match self { $(Self::$variant => Size::$size,)* }
            }

            fn per_run(self) -> PerRun {
                use PerRun::*;
                match self { $(Self::$variant => $per_run,)* }
            }

            /// The inputs a leakage test can make secret: the key of a cipher, the data of
            /// anything that has data (plaintext, state, operands).
            pub fn secrets(self) -> &'static [Secret] {
                match self { $(Self::$variant => &[$(Secret::$secret),+],)* }
            }

            /// The family a report groups the primitive in (`addition`, `multiplication`), if
            /// any.
            pub fn family(self) -> Option<&'static str> {
                match self { $(Self::$variant => $family,)* }
            }
        }
    };
}

primitives! {
    /// Table-based AES-128 key expansion.
    AesTableKeySchedule = "aes-table-ks", Fixed, Nothing, [Key], None;
    /// Table-based AES-128 encryption of one 16-byte block.
    AesTableEncrypt = "aes-table", Fixed, Fixed(16), [Key, Data], None;
    /// Table-based AES-256 key expansion (60 round-key words).
    AesTable256KeySchedule = "aes256-table-ks", Fixed, Nothing, [Key], None;
    /// Table-based AES-256 encryption of one 16-byte block (14 rounds).
    AesTable256Encrypt = "aes256-table", Fixed, Fixed(16), [Key, Data], None;
    /// Bitsliced AES-128 key expansion into the bitsliced round-key format.
    AesBitslicedKeySchedule = "aes-bs-ks", Fixed, Nothing, [Key], None;
    /// Bitsliced AES-128-CTR (two blocks in parallel) over `length` bytes.
    AesBitslicedCtr = "aes-bs-ctr", Bytes, Length, [Key, Data], None;
    /// ChaCha20 over `length` bytes.
    Chacha20 = "chacha20", Bytes, Length, [Key, Data], None;
    /// One Keccak-f[1600] permutation of the 200-byte state.
    KeccakF1600 = "keccak-f1600", Fixed, Fixed(200), [Data], None;
    /// Addition of two `length`-limb integers in radix 2^32 with explicit carries.
    MpAddFull = "mp-add", Limbs, Nothing, [Data], Some("addition");
    /// Limb-wise addition of two `length`-limb integers in a reduced radix (no carries).
    MpAddReduced = "mp-add-reduced", Limbs, Nothing, [Data], Some("addition");
    /// Schoolbook multiplication of two `length`-limb integers, radix 2^32.
    MpMulSchoolbook = "mp-mul", Limbs, Nothing, [Data], Some("multiplication");
    /// Schoolbook multiplication in a reduced radix.
    MpMulSchoolbookReduced = "mp-mul-reduced", Limbs, Nothing, [Data], Some("multiplication");
    /// One level of subtractive Karatsuba, radix 2^32 (`length` even).
    MpMulKaratsuba = "mp-karatsuba", EvenLimbs, Nothing, [Data], Some("multiplication");
    /// One level of subtractive Karatsuba in a reduced radix (`length` even).
    MpMulKaratsubaReduced = "mp-karatsuba-reduced", EvenLimbs, Nothing, [Data], Some("multiplication");
    /// ECDSA P-256 verification of one signature (RustCrypto `p256`, portable Rust only).
    EcdsaP256Verify = "ecdsa-p256-verify", Fixed, Nothing, [Data], None;
    /// ECDSA P-256 signature of one digest with a given nonce (RustCrypto `p256`).
    EcdsaP256Sign = "ecdsa-p256-sign", Fixed, Nothing, [Data], None;
    /// RSA-1024 encryption, e = 65537 (the suite's own Montgomery exponentiation).
    Rsa1024Encrypt = "rsa-1024-encrypt", Fixed, Nothing, [Data], None;
    /// RSA-2048 encryption, e = 65537.
    Rsa2048Encrypt = "rsa-2048-encrypt", Fixed, Nothing, [Data], None;
    /// RSA-3072 encryption, e = 65537.
    Rsa3072Encrypt = "rsa-3072-encrypt", Fixed, Nothing, [Data], None;
    /// RSA-4096 encryption, e = 65537.
    Rsa4096Encrypt = "rsa-4096-encrypt", Fixed, Nothing, [Data], None;
    /// RSA-1024 decryption with the full private exponent (no CRT).
    Rsa1024Decrypt = "rsa-1024-decrypt", Fixed, Nothing, [Data], None;
    /// RSA-2048 decryption with the full private exponent (no CRT).
    Rsa2048Decrypt = "rsa-2048-decrypt", Fixed, Nothing, [Data], None;
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
    /// The primitive called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// What `length` counts for this primitive.
    pub fn length_unit(self) -> LengthUnit {
        match self.size() {
            Size::Fixed => LengthUnit::Fixed,
            Size::Bytes => LengthUnit::Bytes,
            Size::Limbs | Size::EvenLimbs => LengthUnit::Limbs,
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

    /// Whether it is a public-key operation (ECDSA, RSA): code an image may leave out.
    pub fn public_key(self) -> bool {
        matches!(
            self,
            Self::EcdsaP256Verify
                | Self::EcdsaP256Sign
                | Self::Rsa1024Encrypt
                | Self::Rsa2048Encrypt
                | Self::Rsa3072Encrypt
                | Self::Rsa4096Encrypt
                | Self::Rsa1024Decrypt
                | Self::Rsa2048Decrypt
        )
    }

    /// Whether the limb count must be even (one level of Karatsuba splits operands in halves).
    pub fn even_limbs(self) -> bool {
        self.size() == Size::EvenLimbs
    }

    /// Bytes of data one run processes, where cycles per byte mean something.
    pub fn bytes_processed(self, length: Option<u32>) -> Option<u32> {
        match self.per_run() {
            PerRun::Nothing => None,
            PerRun::Fixed(n) => Some(n),
            PerRun::Length => length,
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

    #[test]
    fn the_table_gives_families_lengths_and_secrets() {
        let family = |name| Primitive::from_name(name).unwrap().family();
        assert_eq!(family("mp-add"), Some("addition"));
        assert_eq!(family("mp-add-reduced"), Some("addition"));
        for name in ["mp-mul", "mp-mul-reduced", "mp-karatsuba", "mp-karatsuba-reduced"] {
            assert_eq!(family(name), Some("multiplication"), "{name}");
        }
        assert_eq!(family("chacha20"), None);
        assert!(Primitive::MpMulKaratsuba.accepts(Some(8)) && !Primitive::MpMulKaratsuba.accepts(Some(7)));
        assert!(Primitive::MpMulSchoolbook.accepts(Some(7)));
        assert_eq!(Primitive::Chacha20.bytes_processed(Some(64)), Some(64));
        assert_eq!(Primitive::KeccakF1600.bytes_processed(None), Some(200));
        assert_eq!(Primitive::AesTableKeySchedule.bytes_processed(None), None);
        assert_eq!(Primitive::AesTableKeySchedule.secrets(), &[Secret::Key]);
        assert_eq!(Primitive::AesBitslicedCtr.secrets(), &[Secret::Key, Secret::Data]);
        assert_eq!(Primitive::KeccakF1600.secrets(), &[Secret::Data]);
    }
}
