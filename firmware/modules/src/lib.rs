//! Module traits of the cyclebench suite (thesis chapter 4.1.2).
//!
//! Hardware drivers and software implementations implement the same traits, so a benchmark
//! written against them runs on every platform. The methods mirror the thesis's UML one to
//! one: a benchmark times each call separately, so each call is one hardware step.
#![no_std]
#![forbid(unsafe_code)]

/// A module operation that did not complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModuleError {
    /// A hardware wait exceeded its cycle bound; names what was awaited.
    Timeout(&'static str),
    /// The module was used against its protocol; names the rule broken.
    Usage(&'static str),
}

/// Line-based ASCII link to the host. Not benchmarked.
pub trait Comm {
    /// Sends one byte, waiting while the transmit queue is full.
    fn write_byte(&mut self, byte: u8);
    /// Returns the next received byte, waiting until one arrives.
    fn read_byte(&mut self) -> u8;
    /// Waits until every queued byte has left the transmitter.
    fn flush(&mut self);

    /// Sends `bytes` followed by a newline.
    fn write_line(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.write_byte(b));
        self.write_byte(b'\n');
    }
}

/// A 256-bit digest hash module (HMAC in SHA-256 mode, KMAC in SHA3-256 mode, or software).
pub trait Hasher {
    /// Resets the module and starts a new hash computation.
    fn init(&mut self) -> Result<(), ModuleError>;
    /// Whether another input word can be written now.
    fn input_ready(&mut self) -> bool;
    /// Number of words currently waiting in the input FIFO.
    fn fifo_elements(&mut self) -> u32;
    /// Writes the next four message bytes (little-endian word: first byte in bits 7:0).
    fn write_input(&mut self, word: u32);
    /// Writes the next words without checking for room (the tight style: a full FIFO holds
    /// the bus until it can take them). Drivers may move several words at a time.
    fn write_inputs(&mut self, words: &[u32]) {
        for &w in words {
            self.write_input(w);
        }
    }
    /// Writes one message byte (for a final partial word).
    fn write_input_byte(&mut self, byte: u8);
    /// Ends the message and waits until the digest is ready.
    fn wait_for_completion(&mut self) -> Result<(), ModuleError>;
    /// Reads the digest as eight big-endian words (word 0 = digest bytes 0..4).
    fn read_digest(&mut self, digest: &mut [u32; 8]);

    /// Resets the module and starts a keyed computation with a 256-bit key (eight
    /// little-endian words: key byte 0 in bits 7:0 of word 0): HMAC-SHA256 on a SHA-256
    /// module, KMAC256 with an empty customisation string and a 256-bit output on a SHA3
    /// module. The message follows through `write_input`; `wait_for_keyed_completion` ends it
    /// and `read_digest` reads the MAC. A module without a keyed mode says so (the default).
    fn init_keyed(&mut self, _key: &[u32; 8]) -> Result<(), ModuleError> {
        Err(ModuleError::Usage("this module has no keyed mode"))
    }
    /// Ends the message of a keyed computation (KMAC appends the encoded output length that
    /// SP 800-185 puts after the message) and waits until the MAC is ready.
    fn wait_for_keyed_completion(&mut self) -> Result<(), ModuleError> {
        self.wait_for_completion()
    }
}

/// AES key length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyLength {
    /// 128-bit key.
    Aes128,
    /// 192-bit key.
    Aes192,
    /// 256-bit key.
    Aes256,
}

impl KeyLength {
    /// Key length in 32-bit words.
    pub fn words(self) -> usize {
        match self {
            Self::Aes128 => 4,
            Self::Aes192 => 6,
            Self::Aes256 => 8,
        }
    }
}

/// AES block cipher mode (thesis Table 4.1); modes with an IV carry it as four
/// little-endian words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AesMode {
    /// Electronic code book.
    Ecb,
    /// Cipher block chaining.
    Cbc([u32; 4]),
    /// Cipher feedback (128-bit segments).
    Cfb([u32; 4]),
    /// Output feedback.
    Ofb([u32; 4]),
    /// Counter mode; the IV is the initial counter block (big-endian increment).
    Ctr([u32; 4]),
}

/// Everything `AesEngine::init` needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AesConfig {
    /// Key length.
    pub key_length: KeyLength,
    /// Encrypt (true) or decrypt.
    pub encrypt: bool,
    /// Mode and IV.
    pub mode: AesMode,
    /// Key share 0 (little-endian words; all eight are written whatever the key length).
    pub key_share0: [u32; 8],
    /// Key share 1; the key is share 0 XOR share 1.
    pub key_share1: [u32; 8],
    /// Start on a trigger (true) or automatically when a block is written.
    pub manual: bool,
}

/// An AES engine (the OpenTitan AES block, or software).
pub trait AesEngine {
    /// Configures mode, key length, direction, key shares and IV.
    fn init(&mut self, config: &AesConfig) -> Result<(), ModuleError>;
    /// Waits until the engine accepts a new input block.
    fn wait_for_input_ready(&mut self) -> Result<(), ModuleError>;
    /// Reads the status register once (for timed readouts, thesis Fig. 6.7).
    fn read_status(&mut self) -> u32;
    /// Whether `status` (from `read_status`) says an output block is ready.
    fn output_ready(&self, status: u32) -> bool;
    /// Writes one input block (four little-endian words).
    fn write_block(&mut self, block: &[u32; 4]);
    /// Starts processing the written block (manual operation only).
    fn trigger_start(&mut self);
    /// Waits until an output block is ready.
    fn wait_for_output(&mut self) -> Result<(), ModuleError>;
    /// Reads one output block.
    fn read_block(&mut self, block: &mut [u32; 4]);
    /// Clears key, IV and data from the engine.
    fn deinit(&mut self) -> Result<(), ModuleError>;
}

/// A random bit generator (OpenTitan CSRNG, or a software DRBG).
pub trait Rng {
    /// Whether the generator follows its standard (NIST SP 800-90A CTR_DRBG), so that a
    /// seeded output has a known answer and an entropy-seeded one can be judged; `false`
    /// for hardware that departs from it, whose outputs cannot be verified.
    fn follows_standard(&self) -> bool;
    /// (Re)instantiates the generator: `Some(seed)` seeds deterministically (an empty slice
    /// is the all-zero seed), `None` seeds from the platform's entropy source.
    fn init(&mut self, seed: Option<&[u32]>) -> Result<(), ModuleError>;
    /// Requests `blocks` 128-bit blocks and waits until the first is readable.
    fn generate(&mut self, blocks: u32) -> Result<(), ModuleError>;
    /// Reads the next generated block (four words, in the order the generator emits them).
    fn read_output(&mut self) -> Result<[u32; 4], ModuleError>;
}

/// A program for a big-number accelerator: its instruction and data memory images, from
/// address 0, and the addresses of its entry points and data the caller uses.
pub struct BigNumProgram {
    /// The program's name.
    pub name: &'static str,
    /// The instruction memory image.
    pub imem: &'static [u32],
    /// The static data memory image (pointers, constants, zeroed buffers).
    pub dmem: &'static [u32],
    /// Symbol name and byte address (in instruction memory for an entry point, in data
    /// memory for data).
    pub symbols: &'static [(&'static str, u32)],
}

impl BigNumProgram {
    /// The address of `name`, if the program has that symbol.
    pub fn symbol(&self, name: &str) -> Option<u32> {
        self.symbols.iter().find(|(n, _)| *n == name).map(|&(_, a)| a)
    }
}

/// A big-number accelerator that runs programs loaded by the CPU (OpenTitan OTBN).
pub trait BigNumAccelerator {
    /// Writes `words` into instruction memory from byte address `address`.
    fn write_imem(&mut self, address: u32, words: &[u32]);
    /// Writes `words` into data memory from byte address `address`.
    fn write_dmem(&mut self, address: u32, words: &[u32]);
    /// Reads data memory from byte address `address` into `words`.
    fn read_dmem(&mut self, address: u32, words: &mut [u32]);
    /// Starts the loaded program at instruction address `entry`.
    fn start(&mut self, entry: u32) -> Result<(), ModuleError>;
    /// The name of each bit of the error register, lowest first.
    const ERROR_BITS: &'static [&'static str];
    /// Waits until the program has ended and returns the error register: zero when it ran to
    /// its end without error.
    fn wait_for_completion(&mut self) -> Result<u32, ModuleError>;
}
