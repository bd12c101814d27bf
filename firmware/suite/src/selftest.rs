//! On-target self-tests: the runtime first (heap, cycle counter, wire codec), then every
//! module over every dataset. A failure does not stop the run; an absent module is a skip,
//! not a pass. The last line is `N passed, N failed, N skipped`.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use cyclebench_protocol::{
    AesBenchmark, Benchmark, BenchmarkResults, DatasetId, Direction, Granularity, HashAlgorithm, HashBenchmark,
    HashStyle, MicroBenchmark, Request, RngSeededBenchmark, RngTrueRandomBenchmark, Trigger,
};

use crate::benchmarks;
use crate::cycles;
use crate::platform::Platform;
use crate::runtime::heap;

enum Verdict {
    Pass,
    Fail(String),
    Skip(String),
}

struct Runner<'a, P: Platform> {
    platform: &'a mut P,
    passed: u32,
    failed: u32,
    skipped: u32,
}

impl<P: Platform> Runner<'_, P> {
    fn say(&mut self, text: &str) {
        self.platform.comm().write_line(text.as_bytes());
    }

    fn record(&mut self, name: &str, verdict: Verdict) {
        let line = match verdict {
            Verdict::Pass => {
                self.passed += 1;
                format!("test {name} ... ok")
            }
            Verdict::Fail(why) => {
                self.failed += 1;
                format!("test {name} ... FAILED: {why}")
            }
            Verdict::Skip(why) => {
                self.skipped += 1;
                format!("test {name} ... skipped ({why})")
            }
        };
        self.say(&line);
    }

    fn benchmark(&mut self, name: &str, benchmark: Benchmark, overhead: u32) {
        let verdict = match benchmarks::run(self.platform, &benchmark, overhead, &[]) {
            Ok(BenchmarkResults::Measured(_)) => Verdict::Pass,
            Ok(BenchmarkResults::Unsupported { reason, .. }) => Verdict::Skip(reason),
            Err(e) => Verdict::Fail(format!("{:?}: {}", e.kind, e.detail)),
        };
        self.record(name, verdict);
    }
}

fn check(ok: bool, why: impl FnOnce() -> String) -> Verdict {
    if ok {
        Verdict::Pass
    } else {
        Verdict::Fail(why())
    }
}

fn id(s: &str) -> DatasetId {
    DatasetId::new(s).unwrap_or_else(|_| panic!("dataset id {s}"))
}

/// Runs every self-test, prints the summary and stops the platform with the verdict.
pub fn run<P: Platform>(platform: &mut P, overhead: u32) -> ! {
    let mut r = Runner {
        platform,
        passed: 0,
        failed: 0,
        skipped: 0,
    };
    r.say("");
    let hello = cyclebench_protocol::wire::encode_reply(None, &crate::serve::hello(r.platform, overhead));
    r.say(&hello);
    r.say(&format!("cyclebench self-test on {}", P::NAME));

    // Runtime.
    let free_before = heap::free();
    let v: Vec<u32> = (0..4096).collect();
    let boxed = Box::new([7u8; 1024]);
    let sum: u64 = v.iter().map(|&x| u64::from(x)).sum();
    r.record(
        "runtime::heap_alloc",
        check(sum == 4095 * 4096 / 2 && boxed[1023] == 7, || {
            String::from("heap data corrupted")
        }),
    );
    drop(v);
    drop(boxed);
    r.record(
        "runtime::heap_free",
        check(heap::free() == free_before, || {
            format!("{} bytes leaked", free_before - heap::free())
        }),
    );
    let a = cycles::now();
    let b = cycles::now();
    r.record(
        "runtime::cycle_counter_advances",
        check(b > a, || format!("{a} then {b}")),
    );
    r.record(
        "runtime::overhead_calibrated",
        check(overhead > 0 && overhead < 100, || format!("overhead {overhead} cycles")),
    );
    let mut line = String::new();
    let _ = write!(
        line,
        "{}",
        cyclebench_protocol::wire::encode_request(41, &Request::GetStatus)
    );
    r.record(
        "runtime::wire_round_trip",
        check(
            cyclebench_protocol::wire::decode_request(line.as_bytes()) == Ok((41, Request::GetStatus)),
            || line.clone(),
        ),
    );

    // Modules, every dataset.
    for algorithm in [HashAlgorithm::Sha2, HashAlgorithm::Sha3] {
        for d in cyclebench_datasets::HASH {
            for style in [HashStyle::ApiConform, HashStyle::Tight] {
                let name = format!("{algorithm:?}::{}::{style:?}", d.id).to_lowercase();
                let b = HashBenchmark {
                    algorithm,
                    dataset: Some(id(d.id)),
                    length: None,
                    seed: None,
                    repeated_block: None,
                    message_hex: None,
                    expected: None,
                    style,
                    track_fifo: true,
                    software: None,
                    repetitions: None,
                };
                r.benchmark(&name, Benchmark::Hash(b), overhead);
            }
        }
    }
    for d in cyclebench_datasets::AES {
        for (direction, granularity, trigger) in [
            (Direction::Encrypt, Granularity::Total, Trigger::Automatic),
            (Direction::Decrypt, Granularity::PerBlock, Trigger::Manual),
        ] {
            let name = format!("aes::{}::{direction:?}::{granularity:?}::{trigger:?}", d.id).to_lowercase();
            let b = AesBenchmark {
                dataset: Some(id(d.id)),
                mode: None,
                key_bits: None,
                length: None,
                repeated_block: None,
                seed: None,
                key_hex: None,
                iv_hex: None,
                message_hex: None,
                expected: None,
                direction,
                granularity,
                trigger,
                tight: false,
                status_pad: None,
                software: None,
                repetitions: None,
            };
            r.benchmark(&name, Benchmark::Aes(b), overhead);
        }
    }
    for d in cyclebench_datasets::RNG {
        let b = RngSeededBenchmark {
            dataset: id(d.id),
            init_wait: None,
            repetitions: None,
        };
        r.benchmark(&format!("rng::{}", d.id), Benchmark::RngSeeded(b), overhead);
    }
    let trng = RngTrueRandomBenchmark {
        blocks: 3,
        init_wait: None,
        repetitions: None,
    };
    r.benchmark("rng::entropy_seeded", Benchmark::RngTrueRandom(trng), overhead);
    r.benchmark(
        "micro::instruction_blocks",
        Benchmark::Micro(MicroBenchmark { repetitions: Some(3) }),
        overhead,
    );

    // Software primitives, every variant this core can execute.
    for variant in cyclebench_swcrypto::Variant::ALL {
        if variant == cyclebench_swcrypto::Variant::Zbb && !cfg!(target_feature = "zbb") {
            r.record(
                "swcrypto::zbb",
                Verdict::Skip(String::from("firmware not built for a core with Zbb")),
            );
            continue;
        }
        cyclebench_swcrypto::self_test(variant, &mut |name, verdict| {
            let verdict = match verdict {
                Ok(()) => Verdict::Pass,
                Err(why) => Verdict::Fail(why),
            };
            r.record(&format!("swcrypto::{name}"), verdict);
        });
    }

    #[cfg(feature = "ibex-sim")]
    documented_timings(&mut r, overhead);

    let summary = format!("{} passed, {} failed, {} skipped", r.passed, r.failed, r.skipped);
    let success = r.failed == 0;
    r.say(&summary);
    r.platform.comm().flush();
    P::stop(success)
}

/// Every documented instruction block, after subtracting the calibrated overhead, takes
/// exactly its documented cycles, every repetition.
#[cfg(feature = "ibex-sim")]
fn documented_timings<P: Platform>(r: &mut Runner<'_, P>, overhead: u32) {
    use crate::timing_check::{BLOCKS, REPETITIONS};
    for block in BLOCKS {
        let mut corrected = [0i64; REPETITIONS];
        for c in corrected.iter_mut() {
            *c = i64::from((block.run)()) - i64::from(overhead);
        }
        let all_documented = corrected.iter().all(|&c| c == i64::from(block.documented));
        r.record(
            &format!("calibration::{}", block.name),
            check(all_documented, || {
                format!(
                    "documented {} cycles, measured {:?} after subtracting {overhead}",
                    block.documented, corrected
                )
            }),
        );
    }
}
