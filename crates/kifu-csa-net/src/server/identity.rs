//! Who a player is, as shogi-server has it: a login name, or a login name and a trip.
//!
//! shogi-server (`Player#set_password`) makes a player's id of its name and a digest of
//! the trip it gave (`alice+<md5 of the trip>`): a different trip is a different player,
//! nothing is registered, and so no login can take a name away from anyone. This server
//! keeps that model and hardens the digest: it is a keyed BLAKE2b MAC of the name and the
//! trip, with a random key kept in the store (one per data directory, random per run
//! without one), so an id seen in a record or a log does not give the trip away to an
//! offline search, and one trip used under two names gives two unrelated ids.
//!
//! What follows for an organiser:
//! - Without a trip, a name is anyone's (as in shogi-server): a namesake may take over a
//!   trip-less player's connection outside a game, never its game.
//! - With a trip, the id is the player's alone; a stranger giving another trip, or none,
//!   is another player who happens to show the same name.
//! - `--players FILE` still closes a tournament to a list of names.

use blake2::Blake2bMac;
use blake2::digest::consts::U16;
use blake2::digest::{KeyInit, Mac as _};

/// Bytes of the key that makes trip digests.
pub const KEY_LEN: usize = 32;

/// The key trip digests are made with.
#[derive(Clone)]
pub struct TripKey([u8; KEY_LEN]);

impl std::fmt::Debug for TripKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never printed: with it, ids can be searched for their trips offline.
        f.write_str("TripKey(…)")
    }
}

impl TripKey {
    /// A key from its stored bytes.
    pub fn from_bytes(bytes: [u8; KEY_LEN]) -> TripKey {
        TripKey(bytes)
    }

    /// A fresh random key.
    pub fn random() -> std::io::Result<TripKey> {
        let mut key = [0u8; KEY_LEN];
        getrandom::fill(&mut key).map_err(std::io::Error::other)?;
        Ok(TripKey(key))
    }

    /// The player a login names: `name` alone without a trip, `name+<32 hex digits>` with
    /// one. As in shogi-server, the trip is taken without surrounding white space.
    ///
    /// ```
    /// use kifu_csa_net::server::identity::TripKey;
    ///
    /// let key = TripKey::from_bytes([7; 32]);
    /// assert_eq!(key.player_id("alice", None), "alice");
    /// let id = key.player_id("alice", Some("secret"));
    /// assert!(id.starts_with("alice+") && id.len() == "alice+".len() + 32);
    /// assert_eq!(id, key.player_id("alice", Some(" secret ")));
    /// assert_ne!(id, key.player_id("alice", Some("other")));
    /// assert_ne!(id[6..], key.player_id("bob", Some("secret"))[4..]);
    /// ```
    pub fn player_id(&self, name: &str, trip: Option<&str>) -> String {
        let Some(trip) = trip.map(str::trim).filter(|t| !t.is_empty()) else {
            return name.to_owned();
        };
        let mut mac =
            <Blake2bMac<U16> as KeyInit>::new_from_slice(&self.0).expect("a 32-byte key fits");
        // The name's length first, so that no (name, trip) pair reads as another.
        mac.update(&(name.len() as u64).to_le_bytes());
        mac.update(name.as_bytes());
        mac.update(trip.as_bytes());
        let digest = mac.finalize().into_bytes();
        let mut id = String::with_capacity(name.len() + 1 + 2 * digest.len());
        id.push_str(name);
        id.push('+');
        for b in digest {
            id.push_str(&format!("{b:02x}"));
        }
        id
    }
}

/// The login name of a player id (`alice+…` → `alice`).
pub fn name_of(player_id: &str) -> &str {
    player_id.split_once('+').map_or(player_id, |(n, _)| n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_make_different_ids_and_names_never_contain_a_plus() {
        let a = TripKey::from_bytes([1; KEY_LEN]);
        let b = TripKey::from_bytes([2; KEY_LEN]);
        assert_ne!(a.player_id("x", Some("t")), b.player_id("x", Some("t")));
        assert_eq!(name_of(&a.player_id("x", Some("t"))), "x");
        assert_eq!(name_of("plain"), "plain");
        assert_eq!(format!("{a:?}"), "TripKey(…)");
    }
}
