//! Registry-wide checks; that every kind's results fit it and name declared phases is shown
//! on the examples of `docs/protocol.md` (`protocol/tests/doc_frames.rs`).

extern crate std;

use super::*;

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
