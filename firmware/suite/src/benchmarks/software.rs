//! Software primitives (seed 2's study): one window around one call of the chosen variant,
//! the stack the call used, and the function's address for the host's code-size lookup. Every
//! output is compared with the expected output the datasets crate computed with reference
//! crates; a mismatch is an error, never a result.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use cyclebench_datasets::software as data;
use cyclebench_protocol::{
    BenchmarkKind, BenchmarkResults, Check, ErrorKind, ImplementationKind, Phases, Primitive, SoftwareBenchmark,
    SoftwareVariant,
};
use cyclebench_swcrypto::{aes_bitsliced, aes_table, chacha20, keccak, mp, Variant};

use super::{BenchError, Outcome, Samples};
use crate::cycles::now;
use crate::stack;

// The expected reduced-radix products assume the radix the primitives use.
const _: () = assert!(data::MP_REDUCED_BITS == mp::REDUCED_BITS);

/// A measured call: raw cycles and stack bytes.
struct Call {
    cycles: u64,
    stack: u32,
}

/// Times `call` between two counter reads, with the stack painted beforehand.
#[inline(always)]
fn timed(call: impl FnOnce()) -> Call {
    let sp = stack::paint();
    let start = now();
    call();
    let end = now();
    Call {
        cycles: end.wrapping_sub(start),
        stack: stack::used(sp),
    }
}

fn variant(v: SoftwareVariant) -> Variant {
    match v {
        SoftwareVariant::Rust => Variant::Rust,
        SoftwareVariant::Rv32i => Variant::Rv32i,
        SoftwareVariant::Zbb => Variant::Zbb,
    }
}

fn wrong(b: &SoftwareBenchmark, what: String) -> BenchError {
    BenchError::new(
        ErrorKind::WrongAnswer,
        format!("{} {}: {what}", b.primitive.name(), b.variant.name()),
    )
}

fn first_difference<T: PartialEq + core::fmt::LowerHex>(got: &[T], expected: &[T]) -> Option<String> {
    if got.len() != expected.len() {
        return Some(format!("{} items, expected {}", got.len(), expected.len()));
    }
    let i = got.iter().zip(expected).position(|(g, e)| g != e)?;
    Some(format!("item {i} is {:x}, expected {:x}", got[i], expected[i]))
}

/// A 4-byte-aligned byte buffer (the assembly takes its word path on aligned data).
struct Buffer {
    words: Vec<u32>,
    len: usize,
}

impl Buffer {
    fn new(len: usize) -> Self {
        Self {
            words: vec![0; len.div_ceil(4)],
            len,
        }
    }

    fn bytes(&mut self) -> &mut [u8] {
        &mut bytemuck::cast_slice_mut(&mut self.words)[..self.len]
    }
}

/// Runs `b`, or says why this platform cannot.
pub fn run(b: &SoftwareBenchmark, repetitions: u16) -> Result<Result<Outcome, BenchmarkResults>, BenchError> {
    if b.variant == SoftwareVariant::Zbb && !cfg!(target_feature = "zbb") {
        return Ok(Err(unsupported(
            b,
            "the zbb variant needs a core with Zbb (target ibex-sim-zbb or qemu-virt-zbb)",
        )));
    }
    if !b.primitive.accepts(b.length) {
        return Err(BenchError::new(
            ErrorKind::InvalidParameter,
            format!("{}: length {:?} out of range", b.primitive.name(), b.length),
        ));
    }
    let v = variant(b.variant);
    let length = b.length.unwrap_or(0) as usize;
    let mut samples = Samples::new(1, repetitions)?;
    let mut deepest = 0u32;
    let mut record = |call: Call| {
        samples.push(&[call.cycles]);
        deepest = deepest.max(call.stack);
    };
    let missing = || Ok(Err(unsupported(b, "no such variant of this primitive")));
    let entry: usize = match b.primitive {
        Primitive::Chacha20 => {
            let Some(f) = chacha20::chacha20(v) else {
                return missing();
            };
            let mut buffer = Buffer::new(length);
            for _ in 0..repetitions {
                data::fill_input(buffer.bytes());
                let data = buffer.bytes();
                record(timed(|| {
                    f(&data::CHACHA20_KEY, &data::CHACHA20_NONCE, data::CHACHA20_COUNTER, data)
                }));
                if let Some(d) = first_difference(buffer.bytes(), &data::CHACHA20_OUTPUT[..length]) {
                    return Err(wrong(b, d));
                }
            }
            f as usize
        }
        Primitive::AesBitslicedCtr | Primitive::AesBitslicedKeySchedule => {
            let Some(aes) = aes_bitsliced::aes128_bitsliced(v) else {
                return missing();
            };
            let schedule = b.primitive == Primitive::AesBitslicedKeySchedule;
            // The key schedule is checked by encrypting with its output.
            let checked = if schedule { 64 } else { length };
            let mut buffer = Buffer::new(checked);
            for _ in 0..repetitions {
                let mut round_keys = [0u32; 88];
                if schedule {
                    record(timed(|| (aes.expand_key)(&data::AES_CTR_KEY, &mut round_keys)));
                } else {
                    (aes.expand_key)(&data::AES_CTR_KEY, &mut round_keys);
                }
                data::fill_input(buffer.bytes());
                let data = buffer.bytes();
                if schedule {
                    (aes.ctr)(&round_keys, &data::AES_CTR_IV, data);
                } else {
                    record(timed(|| (aes.ctr)(&round_keys, &data::AES_CTR_IV, data)));
                }
                if let Some(d) = first_difference(buffer.bytes(), &data::AES_CTR_OUTPUT[..checked]) {
                    return Err(wrong(b, d));
                }
            }
            if schedule {
                aes.expand_key as usize
            } else {
                aes.ctr as usize
            }
        }
        Primitive::AesTableKeySchedule | Primitive::AesTableEncrypt => {
            let Some(aes) = aes_table::aes128_table(v) else {
                return missing();
            };
            let schedule = b.primitive == Primitive::AesTableKeySchedule;
            for _ in 0..repetitions {
                let mut round_keys = [0u32; 44];
                let mut output = [0u8; 16];
                if schedule {
                    record(timed(|| (aes.expand_key)(&data::AES_TABLE_KEY, &mut round_keys)));
                    (aes.encrypt_block)(&round_keys, &data::AES_TABLE_PLAINTEXT, &mut output);
                } else {
                    (aes.expand_key)(&data::AES_TABLE_KEY, &mut round_keys);
                    record(timed(|| {
                        (aes.encrypt_block)(&round_keys, &data::AES_TABLE_PLAINTEXT, &mut output)
                    }));
                }
                if let Some(d) = first_difference(&output, &data::AES_TABLE_CIPHERTEXT) {
                    return Err(wrong(b, d));
                }
            }
            if schedule {
                aes.expand_key as usize
            } else {
                aes.encrypt_block as usize
            }
        }
        Primitive::KeccakF1600 => {
            let Some(k) = keccak::keccak_f1600(v) else {
                return missing();
            };
            let mut internal = [0u32; 50];
            let mut state = [0u64; 25];
            for _ in 0..repetitions {
                (k.to_internal)(&data::keccak_input(), &mut internal);
                record(timed(|| (k.permute)(&mut internal)));
                (k.from_internal)(&internal, &mut state);
                if let Some(d) = first_difference(&state, &data::KECCAK_OUTPUT) {
                    return Err(wrong(b, d));
                }
            }
            k.permute as usize
        }
        Primitive::MpAddFull | Primitive::MpAddReduced => {
            let reduced = b.primitive == Primitive::MpAddReduced;
            let select = if reduced { mp::add_reduced } else { mp::add_full };
            let Some(add) = select(v) else { return missing() };
            let (a, c) = operands(length, reduced);
            let mut r = vec![0u32; length];
            for _ in 0..repetitions {
                r.fill(0);
                let mut carry = 0;
                record(timed(|| carry = add(&mut r, &a, &c)));
                let (expected, expected_carry) = if reduced {
                    // Limb-wise sums of reduced limbs never carry.
                    (a.iter().zip(&c).map(|(x, y)| x + y).collect(), 0)
                } else {
                    (data::MP_SUM[..length].to_vec(), u32::from(data::MP_CARRY[length]))
                };
                if let Some(d) = first_difference(&r, &expected) {
                    return Err(wrong(b, d));
                }
                if carry != expected_carry {
                    return Err(wrong(b, format!("carry {carry}, expected {expected_carry}")));
                }
            }
            add as usize
        }
        Primitive::MpMulSchoolbook
        | Primitive::MpMulSchoolbookReduced
        | Primitive::MpMulKaratsuba
        | Primitive::MpMulKaratsubaReduced => {
            let reduced = matches!(
                b.primitive,
                Primitive::MpMulSchoolbookReduced | Primitive::MpMulKaratsubaReduced
            );
            let select = match b.primitive {
                Primitive::MpMulSchoolbook => mp::mul_schoolbook,
                Primitive::MpMulSchoolbookReduced => mp::mul_schoolbook_reduced,
                Primitive::MpMulKaratsuba => mp::mul_karatsuba,
                _ => mp::mul_karatsuba_reduced,
            };
            let Some(mul) = select(v) else { return missing() };
            let (a, c) = operands(length, reduced);
            let mut r = vec![0u32; 2 * length];
            for _ in 0..repetitions {
                r.fill(0);
                record(timed(|| mul(&mut r, &a, &c)));
                let got = if reduced {
                    mp::reduced_product_to_full(&r)
                } else {
                    r.clone()
                };
                let expected = if reduced {
                    data::MP_REDUCED_PRODUCT[length][..2 * length].to_vec()
                } else {
                    data::MP_PRODUCT[length][..2 * length].to_vec()
                };
                if let Some(d) = first_difference(&got, &expected) {
                    return Err(wrong(b, d));
                }
            }
            mul as usize
        }
    };
    let run = samples.summary()[0];
    Ok(Ok(Outcome {
        implementation: ImplementationKind::Software,
        check: Check::KnownAnswer,
        phases: Phases::Software {
            run,
            stack_bytes: deepest,
            entry: entry as u32,
        },
    }))
}

/// The first `n` limbs of both operands, in reduced radix (top bits clear) when `reduced`.
fn operands(n: usize, reduced: bool) -> (Vec<u32>, Vec<u32>) {
    let mut a = vec![0u32; n];
    let mut b = vec![0u32; n];
    data::fill_operand(0, &mut a);
    data::fill_operand(1, &mut b);
    if reduced {
        let mask = (1u32 << data::MP_REDUCED_BITS) - 1;
        a.iter_mut().chain(b.iter_mut()).for_each(|l| *l &= mask);
    }
    (a, b)
}

fn unsupported(b: &SoftwareBenchmark, why: &str) -> BenchmarkResults {
    BenchmarkResults::Unsupported {
        kind: BenchmarkKind::Software,
        reason: format!("{} {}: {why}", b.primitive.name(), b.variant.name()),
    }
}
