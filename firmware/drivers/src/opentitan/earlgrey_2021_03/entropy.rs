//! The entropy complex: entropy_src feeds CSRNG, whose hardware instances feed the EDNs that
//! give masked AES (and KMAC) their randomness. Enabled once at start-up, as the snapshot's
//! own `aes_test.c` does; masked AES stalls until it runs.

use super::regs::{csrng, edn, entropy_src};
use crate::mmio::Mmio;

/// CONF.enable: LFSR mode (the Verilator top has no physical noise source).
const ENTROPY_SRC_ENABLE_LFSR: u32 = 0x2;

/// Enables entropy_src, CSRNG and the given EDNs, in that order.
pub fn enable(entropy_src_regs: Mmio, csrng_regs: Mmio, edns: &[Mmio]) {
    entropy_src_regs.write(
        entropy_src::CONF_REG_OFFSET,
        (ENTROPY_SRC_ENABLE_LFSR & entropy_src::CONF_ENABLE_MASK) << entropy_src::CONF_ENABLE_OFFSET,
    );
    csrng_regs.write(csrng::CTRL_REG_OFFSET, 1 << csrng::CTRL_ENABLE_BIT);
    for edn_regs in edns {
        edn_regs.write(edn::CTRL_REG_OFFSET, 1 << edn::CTRL_EDN_ENABLE_BIT);
    }
}
