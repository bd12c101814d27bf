//! AES (thesis 5.1.9): shadowed control written twice, key in two shares, IV, data in and
//! out registers, manual or automatic operation.

use cyclebench_modules::{AesConfig, AesEngine, AesMode, KeyLength, ModuleError};

use super::regs::aes as r;
use crate::mmio::Mmio;
use crate::wait;

/// The AES block.
pub struct Aes {
    regs: Mmio,
}

impl Aes {
    /// Binds the driver to the block at `regs`.
    pub fn new(regs: Mmio) -> Self {
        Self { regs }
    }

    /// Writes consecutive registers; `N` is a constant at every call site, so this unrolls
    /// into plain stores (a loop would add several cycles per word to the measured phase).
    #[inline(always)]
    fn write_words<const N: usize>(&self, first: usize, words: &[u32; N]) {
        self.regs.write_consecutive(first, words);
    }

    /// Waits for STATUS.idle.
    #[inline(always)]
    pub fn wait_idle(&self) -> Result<(), ModuleError> {
        wait::until("aes idle", wait::Limit::Short, || {
            self.regs.bit(r::STATUS_REG_OFFSET, r::STATUS_IDLE_BIT)
        })
    }
}

#[inline(always)]
fn control_word(config: &AesConfig) -> u32 {
    let mode = match config.mode {
        AesMode::Ecb => r::CTRL_SHADOWED_MODE_VALUE_AES_ECB,
        AesMode::Cbc(_) => r::CTRL_SHADOWED_MODE_VALUE_AES_CBC,
        AesMode::Cfb(_) => r::CTRL_SHADOWED_MODE_VALUE_AES_CFB,
        AesMode::Ofb(_) => r::CTRL_SHADOWED_MODE_VALUE_AES_OFB,
        AesMode::Ctr(_) => r::CTRL_SHADOWED_MODE_VALUE_AES_CTR,
    };
    let key_len = match config.key_length {
        KeyLength::Aes128 => r::CTRL_SHADOWED_KEY_LEN_VALUE_AES_128,
        KeyLength::Aes192 => r::CTRL_SHADOWED_KEY_LEN_VALUE_AES_192,
        KeyLength::Aes256 => r::CTRL_SHADOWED_KEY_LEN_VALUE_AES_256,
    };
    (u32::from(!config.encrypt) << r::CTRL_SHADOWED_OPERATION_BIT)
        | (mode << r::CTRL_SHADOWED_MODE_OFFSET)
        | (key_len << r::CTRL_SHADOWED_KEY_LEN_OFFSET)
        | (u32::from(config.manual) << r::CTRL_SHADOWED_MANUAL_OPERATION_BIT)
}

impl AesEngine for Aes {
    /// CTRL_SHADOWED twice, KEY_SHARE0_0..7, KEY_SHARE1_0..7 (all eight whatever the key
    /// length), IV_0..3 for chaining modes.
    #[inline(always)]
    fn init(&mut self, config: &AesConfig) -> Result<(), ModuleError> {
        let ctrl = control_word(config);
        self.regs.write(r::CTRL_SHADOWED_REG_OFFSET, ctrl);
        self.regs.write(r::CTRL_SHADOWED_REG_OFFSET, ctrl);
        self.write_words(r::KEY_SHARE0_0_REG_OFFSET, &config.key_share0);
        self.write_words(r::KEY_SHARE1_0_REG_OFFSET, &config.key_share1);
        match config.mode {
            AesMode::Ecb => {}
            AesMode::Cbc(iv) | AesMode::Cfb(iv) | AesMode::Ofb(iv) | AesMode::Ctr(iv) => {
                self.write_words(r::IV_0_REG_OFFSET, &iv)
            }
        }
        Ok(())
    }

    /// STATUS.input_ready.
    #[inline(always)]
    fn wait_for_input_ready(&mut self) -> Result<(), ModuleError> {
        wait::until("aes input ready", wait::Limit::Short, || {
            self.regs.bit(r::STATUS_REG_OFFSET, r::STATUS_INPUT_READY_BIT)
        })
    }

    /// STATUS.
    #[inline(always)]
    fn read_status(&mut self) -> u32 {
        self.regs.read(r::STATUS_REG_OFFSET)
    }

    #[inline(always)]
    fn output_ready(&self, status: u32) -> bool {
        status & (1 << r::STATUS_OUTPUT_VALID_BIT) != 0
    }

    /// DATA_IN_0..3.
    #[inline(always)]
    fn write_block(&mut self, block: &[u32; 4]) {
        self.write_words(r::DATA_IN_0_REG_OFFSET, block);
    }

    /// TRIGGER.start.
    #[inline(always)]
    fn trigger_start(&mut self) {
        self.regs.write(r::TRIGGER_REG_OFFSET, 1 << r::TRIGGER_START_BIT);
    }

    /// STATUS.output_valid.
    #[inline(always)]
    fn wait_for_output(&mut self) -> Result<(), ModuleError> {
        wait::until("aes output valid", wait::Limit::Short, || {
            self.regs.bit(r::STATUS_REG_OFFSET, r::STATUS_OUTPUT_VALID_BIT)
        })
    }

    /// DATA_OUT_0..3.
    #[inline(always)]
    fn read_block(&mut self, block: &mut [u32; 4]) {
        self.regs.read_consecutive(r::DATA_OUT_0_REG_OFFSET, block);
    }

    /// TRIGGER: clear key, IV, input and output registers; wait until idle again.
    #[inline(always)]
    fn deinit(&mut self) -> Result<(), ModuleError> {
        self.regs.write(
            r::TRIGGER_REG_OFFSET,
            (1 << r::TRIGGER_KEY_IV_DATA_IN_CLEAR_BIT) | (1 << r::TRIGGER_DATA_OUT_CLEAR_BIT),
        );
        self.wait_idle()
    }
}
