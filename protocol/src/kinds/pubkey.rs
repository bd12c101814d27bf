//! Public-key operations on a big-number accelerator (OTBN): ECDSA P-256 sign and verify, RSA
//! encrypt (e = 65537) and decrypt, each split into the thesis's phases — program load
//! (instruction memory and static data), input (operands), compute (start to done), output
//! (result read) and clean-up (operands and result wiped from the accelerator; for verify the
//! CPU's final comparison). A request keeps the program loaded across repetitions or reloads
//! it for each, so the cost of reprogramming is measured.
//!
//! An ECDSA request may carry a vector of the user's own instead of the suite's (RFC 6979
//! A.2.5): for verify the digest, public key, signature and the answer expected, for sign the
//! digest, private key and nonce, whose signature the host works out with RustCrypto `p256`.
//! RSA takes none: a modulus and input alone are longer than a wire line.
//!
//! Wire: `B pk s|v|e|d BITS -|c|u k|r [VECTOR] [xREPS]` (operation, modulus or curve bits,
//! signature valid, corrupted or the user's, program kept loaded or reloaded; the user's
//! vector is `DIGEST XY RS a|r -|k|r|s|z` for verify, with the answer expected and why the
//! suite cannot judge it, and `DIGEST D K RS` for sign, all big-endian hex); result
//! `pk LOAD INPUT COMPUTE OUTPUT CLEANUP IMEM/DMEM ACCEPTED` (words loaded per load; for
//! verify `a` accepted or `r` rejected, else `-`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::kind::{Description, Field, Kind, PhaseCategory, PhaseSpec, Shape};
use crate::message::{from_hex, to_hex};
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
    /// A vector of the user's own (ECDSA only): the SHA-256 digest signed or verified, as the
    /// 256-bit integer z (64 hex digits).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub digest_hex: Option<String>,
    /// Verify with the user's vector: the public key, x then y (128 hex digits).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub public_key_hex: Option<String>,
    /// The signature, r then s (128 hex digits). Verify: the user's. Sign: worked out on the
    /// host (`Kind::complete`); a value given must agree with it.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub signature_hex: Option<String>,
    /// Sign with the user's vector: the private key d (64 hex digits).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub private_key_hex: Option<String>,
    /// Sign with the user's vector: the nonce k (64 hex digits).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub nonce_hex: Option<String>,
    /// Verify with the user's vector: the answer the user expects (NIST's P or F); the host
    /// refuses the request when the standard's answer differs.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub expected: Option<Verdict>,
    /// Verify with the user's vector: why the suite cannot judge the accelerator's answer,
    /// worked out on the host (`Kind::complete`, which replaces any value given).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub unverifiable: Option<OutsideProgram>,
}

/// The answer of a signature verification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Verdict {
    /// The signature is valid.
    Accept,
    /// The signature is not valid.
    Reject,
}

impl Verdict {
    /// Stable name, as in `.bench` files and results.
    pub fn name(self) -> &'static str {
        match self {
            Self::Accept => "accept",
            Self::Reject => "reject",
        }
    }

    fn from_accept(accept: bool) -> Self {
        if accept {
            Self::Accept
        } else {
            Self::Reject
        }
    }
}

/// Why the suite cannot judge the accelerator's answer to a verification vector: an input
/// outside what the snapshot's verification program implements, for which its answer need
/// not be the standard's rejection. The first that applies, in declaration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum OutsideProgram {
    /// The public key is not a point of the curve.
    PublicKey,
    /// r is 0 or not below the group order n.
    R,
    /// s is 0 or not below the group order n.
    S,
    /// The digest, as an integer, is not below the group order n.
    Digest,
}

impl OutsideProgram {
    const ALL: [Self; 4] = [Self::PublicKey, Self::R, Self::S, Self::Digest];

    fn letter(self) -> &'static str {
        match self {
            Self::PublicKey => "k",
            Self::R => "r",
            Self::S => "s",
            Self::Digest => "z",
        }
    }

    /// Why the answer cannot be judged, for results files.
    pub fn reason(self) -> &'static str {
        match self {
            Self::PublicKey => {
                "the public key is not a point of P-256 and the 2021 verification program does not \
                 check the key: it computes with the point as given"
            }
            Self::R => {
                "r is not in [1, n-1] and the 2021 verification program does not check it (its range \
                 check tests another register): it computes with r as given"
            }
            Self::S => {
                "s is not in [1, n-1]: the 2021 verification program stops early and leaves its own \
                 value for x1, which the CPU compares with r"
            }
            Self::Digest => {
                "the digest is not below the group order n and the 2021 verification program \
                 multiplies it unreduced"
            }
        }
    }
}

/// The order n of the P-256 group, big-endian.
pub const P256_ORDER: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xbc, 0xe6, 0xfa,
    0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
];

/// Whether the big-endian `v` is in [1, n-1].
pub fn p256_scalar_in_range(v: &[u8; 32]) -> bool {
    v.iter().any(|&b| b != 0) && v < &P256_ORDER
}

/// A 256-bit operand, big-endian.
pub type Operand = [u8; 32];

/// An ECDSA P-256 vector of the user's own, read from a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum P256Vector {
    /// Verify `signature` (r, s) of `digest` with the public key (x, y).
    Verify {
        /// The digest z.
        digest: Operand,
        /// The public key, x then y.
        public_key: [Operand; 2],
        /// r then s.
        signature: [Operand; 2],
    },
    /// Sign `digest` with the private key d and the nonce k.
    Sign {
        /// The digest z.
        digest: Operand,
        /// The private key d.
        private_key: Operand,
        /// The nonce k.
        nonce: Operand,
        /// r then s, when known (the host works it out).
        signature: Option<[Operand; 2]>,
    },
}

/// The `N` 32-byte operands `hex` holds (`name` in messages).
fn operands<const N: usize>(name: &str, hex: &str) -> Result<[Operand; N], String> {
    let bytes = from_hex(hex).map_err(|e| format!("{name}: {e}"))?;
    if bytes.len() != 32 * N {
        return Err(format!(
            "{name} holds {} bytes, not {} ({} hex digits)",
            bytes.len(),
            32 * N,
            64 * N
        ));
    }
    let mut out = [[0u8; 32]; N];
    for (o, chunk) in out.iter_mut().zip(bytes.chunks(32)) {
        o.copy_from_slice(chunk);
    }
    Ok(out)
}

impl PubkeyBenchmark {
    /// The size in bits: the request's, or the curve's for ECDSA.
    pub fn size(&self) -> u16 {
        self.bits.unwrap_or(if self.operation.is_rsa() { 0 } else { 256 })
    }

    /// The answer a verification must give: accept a valid signature, reject a corrupted one,
    /// or the one the user expects of a vector of their own.
    pub fn expects_accept(&self) -> Option<bool> {
        if self.operation != PubkeyOperation::EcdsaP256Verify {
            return None;
        }
        Some(match self.expected {
            Some(verdict) => verdict == Verdict::Accept,
            None => !self.corrupted,
        })
    }

    /// Whether the request carries a vector of the user's own.
    pub fn has_vector(&self) -> bool {
        [
            &self.digest_hex,
            &self.public_key_hex,
            &self.signature_hex,
            &self.private_key_hex,
            &self.nonce_hex,
        ]
        .iter()
        .any(|f| f.is_some())
            || self.expected.is_some()
            || self.unverifiable.is_some()
    }

    /// The user's vector, if the request carries one; says what is wrong with it.
    pub fn vector(&self) -> Result<Option<P256Vector>, String> {
        if !self.has_vector() {
            return Ok(None);
        }
        let name = self.operation.name();
        if self.operation.is_rsa() {
            return Err(format!(
                "{name} takes no vector of its own: an RSA-1024 modulus and input alone are 512 hex \
                 digits, more than one wire line ({} characters) holds",
                crate::MAX_LINE_LEN
            ));
        }
        if self.corrupted {
            return Err(String::from(
                "corrupted flips a bit of the suite's signature; a vector of your own says its answer in \
                 \"expected\"",
            ));
        }
        let digest_hex = self
            .digest_hex
            .as_deref()
            .ok_or_else(|| format!("a vector of your own for {name} needs digest_hex"))?;
        let [digest] = operands("digest_hex", digest_hex)?;
        let refuse = |field: &str, present: bool| {
            if present {
                Err(format!("{field} is not part of an {name} vector"))
            } else {
                Ok(())
            }
        };
        let need = |field: &'static str, value: &Option<String>| {
            value
                .as_deref()
                .map(String::from)
                .ok_or_else(|| format!("a vector of your own for {name} needs {field}"))
        };
        if self.operation == PubkeyOperation::EcdsaP256Verify {
            refuse("private_key_hex", self.private_key_hex.is_some())?;
            refuse("nonce_hex", self.nonce_hex.is_some())?;
            let public_key = operands("public_key_hex", &need("public_key_hex", &self.public_key_hex)?)?;
            let signature = operands("signature_hex", &need("signature_hex", &self.signature_hex)?)?;
            if self.expected.is_none() {
                return Err(String::from(
                    "a verification vector needs \"expected\": \"accept\" or \"reject\" (NIST's P or F)",
                ));
            }
            return Ok(Some(P256Vector::Verify {
                digest,
                public_key,
                signature,
            }));
        }
        refuse("public_key_hex", self.public_key_hex.is_some())?;
        refuse("expected", self.expected.is_some())?;
        refuse("unverifiable", self.unverifiable.is_some())?;
        let [private_key] = operands("private_key_hex", &need("private_key_hex", &self.private_key_hex)?)?;
        let [nonce] = operands("nonce_hex", &need("nonce_hex", &self.nonce_hex)?)?;
        for (field, value) in [("private_key_hex", &private_key), ("nonce_hex", &nonce)] {
            if !p256_scalar_in_range(value) {
                return Err(format!("{field} must be in [1, n-1], n the order of the P-256 group"));
            }
        }
        let signature = match &self.signature_hex {
            Some(hex) => Some(operands("signature_hex", hex)?),
            None => None,
        };
        Ok(Some(P256Vector::Sign {
            digest,
            private_key,
            nonce,
            signature,
        }))
    }

    /// Works out the known answer of the user's vector with RustCrypto `p256`: for sign the
    /// signature, for verify the standard's answer (refusing a vector whose expected answer
    /// differs) and whether the accelerator's answer can be judged.
    #[cfg(feature = "std")]
    fn work_out(&mut self) -> Result<(), String> {
        use p256::ecdsa::signature::hazmat::PrehashVerifier;
        use p256::ecdsa::{Signature, VerifyingKey};
        use p256::elliptic_curve::sec1::EncodedPoint;
        use p256::elliptic_curve::PrimeField;
        use p256::{FieldBytes, Scalar};

        match self.vector()? {
            None => Ok(()),
            Some(P256Vector::Sign {
                digest,
                private_key,
                nonce,
                signature,
            }) => {
                let scalar = |bytes: Operand| Option::<Scalar>::from(Scalar::from_repr(FieldBytes::from(bytes)));
                let (Some(d), Some(k)) = (scalar(private_key), scalar(nonce)) else {
                    return Err(String::from("private_key_hex and nonce_hex must be below n"));
                };
                let (made, _) =
                    ecdsa::hazmat::sign_prehashed::<p256::NistP256, Scalar>(&d, k, &FieldBytes::from(digest))
                        .map_err(|_| String::from("this nonce gives r = 0 or s = 0: no signature exists"))?;
                let (r, s) = made.split_bytes();
                let made = [<Operand>::from(r), <Operand>::from(s)];
                if let Some(given) = signature {
                    if given != made {
                        return Err(format!(
                            "signature_hex disagrees with RustCrypto p256, which signs this digest with this key \
                             and nonce as {}: a bad vector, not a measurement",
                            to_hex(&made.concat())
                        ));
                    }
                }
                self.signature_hex = Some(to_hex(&made.concat()));
                Ok(())
            }
            Some(P256Vector::Verify {
                digest,
                public_key: [x, y],
                signature: [r, s],
            }) => {
                let point = EncodedPoint::<p256::NistP256>::from_affine_coordinates(&x.into(), &y.into(), false);
                let key = VerifyingKey::from_encoded_point(&point).ok();
                let signature = Signature::from_scalars(r, s).ok();
                let accepts = match (&key, &signature) {
                    (Some(key), Some(signature)) => key.verify_prehash(&digest, signature).is_ok(),
                    _ => false,
                };
                let standard = Verdict::from_accept(accepts);
                if self.expected != Some(standard) {
                    let why = match (&key, &signature) {
                        (None, _) => " (the public key is not a point of the curve)",
                        (_, None) => " (r or s is not in [1, n-1])",
                        _ => "",
                    };
                    return Err(format!(
                        "expected is {:?} but RustCrypto p256 answers {:?} for this vector{why}: a bad \
                         vector, not a measurement",
                        self.expected.map_or("none", Verdict::name),
                        standard.name()
                    ));
                }
                // The program turns the point it computed into affine coordinates by inverting its
                // z, which loops for ever when z is zero: refuse rather than hang the accelerator.
                if let (Some(key), true) = (&key, p256_scalar_in_range(&s)) {
                    use p256::elliptic_curve::group::Group;
                    use p256::elliptic_curve::ops::Reduce;
                    use p256::{ProjectivePoint, U256};
                    let reduce = |bytes: Operand| <Scalar as Reduce<U256>>::reduce_bytes(&FieldBytes::from(bytes));
                    if let Some(w) = Option::<Scalar>::from(reduce(s).invert()) {
                        let q = ProjectivePoint::from(*key.as_affine());
                        let point = ProjectivePoint::GENERATOR * (reduce(digest) * w) + q * (reduce(r) * w);
                        if bool::from(point.is_identity()) {
                            return Err(String::from(
                                "u1·G + u2·Q is the point at infinity for this vector, and the 2021 verification \
                                 program inverts its z coordinate, 0, in a loop that never ends: OTBN would not \
                                 finish (the standard rejects it)",
                            ));
                        }
                    }
                }
                let outside = [
                    key.is_none(),
                    !p256_scalar_in_range(&r),
                    !p256_scalar_in_range(&s),
                    digest >= P256_ORDER,
                ];
                self.unverifiable = OutsideProgram::ALL
                    .into_iter()
                    .zip(outside)
                    .find_map(|(o, out)| out.then_some(o));
                Ok(())
            }
        }
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

    fn accelerator(&self) -> Option<Module> {
        Some(Module::BigNum)
    }

    fn describe(&self) -> Description {
        let mut config = format!("{} {}", self.operation.name(), self.size());
        if self.corrupted {
            config.push_str(" corrupted");
        }
        if self.has_vector() {
            config.push_str(" given");
        }
        config.push_str(if self.keep_loaded { " keep-loaded" } else { " reload" });
        let mut fields = Vec::from([
            ("operation", Field::Text(String::from(self.operation.name()))),
            ("bits", Field::Number(u64::from(self.size()))),
            ("keep_loaded", Field::Flag(self.keep_loaded)),
        ]);
        // The software counterpart runs the suite's own vector: a speed-up is only stated for
        // the same inputs on both sides.
        if let Some(primitive) = self
            .operation
            .software_counterpart(self.size())
            .filter(|_| !self.has_vector())
        {
            fields.push(("software_counterpart", Field::Text(String::from(primitive.name()))));
        }
        if let Some(accept) = self.expects_accept() {
            fields.push((
                "expected",
                Field::Text(String::from(Verdict::from_accept(accept).name())),
            ));
        }
        if let Some(outside) = self.unverifiable {
            fields.push(("unverifiable_reason", Field::Text(String::from(outside.reason()))));
        }
        Description {
            module: Some(Module::BigNum),
            config,
            bytes: None,
            fields,
        }
    }

    fn check(&self) -> Result<(), String> {
        check_request(self.operation, self.size(), self.corrupted)?;
        self.vector().map(|_| ())
    }

    #[cfg(feature = "std")]
    fn complete(&mut self) -> Result<(), String> {
        self.work_out()
    }

    fn accepts(&self, phases: &Phases) -> bool {
        match phases {
            // The suite reports the answer to a vector it cannot judge unchecked.
            Phases::Pubkey(p) if self.unverifiable.is_some() => p.accepted.is_some(),
            Phases::Pubkey(p) => p.accepted == self.expects_accept(),
            _ => false,
        }
    }

    fn encode(&self, out: &mut String) {
        wire::push(out, self.operation.letter());
        wire::push(out, &format!("{}", self.size()));
        let vector = self.vector().ok().flatten();
        wire::push(
            out,
            match (&vector, self.corrupted) {
                (Some(_), _) => "u",
                (None, true) => "c",
                (None, false) => "-",
            },
        );
        wire::push(out, wire::pick(self.keep_loaded, "k", "r"));
        match vector {
            Some(P256Vector::Verify {
                digest,
                public_key,
                signature,
            }) => {
                wire::push(out, &to_hex(&digest));
                wire::push(out, &to_hex(&public_key.concat()));
                wire::push(out, &to_hex(&signature.concat()));
                wire::push(out, wire::pick(self.expects_accept() == Some(true), "a", "r"));
                wire::push(out, self.unverifiable.map_or("-", OutsideProgram::letter));
            }
            Some(P256Vector::Sign {
                digest,
                private_key,
                nonce,
                signature,
            }) => {
                wire::push(out, &to_hex(&digest));
                wire::push(out, &to_hex(&private_key));
                wire::push(out, &to_hex(&nonce));
                wire::push(
                    out,
                    &signature.map_or_else(|| String::from("-"), |s| to_hex(&s.concat())),
                );
            }
            None => {}
        }
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
        let (corrupted, given) = match t.next("signature")? {
            "-" => (false, false),
            "c" => (true, false),
            "u" => (false, true),
            _ => return Err(WireError::Malformed("signature")),
        };
        let keep_loaded = wire::flag(t, "program loading", ("k", true), ("r", false))?;
        check_request(operation, bits, corrupted)
            .map_err(|_| WireError::Malformed("public-key request out of range"))?;
        let mut request = Self {
            operation,
            // ECDSA's size is the curve's; the canonical request leaves it out.
            bits: operation.is_rsa().then_some(bits),
            corrupted,
            keep_loaded,
            repetitions: None,
            digest_hex: None,
            public_key_hex: None,
            signature_hex: None,
            private_key_hex: None,
            nonce_hex: None,
            expected: None,
            unverifiable: None,
        };
        if given {
            decode_vector(t, &mut request)?;
        }
        request.repetitions = Options::decode(t, "x")?.repetitions;
        Ok(request)
    }
}

/// Reads the user's vector of `request`'s operation into it, in its canonical form.
fn decode_vector(t: &mut Tokens<'_>, request: &mut PubkeyBenchmark) -> Result<(), WireError> {
    const VECTOR: &str = "public-key vector";
    let mut hex = |what: &'static str, operands: usize| -> Result<String, WireError> {
        let token = t.next(what)?;
        match from_hex(token) {
            Ok(bytes) if bytes.len() == 32 * operands => Ok(to_hex(&bytes)),
            _ => Err(WireError::Malformed(what)),
        }
    };
    request.digest_hex = Some(hex("vector digest", 1)?);
    match request.operation {
        PubkeyOperation::EcdsaP256Verify => {
            request.public_key_hex = Some(hex("vector public key", 2)?);
            request.signature_hex = Some(hex("vector signature", 2)?);
            let accept = wire::flag(t, "vector answer", ("a", true), ("r", false))?;
            request.expected = Some(Verdict::from_accept(accept));
            request.unverifiable = match t.next("vector domain")? {
                "-" => None,
                letter => Some(
                    OutsideProgram::ALL
                        .into_iter()
                        .find(|o| o.letter() == letter)
                        .ok_or(WireError::Malformed("vector domain"))?,
                ),
            };
        }
        PubkeyOperation::EcdsaP256Sign => {
            request.private_key_hex = Some(hex("vector private key", 1)?);
            request.nonce_hex = Some(hex("vector nonce", 1)?);
            // The suite checks against the signature: a request without one cannot be judged.
            request.signature_hex = Some(hex("vector signature", 2)?);
        }
        PubkeyOperation::RsaEncrypt | PubkeyOperation::RsaDecrypt => return Err(WireError::Malformed(VECTOR)),
    }
    match request.vector() {
        Ok(Some(_)) => Ok(()),
        _ => Err(WireError::Malformed(VECTOR)),
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
            digest_hex: None,
            public_key_hex: None,
            signature_hex: None,
            private_key_hex: None,
            nonce_hex: None,
            expected: None,
            unverifiable: None,
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
        let valid = request(PubkeyOperation::EcdsaP256Verify, None, false);
        let corrupted = request(PubkeyOperation::EcdsaP256Verify, None, true);
        let sign = request(PubkeyOperation::EcdsaP256Sign, None, false);
        assert!(valid.accepts(&phases(Some(true))) && !valid.accepts(&phases(Some(false))));
        assert!(corrupted.accepts(&phases(Some(false))) && !corrupted.accepts(&phases(Some(true))));
        assert!(sign.accepts(&phases(None)) && !sign.accepts(&phases(Some(true))));
    }

    /// NIST CAVP 186-4 SigGen, P-256 with SHA-256, first vector (as RustCrypto `p256` keeps it):
    /// digest, d, k, Q = (x, y), r, s.
    const NIST: [&str; 7] = [
        "44acf6b7e36c1342c2c5897204fe09504e1e2efb1a900377dbc4e7a6a133ec56",
        "519b423d715f8b581f4fa8ee59f4771a5b44c8130b4e3eacca54a56dda72b464",
        "94a1bbb14b906a61a280f245f9e93c7f3b4a6247824f5d33b9670787642a68de",
        "1ccbe91c075fc7f4f033bfa248db8fccd3565de94bbfb12f3c59ff46c271bf83",
        "ce4014c68811f9a21a1fdb2c0e6113e06db7ca93b7404e78dc7ccd5ca89a4ca9",
        "f3ac8061b514795b8843e3d6629527ed2afd6b1f6a555a7acabb5e6f79c8c2ac",
        "8bf77819ca05a6b2786c76262bf7371cef97b218e96f175a3ccdda2acc058903",
    ];

    fn verify(digest: &str, key: [&str; 2], signature: [&str; 2], expected: Verdict) -> PubkeyBenchmark {
        PubkeyBenchmark {
            digest_hex: Some(String::from(digest)),
            public_key_hex: Some(key.concat()),
            signature_hex: Some(signature.concat()),
            expected: Some(expected),
            ..request(PubkeyOperation::EcdsaP256Verify, None, false)
        }
    }

    fn sign(digest: &str, d: &str, k: &str) -> PubkeyBenchmark {
        PubkeyBenchmark {
            digest_hex: Some(String::from(digest)),
            private_key_hex: Some(String::from(d)),
            nonce_hex: Some(String::from(k)),
            ..request(PubkeyOperation::EcdsaP256Sign, None, false)
        }
    }

    fn nist_verify(expected: Verdict) -> PubkeyBenchmark {
        verify(NIST[0], [NIST[3], NIST[4]], [NIST[5], NIST[6]], expected)
    }

    /// `hex` with its last byte's lowest bit flipped.
    #[cfg(feature = "std")]
    fn flipped(hex: &str) -> String {
        let mut bytes = from_hex(hex).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        to_hex(&bytes)
    }

    #[cfg(feature = "std")]
    fn line_of(b: &PubkeyBenchmark) -> String {
        encode_request(65535, &Request::Benchmark(Benchmark::Pubkey(b.clone())))
    }

    #[cfg(feature = "std")]
    #[test]
    fn a_published_signature_is_worked_out_and_travels_in_one_line() {
        let mut b = sign(NIST[0], NIST[1], NIST[2]);
        assert_eq!(b.check(), Ok(()));
        b.complete().unwrap();
        assert_eq!(b.signature_hex.as_deref(), Some([NIST[5], NIST[6]].concat().as_str()));
        assert!(line_of(&b).len() <= crate::MAX_LINE_LEN, "{}", line_of(&b));
        assert_eq!(round_trip(&b).as_ref(), Ok(&b));
        assert_eq!(b.describe().config, "ecdsa_p256_sign 256 given keep-loaded");

        let mut wrong = sign(NIST[0], NIST[1], NIST[2]);
        wrong.signature_hex = Some([NIST[5], &flipped(NIST[6])].concat());
        let error = wrong.complete().unwrap_err();
        assert!(
            error.contains("disagrees with RustCrypto p256") && error.contains(NIST[6]),
            "{error}"
        );
    }

    #[cfg(feature = "std")]
    #[test]
    fn a_verification_vector_must_expect_the_standard_answer() {
        let mut valid = nist_verify(Verdict::Accept);
        valid.complete().unwrap();
        assert_eq!(valid.unverifiable, None);
        assert!(line_of(&valid).len() <= crate::MAX_LINE_LEN, "{}", line_of(&valid));
        assert_eq!(round_trip(&valid).as_ref(), Ok(&valid));

        let mut changed_digest = verify(
            &flipped(NIST[0]),
            [NIST[3], NIST[4]],
            [NIST[5], NIST[6]],
            Verdict::Reject,
        );
        changed_digest.complete().unwrap();
        assert_eq!(changed_digest.unverifiable, None);
        assert_eq!(round_trip(&changed_digest).as_ref(), Ok(&changed_digest));

        let error = nist_verify(Verdict::Reject).complete().unwrap_err();
        assert!(
            error.contains("\"reject\" but RustCrypto p256 answers \"accept\""),
            "{error}"
        );
        let mut wrongly_accepted = verify(
            NIST[0],
            [NIST[3], NIST[4]],
            [&flipped(NIST[5]), NIST[6]],
            Verdict::Accept,
        );
        assert!(wrongly_accepted.complete().unwrap_err().contains("a bad vector"));
    }

    #[cfg(feature = "std")]
    #[test]
    fn inputs_outside_the_program_are_unverifiable_and_say_why() {
        let n = to_hex(&P256_ORDER);
        let zero = "00".repeat(32);
        let key = [NIST[3], NIST[4]];
        let off_curve = flipped(NIST[4]);
        for (mut b, why) in [
            (
                verify(NIST[0], [NIST[3], &off_curve], [NIST[5], NIST[6]], Verdict::Reject),
                OutsideProgram::PublicKey,
            ),
            (
                verify(NIST[0], key, [&zero, NIST[6]], Verdict::Reject),
                OutsideProgram::R,
            ),
            (verify(NIST[0], key, [NIST[5], &n], Verdict::Reject), OutsideProgram::S),
            (
                verify(&"ff".repeat(32), key, [NIST[5], NIST[6]], Verdict::Reject),
                OutsideProgram::Digest,
            ),
        ] {
            b.complete().unwrap();
            assert_eq!(b.unverifiable, Some(why), "{b:?}");
            assert_eq!(round_trip(&b).as_ref(), Ok(&b));
            let fields = b.describe().fields;
            assert!(fields.contains(&("unverifiable_reason", Field::Text(String::from(why.reason())))));
            // Whatever the accelerator answers is reported, unjudged.
            for accepted in [true, false] {
                assert!(b.accepts(&phases(Some(accepted))));
            }
            assert!(!b.accepts(&phases(None)));
        }
        // A signature of the digest reduced modulo n is the standard's "accept" for the
        // unreduced digest too; the program multiplies it unreduced.
        let mut above_n = from_hex(&n).unwrap();
        above_n[31] += 5;
        let mut five = [0u8; 32];
        five[31] = 5;
        let mut s = sign(&to_hex(&five), NIST[1], NIST[2]);
        s.complete().unwrap();
        let signature = s.signature_hex.unwrap();
        let mut b = verify(
            &to_hex(&above_n),
            key,
            [&signature[..64], &signature[64..]],
            Verdict::Accept,
        );
        b.complete().unwrap();
        assert_eq!(b.unverifiable, Some(OutsideProgram::Digest));
    }

    #[cfg(feature = "std")]
    #[test]
    fn a_vector_reaching_the_point_at_infinity_is_refused() {
        let zero = "00".repeat(32);
        let one = format!("{}01", "00".repeat(31));
        let key = [NIST[3], NIST[4]];
        // r = 0, s = 1 and a zero digest: u1 = u2 = 0.
        let mut unchecked_r = verify(&zero, key, [&zero, &one], Verdict::Reject);
        // r = 1, s = 1 and z = -d: u1·G + u2·Q = (z + d)·G, with every input in range.
        let d = from_hex(NIST[1]).unwrap();
        let minus_d = (0..32).rev().fold((Vec::new(), 0i16), |(mut out, borrow), i| {
            let v = i16::from(P256_ORDER[i]) - i16::from(d[i]) - borrow;
            out.push(v.rem_euclid(256) as u8);
            (out, i16::from(v < 0))
        });
        let minus_d: Vec<u8> = minus_d.0.into_iter().rev().collect();
        let mut in_range = verify(&to_hex(&minus_d), key, [&one, &one], Verdict::Reject);
        for b in [&mut unchecked_r, &mut in_range] {
            let error = b.complete().unwrap_err();
            assert!(
                error.contains("point at infinity") && error.contains("never ends"),
                "{error}"
            );
        }
    }

    #[test]
    fn malformed_vectors_are_refused_with_what_is_wrong() {
        let mut rsa = request(PubkeyOperation::RsaEncrypt, Some(1024), false);
        rsa.digest_hex = Some(String::from(NIST[0]));
        assert!(rsa.check().unwrap_err().contains("480 characters"));
        let short = verify(&NIST[0][2..], [NIST[3], NIST[4]], [NIST[5], NIST[6]], Verdict::Accept);
        assert!(short.check().unwrap_err().contains("digest_hex holds 31 bytes"));
        let mut no_answer = nist_verify(Verdict::Accept);
        no_answer.expected = None;
        assert!(no_answer.check().unwrap_err().contains("\"expected\""));
        let mut stray = nist_verify(Verdict::Accept);
        stray.nonce_hex = Some(String::from(NIST[2]));
        assert!(stray.check().unwrap_err().contains("nonce_hex is not part"));
        let mut corrupted = nist_verify(Verdict::Accept);
        corrupted.corrupted = true;
        assert!(corrupted.check().is_err());
        let n = to_hex(&P256_ORDER);
        for (d, k) in [(n.as_str(), NIST[2]), (NIST[1], &*"00".repeat(32))] {
            assert!(sign(NIST[0], d, k).check().unwrap_err().contains("[1, n-1]"));
        }
        assert!(sign(NIST[0], NIST[1], "zz")
            .check()
            .unwrap_err()
            .contains("nonce_hex: not hex at character 1"));
    }

    #[test]
    fn malformed_vector_lines_are_refused() {
        let mut valid = nist_verify(Verdict::Accept);
        valid.repetitions = None;
        let line = |payload: &str| {
            let framed = crate::wire::frame(String::from(payload));
            decode_request(framed.as_bytes()).map(|_| ())
        };
        let good = format!(
            "1 B pk v 256 u r {} {} {} a -",
            NIST[0],
            [NIST[3], NIST[4]].concat(),
            [NIST[5], NIST[6]].concat()
        );
        assert_eq!(line(&good), Ok(()));
        assert_eq!(
            round_trip(&valid).map(|b| b.digest_hex),
            Ok(Some(String::from(NIST[0])))
        );
        for bad in [
            good.replace(" a -", " y -"),
            good.replace(" a -", " a q"),
            good.replace(" a -", " a"),
            good.replace(NIST[0], &NIST[0][2..]),
            good.replace(" v 256 ", " e 1024 "),
            good.replace(" u ", " c "),
            format!("1 B pk s 256 u r {} {} {} -", NIST[0], NIST[1], NIST[2]),
            format!(
                "1 B pk s 256 u r {} {} {} {}",
                NIST[0],
                to_hex(&P256_ORDER),
                NIST[2],
                [NIST[5], NIST[6]].concat()
            ),
        ] {
            assert!(line(&bad).is_err(), "{bad}");
        }
        let signed = format!(
            "1 B pk s 256 u k {} {} {} {} x2",
            NIST[0],
            NIST[1],
            NIST[2],
            [NIST[5], NIST[6]].concat()
        );
        assert_eq!(line(&signed), Ok(()));
    }

    fn phases(accepted: Option<bool>) -> Phases {
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
    }
}
