//! Where measured code sits in memory, decided once for every platform.

/// The link section of measured code: the `#[inline(never)]` functions that run between two
/// cycle-counter reads take `#[link_section = crate::placement::measured_section!()]`.
///
/// Instruction fetches from Earl Grey's flash add wait states to every instruction, which
/// would be charged to the hardware being measured, so measured code has to run from RAM.
/// riscv-rt's link script puts every `.data.*` input section into `REGION_DATA`, which every
/// platform's `memory.x` maps to RAM, and its start-up copies `.data` there from its load
/// address. On Earl Grey that moves the measured code from flash into RAM; on the RAM-only
/// platforms (QEMU virt, the Ibex testbench) load and run address coincide and the code stays
/// in the RAM it was in. One unconditional section therefore fits every platform, and no
/// benchmark names one.
macro_rules! measured_section {
    () => {
        ".data.measured"
    };
}

pub(crate) use measured_section;
