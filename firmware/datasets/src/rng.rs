//! Seeded RNG datasets for CTR_DRBG (AES-256, no derivation function), the construction of
//! OpenTitan's CSRNG. Words are in CSRNG order: seed words least-significant first (the order
//! they are written to the command register), output words of each 128-bit block
//! least-significant first (the order GENBITS yields them).

/// One generate request of a dataset and, where published, its expected output.
#[derive(Debug)]
pub struct RngGenerate {
    /// 128-bit blocks requested.
    pub blocks: u8,
    /// Expected blocks, or `None` where no known answer exists (its output is still read).
    pub expected: Option<&'static [[u32; 4]]>,
}

/// One seeded RNG dataset.
#[derive(Debug)]
pub struct RngDataset {
    /// Dataset id, as named in requests.
    pub id: &'static str,
    /// Where the vector comes from.
    pub source: &'static str,
    /// Seed material, up to 12 words; fewer words leave the high part zero.
    pub seed: &'static [u32],
    /// Generate requests, in order.
    pub generates: &'static [RngGenerate],
}

/// Every seeded RNG dataset.
pub const RNG: &[RngDataset] = &[
    RngDataset {
        id: "nist-ctr-drbg-0",
        source: "NIST CAVP CTR_DRBG AES-256 no df, no reseed, COUNT 0",
        seed: &[
            0x73bec010, 0x9262474c, 0x16a30f76, 0x531b51de, 0x2ee494e5, 0xdfec9db3, 0xcb7a879d, 0x5600419c, 0xca79b0b0,
            0xdda33b5c, 0xa468649e, 0xdf5d73fa,
        ],
        generates: &[
            RngGenerate {
                blocks: 4,
                expected: None,
            },
            RngGenerate {
                blocks: 4,
                expected: Some(&[
                    [0xe48bb8cb, 0x1012c84c, 0x5af8a7f1, 0xd1c07cd9],
                    [0xdf82ab22, 0x771c619b, 0xd40fccb1, 0x87189e99],
                    [0x510494b3, 0x64f7ac0c, 0x2581f391, 0x80b1dc2f],
                    [0x793e01c5, 0x87b107ae, 0xdb17514c, 0xa43c41b7],
                ]),
            },
        ],
    },
    RngDataset {
        id: "seed384-3x128",
        source: "384-bit seed, three 1-block generates (thesis Fig. 6.2); outputs from the NIST-checked reference DRBG",
        seed: &[
            0xcae25bad, 0x57b55f56, 0x0b086c6c, 0x7c2fb58e, 0xc323460a, 0x1e4c14d9, 0xdef17e10, 0x4991e0a1, 0x3fa08c0a,
            0x6f4119cb, 0x089a19d8, 0xe4bc23c5,
        ],
        generates: &[
            RngGenerate {
                blocks: 1,
                expected: Some(&[[0x8efd414e, 0x914172f2, 0x9e3c0114, 0x2fb5ac7a]]),
            },
            RngGenerate {
                blocks: 1,
                expected: Some(&[[0xdc91df88, 0xba817f31, 0x4c436937, 0xfd9141b9]]),
            },
            RngGenerate {
                blocks: 1,
                expected: Some(&[[0xf3ac7e63, 0xbeccf5ea, 0x164c6978, 0xfb5e81d2]]),
            },
        ],
    },
    RngDataset {
        id: "seed0-3x128",
        source:
            "empty seed (all-zero seed material), three 1-block generates; outputs from the NIST-checked reference DRBG",
        seed: &[],
        generates: &[
            RngGenerate {
                blocks: 1,
                expected: Some(&[[0x735b27a0, 0x497b246f, 0x9a8f9420, 0x91618fe9]]),
            },
            RngGenerate {
                blocks: 1,
                expected: Some(&[[0xce74a0ab, 0x78431362, 0x8d416874, 0xf9c12994]]),
            },
            RngGenerate {
                blocks: 1,
                expected: Some(&[[0x1d6d1f45, 0x7799fb71, 0xd6a74987, 0x9b4e441b]]),
            },
        ],
    },
];
