//! Hash datasets: the FIPS 180-4 / FIPS 202 example messages and a 256-byte message (the
//! thesis's 2048-bit input), each with its SHA-256 and SHA3-256 digest.

use hex_literal::hex;

/// One message with both expected digests.
#[derive(Debug)]
pub struct HashDataset {
    /// Dataset id, as named in requests.
    pub id: &'static str,
    /// Where the vector comes from.
    pub source: &'static str,
    /// The message.
    pub message: &'static [u8],
    /// Expected SHA-256 digest.
    pub sha256: [u8; 32],
    /// Expected SHA3-256 digest.
    pub sha3_256: [u8; 32],
}

/// Every hash dataset.
pub const HASH: &[HashDataset] = &[
    HashDataset {
        id: "empty",
        source: "FIPS 180-4 / FIPS 202 examples (empty message)",
        message: &hex!(""),
        sha256: hex!("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        sha3_256: hex!("a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"),
    },
    HashDataset {
        id: "abc",
        source: "FIPS 180-4 / FIPS 202 examples (\"abc\")",
        message: &hex!("616263"),
        sha256: hex!("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        sha3_256: hex!("3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"),
    },
    HashDataset {
        id: "abc-448",
        source: "FIPS 180-4 / FIPS 202 examples (448-bit message)",
        message: &hex!("6162636462636465636465666465666765666768666768696768696a68696a6b696a6b6c6a6b6c6d6b6c6d6e6c6d6e6f6d6e6f706e6f7071"),
        sha256: hex!("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        sha3_256: hex!("41c0dba2a9d6240849100376a8235e2c82e1b9998a999e21db32dd97496d3376"),
    },
    HashDataset {
        id: "msg-256",
        source: "bytes 0..=255; digests from reference implementations",
        message: &hex!("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"),
        sha256: hex!("40aff2e9d2d8922e47afd4648e6967497158785fbd1da870e7110266bf944880"),
        sha3_256: hex!("9b04c091da96b997afb8f2585d608aebe9c4a904f7d52c8f28c7e4d2dd9fba5f"),
    },
];
