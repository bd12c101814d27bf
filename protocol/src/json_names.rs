//! The names the JSON form of a type reads, taken from its own `Deserialize` implementation:
//! the fields of a struct, the variants of an enum. That implementation is what parses a
//! `.bench` line, so a list taken from it cannot miss a field the parser accepts; documents
//! and error messages that list kinds, options or values are checked against it.

use core::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// The field names of the struct `T`, or the variant names of the enum `T`, as its JSON form
/// spells them (renamed ones by their new name); empty for any other type (a number, a string,
/// a type read through another one with `try_from`).
pub fn json_names<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    match T::deserialize(Probe) {
        Err(Found::Names(names)) => names,
        _ => &[],
    }
}

/// A deserializer that holds no data: it stops at the first thing the type asks of it, and
/// when that is a struct or an enum, says which names it declared.
struct Probe;

/// How the probe ended.
#[derive(Debug)]
enum Found {
    /// The type is a struct or enum with these names.
    Names(&'static [&'static str]),
    /// The type asked for anything else.
    Other,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Names(names) => write!(f, "names {names:?}"),
            Self::Other => f.write_str("not a struct or enum"),
        }
    }
}

impl core::error::Error for Found {}

impl de::Error for Found {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Self::Other
    }
}

impl<'de> Deserializer<'de> for Probe {
    type Error = Found;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Other)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Found> {
        Err(Found::Names(fields))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Found> {
        Err(Found::Names(variants))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::json_names;
    use crate::{BenchmarkKind, HashAlgorithm, HashBenchmark, LeakageBenchmark, Request};

    #[test]
    fn structs_give_their_fields_and_enums_their_variants() {
        assert_eq!(json_names::<HashAlgorithm>(), ["sha2", "sha3"]);
        let hash = json_names::<HashBenchmark>();
        assert!(hash.contains(&"algorithm") && hash.contains(&"track_fifo"), "{hash:?}");
        // A renamed field goes by its JSON name.
        let leakage = json_names::<LeakageBenchmark>();
        assert!(
            leakage.contains(&"impl") && !leakage.contains(&"implementation"),
            "{leakage:?}"
        );
        assert!(json_names::<u32>().is_empty());
        assert!(json_names::<crate::DatasetId>().is_empty());
    }

    #[test]
    fn every_kind_names_its_options_and_the_requests_include_the_benchmark() {
        for kind in BenchmarkKind::ALL {
            assert!(
                kind.options().contains(&"repetitions") || *kind == BenchmarkKind::Leakage,
                "{kind:?}"
            );
        }
        assert!(json_names::<Request>().contains(&Request::BENCHMARK));
        assert_eq!(
            Request::control_names(),
            ["hello", "get_status", "done", "suspend", "repeat"]
        );
    }
}
