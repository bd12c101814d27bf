//! The options shared by every subcommand that talks to a target.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;

use super::{LinkKind, Target, Timeouts, TARGETS};
use crate::firmware::layout::Layout;
use crate::link::{self, Link};

/// A board on `--port` boots in well under a second and runs the suite at full speed: a
/// hello that takes seconds, or a reply that takes minutes, means it is not listening.
const SERIAL_TIMEOUTS: Timeouts = Timeouts::new(10, 120, 50);

/// Where to run: a target the tool starts, or a board on a serial port.
#[derive(clap::Args, Clone, Debug)]
pub struct TargetArgs {
    /// Target to start (builds the firmware, and the model of a simulated chip, if needed).
    /// Default: earlgrey-sim-unmasked, the configuration the thesis measured.
    #[arg(long, value_enum, conflicts_with = "port")]
    pub target: Option<Target>,
    /// Serial port (or PTY) of a board already running the suite, instead of --target.
    #[arg(long)]
    pub port: Option<String>,
    /// Baud rate for --port.
    #[arg(long, default_value_t = 115_200, requires = "port", value_parser = clap::value_parser!(u32).range(1..))]
    pub baud: u32,
    /// Use this suite ELF instead of building one (--target only; on a simulated Earl Grey it
    /// must be built for the --link used: the suite's `sim-link` feature for the mailbox).
    #[arg(long, conflicts_with = "port")]
    pub firmware: Option<PathBuf>,
    /// Host link on a simulated Earl Grey (--target only): `mailbox`, the default, is the
    /// testbench's mailbox, which costs no simulated time; `uart` is the chip's UART at 7200
    /// baud, as a board is reached. Cycle counts are the same over both.
    #[arg(long, value_enum, conflicts_with = "port")]
    pub link: Option<LinkKind>,
    /// On a simulated Earl Grey: write the Ibex core's instruction trace (every retired
    /// instruction with its cycle, the registers it read and wrote, and the address and data of
    /// each load and store) into DIR, one file per instance. The model runs about three times
    /// slower and writes some 100 bytes per cycle: trace a few requests, not a whole set.
    #[arg(long, value_name = "DIR", conflicts_with = "port")]
    pub instruction_trace: Option<PathBuf>,
    /// On a simulated Earl Grey: the model of the chip. `auto`, the default, runs each file on
    /// the smallest variant that holds every block its requests use (sim/earlgrey/variants:
    /// the same cycles as the whole chip, simulated sooner); `full` runs everything on the
    /// whole chip; a variant's name runs everything on that variant.
    #[arg(long, value_name = "MODEL", conflicts_with = "port")]
    pub model: Option<String>,
    /// Seconds to wait for the suite's hello after start or connect; the default depends on
    /// the target, and the help, generated from the same tables, says it.
    #[arg(
        long,
        value_name = "SECONDS",
        value_parser = timeout_seconds,
        allow_negative_numbers = true,
        help = help(HELLO_TIMEOUT, |t| t.hello, false),
        long_help = help(HELLO_TIMEOUT, |t| t.hello, true),
    )]
    pub hello_timeout: Option<Duration>,
    /// Seconds to wait for the reply to one request (for `selftest`: for the whole self-test);
    /// the default depends on the target, and the help says it.
    #[arg(
        long,
        value_name = "SECONDS",
        value_parser = timeout_seconds,
        allow_negative_numbers = true,
        help = help(REQUEST_TIMEOUT, |t| t.request, false),
        long_help = help(REQUEST_TIMEOUT, |t| t.request, true),
    )]
    pub timeout: Option<Duration>,
}

const HELLO_TIMEOUT: &str = "Seconds to wait for the suite's hello after start or connect";
const REQUEST_TIMEOUT: &str = "Seconds to wait for the reply to one request, or for `selftest` to finish";

/// The help of a timeout flag: what it is, and its default for `--port` and each target, in
/// clap's form (on the same line for `-h`, a paragraph of its own for `--help`).
fn help(what: &str, wait: fn(Timeouts) -> Duration, long: bool) -> String {
    let separator = if long { "\n\n" } else { " " };
    format!("{what}{separator}[default: {}]", defaults(wait))
}

/// The default of one wait for `--port` and each target, equal ones grouped, e.g.
/// "10 with --port; 30 on qemu-virt, qemu-virt-zbb; 60 on ...".
fn defaults(wait: fn(Timeouts) -> Duration) -> String {
    let port = wait(SERIAL_TIMEOUTS);
    let mut groups: Vec<(Duration, Vec<&str>)> = Vec::new();
    for target in TARGETS {
        let value = wait(target.timeouts);
        match groups.iter_mut().find(|(v, _)| *v == value) {
            Some((_, names)) => names.push(target.name),
            None => groups.push((value, vec![target.name])),
        }
    }
    let mut parts = Vec::new();
    if !groups.iter().any(|(v, _)| *v == port) {
        parts.push(format!("{} with --port", port.as_secs()));
    }
    for (value, names) in groups {
        let port = if value == port { " with --port and" } else { "" };
        parts.push(format!("{}{port} on {}", value.as_secs(), names.join(", ")));
    }
    parts.join("; ")
}

/// Parses a number of seconds for a timeout: positive, and small enough for a [`Duration`].
pub fn timeout_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| String::from("expected a number of seconds, e.g. 30 or 2.5"))?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(String::from("a timeout must be more than 0 seconds"));
    }
    match Duration::try_from_secs_f64(seconds) {
        Ok(d) if !d.is_zero() => Ok(d),
        Ok(_) => Err(String::from("a timeout must be at least one nanosecond")),
        Err(_) => Err(format!(
            "too long: a timeout can be at most {} seconds",
            Duration::MAX.as_secs()
        )),
    }
}

impl TargetArgs {
    /// Name of the target for results: the target name, or `serial:<port>`.
    pub fn label(&self) -> String {
        match &self.port {
            Some(port) => format!("serial:{port}"),
            None => self.target().name.to_owned(),
        }
    }

    /// The host link a started target is reached over, where it offers a choice (`mailbox`,
    /// `uart`); `None` for a target with one link and for a board.
    pub fn link_name(&self) -> Option<String> {
        if self.port.is_some() {
            return None;
        }
        let link = self.target().link(self.link).ok()??;
        Some(format!("{link:?}").to_lowercase())
    }

    fn target(&self) -> &Target {
        self.target.as_ref().unwrap_or_else(|| Target::default_target())
    }

    /// The target's default waits.
    fn defaults(&self) -> Timeouts {
        if self.port.is_some() {
            SERIAL_TIMEOUTS
        } else {
            self.target().timeouts
        }
    }

    /// How long a silent link is waited on before the host probes the suite.
    pub fn quiet(&self) -> Duration {
        self.defaults().quiet
    }

    /// (hello timeout, request timeout): the flags, or the defaults of `--port` or the target.
    pub fn timeouts(&self) -> Result<(Duration, Duration)> {
        let defaults = self.defaults();
        Ok((
            self.hello_timeout.unwrap_or(defaults.hello),
            self.timeout.unwrap_or(defaults.request),
        ))
    }

    /// The suite's cargo features and whether it is built for Zbb, for the target and link
    /// chosen (a started target only).
    pub fn firmware_build(&self) -> Result<(String, bool)> {
        let target = self.target();
        let link = target.link(self.link)?;
        Ok((target.firmware_features(link), target.firmware.zbb))
    }

    /// Starts the target running `elf`, another image of the suite (one placement of its
    /// measured code); not for `--port`.
    pub fn start_image(&self, elf: &Path) -> Result<Link> {
        let (link, _) = self
            .target()
            .start(Some(elf), false, self.link, None, Layout::default(), None)?;
        Ok(link)
    }

    /// Starts (or opens) the target for the self-test firmware, built with the layout the
    /// environment asks for. Returns the link and the ELF, when known (not for `--port`).
    pub fn connect_selftest(&self) -> Result<(Link, Option<PathBuf>)> {
        self.connect(None, true, Layout::from_env()?, None)
    }

    /// Starts (or opens) the target for a run: `image` (an image the run built), else the
    /// `--firmware` given, else the suite built with `layout`, on the chip variant `model`
    /// (Earl Grey). Returns the link and the ELF that runs, when known (not for `--port`).
    pub fn connect_run(
        &self,
        image: Option<&Path>,
        layout: Layout,
        model: Option<&str>,
    ) -> Result<(Link, Option<PathBuf>)> {
        self.connect(image, false, layout, model)
    }

    fn connect(
        &self,
        image: Option<&Path>,
        selftest: bool,
        layout: Layout,
        model: Option<&str>,
    ) -> Result<(Link, Option<PathBuf>)> {
        if let Some(port) = &self.port {
            return Ok((link::open_serial(port, self.baud)?, None));
        }
        let (link, elf) = self.target().start(
            image.or(self.firmware.as_deref()),
            selftest,
            self.link,
            self.instruction_trace.as_deref(),
            layout,
            model,
        )?;
        Ok((link, Some(elf)))
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        target: TargetArgs,
    }

    fn parse(args: &[&str]) -> Result<TargetArgs, String> {
        Cli::try_parse_from(std::iter::once("cyclebench").chain(args.iter().copied()))
            .map(|cli| cli.target)
            .map_err(|e| e.to_string())
    }

    fn timeouts(args: &[&str]) -> (u64, u64) {
        let (hello, request) = parse(args).unwrap().timeouts().unwrap();
        (hello.as_secs(), request.as_secs())
    }

    #[test]
    fn each_kind_of_target_has_its_own_defaults() {
        assert_eq!(timeouts(&["--port", "/dev/ttyUSB0"]), (10, 120));
        assert_eq!(timeouts(&["--target", "qemu-virt"]), (30, 120));
        assert_eq!(timeouts(&["--target", "ibex-sim-zbb"]), (60, 900));
        assert_eq!(timeouts(&["--target", "earlgrey-sim"]), (300, 1800));
        // Neither flag: the default target.
        assert_eq!(timeouts(&[]), (300, 1800));
        assert_eq!(
            timeouts(&["--port", "p", "--hello-timeout", "2.5", "--timeout", "7"]),
            (2, 7)
        );
        let (hello, _) = parse(&["--hello-timeout", "0.25"]).unwrap().timeouts().unwrap();
        assert_eq!(hello, Duration::from_millis(250));
    }

    #[test]
    fn the_help_states_every_default() {
        assert_eq!(
            defaults(|t| t.hello),
            "10 with --port; 30 on qemu-virt, qemu-virt-zbb; 60 on ibex-sim, ibex-sim-zbb; \
             300 on earlgrey-sim, earlgrey-sim-unmasked"
        );
        assert_eq!(
            defaults(|t| t.request),
            "120 with --port and on qemu-virt, qemu-virt-zbb; \
             900 on ibex-sim, ibex-sim-zbb; 1800 on earlgrey-sim, earlgrey-sim-unmasked"
        );
        let short = help(HELLO_TIMEOUT, |t| t.hello, false);
        assert!(short.starts_with("Seconds to wait for the suite's hello after start or connect [default: 10 with"));
        assert!(help(REQUEST_TIMEOUT, |t| t.request, true).contains("to finish\n\n[default: 120 with --port and on"));
    }

    #[test]
    fn nonsense_timeouts_are_rejected_when_parsed() {
        for (value, needle) in [
            ("1e300", "too long"),
            ("inf", "too long"),
            ("-1", "more than 0"),
            ("0", "more than 0"),
            ("NaN", "more than 0"),
            ("1e-12", "at least one nanosecond"),
            ("soon", "expected a number of seconds"),
        ] {
            for flag in ["--timeout", "--hello-timeout"] {
                let e = parse(&[flag, value]).map(|_| ()).unwrap_err();
                assert!(e.contains(needle) && e.contains(flag), "{flag} {value}: {e}");
            }
        }
    }

    #[test]
    fn link_is_chosen_for_a_started_target() {
        assert_eq!(
            parse(&["--target", "earlgrey-sim", "--link", "uart"]).unwrap().link,
            Some(LinkKind::Uart)
        );
        assert_eq!(parse(&["--link", "mailbox"]).unwrap().link, Some(LinkKind::Mailbox));
        assert_eq!(parse(&[]).unwrap().link, None);
        let e = parse(&["--port", "p", "--link", "uart"]).map(|_| ()).unwrap_err();
        assert!(e.contains("--link"), "{e}");
        let e = parse(&["--link", "spi"]).map(|_| ()).unwrap_err();
        assert!(e.contains("mailbox") && e.contains("uart"), "{e}");
    }

    #[test]
    fn baud_must_be_positive() {
        let e = parse(&["--port", "p", "--baud", "0"]).map(|_| ()).unwrap_err();
        assert!(e.contains("--baud"), "{e}");
        assert_eq!(parse(&["--port", "p", "--baud", "9600"]).unwrap().baud, 9600);
    }
}
