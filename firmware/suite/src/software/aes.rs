//! AES in software behind the `AesEngine` trait — RustCrypto's block cipher, or the suite's
//! own table-based AES-128 assembly (encryption only) — with the five modes done here so that
//! it behaves like the OpenTitan engine: blocks in and out one at a time, and in automatic
//! mode a two-deep pipeline (one block waiting while one is held).

use aes::cipher::{BlockDecrypt, BlockEncrypt, KeyInit};
use aes::{Aes128, Aes192, Aes256};
use cyclebench_modules::{AesConfig, AesEngine, AesMode, KeyLength, ModuleError};
use cyclebench_protocol::SoftwareLibrary;
use cyclebench_swcrypto::aes_table::{self, AesTable};
use cyclebench_swcrypto::Variant;

enum Cipher {
    A128(Aes128),
    A192(Aes192),
    A256(Aes256),
    /// The suite's table-based AES-128 and its expanded key.
    Table(AesTable, [u32; 44]),
}

impl Cipher {
    fn encrypt(&self, block: &mut [u8; 16]) {
        let b = block.into();
        match self {
            Self::A128(c) => c.encrypt_block(b),
            Self::A192(c) => c.encrypt_block(b),
            Self::A256(c) => c.encrypt_block(b),
            Self::Table(aes, round_keys) => {
                let input = *block;
                (aes.encrypt_block)(round_keys, &input, block);
            }
        }
    }

    fn decrypt(&self, block: &mut [u8; 16]) {
        let b = block.into();
        match self {
            Self::A128(c) => c.decrypt_block(b),
            Self::A192(c) => c.decrypt_block(b),
            Self::A256(c) => c.decrypt_block(b),
            // `SoftAes::init` refuses every configuration that decrypts blocks.
            Self::Table(..) => unreachable!("the table-based AES has no inverse cipher"),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Chaining {
    Ecb,
    Cbc,
    Cfb,
    Ofb,
    Ctr,
}

struct Session {
    cipher: Cipher,
    chaining: Chaining,
    encrypt: bool,
    manual: bool,
    /// IV, feedback register or counter block, depending on the mode.
    state: [u8; 16],
}

/// Software AES engine.
pub struct SoftAes {
    library: SoftwareLibrary,
    session: Option<Session>,
    /// Written block not yet processed (manual mode before trigger, or pipeline stage 1).
    input: Option<[u8; 16]>,
    /// Processed block not yet read.
    output: Option<[u8; 16]>,
}

fn to_bytes(words: &[u32; 4]) -> [u8; 16] {
    let mut out = [0; 16];
    for (chunk, w) in out.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    out
}

fn xor(a: &mut [u8; 16], b: &[u8; 16]) {
    a.iter_mut().zip(b).for_each(|(x, y)| *x ^= y);
}

impl Session {
    fn process(&mut self, input: [u8; 16]) -> [u8; 16] {
        let mut out = input;
        match (self.chaining, self.encrypt) {
            (Chaining::Ecb, true) => self.cipher.encrypt(&mut out),
            (Chaining::Ecb, false) => self.cipher.decrypt(&mut out),
            (Chaining::Cbc, true) => {
                xor(&mut out, &self.state);
                self.cipher.encrypt(&mut out);
                self.state = out;
            }
            (Chaining::Cbc, false) => {
                self.cipher.decrypt(&mut out);
                xor(&mut out, &self.state);
                self.state = input;
            }
            (Chaining::Cfb, encrypt) => {
                let mut keystream = self.state;
                self.cipher.encrypt(&mut keystream);
                xor(&mut out, &keystream);
                self.state = if encrypt { out } else { input };
            }
            (Chaining::Ofb, _) => {
                self.cipher.encrypt(&mut self.state);
                xor(&mut out, &self.state);
            }
            (Chaining::Ctr, _) => {
                let mut keystream = self.state;
                self.cipher.encrypt(&mut keystream);
                xor(&mut out, &keystream);
                self.state = u128::from_be_bytes(self.state).wrapping_add(1).to_be_bytes();
            }
        }
        out
    }
}

impl SoftAes {
    /// An idle engine over `library`'s block cipher.
    pub fn new(library: SoftwareLibrary) -> Self {
        Self {
            library,
            session: None,
            input: None,
            output: None,
        }
    }

    /// Why this engine cannot run a configuration, if it cannot: the suite's own AES is
    /// AES-128 with the forward cipher only, so it serves every mode that only encrypts
    /// blocks.
    pub fn unsupported(&self, key_length: KeyLength, ecb_or_cbc: bool, encrypt: bool) -> Option<&'static str> {
        match self.library {
            SoftwareLibrary::RustCrypto => None,
            SoftwareLibrary::Own if own_table().is_none() => Some("the suite's own AES is not in this build"),
            SoftwareLibrary::Own if key_length != KeyLength::Aes128 => {
                Some("the suite's own AES (table-based assembly) is AES-128 only")
            }
            SoftwareLibrary::Own if ecb_or_cbc && !encrypt => {
                Some("the suite's own AES (table-based assembly) has no inverse cipher: no ECB or CBC decryption")
            }
            SoftwareLibrary::Own => None,
        }
    }

    /// Moves a waiting input block through the cipher when the output slot is free.
    fn advance(&mut self) {
        if self.output.is_none() {
            if let (Some(session), Some(input)) = (self.session.as_mut(), self.input.take()) {
                self.output = Some(session.process(input));
            }
        }
    }
}

impl AesEngine for SoftAes {
    fn init(&mut self, config: &AesConfig) -> Result<(), ModuleError> {
        let mut key = [0u8; 32];
        for (i, chunk) in key.chunks_exact_mut(4).enumerate() {
            chunk.copy_from_slice(&(config.key_share0[i] ^ config.key_share1[i]).to_le_bytes());
        }
        let key_bytes = config.key_length.words() * 4;
        let key = &key[..key_bytes];
        let ecb_or_cbc = matches!(config.mode, AesMode::Ecb | AesMode::Cbc(_));
        if let Some(reason) = self.unsupported(config.key_length, ecb_or_cbc, config.encrypt) {
            return Err(ModuleError::Usage(reason));
        }
        let cipher = match (self.library, config.key_length) {
            (SoftwareLibrary::Own, _) => {
                let aes = own_table().ok_or(ModuleError::Usage("no own AES"))?;
                let mut round_keys = [0; 44];
                let key: &[u8; 16] = key.try_into().map_err(|_| ModuleError::Usage("key length"))?;
                (aes.expand_key)(key, &mut round_keys);
                Ok(Cipher::Table(aes, round_keys))
            }
            (SoftwareLibrary::RustCrypto, KeyLength::Aes128) => Aes128::new_from_slice(key).map(Cipher::A128),
            (SoftwareLibrary::RustCrypto, KeyLength::Aes192) => Aes192::new_from_slice(key).map(Cipher::A192),
            (SoftwareLibrary::RustCrypto, KeyLength::Aes256) => Aes256::new_from_slice(key).map(Cipher::A256),
        }
        .map_err(|_| ModuleError::Usage("key length"))?;
        let (chaining, iv) = match config.mode {
            AesMode::Ecb => (Chaining::Ecb, [0; 4]),
            AesMode::Cbc(iv) => (Chaining::Cbc, iv),
            AesMode::Cfb(iv) => (Chaining::Cfb, iv),
            AesMode::Ofb(iv) => (Chaining::Ofb, iv),
            AesMode::Ctr(iv) => (Chaining::Ctr, iv),
        };
        self.session = Some(Session {
            cipher,
            chaining,
            encrypt: config.encrypt,
            manual: config.manual,
            state: to_bytes(&iv),
        });
        self.input = None;
        self.output = None;
        Ok(())
    }

    fn wait_for_input_ready(&mut self) -> Result<(), ModuleError> {
        match self.input {
            None => Ok(()),
            Some(_) => Err(ModuleError::Usage("input written twice without reading output")),
        }
    }

    fn read_status(&mut self) -> u32 {
        u32::from(self.output.is_some())
    }

    fn output_ready(&self, status: u32) -> bool {
        status & 1 != 0
    }

    fn write_block(&mut self, block: &[u32; 4]) {
        self.input = Some(to_bytes(block));
        if self.session.as_ref().is_some_and(|s| !s.manual) {
            self.advance();
        }
    }

    fn trigger_start(&mut self) {
        self.advance();
    }

    fn wait_for_output(&mut self) -> Result<(), ModuleError> {
        match (&self.session, self.output) {
            (None, _) => Err(ModuleError::Usage("engine not initialised")),
            (Some(_), None) => Err(ModuleError::Usage("no block in flight")),
            (Some(_), Some(_)) => Ok(()),
        }
    }

    fn read_block(&mut self, block: &mut [u32; 4]) {
        let out = self.output.take().unwrap_or([0; 16]);
        for (w, chunk) in block.iter_mut().zip(out.chunks_exact(4)) {
            *w = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
        if self.session.as_ref().is_some_and(|s| !s.manual) {
            self.advance();
        }
    }

    fn deinit(&mut self) -> Result<(), ModuleError> {
        self.session = None;
        self.input = None;
        self.output = None;
        Ok(())
    }
}

/// The suite's fastest own AES-128: the table-based RV32I assembly.
fn own_table() -> Option<AesTable> {
    aes_table::aes128_table(Variant::Rv32i)
}
