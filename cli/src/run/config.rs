//! A run's configuration, resolved once from the command line, the environment and, for
//! `--resume`, the run being continued: every later step reads it and none changes it.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::ValueEnum;

use super::meta::Meta;
use super::units::Shard;
use super::Args;
use crate::bench_file::Line;
use crate::firmware::layout::Layout;
use crate::session::Timing;
use crate::targets::variants::{self, Variant};
use crate::targets::{LinkKind, Target, TargetArgs};

/// The image a run starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ImageSource {
    /// The suite, built by the tool for the target.
    Suite,
    /// An ELF given with `--firmware`.
    Given(PathBuf),
    /// The suite with implementations from outside the tree (`--impl`), built by the tool.
    WithImplementations(Vec<PathBuf>),
    /// Whatever runs on a board on `--port`: the tool builds and sees no image.
    Board,
}

impl ImageSource {
    /// Whether the tool builds the image (and so knows the compilers that built it).
    pub fn built_here(&self) -> bool {
        matches!(self, Self::Suite | Self::WithImplementations(_))
    }
}

/// Which variant of the chip's model runs the requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ModelChoice {
    /// The target has no variants.
    Only,
    /// Each file on the smallest of these variants that holds every block it uses.
    Smallest(Vec<Variant>),
    /// Every file on this one.
    Fixed(String),
}

impl ModelChoice {
    /// What `--model` asks of `target`; `variants` are the tree's.
    fn resolve(target: &TargetArgs, asked: Option<&str>, variants: Vec<Variant>) -> Result<Self> {
        let is_earlgrey = target.port.is_none()
            && target
                .target
                .as_ref()
                .unwrap_or_else(|| Target::default_target())
                .is_earlgrey();
        match asked {
            _ if !is_earlgrey && asked.is_some() => {
                bail!(
                    "--model chooses a variant of a simulated Earl Grey; {} has none",
                    target.label()
                )
            }
            _ if !is_earlgrey => Ok(Self::Only),
            // A trace needs a model with the core's RVFI (the whole chip has it); without one the
            // faster models serve.
            None | Some("auto") => {
                let tracing = target.instruction_trace.is_some();
                Ok(Self::Smallest(
                    variants.into_iter().filter(|v| v.traced == tracing).collect(),
                ))
            }
            Some(name) if name == variants::FULL => Ok(Self::Fixed(name.to_owned())),
            Some(name) if variants.iter().any(|v| v.name == name) => {
                if target.instruction_trace.is_some() && variants.iter().any(|v| v.name == name && !v.traced) {
                    bail!("--model {name} is built without the core's RVFI and writes no instruction trace (sim/earlgrey/variants)");
                }
                Ok(Self::Fixed(name.to_owned()))
            }
            Some(name) => {
                let known: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
                bail!(
                    "--model {name}: no such model (auto, {}{}{})",
                    variants::FULL,
                    if known.is_empty() { "" } else { ", " },
                    known.join(", ")
                )
            }
        }
    }

    /// The variant a file of `lines` runs on.
    pub fn for_lines(&self, lines: &[Line]) -> Option<String> {
        match self {
            Self::Only => None,
            Self::Fixed(name) => Some(name.clone()),
            Self::Smallest(variants) => {
                Some(variants::choose(variants, variants::blocks_used(lines).as_deref()).to_owned())
            }
        }
    }
}

/// Link faults injected for robustness tests: the fraction of bytes damaged, and the seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Faults {
    pub rate: f64,
    pub seed: u64,
}

/// Everything a run needs to know before it starts.
#[derive(Debug)]
pub(crate) struct RunConfig {
    /// The `.bench` files, as given (or as the resumed run names them).
    pub files: Vec<PathBuf>,
    /// Where to run.
    pub target: TargetArgs,
    /// What runs there.
    pub image: ImageSource,
    /// Which variant of the chip's model runs each file.
    pub model: ModelChoice,
    /// The layout of every image the tool builds for the run's own requests (placements move
    /// it further).
    pub layout: Layout,
    /// The results directory.
    pub out_dir: PathBuf,
    /// The part of the files this run measures.
    pub shard: Shard,
    /// Whether `--shard` was given (a shard's directory must not be started twice).
    pub sharded: bool,
    /// The run continued with `--resume`, as its `run.json` says.
    pub resuming: Option<Meta>,
    /// Instances of the target side by side.
    pub instances: usize,
    /// The waits and attempts of every session.
    pub timing: Timing,
    /// Damage to inject into the link, if any.
    pub faults: Option<Faults>,
    /// Whether large sweeps may run.
    pub yes: bool,
    /// Whether no report is written at the end.
    pub no_report: bool,
}

impl RunConfig {
    /// Resolves `args` with the environment (`available` cores, the layout padding) and, for
    /// `--resume`, the run in that directory.
    pub fn resolve(args: Args, layout: Layout, available: usize) -> Result<Self> {
        let resuming = args.resume.as_deref().map(Meta::read).transpose()?;
        let (files, target, implementations) = match (&resuming, &args.resume) {
            (Some(meta), Some(dir)) => adopt(dir, meta, &args)?,
            _ => (args.files.clone(), args.target.clone(), args.implementations.clone()),
        };
        let image = match (&target.port, &target.firmware) {
            (Some(_), _) => ImageSource::Board,
            (None, Some(elf)) => ImageSource::Given(elf.clone()),
            (None, None) if implementations.is_empty() => ImageSource::Suite,
            (None, None) => ImageSource::WithImplementations(implementations),
        };
        let instances = match (&target.port, args.jobs) {
            (Some(_), Some(j)) if j > 1 => {
                bail!("--jobs needs a target the tool starts itself; a board on --port is one instance")
            }
            (Some(_), _) => 1,
            (None, Some(j)) => j as usize,
            (None, None) => available.max(1),
        };
        let model = ModelChoice::resolve(
            &target,
            target.model.as_deref(),
            variants::read(&crate::firmware::repo_root())?,
        )?;
        let (hello_timeout, timeout) = target.timeouts()?;
        let mut timing = Timing::new(hello_timeout, timeout, target.quiet());
        timing.attempts = args.attempts;
        if let Some(before) = &resuming {
            if before.layout_pad != layout.pad {
                bail!(
                    "{} was measured with {} bytes of layout padding, this run has {}: set {} as it was",
                    args.resume.as_deref().unwrap_or(Path::new("")).display(),
                    before.layout_pad,
                    layout.pad,
                    crate::firmware::layout::PAD_VAR
                );
            }
        }
        let out_dir = match (&args.resume, &args.out) {
            (Some(dir), _) => dir.clone(),
            (None, Some(out)) => out.clone(),
            (None, None) => default_out_dir(&target.label()),
        };
        Ok(Self {
            shard: match &resuming {
                Some(meta) => meta.shard(),
                None => args.shard.unwrap_or(Shard::WHOLE),
            },
            sharded: args.shard.is_some(),
            files,
            target,
            image,
            model,
            layout,
            out_dir,
            resuming,
            instances,
            timing,
            faults: args.inject_faults.map(|rate| Faults {
                rate,
                seed: args.fault_seed,
            }),
            yes: args.yes,
            no_report: args.no_report,
        })
    }

    /// The target's label in results.
    pub fn label(&self) -> String {
        self.target.label()
    }
}

/// The files, target and implementations of the run in `dir` (its `meta`), unless `args` gives
/// them (given ones must be the run's).
fn adopt(dir: &Path, meta: &Meta, args: &Args) -> Result<(Vec<PathBuf>, TargetArgs, Vec<PathBuf>)> {
    let files = if args.files.is_empty() {
        meta.files.clone()
    } else if args.files != meta.files {
        bail!(
            "{} is a run of {}, not of {}",
            dir.display(),
            names(&meta.files),
            names(&args.files)
        );
    } else {
        args.files.clone()
    };
    let mut target = args.target.clone();
    if target.port.is_none() && target.target.is_none() {
        match meta.target.strip_prefix("serial:") {
            Some(port) => target.port = Some(port.to_owned()),
            None => {
                let named = Target::named(&meta.target).with_context(|| {
                    format!(
                        "{} names target {}, which this cyclebench does not know",
                        dir.display(),
                        meta.target
                    )
                })?;
                target.target = Some(named.clone());
            }
        }
    }
    if target.link.is_none() {
        target.link = meta.link.as_deref().and_then(|l| LinkKind::from_str(l, true).ok());
    }
    // The implementations the run measured, from the folders it named, as they are now.
    let implementations = if args.implementations.is_empty() {
        meta.implementations.iter().map(|f| f.folder.clone()).collect()
    } else {
        args.implementations.clone()
    };
    Ok((files, target, implementations))
}

fn names(files: &[PathBuf]) -> String {
    files
        .iter()
        .map(|f| f.display().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `results/<timestamp>-<target>`.
fn default_out_dir(label: &str) -> PathBuf {
    let safe: String = label
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' })
        .collect();
    PathBuf::from("results").join(format!("{}-{safe}", chrono::Local::now().format("%Y%m%d-%H%M%S")))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        run: Args,
    }

    fn resolve(words: &[&str]) -> Result<RunConfig> {
        let cli = Cli::try_parse_from(std::iter::once("cyclebench").chain(words.iter().copied()))
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        RunConfig::resolve(cli.run, Layout::default(), 4)
    }

    #[test]
    fn the_image_follows_from_the_options() {
        assert_eq!(resolve(&["a.bench"]).unwrap().image, ImageSource::Suite);
        assert_eq!(
            resolve(&["--firmware", "s.elf", "a.bench"]).unwrap().image,
            ImageSource::Given(PathBuf::from("s.elf"))
        );
        assert_eq!(
            resolve(&["--impl", "x", "--impl", "y", "a.bench"]).unwrap().image,
            ImageSource::WithImplementations(vec![PathBuf::from("x"), PathBuf::from("y")])
        );
        assert_eq!(
            resolve(&["--port", "/dev/ttyUSB0", "a.bench"]).unwrap().image,
            ImageSource::Board
        );
        assert!(ImageSource::Suite.built_here() && !ImageSource::Board.built_here());
    }

    #[test]
    fn instances_default_to_the_cores_and_a_board_is_one() {
        assert_eq!(resolve(&["a.bench"]).unwrap().instances, 4);
        assert_eq!(resolve(&["-j", "2", "a.bench"]).unwrap().instances, 2);
        assert_eq!(resolve(&["--port", "p", "a.bench"]).unwrap().instances, 1);
        let e = resolve(&["--port", "p", "-j", "2", "a.bench"]).unwrap_err();
        assert!(
            format!("{e:#}").contains("--jobs needs a target the tool starts"),
            "{e:#}"
        );
    }

    #[test]
    fn the_timing_and_the_out_dir_are_resolved_once() {
        let config = resolve(&["--target", "qemu-virt", "--attempts", "5", "--out", "r", "a.bench"]).unwrap();
        assert_eq!(config.timing.attempts, 5);
        assert_eq!(config.out_dir, PathBuf::from("r"));
        assert_eq!(config.shard, Shard::WHOLE);
        let default = resolve(&["--target", "qemu-virt", "a.bench"]).unwrap().out_dir;
        assert!(
            default.starts_with("results") && default.to_string_lossy().ends_with("-qemu-virt"),
            "{}",
            default.display()
        );
    }

    #[test]
    fn the_model_is_chosen_on_earl_grey_only() {
        let variants = vec![
            Variant {
                name: String::from("reduced"),
                removed: vec![String::from("otbn")],
                traced: false,
            },
            Variant {
                name: String::from("reduced-traced"),
                removed: vec![String::from("otbn")],
                traced: true,
            },
        ];
        let (untraced, traced) = (variants[..1].to_vec(), variants[1..].to_vec());
        let target = |words: &[&str]| resolve(&[words, &["a.bench"]].concat()).unwrap().target;
        let choice = |words: &[&str], asked| ModelChoice::resolve(&target(words), asked, variants.clone());
        assert_eq!(choice(&[], None).unwrap(), ModelChoice::Smallest(untraced.clone()));
        assert_eq!(
            choice(&[], Some("auto")).unwrap(),
            ModelChoice::Smallest(untraced.clone())
        );
        assert_eq!(
            choice(&[], Some("full")).unwrap(),
            ModelChoice::Fixed(String::from("full"))
        );
        assert_eq!(
            choice(&[], Some("reduced")).unwrap(),
            ModelChoice::Fixed(String::from("reduced"))
        );
        let e = choice(&[], Some("tiny")).unwrap_err();
        assert!(
            format!("{e:#}").contains("no such model (auto, full, reduced, reduced-traced)"),
            "{e:#}"
        );
        // A trace runs on the models built with RVFI only: the traced variants and the whole
        // chip.
        assert_eq!(
            choice(&["--instruction-trace", "t"], None).unwrap(),
            ModelChoice::Smallest(traced.clone())
        );
        assert_eq!(
            ModelChoice::Smallest(Vec::new()).for_lines(&[]).as_deref(),
            Some("full")
        );
        let e = choice(&["--instruction-trace", "t"], Some("reduced")).unwrap_err();
        assert!(format!("{e:#}").contains("writes no instruction trace"), "{e:#}");
        assert_eq!(
            choice(&["--instruction-trace", "t"], Some("reduced-traced")).unwrap(),
            ModelChoice::Fixed(String::from("reduced-traced"))
        );
        assert_eq!(choice(&["--target", "qemu-virt"], None).unwrap(), ModelChoice::Only);
        let e = choice(&["--target", "ibex-sim"], Some("full")).unwrap_err();
        assert!(format!("{e:#}").contains("ibex-sim has none"), "{e:#}");
        assert_eq!(ModelChoice::Only.for_lines(&[]), None);
        assert_eq!(
            ModelChoice::Smallest(untraced).for_lines(&[]).as_deref(),
            Some("reduced")
        );
    }

    #[test]
    fn a_resumed_run_gives_its_files_target_and_implementations() {
        let dir = tempfile::tempdir().unwrap();
        let made = resolve(&[
            "--target",
            "qemu-virt",
            "--impl",
            "impl/x",
            "--shard",
            "1/3",
            "a.bench",
            "b.bench",
        ])
        .unwrap();
        let facts = crate::implementation::Facts {
            name: String::from("x"),
            language: String::from("c"),
            interface: String::from(cyclebench_protocol::Interface::Hash.name()),
            compiler: String::new(),
            flags: String::new(),
            folder: PathBuf::from("impl/x"),
        };
        let meta = Meta {
            shard: Some(made.shard.into()),
            implementations: vec![facts],
            inputs: vec![String::from("aa"), String::from("bb")],
            ..Meta::new(&made.label(), vec![PathBuf::from("a.bench"), PathBuf::from("b.bench")])
        };
        meta.write(dir.path()).unwrap();
        let resumed = resolve(&["--resume", dir.path().to_str().unwrap()]).unwrap();
        assert_eq!(resumed.files, [PathBuf::from("a.bench"), PathBuf::from("b.bench")]);
        assert_eq!(resumed.label(), "qemu-virt");
        assert_eq!(
            resumed.image,
            ImageSource::WithImplementations(vec![PathBuf::from("impl/x")])
        );
        assert_eq!(resumed.shard, made.shard);
        assert_eq!(resumed.out_dir, dir.path());
        let e = resolve(&["--resume", dir.path().to_str().unwrap(), "c.bench"]).unwrap_err();
        assert!(
            format!("{e:#}").contains("is a run of a.bench b.bench, not of c.bench"),
            "{e:#}"
        );
        let e = RunConfig::resolve(
            Cli::try_parse_from(["cyclebench", "--resume", dir.path().to_str().unwrap()])
                .unwrap()
                .run,
            Layout { pad: 8, placement: 0 },
            1,
        )
        .unwrap_err();
        assert!(
            format!("{e:#}").contains("0 bytes of layout padding, this run has 8"),
            "{e:#}"
        );
    }
}
