//! The image a run starts, built at a layout: the suite, or the suite with the run's
//! implementations from outside the tree.

use std::path::PathBuf;

use anyhow::{bail, Result};
use cyclebench_protocol::{Benchmark, Request};

use super::config::{ImageSource, RunConfig};
use crate::bench_file::{Action, Line};
use crate::firmware;
use crate::firmware::layout::Layout;
use crate::implementation;

/// An image the tool built.
pub(crate) struct Built {
    /// The ELF.
    pub elf: PathBuf,
    /// How each implementation it carries was built, in `--impl` order.
    pub facts: Vec<implementation::Facts>,
}

/// The run's image at `layout`: the ELF given with `--firmware` as it is, else built; `None`
/// for a board, whose image the tool never sees. With implementations, the image holds only
/// the suite's parts the requests of `files` use.
pub(crate) fn build(config: &RunConfig, files: &[(PathBuf, Vec<Line>)], layout: Layout) -> Result<Option<Built>> {
    let built = match &config.image {
        ImageSource::Board => return Ok(None),
        ImageSource::Given(elf) => Built {
            elf: elf.clone(),
            facts: Vec::new(),
        },
        ImageSource::Suite => {
            let (features, zbb) = config.target.firmware_build()?;
            Built {
                elf: firmware::build(&features, zbb, false, layout)?,
                facts: Vec::new(),
            }
        }
        ImageSource::WithImplementations(dirs) => {
            let folders: Vec<implementation::Folder> = dirs
                .iter()
                .map(|dir| implementation::Folder::read(dir))
                .collect::<Result<_>>()?;
            named_in(&folders, files)?;
            let (features, zbb) = config.target.firmware_build()?;
            if layout == config.layout {
                eprintln!(
                    "building the image with {} ...",
                    implementation::Folder::names(&folders)
                );
            }
            let requests = files.iter().flat_map(|(_, lines)| lines).filter_map(|line| match line {
                Line::Action {
                    action: Action::Request(Request::Benchmark(b)),
                    ..
                } => Some(b),
                _ => None,
            });
            let image = implementation::build(&features, zbb, &folders, requests, layout)?;
            Built {
                elf: image.elf,
                facts: image.facts,
            }
        }
    };
    Ok(Some(built))
}

/// Refuses requests of `files` that name an implementation none of `folders` carries, before
/// anything is built: a misspelt name would otherwise cost the image's build and the run up to
/// that line.
fn named_in(folders: &[implementation::Folder], files: &[(PathBuf, Vec<Line>)]) -> Result<()> {
    let mut unknown = Vec::new();
    for (path, lines) in files {
        for line in lines {
            let Line::Action {
                number,
                action: Action::Request(Request::Benchmark(b)),
                ..
            } = line
            else {
                continue;
            };
            let name = match b {
                Benchmark::Implementation(i) => Some(&i.name),
                Benchmark::Leakage(l) => l.implementation.as_ref(),
                _ => None,
            };
            if let Some(name) = name.filter(|n| !folders.iter().any(|f| f.manifest.name == **n)) {
                let at = format!("{}:{number} names \"{name}\"", path.display());
                if !unknown.contains(&at) {
                    unknown.push(at);
                }
            }
        }
    }
    if unknown.is_empty() {
        return Ok(());
    }
    bail!(
        "no --impl folder carries the implementation that {}; the folders given carry: {}",
        unknown.join(", "),
        implementation::Folder::names(folders)
    )
}
