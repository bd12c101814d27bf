//! Targets: what `--target` / `--port` name, and how to start or reach them. Every target the
//! tool starts itself is one entry of [`TARGETS`]; its simulator kind lives in a module of its
//! own. A board the suite is built for, but which the tool reaches only on `--port`, is one
//! entry of [`board::BOARDS`].

mod args;
mod board;
mod earlgrey;
mod ibex;
mod model;
mod qemu;
mod simulator;
pub mod variants;

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Result};
use clap::builder::PossibleValue;
use clap::ValueEnum;

pub use args::{timeout_seconds, TargetArgs};
pub use board::Board;
pub use simulator::Simulator;

use crate::firmware;
use crate::firmware::layout::Layout;
use crate::link::Link;

/// Every target `--target` accepts, in the order `--help` lists them.
pub const TARGETS: &[Target] = &[
    Target {
        name: "qemu-virt",
        help: "QEMU `virt` (functional only, not cycle-accurate; software modules)",
        firmware: FirmwareBuild {
            features: "qemu-virt",
            zbb: false,
        },
        simulator: Simulator::Qemu,
        timeouts: QEMU_TIMEOUTS,
        links: &[],
    },
    Target {
        name: "qemu-virt-zbb",
        help: "QEMU `virt` with the Zbb extension, firmware built for it (functional only)",
        firmware: FirmwareBuild {
            features: "qemu-virt",
            zbb: true,
        },
        simulator: Simulator::Qemu,
        timeouts: QEMU_TIMEOUTS,
        links: &[],
    },
    Target {
        name: "ibex-sim",
        help: "Cycle-accurate Ibex core (RV32IMC, as in Earl Grey) with RAM and a host link",
        firmware: FirmwareBuild {
            features: "ibex-sim",
            zbb: false,
        },
        simulator: Simulator::Ibex { config: "rv32imc" },
        timeouts: IBEX_TIMEOUTS,
        links: &[],
    },
    Target {
        name: "ibex-sim-zbb",
        help: "Cycle-accurate Ibex core with bit manipulation (Zbb: rotations, and-not)",
        firmware: FirmwareBuild {
            features: "ibex-sim",
            zbb: true,
        },
        simulator: Simulator::Ibex { config: "zbb" },
        timeouts: IBEX_TIMEOUTS,
        links: &[],
    },
    Target {
        name: "earlgrey-sim",
        help: "OpenTitan Earl Grey Verilator model, the snapshot's default (AES masked)",
        firmware: FirmwareBuild {
            features: "earlgrey",
            zbb: false,
        },
        simulator: Simulator::EarlGrey { config: "masked" },
        timeouts: EARLGREY_TIMEOUTS,
        links: EARLGREY_LINKS,
    },
    Target {
        name: "earlgrey-sim-unmasked",
        help: "OpenTitan Earl Grey Verilator model with AES masking off (as the thesis measured)",
        firmware: FirmwareBuild {
            features: "earlgrey,aes-unmasked",
            zbb: false,
        },
        simulator: Simulator::EarlGrey { config: "unmasked" },
        timeouts: EARLGREY_TIMEOUTS,
        links: EARLGREY_LINKS,
    },
];

/// The target started when neither `--target` nor `--port` is given: the configuration the
/// thesis measured.
const DEFAULT_TARGET: &str = "earlgrey-sim-unmasked";

/// QEMU runs the suite faster than any real core, so a silent QEMU has failed; its replies
/// follow within milliseconds.
const QEMU_TIMEOUTS: Timeouts = Timeouts::new(30, 120, 10);

/// The Ibex model simulates every cycle: the longest software benchmark (the biggest input,
/// the most repetitions) is one request that takes minutes.
const IBEX_TIMEOUTS: Timeouts = Timeouts::new(60, 900, 50);

/// The Earl Grey model simulates the whole chip, far slower than the Ibex model alone, and over
/// its UART every byte crosses the simulated 7200-baud line: even the hello takes minutes. The
/// longest request, an offload job of 16 KiB with its software run (RustCrypto AES-256-CBC,
/// millions of cycles), needs a reply limit of many minutes on a loaded machine.
const EARLGREY_TIMEOUTS: Timeouts = Timeouts::new(300, 1800, 2000);

/// The Earl Grey model's testbench has a mailbox the simulator serves (no simulated time on the
/// UART, the same cycle counts), and the chip's UART is there as on a board.
const EARLGREY_LINKS: &[LinkKind] = &[LinkKind::Mailbox, LinkKind::Uart];

/// One target the tool can start itself: everything that differs from one target to the next.
#[derive(Clone, Debug)]
pub struct Target {
    /// Name on the command line and in results.
    pub name: &'static str,
    /// One line for `--help`.
    pub help: &'static str,
    /// How the suite firmware is built for it.
    pub firmware: FirmwareBuild,
    /// What runs the firmware.
    pub simulator: Simulator,
    /// How long to wait for it unless `--hello-timeout` / `--timeout` say otherwise.
    pub timeouts: Timeouts,
    /// The host links `--link` can choose, the default first; empty when the target has one
    /// link only.
    pub links: &'static [LinkKind],
}

/// A host link, where a target offers more than one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LinkKind {
    /// The simulation testbench's mailbox: the simulator moves whole lines between cycles, so
    /// the link costs no simulated time (the suite built with its `sim-link` feature).
    Mailbox,
    /// The chip's UART, as a board is reached (7200 baud in the Earl Grey model).
    Uart,
}

impl LinkKind {
    /// The suite's cargo feature that selects this link, if it is not the default one.
    fn firmware_feature(self) -> Option<&'static str> {
        match self {
            Self::Mailbox => Some("sim-link"),
            Self::Uart => None,
        }
    }
}

/// The suite firmware's build configuration for a target.
#[derive(Clone, Copy, Debug)]
pub struct FirmwareBuild {
    /// The suite's cargo features (comma-separated).
    pub features: &'static str,
    /// Whether the firmware is compiled for a core with Zbb (QEMU is then told to execute it;
    /// a Verilator model must be a configuration with it).
    pub zbb: bool,
}

/// Default waits for a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// For the suite's hello after the simulator started.
    pub hello: Duration,
    /// For the reply to one request.
    pub request: Duration,
    /// Without a byte from the target for this long while a reply is due, the host asks the
    /// suite what became of the request (and waits twice as long before asking again).
    pub quiet: Duration,
}

impl Timeouts {
    /// Hello and request timeouts in seconds, the quiet spell in milliseconds.
    pub const fn new(hello: u64, request: u64, quiet_ms: u64) -> Self {
        Self {
            hello: Duration::from_secs(hello),
            request: Duration::from_secs(request),
            quiet: Duration::from_millis(quiet_ms),
        }
    }
}

impl Target {
    /// The target called `name` on the command line.
    pub fn named(name: &str) -> Option<&'static Target> {
        TARGETS.iter().find(|t| t.name == name)
    }

    /// The target started when none is named.
    pub fn default_target() -> &'static Target {
        Self::named(DEFAULT_TARGET).expect("DEFAULT_TARGET names an entry of TARGETS")
    }

    /// The link to use: `requested` if the target offers it, else its default (`None` for a
    /// target with one link only).
    pub fn link(&self, requested: Option<LinkKind>) -> Result<Option<LinkKind>> {
        match requested {
            None => Ok(self.links.first().copied()),
            Some(link) if self.links.contains(&link) => Ok(Some(link)),
            Some(link) => {
                let offering: Vec<&str> = TARGETS
                    .iter()
                    .filter(|t| t.links.contains(&link))
                    .map(|t| t.name)
                    .collect();
                bail!(
                    "--link {} is not offered by {} (it is by {})",
                    link.to_possible_value()
                        .map_or_else(String::new, |v| v.get_name().to_owned()),
                    self.name,
                    offering.join(", ")
                )
            }
        }
    }

    /// The suite's cargo features for this target reached over `link`.
    pub fn firmware_features(&self, link: Option<LinkKind>) -> String {
        match link.and_then(LinkKind::firmware_feature) {
            Some(feature) => format!("{},{feature}", self.firmware.features),
            None => self.firmware.features.to_owned(),
        }
    }

    /// Starts the target running `firmware`, or the suite built for it (the self-test build
    /// when `selftest`), reached over `link` (or the target's default link). Returns the link
    /// and the ELF that runs.
    ///
    /// With `trace`, the core's instruction trace goes into that directory (Earl Grey models
    /// only: the others are built without the tracer). On Earl Grey, `model` names the variant
    /// of the chip to run (the whole chip when `None`).
    pub fn start(
        &self,
        firmware: Option<&Path>,
        selftest: bool,
        link: Option<LinkKind>,
        trace: Option<&Path>,
        layout: Layout,
        model: Option<&str>,
    ) -> Result<(Link, PathBuf)> {
        let link_kind = self.link(link)?;
        if trace.is_some() && !matches!(self.simulator, Simulator::EarlGrey { .. }) {
            bail!(
                "--instruction-trace needs a simulated Earl Grey ({}): {} has no instruction tracer",
                earlgrey_target_names().join(", "),
                self.name
            );
        }
        // The model first: its build is the long step, and fails without touching firmware.
        let simulator = self.simulator.prepare(model)?;
        let elf = match firmware {
            Some(elf) if elf.exists() => elf.to_path_buf(),
            Some(elf) => bail!("firmware {} does not exist", elf.display()),
            None => firmware::build(&self.firmware_features(link_kind), self.firmware.zbb, selftest, layout)?,
        };
        let link = simulator.start(self, &elf, link_kind, trace)?;
        Ok((link, elf))
    }
}

impl Target {
    /// Builds (or finds cached) the model and the suite firmware a run on this target over
    /// `link` needs, without starting anything; returns the firmware's ELF.
    pub fn prepare(&self, link: Option<LinkKind>, layout: Layout) -> Result<PathBuf> {
        let link_kind = self.link(link)?;
        self.simulator.prepare(None)?;
        firmware::build(&self.firmware_features(link_kind), self.firmware.zbb, false, layout)
    }
}

impl Target {
    /// Whether the target runs an Earl Grey model, which has variants (`--model`).
    pub fn is_earlgrey(&self) -> bool {
        matches!(self.simulator, Simulator::EarlGrey { .. })
    }
}

/// The targets that run an Earl Grey model.
fn earlgrey_target_names() -> Vec<&'static str> {
    TARGETS
        .iter()
        .filter(|t| matches!(t.simulator, Simulator::EarlGrey { .. }))
        .map(|t| t.name)
        .collect()
}

/// `--target` takes exactly the names in [`TARGETS`], each with its help line.
impl ValueEnum for Target {
    fn value_variants<'a>() -> &'a [Self] {
        TARGETS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name).help(self.help))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_has_its_own_name_and_parses_back() {
        for (i, target) in TARGETS.iter().enumerate() {
            assert!(
                TARGETS[..i].iter().all(|t| t.name != target.name),
                "{} twice",
                target.name
            );
            let parsed = Target::from_str(target.name, false).unwrap();
            assert_eq!(parsed.name, target.name);
        }
    }

    #[test]
    fn the_default_target_exists() {
        assert_eq!(Target::default_target().name, DEFAULT_TARGET);
    }

    #[test]
    fn earlgrey_models_default_to_the_mailbox_and_keep_the_uart() {
        for name in ["earlgrey-sim", "earlgrey-sim-unmasked"] {
            let target = Target::named(name).unwrap();
            assert_eq!(target.link(None).unwrap(), Some(LinkKind::Mailbox));
            assert_eq!(target.link(Some(LinkKind::Uart)).unwrap(), Some(LinkKind::Uart));
            let base = target.firmware.features;
            assert_eq!(
                target.firmware_features(Some(LinkKind::Mailbox)),
                format!("{base},sim-link")
            );
            assert_eq!(target.firmware_features(Some(LinkKind::Uart)), base);
        }
        let qemu = Target::named("qemu-virt").unwrap();
        assert_eq!(qemu.link(None).unwrap(), None);
        assert_eq!(qemu.firmware_features(None), "qemu-virt");
        let e = qemu.link(Some(LinkKind::Uart)).unwrap_err().to_string();
        assert!(
            e.contains("--link uart") && e.contains("qemu-virt") && e.contains("earlgrey-sim"),
            "{e}"
        );
    }

    #[test]
    fn only_earlgrey_models_take_an_instruction_trace() {
        let dir = Path::new("unused-trace-dir");
        for target in TARGETS
            .iter()
            .filter(|t| !matches!(t.simulator, Simulator::EarlGrey { .. }))
        {
            // Refused before anything is built or started.
            let Err(e) = target.start(None, false, None, Some(dir), Layout::default(), None) else {
                panic!("{} took an instruction trace", target.name);
            };
            let e = e.to_string();
            assert!(
                e.contains("--instruction-trace") && e.contains(target.name) && e.contains("earlgrey-sim-unmasked"),
                "{e}"
            );
        }
        assert!(!dir.exists());
    }

    #[test]
    fn zbb_firmware_runs_only_where_zbb_executes() {
        for target in TARGETS {
            match target.simulator {
                Simulator::Qemu => {}
                Simulator::Ibex { config } => assert_eq!(target.firmware.zbb, config == "zbb", "{}", target.name),
                Simulator::EarlGrey { .. } => assert!(!target.firmware.zbb, "{}", target.name),
            }
        }
    }
}
