//! An implementation folder's own known-answer vectors: NIST CAVP `.rsp` files (`Len`/`Msg`/
//! `MD` for hashes; `KEY`/`PLAINTEXT`/`CIPHERTEXT` under `[ENCRYPT]` for ciphers) or the
//! simple form, blocks of `in = HEX`, `key = HEX`, `nonce = HEX`, `out = HEX` lines. Blocks are
//! separated by blank lines; `#` starts a comment; `[...]` lines are section headers.

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};

/// Most vectors a folder may give: they are compiled into the image.
pub const MAX_VECTORS: usize = 256;

/// One known answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vector {
    /// The key (empty if none).
    pub key: Vec<u8>,
    /// The nonce or IV (empty if none).
    pub nonce: Vec<u8>,
    /// The input.
    pub input: Vec<u8>,
    /// The expected output.
    pub output: Vec<u8>,
}

/// What a field of a block is.
enum Role {
    Key,
    Nonce,
    Input,
    Output,
    /// `Len`, in bits: the input is its first Len/8 bytes (NIST writes the empty message as
    /// `Len = 0`, `Msg = 00`).
    LengthBits,
    /// Counters and other fields no vector needs.
    Ignored,
}

fn role(name: &str) -> Option<Role> {
    Some(match name.to_ascii_lowercase().as_str() {
        "key" => Role::Key,
        "nonce" | "iv" => Role::Nonce,
        "in" | "msg" | "plaintext" | "pt" => Role::Input,
        "out" | "md" | "ciphertext" | "ct" | "output" => Role::Output,
        "len" => Role::LengthBits,
        "count" | "outputlen" => Role::Ignored,
        _ => return None,
    })
}

fn hex(text: &str) -> Result<Vec<u8>> {
    let text = text.trim();
    if !text.len().is_multiple_of(2) {
        bail!("odd number of hex digits");
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).map_err(|_| anyhow!("not hex: {text}")))
        .collect()
}

/// Reads the vectors of `path`.
pub fn read(path: &Path) -> Result<Vec<Vector>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    parse(&text).with_context(|| format!("{}", path.display()))
}

/// The vectors of a file's text.
pub fn parse(text: &str) -> Result<Vec<Vector>> {
    let mut vectors = Vec::new();
    let mut current: Option<(Vector, Option<usize>, usize)> = None;
    let mut decrypting = false;
    let finish = |current: &mut Option<(Vector, Option<usize>, usize)>, vectors: &mut Vec<Vector>| -> Result<()> {
        if let Some((mut v, bits, line)) = current.take() {
            if let Some(bits) = bits {
                if !bits.is_multiple_of(8) || bits / 8 > v.input.len() {
                    bail!(
                        "line {line}: Len = {bits} bits does not fit a message of {} bytes",
                        v.input.len()
                    );
                }
                v.input.truncate(bits / 8);
            }
            if v.output.is_empty() {
                bail!("line {line}: a vector without an output (out, MD or CIPHERTEXT)");
            }
            vectors.push(v);
        }
        Ok(())
    };
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            // A comment-only line inside a block does not end it; a blank line does.
            if raw.trim().is_empty() {
                finish(&mut current, &mut vectors)?;
            }
            continue;
        }
        if line.starts_with('[') {
            finish(&mut current, &mut vectors)?;
            match line.to_ascii_uppercase().as_str() {
                "[ENCRYPT]" => decrypting = false,
                "[DECRYPT]" => decrypting = true,
                _ => {}
            }
            continue;
        }
        let Some((name, value)) = line.split_once('=') else {
            bail!("line {number}: expected NAME = VALUE, got \"{line}\"");
        };
        let name = name.trim();
        let role = role(name).ok_or_else(|| {
            anyhow!("line {number}: unknown field \"{name}\" (known: in, out, key, nonce, and NIST's Len, Msg, MD, KEY, IV, PLAINTEXT, CIPHERTEXT, COUNT)")
        })?;
        if decrypting {
            continue;
        }
        let (vector, bits, _) = current.get_or_insert_with(|| (Vector::default(), None, number));
        let value = value.trim();
        let bytes = || hex(value).with_context(|| format!("line {number}: {name}"));
        match role {
            Role::Key => vector.key = bytes()?,
            Role::Nonce => vector.nonce = bytes()?,
            Role::Input => vector.input = bytes()?,
            Role::Output => vector.output = bytes()?,
            Role::LengthBits => {
                *bits = Some(
                    value
                        .parse()
                        .map_err(|_| anyhow!("line {number}: Len must be a number of bits, got {value}"))?,
                )
            }
            Role::Ignored => {}
        }
    }
    finish(&mut current, &mut vectors)?;
    if vectors.is_empty() {
        bail!("no vectors in the file");
    }
    if vectors.len() > MAX_VECTORS {
        bail!(
            "{} vectors; at most {MAX_VECTORS} are compiled into the image",
            vectors.len()
        );
    }
    Ok(vectors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nist_hash_files_read_with_the_empty_message() {
        let v = parse("#  comment\n[L = 32]\n\nLen = 0\nMsg = 00\nMD = e3b0\n\nLen = 24\nMsg = 616263\nMD = ba78\n")
            .unwrap();
        assert_eq!(v.len(), 2);
        assert!(v[0].input.is_empty());
        assert_eq!(v[1].input, b"abc");
        assert_eq!(v[1].output, [0xba, 0x78]);
    }

    #[test]
    fn cipher_files_keep_encryptions_only() {
        let v = parse("[ENCRYPT]\n\nCOUNT = 0\nKEY = 00\nPLAINTEXT = 01\nCIPHERTEXT = 02\n\n[DECRYPT]\n\nCOUNT = 0\nKEY = 00\nCIPHERTEXT = 02\nPLAINTEXT = 01\n").unwrap();
        assert_eq!(
            v,
            [Vector {
                key: vec![0],
                nonce: vec![],
                input: vec![1],
                output: vec![2]
            }]
        );
    }

    #[test]
    fn the_simple_form_reads_with_comments_inside_blocks() {
        let v =
            parse("# head\n\n# first\nin = 0102\n# still the first\nkey = aa\nout = 03\n\nin = \nout = 04\n").unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].key, [0xaa]);
        assert!(v[1].input.is_empty());
    }

    #[test]
    fn mistakes_name_their_line() {
        for (text, needle) in [
            ("in = 0g\nout = 00\n", "line 1"),
            ("in = 00\n", "without an output"),
            ("frob = 00\nout = 00\n", "unknown field \"frob\""),
            ("Len = 16\nMsg = 00\nMD = 00\n", "does not fit"),
            ("# nothing\n", "no vectors"),
        ] {
            let e = format!("{:#}", parse(text).unwrap_err());
            assert!(e.contains(needle), "{text}: {e}");
        }
    }
}
