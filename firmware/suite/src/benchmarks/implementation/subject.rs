//! An implementation from outside the tree as a [`Subject`]: its inputs, the call through its
//! interface, and the check of its output. The `impl` kind times it once per repetition; the
//! leakage test times it on fixed and random secrets, exactly as it times the suite's own
//! primitives.
//!
//! The fixed input is the folder's first vector of the requested length where the
//! implementation declares no algorithm, and otherwise the suite's input pattern (and a fixed
//! key and nonce), whose answer the suite's reference computes. A random input is checked
//! against the reference where there is one; without one only the fixed input's answer is
//! known.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use cyclebench_datasets::software::fill_input;
use cyclebench_impl::{Implementation, Interface, Vector};
use cyclebench_protocol::{Algorithm, Secret};
use cyclebench_swcrypto::harness::{Buffer, Input, Rng, Subject};

use super::reference;

/// Which function of the interface a call runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    /// The key schedule (block ciphers).
    Setup,
    /// The operation itself.
    Run,
}

/// How the fixed input's output is known.
pub enum Known {
    /// From the suite's reference of the declared algorithm.
    Reference(Algorithm),
    /// From the folder's vector of this length.
    Vector,
    /// Not at all: no algorithm declared and no vectors.
    Unknown,
}

/// An implementation with its buffers, ready to call.
pub struct Outside<'a> {
    implementation: &'a Implementation,
    known: Known,
    call: Call,
    secret: Secret,
    /// The fixed key, nonce and input.
    fixed: Inputs,
    /// The inputs of the next call.
    key: Buffer,
    nonce: Buffer,
    input: Buffer,
    output: Buffer,
    /// The key schedule's context (8-byte aligned).
    context: Vec<u64>,
    /// The expected output of the fixed input, where it is known.
    expected: Option<Vec<u8>>,
    /// What the last call returned (0: success).
    status: i32,
}

/// A key, a nonce and an input.
#[derive(Clone)]
struct Inputs {
    key: Vec<u8>,
    nonce: Vec<u8>,
    input: Vec<u8>,
}

/// The sizes an interface declares: key, nonce, and input and output for `length`.
struct Sizes {
    key: usize,
    nonce: usize,
    input: usize,
    output: usize,
}

fn sizes(interface: &Interface, length: usize) -> Sizes {
    match *interface {
        Interface::Hash { output_bytes, .. } => Sizes {
            key: 0,
            nonce: 0,
            input: length,
            output: output_bytes,
        },
        Interface::BlockCipher {
            key_bytes, block_bytes, ..
        } => Sizes {
            key: key_bytes,
            nonce: 0,
            input: block_bytes,
            output: block_bytes,
        },
        Interface::Stream {
            key_bytes, nonce_bytes, ..
        } => Sizes {
            key: key_bytes,
            nonce: nonce_bytes,
            input: length,
            output: length,
        },
        Interface::Function {
            key_bytes,
            output_bytes,
            ..
        } => Sizes {
            key: key_bytes,
            nonce: 0,
            input: length,
            output: output_bytes.bytes(length),
        },
    }
}

/// The secrets an implementation has: those of its interface, of which a function declares
/// the one its test varies.
pub fn secrets(interface: &Interface) -> &'static [Secret] {
    match *interface {
        Interface::Function {
            secret: Secret::Key, ..
        } => &[Secret::Key],
        Interface::Function {
            secret: Secret::Data, ..
        } => &[Secret::Data],
        Interface::Hash { .. } | Interface::BlockCipher { .. } | Interface::Stream { .. } => interface.kind().secrets(),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes that a pattern gives, for the fixed key and nonce of a reference algorithm.
fn pattern(len: usize, offset: u8) -> Vec<u8> {
    (0..len).map(|i| (i as u8).wrapping_add(offset)).collect()
}

impl<'a> Outside<'a> {
    /// The implementation for `length` bytes (`None`: the first vector's, or one block),
    /// timing `call`, with `secret` the input a random call varies. Says why when the request
    /// does not fit the implementation.
    pub fn new(
        implementation: &'a Implementation,
        length: Option<u32>,
        call: Call,
        secret: Secret,
    ) -> Result<Self, String> {
        let interface = &implementation.interface;
        let block = matches!(interface, Interface::BlockCipher { .. });
        if block && length.is_some_and(|n| n as usize != sizes(interface, 0).input) {
            return Err(format!(
                "a block cipher encrypts one {}-byte block: remove \"length\"",
                sizes(interface, 0).input
            ));
        }
        if call == Call::Setup && !block {
            return Err(format!("interface {} has no key schedule", interface.name()));
        }
        if let Interface::Stream { .. } = interface {
            if length == Some(0) {
                return Err(String::from("a stream cipher needs \"length\" of 1 byte or more"));
            }
        }
        let (known, fixed, expected) = match implementation.reference {
            Some(r) => {
                check_sizes(implementation, r)?;
                let inputs = patterned(implementation, length)?;
                let expected = reference::output(r, &inputs.key, &inputs.nonce, &inputs.input);
                (Known::Reference(r), inputs, Some(expected))
            }
            None if !implementation.vectors.is_empty() => {
                let v = pick_vector(implementation, length)?;
                let inputs = Inputs {
                    key: v.key.to_vec(),
                    nonce: v.nonce.to_vec(),
                    input: v.input.to_vec(),
                };
                (Known::Vector, inputs, Some(v.output.to_vec()))
            }
            None => (Known::Unknown, patterned(implementation, length)?, None),
        };
        let s = sizes(interface, fixed.input.len());
        let context_bytes = match *interface {
            Interface::BlockCipher { context_bytes, .. } => context_bytes,
            _ => 0,
        };
        Ok(Self {
            implementation,
            known,
            call,
            secret,
            key: Buffer::new(s.key),
            nonce: Buffer::new(s.nonce),
            input: Buffer::new(s.input),
            output: Buffer::new(s.output),
            context: vec![0; context_bytes.div_ceil(8)],
            expected,
            status: 0,
            fixed,
        })
    }

    /// How the fixed input's answer is known.
    pub fn known(&self) -> &Known {
        &self.known
    }

    /// Runs every vector of the folder through the implementation; says which first gave a
    /// wrong answer, with what it gave and what was expected. Returns how many passed.
    pub fn check_vectors(&mut self) -> Result<u32, String> {
        for (i, v) in self.implementation.vectors.iter().enumerate() {
            let got = self.run_once(v.key, v.nonce, v.input)?;
            if got != v.output {
                return Err(format!(
                    "vector {} ({} bytes of input): got {}, expected {}",
                    i + 1,
                    v.input.len(),
                    hex(&got),
                    hex(v.output)
                ));
            }
        }
        Ok(self.implementation.vectors.len() as u32)
    }

    /// One untimed run on these inputs, through fresh buffers of the vector's sizes.
    fn run_once(&mut self, key: &[u8], nonce: &[u8], input: &[u8]) -> Result<Vec<u8>, String> {
        let interface = &self.implementation.interface;
        let s = sizes(interface, input.len());
        if key.len() != s.key || nonce.len() != s.nonce || input.len() != s.input {
            return Err(format!(
                "a vector has a {}-byte key, a {}-byte nonce and {} bytes of input; the interface takes {}, {} and {}",
                key.len(),
                nonce.len(),
                input.len(),
                s.key,
                s.nonce,
                s.input
            ));
        }
        let mut subject = Outside {
            implementation: self.implementation,
            known: Known::Unknown,
            call: Call::Run,
            secret: self.secret,
            fixed: Inputs {
                key: key.to_vec(),
                nonce: nonce.to_vec(),
                input: input.to_vec(),
            },
            key: Buffer::new(s.key),
            nonce: Buffer::new(s.nonce),
            input: Buffer::new(s.input),
            output: Buffer::new(s.output),
            context: vec![0; self.context.len()],
            expected: None,
            status: 0,
        };
        subject.load_fixed();
        if let Interface::BlockCipher { .. } = interface {
            subject.call = Call::Setup;
            subject.call();
            subject.returned("the key schedule")?;
            subject.call = Call::Run;
        }
        subject.call();
        subject.returned("the call")?;
        Ok(subject.output.bytes().to_vec())
    }

    fn returned(&self, what: &str) -> Result<(), String> {
        match self.status {
            0 => Ok(()),
            status => Err(format!("{what} returned {status}, not 0")),
        }
    }

    fn load_fixed(&mut self) {
        self.key.bytes_mut().copy_from_slice(&self.fixed.key);
        self.nonce.bytes_mut().copy_from_slice(&self.fixed.nonce);
        self.input.bytes_mut().copy_from_slice(&self.fixed.input);
    }

    /// Runs the key schedule untimed, so that the timed encryption has its context.
    fn schedule(&mut self) {
        if let Interface::BlockCipher { setup, .. } = self.implementation.interface {
            // SAFETY: the key buffer holds the declared key bytes and the context the declared
            // context bytes, 8-byte aligned, as the interface's contract says.
            self.status = unsafe { setup(self.context.as_mut_ptr().cast(), self.key.bytes().as_ptr()) };
        }
    }
}

/// The suite's input pattern of `length` bytes (a block for a block cipher) with a fixed key
/// and nonce: the fixed input where no vector gives one.
fn patterned(implementation: &Implementation, length: Option<u32>) -> Result<Inputs, String> {
    let interface = &implementation.interface;
    let length = match length {
        Some(n) => n as usize,
        None if matches!(interface, Interface::BlockCipher { .. }) => sizes(interface, 0).input,
        None => return Err(format!("{} needs \"length\": the bytes of input", implementation.name)),
    };
    let s = sizes(interface, length);
    let mut input = vec![0; s.input];
    fill_input(&mut input);
    Ok(Inputs {
        key: pattern(s.key, 0),
        nonce: pattern(s.nonce, 0x40),
        input,
    })
}

/// Refuses an implementation whose declared sizes contradict its algorithm's.
fn check_sizes(implementation: &Implementation, r: Algorithm) -> Result<(), String> {
    let s = sizes(&implementation.interface, 16);
    let interface_fits = r.interface() == implementation.interface.kind();
    let output_fits = r.output_bytes().is_none_or(|n| n == s.output);
    if !interface_fits || !output_fits || r.key_bytes() != s.key || r.nonce_bytes() != s.nonce {
        return Err(format!(
            "{} declares algorithm {} but interface {} with a {}-byte key, a {}-byte nonce and {} bytes of output",
            implementation.name,
            r.name(),
            implementation.interface.name(),
            s.key,
            s.nonce,
            s.output
        ));
    }
    Ok(())
}

/// The first vector with `length` bytes of input (the first vector when `None`).
fn pick_vector(implementation: &Implementation, length: Option<u32>) -> Result<&'static Vector, String> {
    let vectors = implementation.vectors;
    let found = match length {
        None => vectors.first(),
        Some(n) => vectors.iter().find(|v| v.input.len() == n as usize),
    };
    found.ok_or_else(|| {
        let mut lengths: Vec<usize> = vectors.iter().map(|v| v.input.len()).collect();
        lengths.sort_unstable();
        lengths.dedup();
        let lengths: Vec<String> = lengths.iter().map(|n| format!("{n}")).collect();
        format!(
            "{} declares no algorithm, so it is timed on its own vectors, and none has {} bytes of input (lengths: {})",
            implementation.name,
            length.unwrap_or(0),
            lengths.join(", ")
        )
    })
}

impl Subject for Outside<'_> {
    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        self.load_fixed();
        if input == Input::Random {
            let random = match self.secret {
                Secret::Key => self.key.bytes_mut(),
                Secret::Data => self.input.bytes_mut(),
            };
            for b in random.iter_mut() {
                *b = rng.next_u32() as u8;
            }
        }
        if self.call == Call::Run {
            self.schedule();
        }
    }

    #[inline(always)]
    fn call(&mut self) -> u32 {
        let key = self.key.bytes().as_ptr();
        let nonce = self.nonce.bytes().as_ptr();
        let input = self.input.bytes();
        let out = self.output.bytes_mut().as_mut_ptr();
        // SAFETY: every buffer has the size the interface declares for this input (`sizes`),
        // the output is a buffer of its own, and the context is 8-byte aligned and as long as
        // declared; these are the interface's whole contract (include/cyclebench.h).
        self.status = unsafe {
            match (self.implementation.interface, self.call) {
                (Interface::Hash { hash, .. }, _) => hash(out, input.as_ptr(), input.len() as u64),
                (Interface::BlockCipher { setup, .. }, Call::Setup) => setup(self.context.as_mut_ptr().cast(), key),
                (Interface::BlockCipher { encrypt, .. }, Call::Run) => {
                    encrypt(self.context.as_ptr().cast(), out, input.as_ptr())
                }
                (Interface::Stream { xor, .. }, _) => xor(out, input.as_ptr(), input.len() as u64, nonce, key),
                (Interface::Function { function, .. }, _) => function(out, input.as_ptr(), input.len(), key),
            }
        };
        0
    }

    fn check(&mut self, input: Input, _answer: u32) -> Result<(), String> {
        self.returned(match self.call {
            Call::Setup => "the key schedule",
            Call::Run => "the call",
        })?;
        if self.call == Call::Setup {
            // The schedule's context has no known form; the encryption that uses it is checked.
            return Ok(());
        }
        // The fixed input's answer was worked out once; a random one's, where it can be, now.
        let computed;
        let expected = match (input, &self.known) {
            (Input::Fixed, _) => self.expected.as_deref(),
            (Input::Random, Known::Reference(r)) => {
                computed = reference::output(*r, self.key.bytes(), self.nonce.bytes(), self.input.bytes());
                Some(computed.as_slice())
            }
            (Input::Random, _) => None,
        };
        match expected {
            Some(e) if e != self.output.bytes() => {
                Err(format!("output {}, expected {}", hex(self.output.bytes()), hex(e)))
            }
            _ => Ok(()),
        }
    }

    fn entry(&self) -> usize {
        match (self.implementation.interface, self.call) {
            (Interface::BlockCipher { setup, .. }, Call::Setup) => setup as usize,
            (interface, _) => interface.entry(),
        }
    }
}
