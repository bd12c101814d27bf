//! Public-key operations on the big-number accelerator (OTBN): ECDSA P-256 sign and verify,
//! RSA encrypt and decrypt, with the snapshot's own programs, which the build assembles and
//! embeds. Phases: load (instruction memory and static data memory), input (operands), compute
//! (start to done), output (result read), clean-up (operands and result wiped; for verify the
//! CPU's comparison of x1 with r first). Every output is checked against the known answer the
//! datasets crate computed on the host, or, for an ECDSA vector of the user's own, the one the
//! host worked out and sent with the request: the signature of sign, the answer of verify
//! (reported unjudged when the vector lies outside what the program implements).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use cyclebench_datasets::pubkey as data;
use cyclebench_modules::{BigNumAccelerator, BigNumProgram, ModuleError};
use cyclebench_protocol::{
    Check, ImplementationKind, Operand, P256Vector, Phases, PubkeyBenchmark, PubkeyOperation, PubkeyPhases,
};

use super::{hex_words, BenchError, Outcome, Samples};
use crate::cycles::Marks;
use crate::platform::Platform;

mod programs {
    use cyclebench_modules::BigNumProgram;
    include!(concat!(env!("OUT_DIR"), "/otbn_programs.rs"));
}

/// Words of an ECDSA P-256 operand.
const P256_WORDS: usize = 8;

/// One operation laid out for the accelerator: where its program starts, what the input phase
/// writes, where the output is, what clean-up wipes, and the known answer.
struct Job {
    entry: u32,
    inputs: Vec<(u32, Vec<u32>)>,
    output: (u32, usize),
    wipes: Vec<(u32, usize)>,
    /// The output expected; `None` for a verification of the user's vector, which is judged
    /// by its answer alone.
    expected: Option<Vec<u32>>,
    /// For verify, r: the signature is accepted when x1 equals it.
    compare_with: Option<Vec<u32>>,
}

/// A big-endian operand as the accelerator's little-endian 32-bit words.
fn le_words(operand: &Operand) -> Vec<u32> {
    operand
        .rchunks(4)
        .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn symbol(program: &BigNumProgram, name: &'static str) -> Result<u32, BenchError> {
    program.symbol(name).ok_or_else(|| {
        BenchError::module(
            "otbn",
            ModuleError::Usage("the embedded program lacks a symbol the benchmark needs"),
        )
    })
}

/// `first`, when the 256-bit buffer `second` follows it directly (one read takes both).
fn adjacent(first: u32, second: u32) -> Result<u32, BenchError> {
    if second == first + 32 {
        Ok(first)
    } else {
        Err(BenchError::module(
            "otbn",
            ModuleError::Usage("the embedded program's r and s are not adjacent"),
        ))
    }
}

fn job(b: &PubkeyBenchmark, program: &BigNumProgram) -> Result<Job, BenchError> {
    let s = |name| symbol(program, name);
    let vector = b
        .vector()
        .map_err(|e| BenchError::new(cyclebench_protocol::ErrorKind::InvalidParameter, format!("pubkey: {e}")))?;
    Ok(match (vector, b.operation) {
        (
            Some(P256Vector::Sign {
                digest,
                private_key,
                nonce,
                signature: Some([r, signature_s]),
            }),
            _,
        ) => sign_job(
            program,
            [le_words(&nonce), le_words(&digest), le_words(&private_key)],
            [le_words(&r), le_words(&signature_s)].concat(),
        )?,
        (Some(P256Vector::Sign { signature: None, .. }), _) => {
            return Err(BenchError::new(
                cyclebench_protocol::ErrorKind::InvalidParameter,
                String::from("pubkey: a signing vector without the signature to check against"),
            ));
        }
        (
            Some(P256Vector::Verify {
                digest,
                public_key: [x, y],
                signature: [r, signature_s],
            }),
            _,
        ) => verify_job(
            program,
            [
                le_words(&digest),
                le_words(&r),
                le_words(&signature_s),
                le_words(&x),
                le_words(&y),
            ],
            None,
        )?,
        (None, PubkeyOperation::EcdsaP256Sign) => sign_job(
            program,
            [data::P256_K.to_vec(), data::P256_MSG.to_vec(), data::P256_D.to_vec()],
            SIGNATURE.to_vec(),
        )?,
        (None, PubkeyOperation::EcdsaP256Verify) => {
            let (signature_s, x1) = if b.corrupted {
                (&data::P256_S_CORRUPTED, &data::P256_X1_CORRUPTED)
            } else {
                (&data::P256_S, &data::P256_R)
            };
            verify_job(
                program,
                [
                    data::P256_MSG.to_vec(),
                    data::P256_R.to_vec(),
                    signature_s.to_vec(),
                    data::P256_X.to_vec(),
                    data::P256_Y.to_vec(),
                ],
                Some(x1.to_vec()),
            )?
        }
        (None, PubkeyOperation::RsaEncrypt | PubkeyOperation::RsaDecrypt) => {
            let bits = b.size();
            let vector = data::rsa(bits).ok_or_else(|| {
                BenchError::new(
                    cyclebench_protocol::ErrorKind::InvalidParameter,
                    format!("pubkey: no RSA key of {bits} bits"),
                )
            })?;
            let words = usize::from(bits) / 32;
            let limbs = &N_LIMBS[usize::from(bits) / 1024 - 1..][..1];
            let decrypt = b.operation == PubkeyOperation::RsaDecrypt;
            let mut inputs = Vec::from([
                (s("n_limbs")?, limbs.to_vec()),
                (s("modulus")?, vector.modulus.to_vec()),
            ]);
            let mut wipes = Vec::from([(s("modulus")?, words), (s("in")?, words), (s("out")?, words)]);
            if decrypt {
                inputs.push((s("exp")?, vector.private_exponent.to_vec()));
                inputs.push((s("in")?, vector.ciphertext.to_vec()));
                wipes.push((s("exp")?, words));
            } else {
                inputs.push((s("in")?, vector.plaintext.to_vec()));
            }
            Job {
                entry: s(if decrypt { "rsa_decrypt" } else { "rsa_encrypt" })?,
                inputs,
                output: (s("out")?, words),
                wipes,
                expected: Some(if decrypt { vector.plaintext } else { vector.ciphertext }.to_vec()),
                compare_with: None,
            }
        }
    })
}

/// A signature of the digest with the private key and nonce `[k, digest, d]`, whose r and s
/// must be `signature`.
fn sign_job(program: &BigNumProgram, [k, digest, d]: [Vec<u32>; 3], signature: Vec<u32>) -> Result<Job, BenchError> {
    let s = |name| symbol(program, name);
    Ok(Job {
        entry: s("p256_ecdsa_sign")?,
        // r and s are adjacent 256-bit buffers: one read of both.
        output: (adjacent(s("r")?, s("s")?)?, 2 * P256_WORDS),
        inputs: Vec::from([(s("k")?, k), (s("msg")?, digest), (s("d")?, d)]),
        wipes: ["k", "msg", "d", "r", "s"]
            .into_iter()
            .map(|name| Ok((s(name)?, P256_WORDS)))
            .collect::<Result<_, BenchError>>()?,
        expected: Some(signature),
        compare_with: None,
    })
}

/// A verification of `[digest, r, s, x, y]`; `x1`, when known, is the x the program must
/// leave.
fn verify_job(program: &BigNumProgram, operands: [Vec<u32>; 5], x1: Option<Vec<u32>>) -> Result<Job, BenchError> {
    let s = |name| symbol(program, name);
    let compare_with = Some(operands[1].clone());
    let inputs = ["msg", "r", "s", "x", "y"]
        .into_iter()
        .zip(operands)
        .map(|(name, words)| Ok((s(name)?, words)))
        .collect::<Result<_, BenchError>>()?;
    Ok(Job {
        entry: s("p256_ecdsa_verify")?,
        inputs,
        // The program leaves x1 where the pointer at dmem[4] (dptr_rnd) points.
        output: (s("rnd")?, P256_WORDS),
        wipes: ["rnd", "msg", "r", "s", "x", "y"]
            .into_iter()
            .map(|name| Ok((s(name)?, P256_WORDS)))
            .collect::<Result<_, BenchError>>()?,
        expected: x1,
        compare_with,
    })
}

/// r then s, as the program leaves them.
static SIGNATURE: [u32; 2 * P256_WORDS] = {
    let mut both = [0; 2 * P256_WORDS];
    let mut i = 0;
    while i < P256_WORDS {
        both[i] = data::P256_R[i];
        both[P256_WORDS + i] = data::P256_S[i];
        i += 1;
    }
    both
};

/// The RSA program's limb count (256-bit limbs) for 1024, 2048, 3072 and 4096 bits.
static N_LIMBS: [u32; 4] = [4, 8, 12, 16];

/// Runs `b` on the platform's big-number accelerator.
pub fn run<P: Platform>(platform: &mut P, b: &PubkeyBenchmark, repetitions: u16) -> Result<Outcome, BenchError> {
    let otbn = match platform.big_num() {
        Ok(otbn) => otbn,
        Err(reason) => return Ok(Outcome::Unsupported(reason)),
    };
    let name = if b.operation.is_rsa() { "rsa" } else { "p256_ecdsa" };
    let Some(program) = programs::OTBN_PROGRAMS.iter().find(|p| p.name == name) else {
        return Ok(Outcome::Unsupported(format!(
            "this build embeds no OTBN program {name}"
        )));
    };
    let job = job(b, program)?;
    // The images and operands are copied to RAM first, as other benchmarks prepare their data:
    // the phases measure the transfers into the accelerator, not flash reads.
    let imem: Vec<u32> = program.imem.to_vec();
    let dmem: Vec<u32> = program.dmem.to_vec();
    let inputs: Vec<(u32, &[u32])> = job.inputs.iter().map(|(a, w)| (*a, &w[..])).collect();
    let zeros = alloc::vec![0u32; job.wipes.iter().map(|w| w.1).max().unwrap_or(0)];
    let compare_with = job.compare_with.clone();
    // A vector outside what the program implements: its answer is reported, not judged.
    let judged = b.unverifiable.is_none();
    let mut output = alloc::vec![0u32; job.output.1];

    let mut samples = Samples::new(5, repetitions)?;
    let mut accepted = None;
    for repetition in 0..repetitions {
        let load = !b.keep_loaded || repetition == 0;
        let run = Run {
            imem: if load { &imem } else { &[] },
            dmem: if load { &dmem } else { &[] },
            inputs: &inputs,
            entry: job.entry,
            output: job.output.0,
            wipes: &job.wipes,
            zeros: &zeros,
            compare_with: compare_with.as_deref(),
        };
        let (phases, error_bits, verdict) = once(otbn, &run, &mut output).map_err(|e| BenchError::module("otbn", e))?;
        if error_bits != 0 {
            return Err(fault::<P::BigNum>(error_bits));
        }
        if let Some(expected) = job.expected.as_deref().filter(|e| output != *e) {
            return Err(BenchError::wrong_answer(
                "otbn",
                b.operation.name(),
                &format!("output {} expected {}", hex_words(&output), hex_words(expected)),
            ));
        }
        if judged && verdict != b.expects_accept() {
            return Err(BenchError::wrong_answer(
                "otbn",
                b.operation.name(),
                &format!("verification answered {verdict:?}, expected {:?}", b.expects_accept()),
            ));
        }
        accepted = verdict;
        samples.push(&phases[..5]);
    }
    let s = samples.summary();
    Ok(Outcome::Measured {
        implementation: ImplementationKind::Hardware,
        check: if judged {
            Check::KnownAnswer
        } else {
            Check::Unverifiable
        },
        phases: Phases::Pubkey(PubkeyPhases {
            load: s[0],
            input: s[1],
            compute: s[2],
            output: s[3],
            cleanup: s[4],
            imem_words: words_u32(imem.len()),
            dmem_words: words_u32(dmem.len()),
            accepted,
        }),
    })
}

/// The error of a run that ended with `bits` set in the accelerator's error register, naming
/// them.
fn fault<A: BigNumAccelerator>(bits: u32) -> BenchError {
    let names: Vec<&str> = (0..32)
        .filter(|i| bits & (1 << i) != 0)
        .map(|i| {
            A::ERROR_BITS
                .get(i)
                .copied()
                .filter(|n| !n.is_empty())
                .unwrap_or("unnamed")
        })
        .collect();
    BenchError::new(
        cyclebench_protocol::ErrorKind::WrongAnswer,
        format!(
            "otbn: the program ended with error bits {bits:#x} ({})",
            names.join(", ")
        ),
    )
}

fn words_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// What one timed run writes, starts, reads and wipes; empty images mean the program is
/// already loaded.
struct Run<'a> {
    imem: &'a [u32],
    dmem: &'a [u32],
    inputs: &'a [(u32, &'a [u32])],
    entry: u32,
    output: u32,
    wipes: &'a [(u32, usize)],
    zeros: &'a [u32],
    compare_with: Option<&'a [u32]>,
}

/// One timed operation: the phases' cycles, the accelerator's error bits and, for verify,
/// whether x1 equals r. A run that ended in error is still read and wiped, so the clean-up
/// leaves nothing behind either way; the caller reports the bits.
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
fn once<A: BigNumAccelerator>(
    otbn: &mut A,
    run: &Run<'_>,
    output: &mut [u32],
) -> Result<([u64; 6], u32, Option<bool>), ModuleError> {
    let mut marks = Marks::<6>::new();
    marks.mark();
    otbn.write_imem(0, run.imem);
    otbn.write_dmem(0, run.dmem);
    marks.mark();
    for &(address, words) in run.inputs {
        otbn.write_dmem(address, words);
    }
    marks.mark();
    otbn.start(run.entry)?;
    let error_bits = otbn.wait_for_completion()?;
    marks.mark();
    otbn.read_dmem(run.output, output);
    marks.mark();
    // OR of XORs, not `==`: a slice comparison calls `memcmp`, which runs from flash.
    let verdict = run
        .compare_with
        .map(|r| output.iter().zip(r).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0);
    for &(address, len) in run.wipes {
        otbn.write_dmem(address, &run.zeros[..len]);
    }
    marks.mark();
    Ok((marks.phases(), error_bits, verdict))
}
