//! The interfaces of an implementation measured from outside the tree (`cyclebench run --impl
//! DIR`), and the registry through which the suite finds them.
//!
//! An implementation provides one interface. In C it defines the functions of
//! `include/cyclebench.h`; in Rust it implements one of the traits below ([`Hash`],
//! [`BlockCipher`], [`StreamCipher`], [`Function`]) and names the type in its `impl.toml`. The
//! image the CLI builds lists every implementation of the run as an [`Implementation`]: its
//! interface as C-ABI functions (a Rust type's through the adapters here), the reference the
//! suite checks it against, and the folder's own known-answer vectors.
//!
//! The names, C symbols and sizes of the interfaces, the algorithms and the secrets are the
//! protocol's ([`cyclebench_protocol::Interface`], [`Algorithm`], [`Secret`]), which the host
//! writes the registry with: this crate holds only what the suite calls.
#![no_std]

pub use cyclebench_protocol::{Algorithm, Secret};

/// A hash function (SUPERCOP's `crypto_hash`).
pub trait Hash {
    /// Bytes of the digest.
    const OUTPUT_BYTES: usize;
    /// Writes the digest of `input` into `out` ([`Self::OUTPUT_BYTES`] long).
    fn hash(out: &mut [u8], input: &[u8]);
}

/// A block cipher's encryption, with its key schedule timed apart.
pub trait BlockCipher {
    /// Bytes of the key.
    const KEY_BYTES: usize;
    /// Bytes of a block.
    const BLOCK_BYTES: usize = cyclebench_protocol::DEFAULT_BLOCK_BYTES;
    /// The expanded key. The suite keeps it in a buffer of its own and never drops it (a
    /// key schedule that owned heap memory would leak it on every call).
    type Context;
    /// The key schedule.
    fn setup(key: &[u8]) -> Self::Context;
    /// Encrypts one block of `input` into `out`.
    fn encrypt(context: &Self::Context, out: &mut [u8], input: &[u8]);
}

/// A stream cipher (SUPERCOP's `crypto_stream_xor`).
pub trait StreamCipher {
    /// Bytes of the key.
    const KEY_BYTES: usize;
    /// Bytes of the nonce.
    const NONCE_BYTES: usize;
    /// `out` = `input` XOR the keystream of `key` and `nonce`.
    fn xor(out: &mut [u8], input: &[u8], nonce: &[u8], key: &[u8]);
}

/// Anything that fits no other interface: bytes in, bytes out, with an optional key.
pub trait Function {
    /// Bytes of the output.
    const OUTPUT_BYTES: Output;
    /// Bytes of the key (0: none; the key is then empty).
    const KEY_BYTES: usize;
    /// The input the constant-time test varies.
    const SECRET: Secret;
    /// `out` = f(`input`, `key`).
    fn call(out: &mut [u8], input: &[u8], key: &[u8]);
}

/// How long a [`Function`]'s output is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// This many bytes, whatever the input.
    Fixed(usize),
    /// As many bytes as the input.
    Input,
}

impl Output {
    /// Bytes of output for `input_bytes` of input.
    pub const fn bytes(self, input_bytes: usize) -> usize {
        match self {
            Self::Fixed(n) => n,
            Self::Input => input_bytes,
        }
    }
}

/// `crypto_hash(out, in, inlen)`.
pub type HashFn = unsafe extern "C" fn(*mut u8, *const u8, u64) -> i32;
/// `crypto_block_setup(context, key)`.
pub type BlockSetupFn = unsafe extern "C" fn(*mut u8, *const u8) -> i32;
/// `crypto_block_encrypt(context, out, in)`.
pub type BlockEncryptFn = unsafe extern "C" fn(*const u8, *mut u8, *const u8) -> i32;
/// `crypto_stream_xor(c, m, mlen, n, k)`.
pub type StreamXorFn = unsafe extern "C" fn(*mut u8, *const u8, u64, *const u8, *const u8) -> i32;
/// `crypto_function(out, in, inlen, key)`.
pub type FunctionFn = unsafe extern "C" fn(*mut u8, *const u8, usize, *const u8) -> i32;

/// One interface, as the functions the suite calls and the sizes it allocates.
#[derive(Clone, Copy, Debug)]
pub enum Interface {
    /// [`Hash`] / `crypto_hash`.
    Hash {
        /// The function.
        hash: HashFn,
        /// Bytes of the digest.
        output_bytes: usize,
    },
    /// [`BlockCipher`] / `crypto_block_setup` and `crypto_block_encrypt`.
    BlockCipher {
        /// The key schedule.
        setup: BlockSetupFn,
        /// One block's encryption.
        encrypt: BlockEncryptFn,
        /// Bytes of the context the key schedule fills.
        context_bytes: usize,
        /// Bytes of the key.
        key_bytes: usize,
        /// Bytes of a block.
        block_bytes: usize,
    },
    /// [`StreamCipher`] / `crypto_stream_xor`.
    Stream {
        /// The function.
        xor: StreamXorFn,
        /// Bytes of the key.
        key_bytes: usize,
        /// Bytes of the nonce.
        nonce_bytes: usize,
    },
    /// [`Function`] / `crypto_function`.
    Function {
        /// The function.
        function: FunctionFn,
        /// Bytes of the output.
        output_bytes: Output,
        /// Bytes of the key (0: none).
        key_bytes: usize,
        /// The input the constant-time test varies.
        secret: Secret,
    },
}

impl Interface {
    /// Which of the protocol's interfaces this is.
    pub fn kind(&self) -> cyclebench_protocol::Interface {
        match self {
            Self::Hash { .. } => cyclebench_protocol::Interface::Hash,
            Self::BlockCipher { .. } => cyclebench_protocol::Interface::BlockCipher,
            Self::Stream { .. } => cyclebench_protocol::Interface::Stream,
            Self::Function { .. } => cyclebench_protocol::Interface::Function,
        }
    }

    /// The interface's name, as in `impl.toml`.
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// The function timed (for the host's code-size lookup).
    pub fn entry(&self) -> usize {
        match *self {
            Self::Hash { hash, .. } => hash as usize,
            Self::BlockCipher { encrypt, .. } => encrypt as usize,
            Self::Stream { xor, .. } => xor as usize,
            Self::Function { function, .. } => function as usize,
        }
    }
}

/// A known-answer vector of the implementation's own (empty fields where the interface has no
/// such input).
#[derive(Clone, Copy, Debug)]
pub struct Vector {
    /// The key.
    pub key: &'static [u8],
    /// The nonce.
    pub nonce: &'static [u8],
    /// The input.
    pub input: &'static [u8],
    /// The expected output.
    pub output: &'static [u8],
}

/// An implementation the image carries.
#[derive(Clone, Copy, Debug)]
pub struct Implementation {
    /// Its name, as requests give it.
    pub name: &'static str,
    /// What it provides.
    pub interface: Interface,
    /// The algorithm the suite checks it against, if it declares one.
    pub reference: Option<Algorithm>,
    /// Its own known-answer vectors.
    pub vectors: &'static [Vector],
}

/// The [`Interface`] of a Rust [`Hash`].
pub const fn hash_interface<H: Hash>() -> Interface {
    Interface::Hash {
        hash: adapters::hash::<H>,
        output_bytes: H::OUTPUT_BYTES,
    }
}

/// The [`Interface`] of a Rust [`BlockCipher`].
pub const fn block_cipher_interface<B: BlockCipher>() -> Interface {
    assert!(
        core::mem::align_of::<B::Context>() <= 8,
        "the suite aligns a block cipher's context to 8 bytes"
    );
    Interface::BlockCipher {
        setup: adapters::block_setup::<B>,
        encrypt: adapters::block_encrypt::<B>,
        context_bytes: core::mem::size_of::<B::Context>(),
        key_bytes: B::KEY_BYTES,
        block_bytes: B::BLOCK_BYTES,
    }
}

/// The [`Interface`] of a Rust [`StreamCipher`].
pub const fn stream_interface<S: StreamCipher>() -> Interface {
    Interface::Stream {
        xor: adapters::stream::<S>,
        key_bytes: S::KEY_BYTES,
        nonce_bytes: S::NONCE_BYTES,
    }
}

/// The [`Interface`] of a Rust [`Function`].
pub const fn function_interface<F: Function>() -> Interface {
    Interface::Function {
        function: adapters::function::<F>,
        output_bytes: F::OUTPUT_BYTES,
        key_bytes: F::KEY_BYTES,
        secret: F::SECRET,
    }
}

/// The C ABI of the traits: the suite calls a Rust implementation exactly as a C one.
mod adapters {
    use super::{BlockCipher, Function, Hash, StreamCipher};
    use core::slice;

    /// The suite's pointer and length as a slice. The suite passes a valid, aligned pointer
    /// even for an empty input, so `len` 0 needs no special case.
    ///
    /// # Safety
    /// `ptr` points to `len` readable bytes that stay untouched while the slice lives.
    unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
        // SAFETY: the caller's contract.
        unsafe { slice::from_raw_parts(ptr, len) }
    }

    /// # Safety
    /// `ptr` points to `len` writable bytes no one else reads while the slice lives.
    unsafe fn bytes_mut<'a>(ptr: *mut u8, len: usize) -> &'a mut [u8] {
        // SAFETY: the caller's contract.
        unsafe { slice::from_raw_parts_mut(ptr, len) }
    }

    pub(super) unsafe extern "C" fn hash<H: Hash>(out: *mut u8, input: *const u8, len: u64) -> i32 {
        // SAFETY: the suite passes an output of the declared digest size and `len` input bytes.
        let (out, input) = unsafe { (bytes_mut(out, H::OUTPUT_BYTES), bytes(input, len as usize)) };
        H::hash(out, input);
        0
    }

    pub(super) unsafe extern "C" fn block_setup<B: BlockCipher>(context: *mut u8, key: *const u8) -> i32 {
        // SAFETY: the suite passes a key of the declared size and a context of the declared
        // size, 8-byte aligned (`block_cipher` checks the context's alignment fits).
        unsafe {
            let schedule = B::setup(bytes(key, B::KEY_BYTES));
            context.cast::<B::Context>().write(schedule);
        }
        0
    }

    pub(super) unsafe extern "C" fn block_encrypt<B: BlockCipher>(
        context: *const u8,
        out: *mut u8,
        input: *const u8,
    ) -> i32 {
        // SAFETY: `context` was filled by `block_setup` for this type; the blocks are of the
        // declared size.
        unsafe {
            let context = &*context.cast::<B::Context>();
            B::encrypt(context, bytes_mut(out, B::BLOCK_BYTES), bytes(input, B::BLOCK_BYTES));
        }
        0
    }

    pub(super) unsafe extern "C" fn stream<S: StreamCipher>(
        out: *mut u8,
        input: *const u8,
        len: u64,
        nonce: *const u8,
        key: *const u8,
    ) -> i32 {
        let len = len as usize;
        // SAFETY: the suite passes `len` bytes in and out (distinct buffers), and a nonce and a
        // key of the declared sizes.
        unsafe {
            S::xor(
                bytes_mut(out, len),
                bytes(input, len),
                bytes(nonce, S::NONCE_BYTES),
                bytes(key, S::KEY_BYTES),
            );
        }
        0
    }

    pub(super) unsafe extern "C" fn function<F: Function>(
        out: *mut u8,
        input: *const u8,
        len: usize,
        key: *const u8,
    ) -> i32 {
        // SAFETY: the suite passes `len` input bytes, an output of the declared size for that
        // input, and a key of the declared size (a valid pointer even when it is 0).
        unsafe {
            F::call(
                bytes_mut(out, F::OUTPUT_BYTES.bytes(len)),
                bytes(input, len),
                bytes(key, F::KEY_BYTES),
            );
        }
        0
    }
}
