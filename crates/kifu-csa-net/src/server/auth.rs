//! Who may log in under a name. The first login that gives a secret registers a salted
//! Argon2id hash of it in the store; every later login under that name must give the same
//! secret. The secret is the trip of `<game>,<trip>` in CSA mode or the x1 password. An
//! optional closed list names the only players allowed.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Mutex;

use argon2::{Algorithm, Argon2, Params, Version};

use crate::server::store::Store;

/// Why a login was refused (for the log; the client only hears `LOGIN:incorrect`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A closed list is in force and the name is not on it.
    NotListed,
    /// The secret does not match the one registered for the name.
    WrongPassword,
    /// A secret is registered for the name, and the login gave none.
    PasswordMissing,
    /// The store could not be read or written.
    StoreFailed,
}

impl Refusal {
    /// The reason, for the log.
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::NotListed => "not on the players list",
            Refusal::WrongPassword => "wrong password",
            Refusal::PasswordMissing => "a password is registered for this name but none was given",
            Refusal::StoreFailed => "the store failed",
        }
    }
}

/// The secret a login's password field carries, if any: the x1 password, or the trip
/// of a CSA-mode `<game>,<trip>`.
pub fn secret(password: &str, x1: bool) -> Option<&str> {
    if x1 {
        return (!password.is_empty()).then_some(password);
    }
    password
        .split_once(',')
        .map(|(_, trip)| trip)
        .filter(|t| !t.is_empty())
}

/// Reads a closed list: one name per line, `#` comments and blank lines ignored.
pub fn read_players(path: &Path) -> std::io::Result<HashSet<String>> {
    let text = std::fs::read_to_string(path)?;
    Ok(text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect())
}

const SALT_LEN: usize = 16;
const HASH_LEN: usize = 32;

fn hash(secret: &str, salt: &[u8]) -> Option<[u8; HASH_LEN]> {
    // 8 MiB and 2 passes: tens of milliseconds per login, off the runtime's threads.
    let params = Params::new(8 * 1024, 2, 1, Some(HASH_LEN)).ok()?;
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params);
    let mut out = [0u8; HASH_LEN];
    argon
        .hash_password_into(secret.as_bytes(), salt, &mut out)
        .ok()?;
    Some(out)
}

/// Compares without stopping at the first difference.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Judges a login (blocking: hashing and the store) and counts it when accepted.
pub fn check(
    store: Option<&Mutex<Store>>,
    players: Option<&HashSet<String>>,
    name: &str,
    secret: Option<&str>,
) -> Result<(), Refusal> {
    if players.is_some_and(|p| !p.contains(name)) {
        return Err(Refusal::NotListed);
    }
    let Some(store) = store else { return Ok(()) };
    let stored = store
        .lock()
        .unwrap()
        .credential(name)
        .map_err(|_| Refusal::StoreFailed)?;
    match (stored, secret) {
        (Some((salt, want)), Some(secret)) => {
            let got = hash(secret, &salt).ok_or(Refusal::StoreFailed)?;
            if !same(&got, &want) {
                return Err(Refusal::WrongPassword);
            }
        }
        (Some(_), None) => return Err(Refusal::PasswordMissing),
        (None, Some(secret)) => {
            let mut salt = [0u8; SALT_LEN];
            getrandom::fill(&mut salt).map_err(|_| Refusal::StoreFailed)?;
            let h = hash(secret, &salt).ok_or(Refusal::StoreFailed)?;
            let registered = store
                .lock()
                .unwrap()
                .register_credential(name, &salt, &h)
                .map_err(|_| Refusal::StoreFailed)?;
            if !registered {
                // Someone registered this name a moment ago: judge against theirs.
                return check(Some(store), None, name, Some(secret));
            }
        }
        (None, None) => {}
    }
    store
        .lock()
        .unwrap()
        .login(name)
        .map_err(|_| Refusal::StoreFailed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_by_login_form() {
        assert_eq!(secret("test-600-10", false), None);
        assert_eq!(secret("test-600-10-B", false), None);
        assert_eq!(secret("floodgate-300-10F,trip", false), Some("trip"));
        assert_eq!(secret("hunter2", false), None);
        assert_eq!(secret("hunter2", true), Some("hunter2"));
    }

    #[test]
    fn first_secret_registers_and_later_ones_must_match() {
        let store = Mutex::new(Store::in_memory().unwrap());
        assert_eq!(check(Some(&store), None, "alice", None), Ok(()));
        assert_eq!(check(Some(&store), None, "alice", Some("pw1")), Ok(()));
        assert_eq!(check(Some(&store), None, "alice", Some("pw1")), Ok(()));
        assert_eq!(
            check(Some(&store), None, "alice", Some("pw2")),
            Err(Refusal::WrongPassword)
        );
        assert_eq!(
            check(Some(&store), None, "alice", None),
            Err(Refusal::PasswordMissing)
        );
        let (salt, h) = store.lock().unwrap().credential("alice").unwrap().unwrap();
        assert_eq!((salt.len(), h.len()), (SALT_LEN, HASH_LEN));
        assert!(!h.windows(3).any(|w| w == b"pw1"));
        let list: HashSet<String> = ["bob".to_owned()].into();
        assert_eq!(
            check(Some(&store), Some(&list), "alice", Some("pw1")),
            Err(Refusal::NotListed)
        );
        assert_eq!(check(None, Some(&list), "bob", None), Ok(()));
    }
}
