//! Pin multiplexer: route UART0 to its pads, as the snapshot's `sw/device/lib/pinmux.c` does
//! (the Verilator top wires the UART DPI to MIO pads 32 and 33).

use super::regs::{pinmux as r, top_earlgrey as top};
use crate::mmio::Mmio;

/// Peripheral input index of UART0 RX and output index of UART0 TX (`pinmux.c`).
const UART_PERIPH_IDX: u32 = 32;
/// MIO pad carrying UART RX into the chip.
const UART_RX_PAD: u32 = 32;
/// MIO pad carrying UART TX out of the chip.
const UART_TX_PAD: u32 = 33;

/// Connects UART0 RX and TX to their pads.
pub fn route_uart0(regs: Mmio) {
    let insel = r::MIO_PERIPH_INSEL_0_REG_OFFSET + (UART_PERIPH_IDX as usize) * 4;
    regs.write(
        insel,
        (UART_RX_PAD + top::PINMUX_MIO_PERIPH_INSEL_IDX_OFFSET) & r::MIO_PERIPH_INSEL_0_IN_0_MASK,
    );
    let outsel = r::MIO_OUTSEL_0_REG_OFFSET + (UART_TX_PAD as usize) * 4;
    regs.write(
        outsel,
        (UART_PERIPH_IDX + top::PINMUX_PERIPH_OUTSEL_IDX_OFFSET) & r::MIO_OUTSEL_0_OUT_0_MASK,
    );
}
