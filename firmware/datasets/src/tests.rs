//! Every expected output recomputed on the host with reference implementations.

extern crate std;
use std::vec::Vec;

use ::aes::cipher::{BlockEncryptMut, KeyInit, KeyIvInit, StreamCipher};
use ::aes::{Aes128, Aes192, Aes256};
use sha2::Digest;

use super::*;

fn reference_encrypt(d: &AesDataset) -> Vec<u8> {
    macro_rules! with_cipher {
        ($c:ty) => {{
            let key = d.key;
            let iv = d.iv.unwrap_or([0; 16]);
            let mut data = d.plaintext.to_vec();
            match d.mode {
                AesDatasetMode::Ecb => {
                    let mut c = <$c>::new_from_slice(key).unwrap();
                    data.chunks_exact_mut(16).for_each(|b| c.encrypt_block_mut(b.into()));
                }
                AesDatasetMode::Cbc => {
                    let mut c = cbc::Encryptor::<$c>::new_from_slices(key, &iv).unwrap();
                    data.chunks_exact_mut(16).for_each(|b| c.encrypt_block_mut(b.into()));
                }
                AesDatasetMode::Cfb => {
                    let mut c = cfb_mode::Encryptor::<$c>::new_from_slices(key, &iv).unwrap();
                    data.chunks_exact_mut(16).for_each(|b| c.encrypt_block_mut(b.into()));
                }
                AesDatasetMode::Ofb => ofb::Ofb::<$c>::new_from_slices(key, &iv)
                    .unwrap()
                    .apply_keystream(&mut data),
                AesDatasetMode::Ctr => ctr::Ctr128BE::<$c>::new_from_slices(key, &iv)
                    .unwrap()
                    .apply_keystream(&mut data),
            }
            data
        }};
    }
    match d.key_bits {
        AesKeyBits::B128 => with_cipher!(Aes128),
        AesKeyBits::B192 => with_cipher!(Aes192),
        AesKeyBits::B256 => with_cipher!(Aes256),
    }
}

#[test]
fn aes_expected_outputs_match_reference() {
    for d in AES {
        assert_eq!(d.plaintext.len() % 16, 0, "{}", d.id);
        assert_eq!(d.mode == AesDatasetMode::Ecb, d.iv.is_none(), "{}", d.id);
        assert_eq!(reference_encrypt(d), d.ciphertext, "{}", d.id);
    }
}

#[test]
fn aes_sets_cover_every_mode_and_key_length() {
    assert_eq!(
        AES.iter().filter(|d| d.source.starts_with("NIST SP 800-38A")).count(),
        15
    );
}

/// First ciphertext blocks as printed in SP 800-38A, independent of any implementation.
#[test]
fn aes_first_blocks_match_sp800_38a() {
    let published = [
        ("ecb-128", "3ad77bb40d7a3660a89ecaf32466ef97"),
        ("ecb-192", "bd334f1d6e45f25ff712a214571fa5cc"),
        ("ecb-256", "f3eed1bdb5d2a03c064b5a7e3db181f8"),
        ("cbc-128", "7649abac8119b246cee98e9b12e9197d"),
        ("cbc-256", "f58c4c04d6e5f1ba779eabfb5f7bfbd6"),
        ("ofb-128", "3b3fd92eb72dad20333449f8e83cfb4a"),
        ("cfb-128", "3b3fd92eb72dad20333449f8e83cfb4a"),
        ("ctr-128", "874d6191b620e3261bef6864990db6ce"),
    ];
    for (id, first) in published {
        let d = aes(id).unwrap();
        let hex: std::string::String = d.ciphertext[..16].iter().map(|b| std::format!("{b:02x}")).collect();
        assert_eq!(hex, first, "{id}");
    }
}

#[test]
fn hash_expected_digests_match_reference() {
    for d in HASH {
        assert_eq!(sha2::Sha256::digest(d.message).as_slice(), d.sha256, "{}", d.id);
        assert_eq!(sha3::Sha3_256::digest(d.message).as_slice(), d.sha3_256, "{}", d.id);
    }
    assert_eq!(hash("msg-256").unwrap().message.len(), 256);
}

// The software-primitive expectations are computed by the build script with the same
// crates; these tests pin those crates (and the inputs) to the published vectors.

#[test]
fn chacha20_reference_matches_rfc8439() {
    use ::chacha20::cipher::StreamCipherSeek;
    // RFC 8439 section 2.4.2: "Ladies and Gentlemen of the class of '99: ..." (first 16 bytes).
    let mut data = *b"Ladies and Gentl";
    let mut c = ::chacha20::ChaCha20::new(&software::CHACHA20_KEY.into(), &software::CHACHA20_NONCE.into());
    c.seek(u64::from(software::CHACHA20_COUNTER) * 64);
    c.apply_keystream(&mut data);
    assert_eq!(data, hex_literal::hex!("6e2e359a2568f98041ba0728dd0d6981"));
    let mut input = [0u8; 16];
    software::fill_input(&mut input);
    c.seek(u64::from(software::CHACHA20_COUNTER) * 64);
    c.apply_keystream(&mut input);
    assert_eq!(input, software::CHACHA20_OUTPUT[..16]);
}

#[test]
fn aes_references_match_fips197_and_sp800_38a() {
    let mut block = software::AES_TABLE_PLAINTEXT.into();
    Aes128::new(&software::AES_TABLE_KEY.into()).encrypt_block_mut(&mut block);
    assert_eq!(block[..], software::AES_TABLE_CIPHERTEXT);
    // SP 800-38A F.5.1, first block.
    let mut data = hex_literal::hex!("6bc1bee22e409f96e93d7e117393172a");
    ctr::Ctr32BE::<Aes128>::new(&software::AES_CTR_KEY.into(), &software::AES_CTR_IV.into()).apply_keystream(&mut data);
    assert_eq!(data, hex_literal::hex!("874d6191b620e3261bef6864990db6ce"));
}

#[test]
fn keccak_and_mp_expectations_hold() {
    let mut zero = [0u64; 25];
    ::keccak::f1600(&mut zero);
    // Keccak team's KeccakF-1600-IntermediateValues: first lane after one permutation of 0.
    assert_eq!(zero[0], 0xF1258F7940E1DDE7);
    let mut state = software::keccak_input();
    ::keccak::f1600(&mut state);
    assert_eq!(state, software::KECCAK_OUTPUT);
    // Schoolbook product of the 2-limb operands, by hand in u128.
    let value = |op| {
        let mut l = [0u32; 2];
        software::fill_operand(op, &mut l);
        u128::from(l[0]) | (u128::from(l[1]) << 32)
    };
    let product = value(0) * value(1);
    let limbs: Vec<u32> = (0..4).map(|i| (product >> (32 * i)) as u32).collect();
    assert_eq!(software::MP_PRODUCT[2][..4], limbs[..]);
    let sum = value(0) + value(1);
    assert_eq!(software::MP_SUM[..2], [sum as u32, (sum >> 32) as u32]);
    assert_eq!(software::MP_CARRY[2], (sum >> 64) as u8);
}

mod leakage_reference {
    use super::std::vec;
    use super::std::vec::Vec;

    include!("leakage/reference.rs");
}

#[test]
fn leakage_references_give_the_published_answers() {
    use leakage_reference::{hmac_sha256, kmac256};
    // RFC 4231 test case 1 (the key of class 0 without the zero padding, which HMAC adds).
    assert_eq!(
        hmac_sha256(&[0x0b; 20], b"Hi There"),
        hex_literal::hex!("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    );
    // RFC 4231 test case 2.
    assert_eq!(
        hmac_sha256(b"Jefe", b"what do ya want for nothing?"),
        hex_literal::hex!("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    );
    // NIST SP 800-185 KMAC samples #4 (key and data of class 0, tagged, 512 bits).
    let mut tag = [0u8; 64];
    kmac256(
        &leakage::KMAC_KEY,
        &leakage::KMAC_MESSAGE,
        b"My Tagged Application",
        &mut tag,
    );
    assert_eq!(
        tag,
        hex_literal::hex!(
            "20c570c31346f703c9ac36c61c03cb64c3970d0cfc787e9b79599d273a68d2f7"
            "f69d4cc3de9d104a351689f27cf6f5951f0103f33f4f24871024d9c27773a8dd"
        )
    );
}

#[test]
fn leakage_answers_are_the_references() {
    use leakage::*;
    let published = crate::aes("ecb-128").expect("dataset");
    assert_eq!((&AES_KEY[..], &AES_PLAINTEXT[..]), (published.key, published.plaintext));
    assert_eq!(&AES_CIPHERTEXT[..], published.ciphertext);
    assert_eq!(HMAC_TAG, leakage_reference::hmac_sha256(&HMAC_KEY, &HMAC_MESSAGE));
    let mut tag = [0u8; 32];
    leakage_reference::kmac256(&KMAC_KEY, &KMAC_MESSAGE, b"", &mut tag);
    assert_eq!(KMAC_TAG, tag);
    let cipher = Aes128::new(&AES_KEY_POOL[5].into());
    let mut block = ::aes::Block::clone_from_slice(&AES_PLAINTEXT[16..32]);
    ::aes::cipher::BlockEncrypt::encrypt_block(&cipher, &mut block);
    assert_eq!(block[..], AES_KEY_POOL_CIPHERTEXTS[5][16..32]);
    assert_eq!(
        HMAC_KEY_POOL_TAGS[7],
        leakage_reference::hmac_sha256(&HMAC_KEY_POOL[7], &HMAC_MESSAGE)
    );
    // The pool is unstructured: no two entries alike.
    assert!((1..LEAK_POOL).all(|i| HMAC_KEY_POOL[i] != HMAC_KEY_POOL[i - 1]));
    let mut fixed = [0u8; COMPARE_BYTES];
    crate::software::fill_input(&mut fixed);
    // Class 1 of a comparison answers "different"; the leaky one returns after the first byte
    // every time (docs/leakage.md gives its cycles).
    assert!(COMPARE_POOL.iter().all(|b| *b != fixed));
    assert!(COMPARE_POOL.iter().all(|b| b[0] != fixed[0]));
}
