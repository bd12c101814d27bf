//! Where the suite's measured code sits in an Earl Grey image (`firmware/suite/build/layout.rs`
//! places it): the padding of a layout experiment, and the placement of the measured block.
//! Both reach the suite's build as environment variables, and an image built with either is
//! kept apart from the default one under a name of its own.

use std::process::Command;

use anyhow::{bail, Result};

/// The rules of the measured block, shared with the suite's build script.
#[path = "../../../firmware/suite/build/layout_rules.rs"]
pub mod rules;

pub use rules::PAD_VAR;
use rules::{BLOCK_ALIGN, MEASURED_CRATES_VAR, PAD_LIMIT, PLACEMENT_VAR, RAM_FUNCTION_ALIGN};

/// The most placements of the measured block: one per step below its alignment.
pub const MAX_PLACEMENTS: u32 = BLOCK_ALIGN / PLACEMENT_STEP;
/// Placements are this many bytes apart: the size of a compressed instruction.
pub const PLACEMENT_STEP: u32 = 2;

/// An image's layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Bytes of unrelated code at the start of flash.
    pub pad: u32,
    /// Bytes the measured block starts past its 2 KiB boundary.
    pub placement: u32,
}

impl Layout {
    /// The padding the user asked for with [`PAD_VAR`], at the default placement.
    pub fn from_env() -> Result<Self> {
        let pad = match std::env::var(PAD_VAR) {
            Err(_) => 0,
            Ok(text) => rules::even_bytes(PAD_VAR, &text, PAD_LIMIT).map_err(anyhow::Error::msg)?,
        };
        Ok(Self { pad, placement: 0 })
    }

    /// This layout with the measured block `placement` bytes past its boundary.
    pub fn placed(self, placement: u32) -> Self {
        Self { placement, ..self }
    }

    /// What tells this image apart from the default one, for its file name and cache key:
    /// empty for the default.
    pub fn suffix(&self) -> String {
        let mut suffix = String::new();
        if self.pad != 0 {
            suffix.push_str(&format!("-pad{}", self.pad));
        }
        if self.placement != 0 {
            suffix.push_str(&format!("-at{}", self.placement));
        }
        suffix
    }

    /// Refuses a layout other than the default for a platform without the measured block.
    pub fn check_platform(&self, features: &str) -> Result<()> {
        if *self != Self::default() && !features.starts_with("earlgrey") {
            bail!(
                "{PAD_VAR} and placements apply to Earl Grey only: the other targets run their code from RAM \
                 without a cache or flash buffers, where the measured block sits at a fixed address with every \
                 function in it {RAM_FUNCTION_ALIGN}-byte aligned, so no other code can move or misalign it"
            );
        }
        Ok(())
    }

    /// Gives the suite's build this layout (and the measured crates of `run --impl`).
    pub fn apply(&self, cargo: &mut Command, measured_crates: &[String]) {
        cargo
            .env(PAD_VAR, self.pad.to_string())
            .env(PLACEMENT_VAR, self.placement.to_string())
            .env(MEASURED_CRATES_VAR, measured_crates.join(","));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_layout_has_no_suffix_and_others_differ() {
        assert_eq!(Layout::default().suffix(), "");
        assert_eq!(
            Layout {
                pad: 1234,
                placement: 0
            }
            .suffix(),
            "-pad1234"
        );
        assert_eq!(Layout { pad: 0, placement: 6 }.suffix(), "-at6");
        assert_eq!(Layout { pad: 2, placement: 4 }.suffix(), "-pad2-at4");
    }

    #[test]
    fn only_earl_grey_takes_another_layout() {
        let padded = Layout {
            pad: 1234,
            placement: 0,
        };
        assert!(padded.check_platform("earlgrey,aes-unmasked").is_ok());
        assert!(padded.check_platform("qemu-virt").is_err());
        assert!(Layout::default().check_platform("ibex-sim").is_ok());
    }
}
