//! The kinds of simulator a target runs on: what each needs before it starts, and how it is
//! started. A new kind is a variant here plus a module with its `start`.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{earlgrey, ibex, qemu, variants, LinkKind, Target};
use crate::firmware;
use crate::link::Link;

/// What runs a target's firmware, with the configuration of its model.
#[derive(Clone, Copy, Debug)]
pub enum Simulator {
    /// QEMU `virt`; the CPU executes Zbb when the firmware is built for it.
    Qemu,
    /// The Ibex Verilator model built by `sim/ibex/build.sh <config>`.
    Ibex {
        /// `rv32imc` or `zbb`.
        config: &'static str,
    },
    /// The Earl Grey Verilator model built by `sim/earlgrey/build.sh <config>`.
    EarlGrey {
        /// `masked` or `unmasked` AES.
        config: &'static str,
    },
}

/// A simulator whose model is built, ready to start.
pub(super) enum Prepared {
    Qemu,
    Ibex(PathBuf),
    EarlGrey(PathBuf),
}

impl Simulator {
    /// Builds the model, or finds it in the cache: on Earl Grey, the variant `model` of the
    /// chip (`None` or [`variants::FULL`]: the whole chip in this target's configuration).
    pub(super) fn prepare(self, model: Option<&str>) -> Result<Prepared> {
        Ok(match self {
            Self::Qemu => Prepared::Qemu,
            Self::Ibex { config } => Prepared::Ibex(ibex::model(config)?),
            Self::EarlGrey { config } => {
                let variant = model.filter(|m| *m != variants::FULL);
                Prepared::EarlGrey(earlgrey::model(variant.unwrap_or(config))?)
            }
        })
    }
}

impl Prepared {
    /// Starts the simulator with `elf` for `target`, reached over `link` where the target
    /// offers a choice, writing the core's instruction trace into `trace` (Earl Grey only;
    /// [`Target::start`] refuses it for the others).
    pub(super) fn start(
        self,
        target: &Target,
        elf: &Path,
        link: Option<LinkKind>,
        trace: Option<&Path>,
    ) -> Result<Link> {
        match self {
            Self::Qemu => qemu::start(elf, target.firmware.zbb),
            Self::Ibex(model) => ibex::start(&model, elf),
            Self::EarlGrey(model) => {
                let link = link.unwrap_or(LinkKind::Mailbox);
                let work = firmware::repo_root().join("target/sim").join(target.name);
                earlgrey::start(&model, elf, &work, link, trace)
            }
        }
    }
}
