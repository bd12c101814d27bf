//! The suite's own image: the suite with no implementation from outside the tree.
#![no_std]
#![no_main]

#[riscv_rt::entry]
fn main() -> ! {
    cyclebench_suite::start(&[])
}
