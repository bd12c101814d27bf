//! RSA in software on the core, the baseline for the same RSA on a big-number accelerator:
//! Montgomery exponentiation over 32-bit limbs (`montgomery.rs`), small enough to sit beside
//! everything else in the chip's flash. Encryption raises to e = 65537, decryption to the full
//! private exponent without the Chinese remainder theorem, as the accelerator's program does,
//! so the two compute the same thing, the modulus's Montgomery constants included. Not
//! constant time: the final subtractions and the exponent's bits decide branches.

mod montgomery;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use cyclebench_datasets::pubkey::{self as data, RsaVector};
use cyclebench_protocol::Primitive;

use crate::harness::{Harness, Input, Rng, Setup, Subject};
use crate::Variant;
use montgomery::Operands;

/// Which exponent an operation raises to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Encrypt,
    Decrypt,
}

/// The operation and modulus length a primitive names.
fn operation(primitive: Primitive) -> Option<(Direction, u16)> {
    use Direction::*;
    Some(match primitive {
        Primitive::Rsa1024Encrypt => (Encrypt, 1024),
        Primitive::Rsa2048Encrypt => (Encrypt, 2048),
        Primitive::Rsa3072Encrypt => (Encrypt, 3072),
        Primitive::Rsa4096Encrypt => (Encrypt, 4096),
        Primitive::Rsa1024Decrypt => (Decrypt, 1024),
        Primitive::Rsa2048Decrypt => (Decrypt, 2048),
        _ => return None,
    })
}

/// One RSA operation on one of the datasets' keys. The fixed input is the key's plaintext
/// (encryption) or ciphertext (decryption), whose answer the host computed. A random input is
/// the fixed one raised to a random k, whose answer is the fixed answer raised to k
/// ((m^k)^e = (m^e)^k): two short exponentiations instead of one with the other exponent.
pub struct Rsa {
    direction: Direction,
    vector: &'static RsaVector,
    operation: Operands,
    expected: Vec<u32>,
}

impl Harness for Rsa {
    fn new(setup: &Setup) -> Option<Self> {
        let (direction, bits) = operation(setup.primitive)?;
        if setup.variant != Variant::Rust {
            return None;
        }
        let vector = data::rsa(bits)?;
        let exponent = match direction {
            Direction::Encrypt => alloc::vec![data::RSA_PUBLIC_EXPONENT],
            Direction::Decrypt => vector.private_exponent.to_vec(),
        };
        Some(Self {
            direction,
            vector,
            operation: Operands::new(vector.modulus, exponent),
            expected: Vec::new(),
        })
    }
}

impl Rsa {
    fn fixed(&self) -> (&'static [u32], &'static [u32]) {
        match self.direction {
            Direction::Encrypt => (self.vector.plaintext, self.vector.ciphertext),
            Direction::Decrypt => (self.vector.ciphertext, self.vector.plaintext),
        }
    }
}

impl Subject for Rsa {
    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        let (fixed_in, fixed_out) = self.fixed();
        match input {
            Input::Fixed => {
                self.operation.base.copy_from_slice(fixed_in);
                self.expected = fixed_out.to_vec();
            }
            Input::Random => {
                let k = 2 + rng.next_u32() % 0xfffe;
                let power = |of: &[u32]| {
                    let mut short = Operands::new(self.vector.modulus, alloc::vec![k]);
                    short.base.copy_from_slice(of);
                    montgomery::power(&mut short);
                    short.result
                };
                self.operation.base = power(fixed_in);
                self.expected = power(fixed_out);
            }
        }
        self.operation.result.fill(0);
    }

    fn call(&mut self) -> u32 {
        montgomery::power(&mut self.operation);
        0
    }

    fn check(&mut self, _input: Input, _answer: u32) -> Result<(), String> {
        if self.operation.result == self.expected {
            Ok(())
        } else {
            let low: Vec<u32> = self.operation.result.iter().take(2).copied().collect();
            Err(format!(
                "RSA-{} output wrong (lowest words {low:08x?})",
                self.vector.bits
            ))
        }
    }

    fn entry(&self) -> usize {
        let power: fn(&mut Operands) = montgomery::power;
        power as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cyclebench_protocol::Secret;

    #[test]
    fn every_size_answers_its_fixed_and_random_inputs() {
        for primitive in [
            Primitive::Rsa1024Encrypt,
            Primitive::Rsa3072Encrypt,
            Primitive::Rsa1024Decrypt,
        ] {
            let setup = Setup {
                primitive,
                variant: Variant::Rust,
                length: 0,
                secret: Secret::Data,
            };
            let mut rsa = Rsa::new(&setup).expect("a Rust variant");
            let mut rng = Rng::new(7);
            for input in [Input::Fixed, Input::Random] {
                rsa.prepare(input, &mut rng);
                let answer = rsa.call();
                assert_eq!(rsa.check(input, answer), Ok(()), "{}", primitive.name());
                // A wrong output is caught.
                rsa.operation.result[0] ^= 1;
                assert!(rsa.check(input, answer).is_err());
            }
        }
    }
}
