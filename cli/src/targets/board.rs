//! Boards: chips the tool does not start but builds the suite for. `cyclebench prepare --board`
//! builds a board's image and the file its loader takes; the user loads it with the board's
//! own tools, and `cyclebench run --port` then talks to the suite over the board's UART.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::builder::PossibleValue;
use clap::ValueEnum;

use crate::firmware;
use crate::firmware::layout::Layout;
use crate::firmware::memory_image::{self, Memory};

/// The NexysVideo's clocks and baud rate, generated from the snapshot's
/// `sw/device/lib/arch/device_fpga_nexysvideo.c`: the constants the suite's image uses.
#[path = "../../../firmware/drivers/src/opentitan/earlgrey_2021_03/regs/device_fpga_nexysvideo.rs"]
mod nexysvideo;

/// Every board `--board` accepts.
pub const BOARDS: &[Board] = &[Board {
    name: "nexysvideo",
    help: "Earl Grey on the NexysVideo FPGA (the snapshot's top_earlgrey_nexysvideo: AES unmasked, \
           10 MHz): the image for its boot ROM's bootstrap (spiflash)",
    features: "earlgrey,board-nexysvideo",
    baud: nexysvideo::UART_BAUDRATE,
    memories: &[
        // The suite's own ROM stage, which only the Verilator model loads: on the board the
        // bitstream holds the snapshot's boot ROM.
        Memory {
            name: "rom",
            base: 0x8000,
            size: 0x4000,
        },
        // The snapshot's reduction for this board (hw/top_earlgrey/util/top_earlgrey_reduce.py)
        // leaves two banks of 128 pages of 2 KiB.
        Memory {
            name: "flash",
            base: 0x2000_0000,
            size: 0x8_0000,
        },
    ],
    loaded: "flash",
}];

/// A board the suite can be built for.
#[derive(Clone, Debug)]
pub struct Board {
    /// Name on the command line.
    pub name: &'static str,
    /// One line for `--help`.
    pub help: &'static str,
    /// The suite's cargo features for it.
    pub features: &'static str,
    /// The baud rate of its UART: what `run --port DEV --baud` must say.
    pub baud: u32,
    /// The memories the image has data for.
    pub memories: &'static [Memory],
    /// The memory the board's loader writes, as a flat binary from its base.
    pub loaded: &'static str,
}

/// A board's image: the ELF, and the flat binary of the memory its loader writes.
pub struct BoardImage {
    /// The suite's ELF (symbols for a debugger; `--firmware` on a model).
    pub elf: PathBuf,
    /// The loader's input: `<elf>.<memory>.bin`.
    pub binary: PathBuf,
}

impl Board {
    /// Builds the suite for the board with `layout` and writes the binary its loader takes
    /// beside the ELF.
    pub fn prepare(&self, layout: Layout) -> Result<BoardImage> {
        let elf = firmware::build(self.features, false, false, layout)?;
        let (images, _) = memory_image::flatten(&elf, self.memories)?;
        let image = self
            .memories
            .iter()
            .position(|m| m.name == self.loaded)
            .map(|i| &images[i])
            .context("a board's loaded memory is one of its memories")?;
        let binary = elf.with_extension(format!("{}.bin", self.loaded));
        std::fs::write(&binary, image).with_context(|| format!("writing {}", binary.display()))?;
        Ok(BoardImage { elf, binary })
    }
}

/// `--board` takes exactly the names in [`BOARDS`], each with its help line.
impl ValueEnum for Board {
    fn value_variants<'a>() -> &'a [Self] {
        BOARDS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name).help(self.help))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nexysvideo_has_the_clocks_of_its_device_description() {
        let board = BOARDS.iter().find(|b| b.name == "nexysvideo").unwrap();
        // sw/device/lib/arch/device_fpga_nexysvideo.c: 10 MHz, 2.5 MHz, 115200 baud, the
        // 4:1 ratio of CPU to peripheral clock that the Verilator model has too.
        assert_eq!(
            (
                nexysvideo::CLOCK_FREQ_CPU_HZ,
                nexysvideo::CLOCK_FREQ_PERIPHERAL_HZ,
                board.baud
            ),
            (10_000_000, 2_500_000, 115_200)
        );
        assert!(board.features.split(',').any(|f| f == "board-nexysvideo"));
        assert!(board.memories.iter().any(|m| m.name == board.loaded));
    }
}
