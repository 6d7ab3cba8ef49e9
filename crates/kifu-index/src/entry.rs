//! One position of one game in the position files: 16 bytes.
//!
//! | bytes | field | |
//! |---|---|---|
//! | 0–7 | key | the position key ([`crate::key::position_key`]), little-endian |
//! | 8–11 | game | the game's number in the archive |
//! | 12–13 | ply | moves played before the position (0: the start) |
//! | 14–15 | move | the code of the move played from it ([`crate::key::move_code`]); 0 where the game's main line ended |
//!
//! A position file is sorted by (key, game, ply), so a position's entries are one run found by
//! binary search, and within it a game's entries follow each other.

/// One position of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    pub key: u64,
    pub game: u32,
    pub ply: u16,
    pub move_code: u16,
}

impl Entry {
    /// Bytes per entry on disk.
    pub const SIZE: usize = 16;

    /// The entry as one number whose order is the file's order, for sorting.
    pub fn packed(self) -> u128 {
        u128::from(self.key) << 64
            | u128::from(self.game) << 32
            | u128::from(self.ply) << 16
            | u128::from(self.move_code)
    }

    pub fn unpacked(n: u128) -> Entry {
        Entry {
            key: (n >> 64) as u64,
            game: (n >> 32) as u32,
            ply: (n >> 16) as u16,
            move_code: n as u16,
        }
    }

    pub fn to_bytes(self) -> [u8; Entry::SIZE] {
        let mut b = [0u8; Entry::SIZE];
        b[0..8].copy_from_slice(&self.key.to_le_bytes());
        b[8..12].copy_from_slice(&self.game.to_le_bytes());
        b[12..14].copy_from_slice(&self.ply.to_le_bytes());
        b[14..16].copy_from_slice(&self.move_code.to_le_bytes());
        b
    }

    /// The entry at the start of `b` (at least [`Entry::SIZE`] bytes).
    pub fn from_bytes(b: &[u8]) -> Entry {
        Entry {
            key: key_at(b),
            game: u32::from_le_bytes([b[8], b[9], b[10], b[11]]),
            ply: u16::from_le_bytes([b[12], b[13]]),
            move_code: u16::from_le_bytes([b[14], b[15]]),
        }
    }
}

/// The key of the entry at the start of `b`.
pub fn key_at(b: &[u8]) -> u64 {
    let mut k = [0u8; 8];
    k.copy_from_slice(&b[..8]);
    u64::from_le_bytes(k)
}

/// The entries of `key` in a sorted position file's bytes.
pub fn entries_of(file: &[u8], key: u64) -> impl Iterator<Item = Entry> + '_ {
    run_of(file, key)
        .chunks_exact(Entry::SIZE)
        .map(Entry::from_bytes)
}

/// The bytes of `key`'s entries in a sorted position file's bytes: two binary searches.
pub fn run_of(file: &[u8], key: u64) -> &[u8] {
    let n = file.len() / Entry::SIZE;
    let at = |i: usize| key_at(&file[i * Entry::SIZE..]);
    // The first entry whose key is not below `key`, then the first whose key is above it.
    let first_not_below = |key: u64, mut lo: usize| {
        let mut hi = n;
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if at(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    };
    let start = first_not_below(key, 0);
    let end = match key.checked_add(1) {
        Some(next) => first_not_below(next, start),
        None => n,
    };
    &file[start * Entry::SIZE..end * Entry::SIZE]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_keeps_the_files_order() {
        let a = Entry {
            key: 1,
            game: 9,
            ply: 3,
            move_code: 7,
        };
        let b = Entry {
            key: 2,
            game: 0,
            ply: 0,
            move_code: 0,
        };
        assert!(a.packed() < b.packed());
        assert_eq!(Entry::unpacked(a.packed()), a);
        assert_eq!(Entry::from_bytes(&a.to_bytes()), a);
    }

    #[test]
    fn finds_a_keys_run() {
        let entries: Vec<Entry> = [(1, 0), (3, 0), (3, 1), (3, 2), (7, 0)]
            .into_iter()
            .map(|(key, game)| Entry {
                key,
                game,
                ply: 0,
                move_code: 0,
            })
            .collect();
        let file: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
        let games = |key| entries_of(&file, key).map(|e| e.game).collect::<Vec<_>>();
        assert_eq!(games(3), [0, 1, 2]);
        assert_eq!(games(7), [0]);
        assert!(games(2).is_empty() && games(8).is_empty() && games(0).is_empty());
    }
}
