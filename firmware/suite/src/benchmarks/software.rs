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
    Check, ErrorKind, ImplementationKind, Phases, Primitive, SoftwareBenchmark, SoftwarePhases, SoftwareVariant,
};
use cyclebench_swcrypto::{aes_bitsliced, aes_table, chacha20, keccak, mp, Variant};

use super::{BenchError, Buffer, Outcome, Samples};
use crate::cycles::stamp;
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
    let start = stamp();
    call();
    let end = stamp();
    Call {
        cycles: end.since(start),
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

/// The windows and the deepest stack of every repetition.
struct Recorder {
    samples: Samples,
    deepest: u32,
}

impl Recorder {
    fn record(&mut self, call: Call) {
        self.samples.push(&[call.cycles]);
        self.deepest = self.deepest.max(call.stack);
    }
}

/// What a family's runner reports: the address of the function timed, or `None` when the
/// primitive has no such variant.
type Timed = Result<Option<usize>, BenchError>;

/// Runs `b`, or says why this platform cannot.
pub fn run(b: &SoftwareBenchmark, repetitions: u16) -> Result<Outcome, BenchError> {
    if b.variant == SoftwareVariant::Zbb && !cfg!(target_feature = "zbb") {
        return Ok(unsupported(
            b,
            "the zbb variant needs a core with Zbb (target ibex-sim-zbb or qemu-virt-zbb)",
        ));
    }
    if !b.primitive.accepts(b.length) {
        return Err(BenchError::new(
            ErrorKind::InvalidParameter,
            format!("{}: length {:?} out of range", b.primitive.name(), b.length),
        ));
    }
    let mut rec = Recorder {
        samples: Samples::new(1, repetitions)?,
        deepest: 0,
    };
    let length = b.length.unwrap_or(0) as usize;
    let entry = match b.primitive {
        Primitive::Chacha20 => chacha(b, length, repetitions, &mut rec),
        Primitive::AesBitslicedCtr | Primitive::AesBitslicedKeySchedule => {
            bitsliced_aes(b, length, repetitions, &mut rec)
        }
        Primitive::AesTableKeySchedule | Primitive::AesTableEncrypt => table_aes(b, repetitions, &mut rec),
        Primitive::KeccakF1600 => keccak_f(b, repetitions, &mut rec),
        Primitive::MpAddFull | Primitive::MpAddReduced => mp_add(b, length, repetitions, &mut rec),
        Primitive::MpMulSchoolbook
        | Primitive::MpMulSchoolbookReduced
        | Primitive::MpMulKaratsuba
        | Primitive::MpMulKaratsubaReduced => mp_mul(b, length, repetitions, &mut rec),
    }?;
    let Some(entry) = entry else {
        return Ok(unsupported(b, "no such variant of this primitive"));
    };
    Ok(Outcome::Measured {
        implementation: ImplementationKind::Software,
        check: Check::KnownAnswer,
        phases: Phases::Software(SoftwarePhases {
            run: rec.samples.summary()[0],
            stack_bytes: rec.deepest,
            entry: entry as u32,
        }),
    })
}

fn chacha(b: &SoftwareBenchmark, length: usize, repetitions: u16, rec: &mut Recorder) -> Timed {
    let Some(f) = chacha20::chacha20(variant(b.variant)) else {
        return Ok(None);
    };
    let mut buffer = Buffer::new(length);
    for _ in 0..repetitions {
        data::fill_input(buffer.bytes_mut());
        let data = buffer.bytes_mut();
        rec.record(timed(|| {
            f(&data::CHACHA20_KEY, &data::CHACHA20_NONCE, data::CHACHA20_COUNTER, data)
        }));
        if let Some(d) = first_difference(buffer.bytes(), &data::CHACHA20_OUTPUT[..length]) {
            return Err(wrong(b, d));
        }
    }
    Ok(Some(f as usize))
}

fn bitsliced_aes(b: &SoftwareBenchmark, length: usize, repetitions: u16, rec: &mut Recorder) -> Timed {
    let Some(aes) = aes_bitsliced::aes128_bitsliced(variant(b.variant)) else {
        return Ok(None);
    };
    let schedule = b.primitive == Primitive::AesBitslicedKeySchedule;
    // The key schedule is checked by encrypting with its output.
    let checked = if schedule { 64 } else { length };
    let mut buffer = Buffer::new(checked);
    for _ in 0..repetitions {
        let mut round_keys = [0u32; 88];
        if schedule {
            rec.record(timed(|| (aes.expand_key)(&data::AES_CTR_KEY, &mut round_keys)));
        } else {
            (aes.expand_key)(&data::AES_CTR_KEY, &mut round_keys);
        }
        data::fill_input(buffer.bytes_mut());
        let data = buffer.bytes_mut();
        if schedule {
            (aes.ctr)(&round_keys, &data::AES_CTR_IV, data);
        } else {
            rec.record(timed(|| (aes.ctr)(&round_keys, &data::AES_CTR_IV, data)));
        }
        if let Some(d) = first_difference(buffer.bytes(), &data::AES_CTR_OUTPUT[..checked]) {
            return Err(wrong(b, d));
        }
    }
    Ok(Some(if schedule {
        aes.expand_key as usize
    } else {
        aes.ctr as usize
    }))
}

fn table_aes(b: &SoftwareBenchmark, repetitions: u16, rec: &mut Recorder) -> Timed {
    let Some(aes) = aes_table::aes128_table(variant(b.variant)) else {
        return Ok(None);
    };
    let schedule = b.primitive == Primitive::AesTableKeySchedule;
    for _ in 0..repetitions {
        let mut round_keys = [0u32; 44];
        let mut output = [0u8; 16];
        if schedule {
            // The key schedule is checked by encrypting with its output.
            rec.record(timed(|| (aes.expand_key)(&data::AES_TABLE_KEY, &mut round_keys)));
            (aes.encrypt_block)(&round_keys, &data::AES_TABLE_PLAINTEXT, &mut output);
        } else {
            (aes.expand_key)(&data::AES_TABLE_KEY, &mut round_keys);
            rec.record(timed(|| {
                (aes.encrypt_block)(&round_keys, &data::AES_TABLE_PLAINTEXT, &mut output)
            }));
        }
        if let Some(d) = first_difference(&output, &data::AES_TABLE_CIPHERTEXT) {
            return Err(wrong(b, d));
        }
    }
    Ok(Some(if schedule {
        aes.expand_key as usize
    } else {
        aes.encrypt_block as usize
    }))
}

fn keccak_f(b: &SoftwareBenchmark, repetitions: u16, rec: &mut Recorder) -> Timed {
    let Some(k) = keccak::keccak_f1600(variant(b.variant)) else {
        return Ok(None);
    };
    let input = data::keccak_input();
    let mut internal = [0u32; 50];
    let mut state = [0u64; 25];
    for _ in 0..repetitions {
        (k.to_internal)(&input, &mut internal);
        rec.record(timed(|| (k.permute)(&mut internal)));
        (k.from_internal)(&internal, &mut state);
        if let Some(d) = first_difference(&state, &data::KECCAK_OUTPUT) {
            return Err(wrong(b, d));
        }
    }
    Ok(Some(k.permute as usize))
}

fn mp_add(b: &SoftwareBenchmark, length: usize, repetitions: u16, rec: &mut Recorder) -> Timed {
    let reduced = b.primitive == Primitive::MpAddReduced;
    let select = if reduced { mp::add_reduced } else { mp::add_full };
    let Some(add) = select(variant(b.variant)) else {
        return Ok(None);
    };
    let (a, c) = operands(length, reduced);
    let (expected, expected_carry): (Vec<u32>, u32) = if reduced {
        // Limb-wise sums of reduced limbs never carry.
        (a.iter().zip(&c).map(|(x, y)| x + y).collect(), 0)
    } else {
        (data::MP_SUM[..length].to_vec(), u32::from(data::MP_CARRY[length]))
    };
    let mut r = vec![0u32; length];
    for _ in 0..repetitions {
        r.fill(0);
        let mut carry = 0;
        rec.record(timed(|| carry = add(&mut r, &a, &c)));
        if let Some(d) = first_difference(&r, &expected) {
            return Err(wrong(b, d));
        }
        if carry != expected_carry {
            return Err(wrong(b, format!("carry {carry}, expected {expected_carry}")));
        }
    }
    Ok(Some(add as usize))
}

fn mp_mul(b: &SoftwareBenchmark, length: usize, repetitions: u16, rec: &mut Recorder) -> Timed {
    let (select, reduced): (fn(Variant) -> Option<mp::MpMulFn>, bool) = match b.primitive {
        Primitive::MpMulSchoolbook => (mp::mul_schoolbook, false),
        Primitive::MpMulSchoolbookReduced => (mp::mul_schoolbook_reduced, true),
        Primitive::MpMulKaratsuba => (mp::mul_karatsuba, false),
        _ => (mp::mul_karatsuba_reduced, true),
    };
    let Some(mul) = select(variant(b.variant)) else {
        return Ok(None);
    };
    let (a, c) = operands(length, reduced);
    let table = if reduced {
        &data::MP_REDUCED_PRODUCT
    } else {
        &data::MP_PRODUCT
    };
    let expected = &table[length][..2 * length];
    let mut r = vec![0u32; 2 * length];
    for _ in 0..repetitions {
        r.fill(0);
        rec.record(timed(|| mul(&mut r, &a, &c)));
        let difference = if reduced {
            first_difference(&mp::reduced_product_to_full(&r), expected)
        } else {
            first_difference(&r, expected)
        };
        if let Some(d) = difference {
            return Err(wrong(b, d));
        }
    }
    Ok(Some(mul as usize))
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

fn unsupported(b: &SoftwareBenchmark, why: &str) -> Outcome {
    Outcome::Unsupported(format!("{} {}: {why}", b.primitive.name(), b.variant.name()))
}
