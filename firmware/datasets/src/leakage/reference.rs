// Reference HMAC-SHA256 and KMAC256 for the accelerator leakage tests' known answers, on
// RustCrypto `sha2` and `sha3`; shared by the build script and the host tests (which check
// them against RFC 4231 and NIST's KMAC samples).

/// HMAC-SHA256 (RFC 2104) on RustCrypto `sha2`, for keys of at most one block:
/// `H((K ^ opad) || H((K ^ ipad) || message))`, the key padded with zeros to 64 bytes.
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    use sha2::{Digest as _, Sha256};
    assert!(
        key.len() <= 64,
        "keys longer than a block are hashed first; none here is"
    );
    let mut padded = [0u8; 64];
    padded[..key.len()].copy_from_slice(key);
    let pad = |byte: u8| padded.map(|k| k ^ byte);
    let inner = Sha256::new().chain_update(pad(0x36)).chain_update(message).finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

/// KMAC256 (NIST SP 800-185) on RustCrypto `sha3`'s cSHAKE256, `out.len()` bytes:
/// `cSHAKE256(bytepad(encode_string(K), 136) || X || right_encode(L), L, "KMAC", S)`.
pub fn kmac256(key: &[u8], message: &[u8], customization: &[u8], out: &mut [u8]) {
    use sha3::digest::{ExtendableOutput as _, Update as _, XofReader as _};
    const RATE: usize = 136;
    let left_encode = |x: usize| {
        let bytes: Vec<u8> = x.to_be_bytes().into_iter().skip_while(|&b| b == 0).collect();
        let bytes = if bytes.is_empty() { vec![0] } else { bytes };
        [vec![bytes.len() as u8], bytes].concat()
    };
    let mut padded = left_encode(RATE);
    padded.extend(left_encode(8 * key.len()));
    padded.extend(key);
    padded.resize(padded.len().div_ceil(RATE) * RATE, 0);
    let core = sha3::CShake256Core::new_with_function_name(b"KMAC", customization);
    let mut xof = sha3::CShake256::from_core(core);
    xof.update(&padded);
    xof.update(message);
    // right_encode(L): the value's bytes, then their count.
    let mut length = left_encode(8 * out.len());
    length.rotate_left(1);
    xof.update(&length);
    xof.finalize_xof().read(out);
}
