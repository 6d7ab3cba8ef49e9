//! What a login's password field says of the player: its trip (the secret that, with the
//! name, makes the player's id: see [`crate::server::identity`]), and the optional closed
//! list of names an organiser allows. Nothing is registered and nothing is checked against
//! a store, so no login can cost another player its name.

use std::collections::HashSet;
use std::path::Path;

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
}
