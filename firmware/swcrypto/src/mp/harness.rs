//! The harnesses of multi-precision addition and multiplication, both operands secret: the
//! fixed operands of the datasets crate (in reduced radix, top bits clear, for the reduced
//! primitives) and their sums and products computed by reference crates at build time.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::marker::PhantomData;

use cyclebench_datasets::software as data;

use super::{reduced_product_to_full, MpAddFn, MpMulFn, REDUCED_MASK};
use crate::harness::{differs, reference, Harness, Rng, Setup, Subject, Timer, FIXED};
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

/// Random operands, canonical in reduced radix when `reduced`.
fn random_operands(rng: &mut Rng, a: &mut [u32], b: &mut [u32], reduced: bool) {
    rng.fill_words(a);
    rng.fill_words(b);
    if reduced {
        a.iter_mut().chain(b.iter_mut()).for_each(|l| *l &= REDUCED_MASK);
    }
}

/// One of the multi-precision primitives: its variants and its radix.
pub trait Operation {
    /// The function pointer type of its variants.
    type Fn: Copy;
    /// Its variant `v`, if this build has it.
    fn select(v: Variant) -> Option<Self::Fn>;
    /// Whether it works in the reduced radix.
    const REDUCED: bool;
}

macro_rules! operations {
    ($($(#[$doc:meta])* $name:ident: $fn:ty = $select:path, $reduced:literal;)*) => {$(
        $(#[$doc])*
        pub struct $name;

        impl Operation for $name {
            type Fn = $fn;
            fn select(v: Variant) -> Option<$fn> {
                $select(v)
            }
            const REDUCED: bool = $reduced;
        }
    )*};
}

operations! {
    /// Addition in radix 2^32 with carries.
    AddFull: MpAddFn = super::add_full, false;
    /// Limb-wise addition in the reduced radix.
    AddReduced: MpAddFn = super::add_reduced, true;
    /// Schoolbook multiplication in radix 2^32.
    MulSchoolbook: MpMulFn = super::mul_schoolbook, false;
    /// Schoolbook multiplication in the reduced radix.
    MulSchoolbookReduced: MpMulFn = super::mul_schoolbook_reduced, true;
    /// One level of Karatsuba in radix 2^32.
    MulKaratsuba: MpMulFn = super::mul_karatsuba, false;
    /// One level of Karatsuba in the reduced radix.
    MulKaratsubaReduced: MpMulFn = super::mul_karatsuba_reduced, true;
}

/// Multi-precision addition with both operands secret.
pub struct MpAdd<O> {
    add: MpAddFn,
    reference: Option<MpAddFn>,
    reduced: bool,
    fixed: (Vec<u32>, Vec<u32>),
    expected: (Vec<u32>, u32),
    a: Vec<u32>,
    b: Vec<u32>,
    r: Vec<u32>,
    /// The reference's sum for class 1.
    scratch: Vec<u32>,
    operation: PhantomData<O>,
}

impl<O: Operation<Fn = MpAddFn>> Harness for MpAdd<O> {
    fn new(setup: &Setup) -> Option<Self> {
        let (n, reduced) = (setup.length, O::REDUCED);
        let add = O::select(setup.variant)?;
        let fixed = fixed_operands(n, reduced);
        let expected = if reduced {
            // Limb-wise sums of reduced limbs never carry.
            (fixed.0.iter().zip(&fixed.1).map(|(x, y)| x + y).collect(), 0)
        } else {
            (data::MP_SUM[..n].to_vec(), u32::from(data::MP_CARRY[n]))
        };
        Some(Self {
            add,
            reference: reference(setup.variant, O::select),
            reduced,
            a: fixed.0.clone(),
            b: fixed.1.clone(),
            fixed,
            expected,
            r: vec![0; n],
            scratch: vec![0; n],
            operation: PhantomData,
        })
    }

    fn repeat<T: Timer>(setup: &Setup, repetitions: u16, timer: &mut T) -> Result<Option<usize>, String> {
        let (length, reduced) = (setup.length, O::REDUCED);
        let Some(add) = O::select(setup.variant) else {
            return Ok(None);
        };
        let (a, c) = fixed_operands(length, reduced);
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
            timer.time(|| carry = add(&mut r, &a, &c));
            differs(&r, &expected)?;
            if carry != expected_carry {
                return Err(format!("carry {carry}, expected {expected_carry}"));
            }
        }
        Ok(Some(add as usize))
    }
}

impl<O> Subject for MpAdd<O> {
    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        if class == FIXED {
            self.a.copy_from_slice(&self.fixed.0);
            self.b.copy_from_slice(&self.fixed.1);
        } else {
            random_operands(rng, &mut self.a, &mut self.b, self.reduced);
        }
        self.r.fill(0);
    }

    fn call(&mut self) -> u32 {
        (self.add)(&mut self.r, &self.a, &self.b)
    }

    fn check(&mut self, class: usize, answer: u32) -> Result<(), String> {
        let (expected, carry) = if class == FIXED {
            (&self.expected.0, self.expected.1)
        } else {
            let Some(reference) = self.reference else {
                return Ok(());
            };
            let carry = reference(&mut self.scratch, &self.a, &self.b);
            (&self.scratch, carry)
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

/// Multi-precision multiplication (schoolbook or Karatsuba) with both operands secret.
pub struct MpMul<O> {
    mul: MpMulFn,
    reference: Option<MpMulFn>,
    reduced: bool,
    fixed: (Vec<u32>, Vec<u32>),
    /// Class 0's product in the output form of the primitive (canonical reduced limbs when
    /// reduced), checked against the known answer when the test is set up.
    expected: Vec<u32>,
    a: Vec<u32>,
    b: Vec<u32>,
    r: Vec<u32>,
    /// The reference's product for class 1.
    scratch: Vec<u32>,
    operation: PhantomData<O>,
}

impl<O: Operation<Fn = MpMulFn>> Harness for MpMul<O> {
    fn new(setup: &Setup) -> Option<Self> {
        let (n, reduced) = (setup.length, O::REDUCED);
        let mul = O::select(setup.variant)?;
        let fixed = fixed_operands(n, reduced);
        // Class 0's product from the Rust variant; `known_answer` compares it with the
        // published one.
        let mut expected = vec![0; 2 * n];
        if let Some(rust) = O::select(Variant::Rust) {
            rust(&mut expected, &fixed.0, &fixed.1);
        }
        Some(Self {
            mul,
            reference: reference(setup.variant, O::select),
            reduced,
            a: fixed.0.clone(),
            b: fixed.1.clone(),
            fixed,
            expected,
            r: vec![0; 2 * n],
            scratch: vec![0; 2 * n],
            operation: PhantomData,
        })
    }

    fn repeat<T: Timer>(setup: &Setup, repetitions: u16, timer: &mut T) -> Result<Option<usize>, String> {
        let (length, reduced) = (setup.length, O::REDUCED);
        let Some(mul) = O::select(setup.variant) else {
            return Ok(None);
        };
        let (a, c) = fixed_operands(length, reduced);
        let table = if reduced {
            &data::MP_REDUCED_PRODUCT
        } else {
            &data::MP_PRODUCT
        };
        let expected = &table[length][..2 * length];
        let mut r = vec![0u32; 2 * length];
        for _ in 0..repetitions {
            r.fill(0);
            timer.time(|| mul(&mut r, &a, &c));
            if reduced {
                differs(&reduced_product_to_full(&r), expected)?;
            } else {
                differs(&r, expected)?;
            }
        }
        Ok(Some(mul as usize))
    }
}

impl<O> Subject for MpMul<O> {
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

    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        if class == FIXED {
            self.a.copy_from_slice(&self.fixed.0);
            self.b.copy_from_slice(&self.fixed.1);
        } else {
            random_operands(rng, &mut self.a, &mut self.b, self.reduced);
        }
        self.r.fill(0);
    }

    fn call(&mut self) -> u32 {
        (self.mul)(&mut self.r, &self.a, &self.b);
        0
    }

    fn check(&mut self, class: usize, _answer: u32) -> Result<(), String> {
        if class == FIXED {
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
