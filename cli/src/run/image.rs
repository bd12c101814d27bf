//! The image a run starts, built at a layout: the suite, or the suite with the run's
//! implementations from outside the tree.

use std::path::PathBuf;

use anyhow::Result;
use cyclebench_protocol::Request;

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
