extern crate std;

use alloc::vec;

use super::*;
use crate::Cycles;

/// A result of every shape, paired with every kind whose results take that shape.
fn shapes_by_kind() -> alloc::vec::Vec<(Phases, &'static [BenchmarkKind])> {
    let c = Cycles::once(7);
    vec![
        (
            Phases::Hash(HashPhases {
                init: c,
                input: c,
                await_digest: c,
                read_digest: c,
                fifo: None,
            }),
            &[BenchmarkKind::Hash][..],
        ),
        (
            Phases::AesTotal(AesTotalPhases {
                init: c,
                process: c,
                deinit: c,
                blocks: 2,
            }),
            &[BenchmarkKind::Aes][..],
        ),
        (
            Phases::AesPerBlock(AesPerBlockPhases {
                init: c,
                write: c,
                compute: c,
                read: c,
                deinit: c,
                blocks: 2,
            }),
            &[BenchmarkKind::Aes][..],
        ),
        (
            Phases::Rng(RngPhases {
                init: c,
                generates: vec![GeneratePhases { generate: c, read: c }; 3],
            }),
            &[BenchmarkKind::RngSeeded, BenchmarkKind::RngTrueRandom][..],
        ),
        (
            Phases::Micro(MicroPhases {
                empty: c,
                nop: c,
                nop10: c,
                add10: c,
                load10: c,
                store10: c,
                mul10: c,
                div: c,
                loop10: c,
            }),
            &[BenchmarkKind::Micro][..],
        ),
        (
            Phases::Software(SoftwarePhases {
                run: c,
                stack_bytes: 8,
                entry: 0x100,
            }),
            &[BenchmarkKind::Software][..],
        ),
    ]
}

#[test]
fn every_phase_a_shape_names_is_declared_by_its_kinds() {
    for (phases, kinds) in shapes_by_kind() {
        for kind in kinds {
            for phase in phases.named() {
                assert!(
                    kind.phases().iter().any(|p| p.matches(&phase.name)),
                    "{} results carry '{}', which {:?}::PHASES does not declare",
                    kind.name(),
                    phase.name,
                    kind
                );
            }
        }
    }
}

#[test]
fn every_kind_has_a_result_shape_in_this_test() {
    for kind in BenchmarkKind::ALL {
        assert!(
            shapes_by_kind().iter().any(|(_, kinds)| kinds.contains(kind)),
            "{kind:?} has no example result"
        );
    }
}

#[test]
fn names_and_tags_are_unique() {
    for (i, a) in BenchmarkKind::ALL.iter().enumerate() {
        for b in &BenchmarkKind::ALL[i + 1..] {
            assert_ne!(a.name(), b.name());
            assert_ne!(a.tag(), b.tag());
        }
        assert_eq!(BenchmarkKind::from_name(a.name()), Some(*a));
        assert_eq!(BenchmarkKind::from_tag(a.tag()), Some(*a));
    }
}

#[test]
fn categories_follow_the_declared_phases() {
    assert_eq!(BenchmarkKind::Hash.category("init"), PhaseCategory::Initialisation);
    assert_eq!(BenchmarkKind::Aes.category("write"), PhaseCategory::Input);
    assert_eq!(BenchmarkKind::Hash.category("await_digest"), PhaseCategory::Computation);
    assert_eq!(
        BenchmarkKind::RngSeeded.category("generate2"),
        PhaseCategory::Computation
    );
    assert_eq!(BenchmarkKind::Hash.category("read_digest"), PhaseCategory::Output);
    assert_eq!(BenchmarkKind::RngTrueRandom.category("read3"), PhaseCategory::Output);
    assert_eq!(BenchmarkKind::Aes.category("deinit"), PhaseCategory::Deinitialisation);
    assert_eq!(BenchmarkKind::Micro.category("nop10"), PhaseCategory::Other);
    // A numbered phase needs its number, and only digits may follow the name.
    assert_eq!(BenchmarkKind::RngSeeded.category("generate"), PhaseCategory::Other);
    assert_eq!(BenchmarkKind::RngSeeded.category("readx"), PhaseCategory::Other);
}

#[cfg(feature = "serde")]
#[test]
fn json_names_are_kind_names() {
    for kind in BenchmarkKind::ALL {
        assert_eq!(serde_json::to_value(kind).unwrap(), kind.name(), "{kind:?}");
    }
}
