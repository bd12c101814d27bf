//! Values made to live in registers at a given point of a measured function: each passes
//! through an empty asm block that the compiler must assume changes it, so nothing after that
//! point can recompute it (an address from a slice and an index, a split of a slice) inside a
//! measurement window.

use core::arch::asm;

/// `value`'s address, in a register from here on.
#[inline(always)]
pub fn reference<T>(value: &T) -> &T {
    let mut address = core::ptr::from_ref(value);
    // SAFETY: an empty instruction sequence; the address goes in and comes out unchanged.
    unsafe { asm!("/* {0} */", inout(reg) address, options(nostack, preserves_flags)) };
    // SAFETY: `address` is `value`'s, unchanged, and the result borrows as `value` does.
    unsafe { &*address }
}

/// `value`'s address, in a register from here on.
#[inline(always)]
pub fn mutable<T>(value: &mut T) -> &mut T {
    let mut address = core::ptr::from_mut(value);
    // SAFETY: an empty instruction sequence; the address goes in and comes out unchanged.
    unsafe { asm!("/* {0} */", inout(reg) address, options(nostack, preserves_flags)) };
    // SAFETY: `address` is `value`'s, unchanged, and `value`'s borrow moves into the result.
    unsafe { &mut *address }
}

/// `items`' address and length, in registers from here on.
#[inline(always)]
pub fn slice<T>(items: &[T]) -> &[T] {
    let (mut address, mut len) = (items.as_ptr(), items.len());
    // SAFETY: an empty instruction sequence; address and length go in and come out unchanged.
    unsafe { asm!("/* {0} {1} */", inout(reg) address, inout(reg) len, options(nostack, preserves_flags)) };
    // SAFETY: `address` and `len` are `items`', unchanged, and the result borrows as `items` does.
    unsafe { core::slice::from_raw_parts(address, len) }
}
