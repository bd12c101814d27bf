//! RSA in software on the core, the baseline for the same RSA on a big-number accelerator: the
//! modular exponentiation of `num-bigint` (Montgomery multiplication for an odd modulus,
//! variable time). Encryption raises to e = 65537, decryption to the full private exponent
//! without the Chinese remainder theorem, as the accelerator's program does, so the two
//! compute the same thing, the modulus's Montgomery constants included.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use cyclebench_datasets::pubkey::{self as data, RsaVector};
use cyclebench_protocol::Primitive;
use num_bigint::BigUint;

use crate::harness::{Harness, Input, Rng, Setup, Subject};
use crate::Variant;

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

/// x^65537 mod n by schoolbook products and divisions: a second computation, sharing no code
/// with the Montgomery exponentiation under test, that random outputs are checked with.
fn public_power(x: &BigUint, modulus: &BigUint) -> BigUint {
    let mut power = x.clone();
    for _ in 0..16 {
        power = (&power * &power) % modulus;
    }
    (power * x) % modulus
}

/// One RSA operation on one of the datasets' keys: the fixed input is the key's plaintext
/// (encryption) or ciphertext (decryption); a random one is a random residue, checked by
/// raising the output (decryption) or the input (encryption) to e by other means.
pub struct Rsa {
    direction: Direction,
    vector: &'static RsaVector,
    modulus: BigUint,
    exponent: BigUint,
    input: BigUint,
    output: BigUint,
}

impl Harness for Rsa {
    fn new(setup: &Setup) -> Option<Self> {
        let (direction, bits) = operation(setup.primitive)?;
        if setup.variant != Variant::Rust {
            return None;
        }
        let vector = data::rsa(bits)?;
        let exponent = match direction {
            Direction::Encrypt => BigUint::from(data::RSA_PUBLIC_EXPONENT),
            Direction::Decrypt => BigUint::from_slice(vector.private_exponent),
        };
        Some(Self {
            direction,
            vector,
            modulus: BigUint::from_slice(vector.modulus),
            exponent,
            input: BigUint::default(),
            output: BigUint::default(),
        })
    }
}

impl Rsa {
    fn fixed_input(&self) -> &'static [u32] {
        match self.direction {
            Direction::Encrypt => self.vector.plaintext,
            Direction::Decrypt => self.vector.ciphertext,
        }
    }

    fn fixed_output(&self) -> &'static [u32] {
        match self.direction {
            Direction::Encrypt => self.vector.ciphertext,
            Direction::Decrypt => self.vector.plaintext,
        }
    }
}

impl Subject for Rsa {
    fn known_answer(&self) -> Result<(), String> {
        let plaintext = BigUint::from_slice(self.vector.plaintext);
        if public_power(&plaintext, &self.modulus) == BigUint::from_slice(self.vector.ciphertext) {
            Ok(())
        } else {
            Err(format!(
                "the {}-bit key's ciphertext is not its plaintext^e",
                self.vector.bits
            ))
        }
    }

    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        let limbs: Vec<u32> = match input {
            Input::Fixed => self.fixed_input().to_vec(),
            Input::Random => {
                let mut limbs: Vec<u32> = (0..self.vector.modulus.len()).map(|_| rng.next_u32()).collect();
                // One bit under the modulus's length keeps the residue below the modulus.
                if let Some(top) = limbs.last_mut() {
                    *top >>= 1;
                }
                limbs
            }
        };
        self.input = BigUint::from_slice(&limbs);
        // The previous output is freed here, not inside the next call's window.
        self.output = BigUint::default();
    }

    fn call(&mut self) -> u32 {
        self.output = self.input.modpow(&self.exponent, &self.modulus);
        0
    }

    fn check(&mut self, input: Input, _answer: u32) -> Result<(), String> {
        let right = match (input, self.direction) {
            (Input::Fixed, _) => self.output == BigUint::from_slice(self.fixed_output()),
            (Input::Random, Direction::Encrypt) => self.output == public_power(&self.input, &self.modulus),
            (Input::Random, Direction::Decrypt) => public_power(&self.output, &self.modulus) == self.input,
        };
        if right {
            Ok(())
        } else {
            let words = self.output.to_u32_digits();
            Err(format!(
                "RSA-{} output wrong (lowest words {:08x?})",
                self.vector.bits,
                &words[..words.len().min(2)]
            ))
        }
    }

    fn entry(&self) -> usize {
        let modpow: fn(&BigUint, &BigUint, &BigUint) -> BigUint = BigUint::modpow;
        modpow as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Harness;
    use cyclebench_protocol::Secret;

    #[test]
    fn every_size_answers_its_fixed_and_random_inputs() {
        for primitive in [
            Primitive::Rsa1024Encrypt,
            Primitive::Rsa2048Encrypt,
            Primitive::Rsa1024Decrypt,
        ] {
            let setup = Setup {
                primitive,
                variant: Variant::Rust,
                length: 0,
                secret: Secret::Data,
            };
            let mut rsa = Rsa::new(&setup).expect("a Rust variant");
            assert_eq!(rsa.known_answer(), Ok(()));
            let mut rng = Rng::new(7);
            for input in [Input::Fixed, Input::Random] {
                rsa.prepare(input, &mut rng);
                let answer = rsa.call();
                assert_eq!(rsa.check(input, answer), Ok(()), "{}", primitive.name());
            }
            // A wrong output is caught.
            rsa.output += 1u8;
            assert!(rsa.check(Input::Random, 0).is_err());
        }
    }
}
