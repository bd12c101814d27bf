//! An ordered name → value map that reads and writes as a JSON object, keeping the order of
//! its entries (phases are listed in execution order).

use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// Entries in order; names are unique.
#[derive(Clone, Debug, PartialEq)]
pub struct Named<T>(Vec<(String, T)>);

impl<T> Default for Named<T> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<T> Named<T> {
    /// Adds an entry at the end (replacing the value of an existing name in place).
    pub fn insert(&mut self, name: String, value: T) {
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => *v = value,
            None => self.0.push((name, value)),
        }
    }

    /// The value named `name`.
    pub fn get(&self, name: &str) -> Option<&T> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

impl<T> Deref for Named<T> {
    type Target = [(String, T)];
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl<T> FromIterator<(String, T)> for Named<T> {
    fn from_iter<I: IntoIterator<Item = (String, T)>>(iter: I) -> Self {
        let mut named = Self::default();
        iter.into_iter().for_each(|(n, v)| named.insert(n, v));
        named
    }
}

impl<T: Serialize> Serialize for Named<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// Reads a JSON object (or `null`, as empty), naming the entry whose value does not fit.
impl<'de, T: DeserializeOwned> Deserialize<'de> for Named<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NamedVisitor<T>(PhantomData<T>);

        impl<'de, T: DeserializeOwned> Visitor<'de> for NamedVisitor<T> {
            type Value = Named<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of named values, or null")
            }

            fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                Ok(Named::default())
            }

            fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                Ok(Named::default())
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut named = Named::default();
                while let Some((name, value)) = map.next_entry::<String, Value>()? {
                    let parsed = serde_json::from_value::<T>(value.clone()).map_err(|_| {
                        serde::de::Error::custom(format!("'{name}' has a value that does not fit: {value}"))
                    })?;
                    named.insert(name, parsed);
                }
                Ok(named)
            }
        }

        deserializer.deserialize_any(NamedVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_and_round_trips() {
        let n: Named<u64> = serde_json::from_str(r#"{"init":9,"input":20,"await_digest":5}"#).unwrap();
        let names: Vec<&str> = n.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["init", "input", "await_digest"]);
        assert_eq!(
            serde_json::to_string(&n).unwrap(),
            r#"{"init":9,"input":20,"await_digest":5}"#
        );
        assert_eq!(n.get("input"), Some(&20));
    }

    #[test]
    fn null_is_empty_and_a_wrong_value_is_named() {
        assert!(serde_json::from_str::<Named<u64>>("null").unwrap().is_empty());
        let e = serde_json::from_str::<Named<u64>>(r#"{"init":-1}"#).unwrap_err();
        assert!(
            e.to_string().contains("'init' has a value that does not fit: -1"),
            "{e}"
        );
    }
}
