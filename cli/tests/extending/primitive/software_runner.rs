
fn example_fold(b: &SoftwareBenchmark, repetitions: u16, rec: &mut Recorder) -> Timed {
    let Some(f) = cyclebench_swcrypto::example_fold::fold(variant(b.variant)) else {
        return Ok(None);
    };
    // Opaque to the optimiser, so that the fold runs inside the window instead of being
    // worked out while compiling.
    let f = core::hint::black_box(f);
    let input = core::hint::black_box(cyclebench_swcrypto::example_fold::INPUT);
    for _ in 0..repetitions {
        let mut folded = 0;
        rec.record(timed(|| folded = f(&input)));
        if folded != cyclebench_swcrypto::example_fold::OUTPUT {
            return Err(wrong(b, format!("{folded:08x}")));
        }
    }
    Ok(Some(f as usize))
}
