# ChaCha20 with Zbb: the function body of rv32i.S (which must come first in the same
# global_asm!) with each rotation a single rori: 12 instructions per quarter-round.

.macro cb_chacha_qr_zbb a, b, c, d, t
    add  \a, \a, \b
    xor  \d, \d, \a
    rori \d, \d, 16
    add  \c, \c, \d
    xor  \b, \b, \c
    rori \b, \b, 20
    add  \a, \a, \b
    xor  \d, \d, \a
    rori \d, \d, 24
    add  \c, \c, \d
    xor  \b, \b, \c
    rori \b, \b, 25
.endm

    .option push
    .option arch, +zbb
    cb_chacha20_body cb_chacha20_zbb, cb_chacha_qr_zbb
    .option pop
