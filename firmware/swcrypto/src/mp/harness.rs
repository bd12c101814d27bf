//! The multi-precision harnesses: addition and multiplication of two `length`-limb operands,
//! both operands the input, in full or reduced radix as the primitive says.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use cyclebench_datasets::software as data;
use cyclebench_protocol::Primitive;

use super::{
    add_full, add_reduced, mul_karatsuba, mul_karatsuba_reduced, mul_schoolbook, mul_schoolbook_reduced,
    reduced_product_to_full, MpAddFn, MpMulFn, REDUCED_MASK,
};
use crate::harness::{differs, reference, Harness, Input, Rng, Setup, Subject};
use crate::Variant;

// The expected reduced-radix products assume the radix the primitives use.
const _: () = assert!(data::MP_REDUCED_BITS == super::REDUCED_BITS);

/// The first `n` limbs of the fixed operands, in reduced radix (top bits clear) when `reduced`.
fn fixed_operands(n: usize, reduced: bool) -> (Vec<u32>, Vec<u32>) {
    let mut a = vec![0u32; n];
    let mut b = vec![0u32; n];
    data::fill_operand(0, &mut a);
    data::fill_operand(1, &mut b);
    if reduced {
        a.iter_mut().chain(b.iter_mut()).for_each(|l| *l &= REDUCED_MASK);
    }
    (a, b)
}

/// Writes the operands of the next call: the fixed ones, or random ones, canonical in
/// reduced radix when `reduced`.
fn prepare_operands(
    input: Input,
    rng: &mut Rng,
    fixed: &(Vec<u32>, Vec<u32>),
    a: &mut [u32],
    b: &mut [u32],
    reduced: bool,
) {
    match input {
        Input::Fixed => {
            a.copy_from_slice(&fixed.0);
            b.copy_from_slice(&fixed.1);
        }
        Input::Random => {
            rng.fill_words(a);
            rng.fill_words(b);
            if reduced {
                a.iter_mut().chain(b.iter_mut()).for_each(|l| *l &= REDUCED_MASK);
            }
        }
    }
}

/// Multi-precision addition.
pub struct Add {
    add: MpAddFn,
    reference: Option<MpAddFn>,
    reduced: bool,
    fixed: (Vec<u32>, Vec<u32>),
    expected: (Vec<u32>, u32),
    a: Vec<u32>,
    b: Vec<u32>,
    r: Vec<u32>,
    /// The reference's sum for random operands.
    scratch: Vec<u32>,
}

impl Harness for Add {
    fn new(setup: &Setup) -> Option<Self> {
        let reduced = setup.primitive == Primitive::MpAddReduced;
        let select = if reduced { add_reduced } else { add_full };
        let n = setup.length;
        let fixed = fixed_operands(n, reduced);
        let expected = if reduced {
            // Limb-wise sums of reduced limbs never carry.
            (fixed.0.iter().zip(&fixed.1).map(|(x, y)| x + y).collect(), 0)
        } else {
            (data::MP_SUM[..n].to_vec(), u32::from(data::MP_CARRY[n]))
        };
        Some(Self {
            add: select(setup.variant)?,
            reference: reference(setup.variant, select),
            reduced,
            a: fixed.0.clone(),
            b: fixed.1.clone(),
            fixed,
            expected,
            r: vec![0; n],
            scratch: vec![0; n],
        })
    }
}

impl Subject for Add {
    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        prepare_operands(input, rng, &self.fixed, &mut self.a, &mut self.b, self.reduced);
        self.r.fill(0);
    }

    fn call(&mut self) -> u32 {
        (self.add)(&mut self.r, &self.a, &self.b)
    }

    fn check(&mut self, input: Input, answer: u32) -> Result<(), String> {
        let (expected, carry) = match input {
            Input::Fixed => (&self.expected.0, self.expected.1),
            Input::Random => {
                let Some(reference) = self.reference else {
                    return Ok(());
                };
                let carry = reference(&mut self.scratch, &self.a, &self.b);
                (&self.scratch, carry)
            }
        };
        differs(&self.r, expected)?;
        if answer != carry {
            return Err(format!("carry {answer}, expected {carry}"));
        }
        Ok(())
    }

    fn entry(&self) -> usize {
        self.add as usize
    }
}

/// Multi-precision multiplication, schoolbook or Karatsuba.
pub struct Mul {
    mul: MpMulFn,
    reference: Option<MpMulFn>,
    reduced: bool,
    fixed: (Vec<u32>, Vec<u32>),
    /// The fixed operands' product in the output form of the primitive (canonical reduced
    /// limbs when reduced), checked against the known answer before measuring.
    expected: Vec<u32>,
    a: Vec<u32>,
    b: Vec<u32>,
    r: Vec<u32>,
    /// The reference's product for random operands.
    scratch: Vec<u32>,
}

impl Harness for Mul {
    fn new(setup: &Setup) -> Option<Self> {
        let (select, reduced): (fn(Variant) -> Option<MpMulFn>, bool) = match setup.primitive {
            Primitive::MpMulSchoolbookReduced => (mul_schoolbook_reduced, true),
            Primitive::MpMulKaratsuba => (mul_karatsuba, false),
            Primitive::MpMulKaratsubaReduced => (mul_karatsuba_reduced, true),
            _ => (mul_schoolbook, false),
        };
        let n = setup.length;
        let fixed = fixed_operands(n, reduced);
        // The fixed product from the Rust variant; `known_answer` compares it with the
        // reference crate's.
        let mut expected = vec![0; 2 * n];
        if let Some(rust) = select(Variant::Rust) {
            rust(&mut expected, &fixed.0, &fixed.1);
        }
        Some(Self {
            mul: select(setup.variant)?,
            reference: reference(setup.variant, select),
            reduced,
            a: fixed.0.clone(),
            b: fixed.1.clone(),
            fixed,
            expected,
            r: vec![0; 2 * n],
            scratch: vec![0; 2 * n],
        })
    }
}

impl Subject for Mul {
    fn known_answer(&self) -> Result<(), String> {
        let n = self.a.len();
        if self.reduced {
            differs(
                &reduced_product_to_full(&self.expected),
                &data::MP_REDUCED_PRODUCT[n][..2 * n],
            )
        } else {
            differs(&self.expected, &data::MP_PRODUCT[n][..2 * n])
        }
    }

    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        prepare_operands(input, rng, &self.fixed, &mut self.a, &mut self.b, self.reduced);
        self.r.fill(0);
    }

    fn call(&mut self) -> u32 {
        (self.mul)(&mut self.r, &self.a, &self.b);
        0
    }

    fn check(&mut self, input: Input, _answer: u32) -> Result<(), String> {
        if input == Input::Fixed {
            return differs(&self.r, &self.expected);
        }
        let Some(reference) = self.reference else {
            return Ok(());
        };
        reference(&mut self.scratch, &self.a, &self.b);
        differs(&self.r, &self.scratch)
    }

    fn entry(&self) -> usize {
        self.mul as usize
    }
}
