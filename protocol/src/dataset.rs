use alloc::string::String;
use core::fmt;

/// Name of a dataset stored on the suite: input, configuration and expected output.
///
/// Restricted to 1–24 characters of `[a-z0-9_-]` so that it is one token on the wire.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub struct DatasetId(String);

/// Why a string is not a valid [`DatasetId`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DatasetIdError {
    /// Empty or longer than [`DatasetId::MAX_LEN`].
    Length,
    /// Contains a character outside `[a-z0-9_-]`.
    Character,
}

impl fmt::Display for DatasetIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Length => write!(f, "dataset id must be 1 to {} characters", DatasetId::MAX_LEN),
            Self::Character => f.write_str("dataset id may only hold a-z, 0-9, '-' and '_'"),
        }
    }
}

impl DatasetId {
    /// Longest dataset id.
    pub const MAX_LEN: usize = 24;

    /// Validates `id` and wraps it.
    pub fn new(id: &str) -> Result<Self, DatasetIdError> {
        if id.is_empty() || id.len() > Self::MAX_LEN {
            return Err(DatasetIdError::Length);
        }
        if !id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        {
            return Err(DatasetIdError::Character);
        }
        Ok(Self(String::from(id)))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for DatasetId {
    type Error = DatasetIdError;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::new(&value)
    }
}

impl From<DatasetId> for String {
    fn from(value: DatasetId) -> Self {
        value.0
    }
}

impl fmt::Display for DatasetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
