//! The heap: a linked-list allocator over a static region.

use core::mem::MaybeUninit;

use embedded_alloc::Heap;

/// Heap size. Requests are bounded on the wire, so the heap holds one request's working set:
/// its samples (at most `MAX_REPETITIONS` rows of phases), a leakage test's histograms, an
/// offload's shared regions (`benchmarks/offload/regions.rs`), plus small messages. A request
/// that does not fit is refused with an error, not a crash.
pub const HEAP_SIZE: usize = 64 * 1024;

#[global_allocator]
static HEAP: Heap = Heap::empty();

/// Hands the static region to the allocator; call once, first thing after reset.
pub fn init() {
    // Outside .bss, which start-up zeroes: nothing reads the region before the allocator
    // writes it, and zeroing it would be a loop over the whole heap (from flash on Earl Grey)
    // before the hello. Every platform's memory.x places `.uninit`.
    #[link_section = ".uninit.heap"]
    static mut REGION: [MaybeUninit<u8>; HEAP_SIZE] = [MaybeUninit::uninit(); HEAP_SIZE];
    // SAFETY: called once at start-up before any allocation; REGION is used by nothing else.
    unsafe { HEAP.init(core::ptr::addr_of_mut!(REGION) as usize, HEAP_SIZE) }
}

/// Bytes currently free on the heap.
#[allow(dead_code)] // used by the self-tests
pub fn free() -> usize {
    HEAP.free()
}
