//! Buoy games, as shogi-server defines them (its `buoy.rb` and the `%%SETBUOY`,
//! `%%DELETEBUOY`, `%%GETBUOYCOUNT` and `%%FORK` commands of `command.rb`): a game name
//! `buoy_<name>-<total>-<byoyomi>[F]` whose games start after given moves, a given number of
//! times. Players who ask for a buoy name before its buoy is set wait until it is; each game
//! started takes one from the count, and at zero the buoy is gone.
//!
//! shogi-server keeps buoys in `buoy.yaml` across restarts; with `--data`, they are kept in
//! the store (`buoys` table) as they are set, used and deleted, and read again at start.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use kifu_shogi::notation::csa::CsaMove;
use kifu_shogi::{Move, Position};

use crate::game_name::GameName;
use crate::server::store::Store;

/// One buoy: the moves its games start after, who set it, and how many games are left.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Buoy {
    pub moves: Vec<Move>,
    pub owner: String,
    pub count: u32,
}

/// The buoys of a server, by game name, and the store that keeps them (with `--data`).
#[derive(Default)]
pub(crate) struct Buoys {
    set: Mutex<HashMap<String, Buoy>>,
    store: Option<Arc<Mutex<Store>>>,
}

/// shogi-server's `Buoy.game_name?`: `buoy_` then a game name's `-<total>-<byoyomi>[F]` tail.
pub(crate) fn is_buoy_name(name: &str) -> bool {
    name.starts_with("buoy_") && GameName::parse(name).is_some()
}

/// [`is_buoy_name`] of a name already parsed as a game name: no second parse when a player
/// joins or a game is seated.
pub(crate) fn is_buoy_game(game: &GameName) -> bool {
    game.name.starts_with("buoy_")
}

/// The moves of a buoy, one token of CSA moves from the even start (`+7776FU-3334FU`, each
/// optionally with its `,T<seconds>`), if each is legal in turn.
pub(crate) fn parse_moves(text: &str) -> Option<Vec<Move>> {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let token = rest.get(..7)?;
        let mv = CsaMove::parse(token).ok()?.to_move(&pos).ok()?;
        pos.check_move(mv).ok()?;
        pos.play_unchecked(mv);
        moves.push(mv);
        rest = &rest[7..];
        if let Some(time) = rest.strip_prefix(",T") {
            let digits = time.bytes().take_while(u8::is_ascii_digit).count();
            rest = &time[digits..];
        }
    }
    Some(moves)
}

/// A buoy's moves as one token, as `%%SETBUOY` takes them.
pub(crate) fn moves_text(moves: &[Move]) -> String {
    let mut pos = Position::startpos();
    let mut out = String::new();
    for &mv in moves {
        out.push_str(&CsaMove::from_move(&pos, mv).to_string());
        pos.play_unchecked(mv);
    }
    out
}

impl Buoys {
    /// The buoys `store` kept (none without one). A kept buoy whose moves no longer read is
    /// left out, with a line in the log.
    pub fn new(store: Option<Arc<Mutex<Store>>>) -> Buoys {
        let mut set = HashMap::new();
        if let Some(store) = &store {
            match store.lock().unwrap().buoys() {
                Ok(rows) => {
                    for (name, moves, owner, count) in rows {
                        match parse_moves(&moves) {
                            Some(moves) if count > 0 => {
                                set.insert(
                                    name,
                                    Buoy {
                                        moves,
                                        owner,
                                        count,
                                    },
                                );
                            }
                            _ => {
                                tracing::warn!(buoy = %name, "a kept buoy's moves do not read; left out")
                            }
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "the kept buoys could not be read"),
            }
        }
        Buoys {
            set: Mutex::new(set),
            store,
        }
    }

    /// Writes a buoy's state to the store, if there is one; a failure is logged and the
    /// buoy kept in memory (a restart would forget that change).
    fn keep(&self, name: &str, buoy: Option<&Buoy>) {
        let Some(store) = &self.store else { return };
        let (moves, owner, count) = match buoy {
            Some(b) => (moves_text(&b.moves), b.owner.as_str(), b.count),
            None => (String::new(), "", 0),
        };
        if let Err(e) = store.lock().unwrap().put_buoy(name, &moves, owner, count) {
            tracing::warn!(buoy = %name, error = %e, "the buoy could not be kept in the store");
        }
    }

    /// `%%SETBUOY <name> <moves> [count]`: the replies.
    pub fn set(&self, name: &str, moves: &str, count: Option<&str>, owner: &str) -> Vec<String> {
        if !is_buoy_name(name) {
            return vec![format!("##[ERROR] wrong buoy game name: {name}")];
        }
        let mut buoys = self.set.lock().unwrap();
        if buoys.contains_key(name) {
            return vec![format!("##[ERROR] duplicated buoy game name: {name}")];
        }
        // shogi-server reads the count as the digits after the moves (none: 1).
        let count = match count {
            None => 1,
            Some(c) => c.parse::<u32>().unwrap_or(0),
        };
        if count < 1 {
            return vec![format!("##[ERROR] invalid count: {count}")];
        }
        let Some(moves) = parse_moves(moves) else {
            return vec![format!("##[ERROR] wrong moves: {moves}")];
        };
        let buoy = Buoy {
            moves,
            owner: owner.to_owned(),
            count,
        };
        self.keep(name, Some(&buoy));
        buoys.insert(name.to_owned(), buoy);
        vec!["##[SETBUOY] +OK".to_owned()]
    }

    /// `%%DELETEBUOY <name>`: only its owner may.
    pub fn delete(&self, name: &str, who: &str) -> Vec<String> {
        let mut buoys = self.set.lock().unwrap();
        match buoys.get(name) {
            None => vec![format!("##[ERROR] buoy game not found: {name}")],
            Some(b) if b.owner != who => vec![format!(
                "##[ERROR] you are not allowed to delete a buoy game that you did not set: {name}"
            )],
            Some(_) => {
                buoys.remove(name);
                self.keep(name, None);
                vec!["##[DELETEBUOY] +OK".to_owned()]
            }
        }
    }

    /// `%%GETBUOYCOUNT <name>`: the games left, -1 for none.
    pub fn count_lines(&self, name: &str) -> Vec<String> {
        let count = self
            .set
            .lock()
            .unwrap()
            .get(name)
            .map_or(-1, |b| i64::from(b.count));
        vec![
            format!("##[GETBUOYCOUNT] {count}"),
            "##[GETBUOYCOUNT] +OK".to_owned(),
        ]
    }

    /// Whether a buoy of this name is set.
    pub fn is_set(&self, name: &str) -> bool {
        self.set.lock().unwrap().contains_key(name)
    }

    /// The moves of one game of a buoy, taken from its count (the buoy goes at zero).
    pub fn take(&self, name: &str) -> Option<Vec<Move>> {
        let mut buoys = self.set.lock().unwrap();
        let buoy = buoys.get_mut(name)?;
        let moves = buoy.moves.clone();
        buoy.count -= 1;
        if buoy.count == 0 {
            buoys.remove(name);
            self.keep(name, None);
        } else {
            let buoy = buoy.clone();
            self.keep(name, Some(&buoy));
        }
        Some(moves)
    }
}

/// What `%%FORK` does with a game's moves: the first `n` (1-based; by default all but the
/// last), and the buoy name (by default `buoy_<name>_<n>-<total>-<byoyomi>` from the game id's
/// game name). `Err` is the reply line.
pub(crate) fn fork(
    source: &str,
    moves: &[Move],
    name: Option<&str>,
    n: Option<usize>,
) -> Result<(String, Vec<Move>, Vec<String>), String> {
    let n = n.unwrap_or(moves.len().saturating_sub(1));
    if n > moves.len() || n < 1 {
        return Err(format!(
            "##[ERROR] number of moves to fork is out of range: {}.",
            moves.len()
        ));
    }
    let mut lines = Vec::new();
    let name = match name {
        Some(name) => name.to_owned(),
        None => {
            let game = source
                .split('+')
                .nth(1)
                .and_then(GameName::parse)
                .filter(|g| !g.name.contains('+'));
            let Some(game) = game else {
                return Err(format!(
                    "##[ERROR] wrong source game name to make a new buoy game name: {source}"
                ));
            };
            // The id part before the clock: `TestFork` of `TestFork-1500-0`.
            let tail = format!(
                "-{}-{}",
                game.total,
                game.name.rsplit('-').next().unwrap_or("")
            );
            let id = game.name.strip_suffix(&tail).unwrap_or(&game.name);
            let name = format!("buoy_{id}_{n}{tail}");
            lines.push(format!("##[FORK]: new buoy game name: {name}"));
            lines.push("##[FORK] +OK".to_owned());
            name
        }
    };
    Ok((name, moves[..n].to_vec(), lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_shogi_server_takes_them() {
        for ok in [
            "buoy_hoge-1500-0",
            "buoy_hoge-900-0",
            "buoy_hoge-0-30",
            "buoy_hoge-600-10F",
        ] {
            assert!(is_buoy_name(ok), "{ok}");
        }
        for bad in ["buoyhoge-1500-0", "hoge-1500-0", "buoy_hoge"] {
            assert!(!is_buoy_name(bad), "{bad}");
        }
    }

    #[test]
    fn moves_with_and_without_times() {
        let moves = parse_moves("+7776FU,T2-3334FU").unwrap();
        assert_eq!(moves.len(), 2);
        assert_eq!(moves_text(&moves), "+7776FU-3334FU");
        assert!(
            parse_moves("+7776FU+2726FU").is_none(),
            "two moves for Black"
        );
        assert!(parse_moves("+7776F").is_none());
        assert_eq!(parse_moves(""), Some(Vec::new()));
    }

    #[test]
    fn fork_names_and_ranges() {
        let moves = parse_moves("+7776FU-3334FU+2726FU").unwrap();
        let (name, taken, lines) =
            fork("kifu+TestFork-1500-0+a+b+20261128", &moves, None, None).unwrap();
        assert_eq!(name, "buoy_TestFork_2-1500-0");
        assert_eq!(taken.len(), 2);
        assert_eq!(
            lines[0],
            "##[FORK]: new buoy game name: buoy_TestFork_2-1500-0"
        );
        let (name, taken, lines) = fork(
            "x+g-300-10F+a+b+1",
            &moves,
            Some("buoy_mine-300-10F"),
            Some(1),
        )
        .unwrap();
        assert_eq!(
            (name.as_str(), taken.len(), lines.len()),
            ("buoy_mine-300-10F", 1, 0)
        );
        assert!(
            fork("x+g-300-10+a+b+1", &moves, None, Some(0))
                .unwrap_err()
                .contains("out of range: 3.")
        );
        assert!(fork("x+g-300-10+a+b+1", &moves, None, Some(4)).is_err());
    }
}
