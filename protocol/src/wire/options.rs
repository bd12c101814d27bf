//! Optional trailing tokens of benchmark requests: `sr`/`so` (a software implementation), the
//! `<letter><number>` options `pPAD`, `wWAIT`, `lLENGTH`, `gSEED`, `bBLOCK`, `xREPS`, `yMODE`
//! with an optional key length (`yctr256`), and the `<letter><hex>` ones `kKEY`, `iIV`,
//! `mMESSAGE` and `dDIGEST`, shared by every kind that takes them.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use super::{parse_number, Tokens, WireError};
use crate::message::{from_hex, to_hex, MAX_INLINE_MESSAGE_BYTES};
use crate::{CipherMode, SoftwareLibrary, MAX_INIT_WAIT, MAX_REPETITIONS, MAX_STATUS_PAD};

/// Optional trailing tokens, encoded in this order.
#[derive(Default)]
pub struct Options {
    /// `sr` or `so`: run the suite's RustCrypto or own software implementation of the module,
    /// not the platform's.
    pub software: Option<SoftwareLibrary>,
    /// `pPAD`: nops before a timed status read.
    pub pad: Option<u16>,
    /// `wWAIT`: unmeasured cycles between seeding and generating.
    pub wait: Option<u32>,
    /// `lLENGTH`: bytes or limbs.
    pub length: Option<u32>,
    /// `gSEED`: seed of a generated message.
    pub seed: Option<u32>,
    /// `bBLOCK`: bytes of the block a long message repeats.
    pub block: Option<u32>,
    /// `yMODE[BITS]`: the cipher mode of described data, and the key length if not given.
    pub cipher: Option<(CipherMode, Option<u16>)>,
    /// `kHEX`: a key given inline.
    pub key: Option<Vec<u8>>,
    /// `iHEX`: an IV given inline.
    pub iv: Option<Vec<u8>>,
    /// `mHEX`: a message given inline.
    pub message: Option<Vec<u8>>,
    /// `dHEX`: the expected 32-byte digest of the described message.
    pub digest: Option<[u8; 32]>,
    /// `xREPS`: repetitions.
    pub repetitions: Option<u16>,
}

impl Options {
    /// Appends the options that are set, in canonical order.
    pub fn encode(&self, out: &mut String) {
        // Writing into a String cannot fail.
        if let Some(library) = self.software {
            out.push_str(" s");
            out.push(library.letter());
        }
        if let Some(p) = self.pad {
            let _ = write!(out, " p{p}");
        }
        if let Some(w) = self.wait {
            let _ = write!(out, " w{w}");
        }
        if let Some(l) = self.length {
            let _ = write!(out, " l{l}");
        }
        if let Some(g) = self.seed {
            let _ = write!(out, " g{g}");
        }
        if let Some(b) = self.block {
            let _ = write!(out, " b{b}");
        }
        if let Some((mode, bits)) = self.cipher {
            let _ = write!(out, " y{}", mode.name());
            if let Some(bits) = bits {
                let _ = write!(out, "{bits}");
            }
        }
        if let Some(k) = &self.key {
            let _ = write!(out, " k{}", to_hex(k));
        }
        if let Some(i) = &self.iv {
            let _ = write!(out, " i{}", to_hex(i));
        }
        if let Some(m) = &self.message {
            let _ = write!(out, " m{}", to_hex(m));
        }
        if let Some(d) = &self.digest {
            let _ = write!(out, " d{}", to_hex(d));
        }
        if let Some(n) = self.repetitions {
            let _ = write!(out, " x{n}");
        }
    }

    /// Reads the remaining tokens; `allowed` lists the letters this benchmark takes. Each
    /// option may appear once, in canonical order.
    pub fn decode(t: &mut Tokens<'_>, allowed: &str) -> Result<Self, WireError> {
        let mut options = Self::default();
        let mut last = 0usize;
        while let Some(token) = t.optional()? {
            let mut chars = token.chars();
            let letter = chars.next().unwrap_or(' ');
            let rank = "spwlgbykimdx"
                .find(letter)
                .ok_or(WireError::Malformed("unknown option"))?
                + 1;
            if !allowed.contains(letter) || rank <= last {
                return Err(WireError::Malformed("option not allowed here or out of order"));
            }
            last = rank;
            let number = chars.as_str();
            match letter {
                's' => {
                    let library = SoftwareLibrary::from_letter(number)
                        .ok_or(WireError::Malformed("software option: sr (RustCrypto) or so (own)"))?;
                    options.software = Some(library);
                }
                'p' => {
                    let pad: u16 = parse_number(number, "status pad")?;
                    if pad > MAX_STATUS_PAD {
                        return Err(WireError::Malformed("status pad out of range"));
                    }
                    options.pad = Some(pad);
                }
                'w' => {
                    let wait: u32 = parse_number(number, "init wait")?;
                    if wait > MAX_INIT_WAIT {
                        return Err(WireError::Malformed("init wait out of range"));
                    }
                    options.wait = Some(wait);
                }
                'l' => options.length = Some(parse_number(number, "length")?),
                'g' => options.seed = Some(parse_number(number, "seed")?),
                'b' => options.block = Some(parse_number(number, "repeated block")?),
                'y' => {
                    let mode = CipherMode::ALL
                        .into_iter()
                        .find(|m| number.starts_with(m.name()))
                        .ok_or(WireError::Malformed("cipher mode"))?;
                    let bits = &number[mode.name().len()..];
                    let bits = if bits.is_empty() {
                        None
                    } else {
                        Some(parse_number(bits, "key length")?)
                    };
                    options.cipher = Some((mode, bits));
                }
                'k' => {
                    let key = from_hex(number).map_err(|_| WireError::Malformed("key hex"))?;
                    if ![16, 24, 32].contains(&key.len()) {
                        return Err(WireError::Malformed("key length"));
                    }
                    options.key = Some(key);
                }
                'i' => {
                    let iv = from_hex(number).map_err(|_| WireError::Malformed("iv hex"))?;
                    if iv.len() != 16 {
                        return Err(WireError::Malformed("iv length"));
                    }
                    options.iv = Some(iv);
                }
                'm' => {
                    let bytes = from_hex(number).map_err(|_| WireError::Malformed("message hex"))?;
                    // The empty message is a message (NIST's first ShortMsg vector); the kinds
                    // that need bytes say so in their own checks.
                    if bytes.len() > MAX_INLINE_MESSAGE_BYTES {
                        return Err(WireError::Malformed("message hex length"));
                    }
                    options.message = Some(bytes);
                }
                'd' => {
                    let bytes = from_hex(number).map_err(|_| WireError::Malformed("digest hex"))?;
                    options.digest = Some(bytes.try_into().map_err(|_| WireError::Malformed("digest length"))?);
                }
                _ => {
                    let n: u16 = parse_number(number, "repetitions")?;
                    if n == 0 || n > MAX_REPETITIONS {
                        return Err(WireError::Malformed("repetitions out of range"));
                    }
                    options.repetitions = Some(n);
                }
            }
        }
        Ok(options)
    }
}
