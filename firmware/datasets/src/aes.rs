//! AES datasets: NIST SP 800-38A appendix F vectors (four blocks per mode and key length)
//! plus one- and five-block ECB sets for the thesis's per-block and pipelined measurements
//! (the fifth block's ciphertext was computed with a reference implementation and is
//! re-checked by the host tests below).

use hex_literal::hex;

/// AES key length of a dataset, in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AesKeyBits {
    /// 128-bit key.
    B128,
    /// 192-bit key.
    B192,
    /// 256-bit key.
    B256,
}

/// Block cipher mode of a dataset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AesDatasetMode {
    /// ECB (no IV).
    Ecb,
    /// CBC.
    Cbc,
    /// CFB with 128-bit segments.
    Cfb,
    /// OFB.
    Ofb,
    /// CTR.
    Ctr,
}

/// One AES dataset: configuration, input and expected output.
#[derive(Debug)]
pub struct AesDataset {
    /// Dataset id, as named in requests.
    pub id: &'static str,
    /// Where the vector comes from.
    pub source: &'static str,
    /// Key length.
    pub key_bits: AesKeyBits,
    /// Mode.
    pub mode: AesDatasetMode,
    /// Key bytes (16, 24 or 32).
    pub key: &'static [u8],
    /// IV or initial counter block (all modes but ECB).
    pub iv: Option<[u8; 16]>,
    /// Plaintext, a whole number of blocks.
    pub plaintext: &'static [u8],
    /// Expected ciphertext.
    pub ciphertext: &'static [u8],
}

impl AesDataset {
    /// Number of 16-byte blocks.
    pub fn blocks(&self) -> usize {
        self.plaintext.len() / 16
    }
}

/// Every AES dataset.
pub const AES: &[AesDataset] = &[
    AesDataset {
        id: "ecb-128",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B128,
        mode: AesDatasetMode::Ecb,
        key: &hex!("2b7e151628aed2a6abf7158809cf4f3c"),
        iv: None,
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4"),
    },
    AesDataset {
        id: "ecb-192",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B192,
        mode: AesDatasetMode::Ecb,
        key: &hex!("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"),
        iv: None,
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eefef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e"),
    },
    AesDataset {
        id: "ecb-256",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B256,
        mode: AesDatasetMode::Ecb,
        key: &hex!("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
        iv: None,
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7"),
    },
    AesDataset {
        id: "cbc-128",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B128,
        mode: AesDatasetMode::Cbc,
        key: &hex!("2b7e151628aed2a6abf7158809cf4f3c"),
        iv: Some(hex!("000102030405060708090a0b0c0d0e0f")),
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"),
    },
    AesDataset {
        id: "cbc-192",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B192,
        mode: AesDatasetMode::Cbc,
        key: &hex!("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"),
        iv: Some(hex!("000102030405060708090a0b0c0d0e0f")),
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd"),
    },
    AesDataset {
        id: "cbc-256",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B256,
        mode: AesDatasetMode::Cbc,
        key: &hex!("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
        iv: Some(hex!("000102030405060708090a0b0c0d0e0f")),
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b"),
    },
    AesDataset {
        id: "cfb-128",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B128,
        mode: AesDatasetMode::Cfb,
        key: &hex!("2b7e151628aed2a6abf7158809cf4f3c"),
        iv: Some(hex!("000102030405060708090a0b0c0d0e0f")),
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("3b3fd92eb72dad20333449f8e83cfb4ac8a64537a0b3a93fcde3cdad9f1ce58b26751f67a3cbb140b1808cf187a4f4dfc04b05357c5d1c0eeac4c66f9ff7f2e6"),
    },
    AesDataset {
        id: "cfb-192",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B192,
        mode: AesDatasetMode::Cfb,
        key: &hex!("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"),
        iv: Some(hex!("000102030405060708090a0b0c0d0e0f")),
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("cdc80d6fddf18cab34c25909c99a417467ce7f7f81173621961a2b70171d3d7a2e1e8a1dd59b88b1c8e60fed1efac4c9c05f9f9ca9834fa042ae8fba584b09ff"),
    },
    AesDataset {
        id: "cfb-256",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B256,
        mode: AesDatasetMode::Cfb,
        key: &hex!("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
        iv: Some(hex!("000102030405060708090a0b0c0d0e0f")),
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("dc7e84bfda79164b7ecd8486985d386039ffed143b28b1c832113c6331e5407bdf10132415e54b92a13ed0a8267ae2f975a385741ab9cef82031623d55b1e471"),
    },
    AesDataset {
        id: "ofb-128",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B128,
        mode: AesDatasetMode::Ofb,
        key: &hex!("2b7e151628aed2a6abf7158809cf4f3c"),
        iv: Some(hex!("000102030405060708090a0b0c0d0e0f")),
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("3b3fd92eb72dad20333449f8e83cfb4a7789508d16918f03f53c52dac54ed8259740051e9c5fecf64344f7a82260edcc304c6528f659c77866a510d9c1d6ae5e"),
    },
    AesDataset {
        id: "ofb-192",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B192,
        mode: AesDatasetMode::Ofb,
        key: &hex!("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"),
        iv: Some(hex!("000102030405060708090a0b0c0d0e0f")),
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("cdc80d6fddf18cab34c25909c99a4174fcc28b8d4c63837c09e81700c11004018d9a9aeac0f6596f559c6d4daf59a5f26d9f200857ca6c3e9cac524bd9acc92a"),
    },
    AesDataset {
        id: "ofb-256",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B256,
        mode: AesDatasetMode::Ofb,
        key: &hex!("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
        iv: Some(hex!("000102030405060708090a0b0c0d0e0f")),
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("dc7e84bfda79164b7ecd8486985d38604febdc6740d20b3ac88f6ad82a4fb08d71ab47a086e86eedf39d1c5bba97c4080126141d67f37be8538f5a8be740e484"),
    },
    AesDataset {
        id: "ctr-128",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B128,
        mode: AesDatasetMode::Ctr,
        key: &hex!("2b7e151628aed2a6abf7158809cf4f3c"),
        iv: Some(hex!("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")),
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"),
    },
    AesDataset {
        id: "ctr-192",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B192,
        mode: AesDatasetMode::Ctr,
        key: &hex!("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"),
        iv: Some(hex!("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")),
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e941e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050"),
    },
    AesDataset {
        id: "ctr-256",
        source: "NIST SP 800-38A F",
        key_bits: AesKeyBits::B256,
        mode: AesDatasetMode::Ctr,
        key: &hex!("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
        iv: Some(hex!("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")),
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"),
        ciphertext: &hex!("601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c52b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6"),
    },
    AesDataset {
        id: "ecb-128-5b",
        source: "SP 800-38A key and blocks, ECB",
        key_bits: AesKeyBits::B128,
        mode: AesDatasetMode::Ecb,
        key: &hex!("2b7e151628aed2a6abf7158809cf4f3c"),
        iv: None,
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c371000112233445566778899aabbccddeeff"),
        ciphertext: &hex!("3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd48df4e9aac5c7573a27d8d055d6e4d64b"),
    },
    AesDataset {
        id: "ecb-128-1b",
        source: "SP 800-38A key and blocks, ECB",
        key_bits: AesKeyBits::B128,
        mode: AesDatasetMode::Ecb,
        key: &hex!("2b7e151628aed2a6abf7158809cf4f3c"),
        iv: None,
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172a"),
        ciphertext: &hex!("3ad77bb40d7a3660a89ecaf32466ef97"),
    },
    AesDataset {
        id: "ecb-192-5b",
        source: "SP 800-38A key and blocks, ECB",
        key_bits: AesKeyBits::B192,
        mode: AesDatasetMode::Ecb,
        key: &hex!("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"),
        iv: None,
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c371000112233445566778899aabbccddeeff"),
        ciphertext: &hex!("bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eefef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0eeb1b03f2acb64bcf28c9991cc8a4fa50"),
    },
    AesDataset {
        id: "ecb-192-1b",
        source: "SP 800-38A key and blocks, ECB",
        key_bits: AesKeyBits::B192,
        mode: AesDatasetMode::Ecb,
        key: &hex!("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"),
        iv: None,
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172a"),
        ciphertext: &hex!("bd334f1d6e45f25ff712a214571fa5cc"),
    },
    AesDataset {
        id: "ecb-256-5b",
        source: "SP 800-38A key and blocks, ECB",
        key_bits: AesKeyBits::B256,
        mode: AesDatasetMode::Ecb,
        key: &hex!("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
        iv: None,
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c371000112233445566778899aabbccddeeff"),
        ciphertext: &hex!("f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7d83414223d20a0c928b136c884d07ea2"),
    },
    AesDataset {
        id: "ecb-256-1b",
        source: "SP 800-38A key and blocks, ECB",
        key_bits: AesKeyBits::B256,
        mode: AesDatasetMode::Ecb,
        key: &hex!("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
        iv: None,
        plaintext: &hex!("6bc1bee22e409f96e93d7e117393172a"),
        ciphertext: &hex!("f3eed1bdb5d2a03c064b5a7e3db181f8"),
    },
];
