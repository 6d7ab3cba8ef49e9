//! Zobrist keys, generated at compile time from a fixed seed so hashes are
//! stable across runs and builds.

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

pub(crate) struct Keys {
    /// `[colour][kind index][square]`
    pub board: [[[u64; 81]; 15]; 2],
    /// `[colour][hand kind][count]`
    pub hand: [[[u64; 19]; 7]; 2],
    /// XORed in when White is to move.
    pub white_to_move: u64,
}

const fn keys() -> Keys {
    let mut k = Keys {
        board: [[[0; 81]; 15]; 2],
        hand: [[[0; 19]; 7]; 2],
        white_to_move: 0,
    };
    let mut state = 0x6B69_6675_u64; // "kifu"
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < 15 {
            let mut s = 0;
            while s < 81 {
                let (st, v) = splitmix(state);
                state = st;
                k.board[c][p][s] = v;
                s += 1;
            }
            p += 1;
        }
        let mut h = 0;
        while h < 7 {
            // Count 0 hashes to 0 so that an empty hand contributes nothing.
            let mut n = 1;
            while n < 19 {
                let (st, v) = splitmix(state);
                state = st;
                k.hand[c][h][n] = v;
                n += 1;
            }
            h += 1;
        }
        c += 1;
    }
    let (_, v) = splitmix(state);
    k.white_to_move = v;
    k
}

pub(crate) static KEYS: Keys = keys();
