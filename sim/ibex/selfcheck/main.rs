// Self-check program for the Ibex testbench: all of it is assembly (selfcheck.s); Rust is only
// the wrapper that lets rustc's assembler and linker build it (no C cross toolchain needed).
#![no_std]
#![no_main]

core::arch::global_asm!(include_str!("selfcheck.s"), options(raw));

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
