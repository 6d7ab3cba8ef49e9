//! shogi-server's extended mode (`LOGIN <name> <password> x1`): the `%%` commands this
//! server understands, read as shogi-server reads them (words split on runs of spaces). An
//! x1 player stays connected between games.

use kifu_shogi::Color;

use crate::game_name::{GameName, Request};
use crate::plain_text::escape_controls;

/// One `%%` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum X1Command {
    /// `%%GAME <gamename> <+|-|*>`: wait for an opponent.
    Game(Request),
    /// `%%CHALLENGE <gamename> <+|-|*>`: play someone waiting now, or fail at once.
    Challenge(Request),
    /// `%%HELP`: the commands.
    Help,
    /// `%%CHAT <message>`: to every x1 player.
    Chat(String),
    /// `%%RATING`: the rated players.
    Rating,
    /// `%%MONITORON <game_id>`: the whole game as `%%SHOW` tells it, again after every move.
    MonitorOn(String),
    /// `%%MONITOROFF <game_id>`: no more positions.
    MonitorOff(String),
    /// `%%MONITOR2ON <game_id>`: the game so far, then every move as it is played.
    Monitor2On(String),
    /// `%%MONITOR2OFF <game_id>`: no more moves.
    Monitor2Off(String),
    /// `%%SETBUOY <buoy game> <moves> [count]`: games of that name start after those moves.
    SetBuoy {
        /// The buoy game name (`buoy_<name>-<total>-<byoyomi>[F]`).
        name: String,
        /// CSA moves from the even start, as one token (`+7776FU-3334FU`).
        moves: String,
        /// How many games (1 when not given).
        count: Option<String>,
    },
    /// `%%DELETEBUOY <buoy game>`: by the player who set it.
    DeleteBuoy(String),
    /// `%%GETBUOYCOUNT <buoy game>`: the games left (-1: none).
    GetBuoyCount(String),
    /// `%%FORK <game_id> [<buoy game>] [<moves>]`: a buoy of the first moves of a game in
    /// progress.
    Fork {
        /// The game in progress.
        source: String,
        /// The buoy's name, if given.
        name: Option<String>,
        /// How many of its moves, if given.
        moves: Option<usize>,
    },
    /// `%%%…`: 81Dojo's own commands, ignored as shogi-server ignores them.
    Void,
    /// A bare `%%GAME`: stop waiting.
    Cancel,
    /// `%%VERSION`.
    Version,
    /// `%%WHO`: the players logged in.
    Who,
    /// `%%LIST`: the games in progress.
    List,
    /// `%%SHOW <game_id>`: one game's summary, clocks and moves so far.
    Show(String),
    /// A `%%` command this server does not offer, or bad arguments.
    Error(String),
}

impl X1Command {
    /// Reads a `%%` line (`%%%…` lines are ignored, as 81Dojo's are).
    pub fn parse(line: &str) -> X1Command {
        if line.starts_with("%%%") {
            return X1Command::Void;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["%%GAME"] => X1Command::Cancel,
            [verb @ ("%%GAME" | "%%CHALLENGE"), name, turn] => {
                let color = match *turn {
                    "+" => Some(Color::Black),
                    "-" => Some(Color::White),
                    "*" => None,
                    other => return X1Command::Error(format!("bad turn `{other}`: + - or *")),
                };
                match GameName::parse(name) {
                    Some(game) => {
                        let request = Request {
                            game,
                            color,
                            trip: None,
                        };
                        if *verb == "%%GAME" {
                            X1Command::Game(request)
                        } else {
                            X1Command::Challenge(request)
                        }
                    }
                    None => X1Command::Error(format!(
                        "bad game name: {name} (a game name is <id>-<total seconds>-<byoyomi seconds>[F], like game-1500-60)"
                    )),
                }
            }
            ["%%GAME" | "%%CHALLENGE", _] => {
                X1Command::Error(format!("a turn (+ - or *) is required: {line}"))
            }
            ["%%CHAT", ..] if words.len() > 1 => {
                let message = line.trim_start()["%%CHAT".len()..].trim_start();
                X1Command::Chat(message.to_owned())
            }
            ["%%HELP", ..] => X1Command::Help,
            ["%%VERSION", ..] => X1Command::Version,
            ["%%WHO", ..] => X1Command::Who,
            ["%%LIST", ..] => X1Command::List,
            ["%%RATING", ..] => X1Command::Rating,
            ["%%SHOW", id, ..] => X1Command::Show((*id).to_owned()),
            ["%%SETBUOY", name, moves, rest @ ..] => X1Command::SetBuoy {
                name: (*name).to_owned(),
                moves: (*moves).to_owned(),
                count: rest.first().map(|c| (*c).to_owned()),
            },
            ["%%DELETEBUOY", name, ..] => X1Command::DeleteBuoy((*name).to_owned()),
            ["%%GETBUOYCOUNT", name, ..] => X1Command::GetBuoyCount((*name).to_owned()),
            // shogi-server reads `%%FORK <id> <name> <n>` but its `<n>` is always lost (a
            // second regular-expression match overwrites it, so an explicit number always
            // fails); the documented meaning is kept here, and a number alone in second place
            // is the number of moves, as rshogi reads it.
            ["%%FORK", source, rest @ ..] if rest.len() <= 2 => {
                let number = |w: &str| w.parse::<usize>().ok();
                let (name, moves) = match rest {
                    [] => (None, None),
                    [one] => match number(one) {
                        Some(n) => (None, Some(n)),
                        None => (Some((*one).to_owned()), None),
                    },
                    [name, n] => match number(n) {
                        Some(n) => (Some((*name).to_owned()), Some(n)),
                        None => {
                            return X1Command::Error(format!(
                                "the number of moves to fork is not a number: {n}"
                            ));
                        }
                    },
                    _ => unreachable!("at most two words after the source"),
                };
                X1Command::Fork {
                    source: (*source).to_owned(),
                    name,
                    moves,
                }
            }
            ["%%MONITORON", id, ..] => X1Command::MonitorOn((*id).to_owned()),
            ["%%MONITOROFF", id, ..] => X1Command::MonitorOff((*id).to_owned()),
            ["%%MONITOR2ON", id, ..] => X1Command::Monitor2On((*id).to_owned()),
            ["%%MONITOR2OFF", id, ..] => X1Command::Monitor2Off((*id).to_owned()),
            _ => X1Command::Error(format!("unknown command: {line}")),
        }
    }

    /// The reply lines for commands answered at once.
    pub fn reply(&self) -> Vec<String> {
        match self {
            X1Command::Version => vec![
                format!("##[VERSION] kifu {}", env!("CARGO_PKG_VERSION")),
                "##[VERSION] +OK".to_owned(),
            ],
            X1Command::Help => vec![
                "##[HELP] %%GAME <game> <+|-|*>, %%GAME, %%CHALLENGE <game> <+|-|*>, %%WHO, %%LIST, \
                 %%SHOW <game_id>, %%MONITORON <game_id>, %%MONITOROFF <game_id>, \
                 %%MONITOR2ON <game_id>, %%MONITOR2OFF <game_id>, %%CHAT <message>, \
                 %%SETBUOY <buoy_game> <moves> [count], %%DELETEBUOY <buoy_game>, \
                 %%GETBUOYCOUNT <buoy_game>, %%FORK <game_id> [buoy_game] [moves], \
                 %%RATING, %%VERSION, %%HELP, LOGOUT"
                    .to_owned(),
            ],
            // The error may quote the line: its control characters are escaped.
            X1Command::Error(e) => vec![format!("##[ERROR] {}", escape_controls(e))],
            X1Command::Game(_)
            | X1Command::Challenge(_)
            | X1Command::Cancel
            | X1Command::Who
            | X1Command::List
            | X1Command::Show(_)
            | X1Command::Chat(_)
            | X1Command::Rating
            | X1Command::SetBuoy { .. }
            | X1Command::DeleteBuoy(_)
            | X1Command::GetBuoyCount(_)
            | X1Command::Fork { .. }
            | X1Command::MonitorOn(_)
            | X1Command::MonitorOff(_)
            | X1Command::Monitor2On(_)
            | X1Command::Monitor2Off(_)
            | X1Command::Void => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands() {
        match X1Command::parse("%%GAME test-600-10 +") {
            X1Command::Game(r) => {
                assert_eq!(r.game.name, "test-600-10");
                assert_eq!(r.color, Some(Color::Black));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            X1Command::parse("%%GAME floodgate-300-10F *"),
            X1Command::Game(Request { color: None, .. })
        ));
        assert_eq!(X1Command::parse("%%GAME"), X1Command::Cancel);
        assert!(matches!(
            X1Command::parse("%%GAME x +"),
            X1Command::Error(_)
        ));
        assert!(matches!(
            X1Command::parse("%%GAME a-1-1 ?"),
            X1Command::Error(_)
        ));
        assert_eq!(X1Command::parse("%%WHO"), X1Command::Who);
        assert_eq!(X1Command::parse("%%SHOW g1"), X1Command::Show("g1".into()));
        assert!(matches!(X1Command::parse("%%SHOW"), X1Command::Error(_)));
        assert!(matches!(
            X1Command::parse("%%MONITORON"),
            X1Command::Error(_)
        ));
        assert!(matches!(
            X1Command::parse("%%CHALLENGE c-60-0 -"),
            X1Command::Challenge(Request {
                color: Some(Color::White),
                ..
            })
        ));
        assert!(matches!(
            X1Command::parse("%%GAME c-60-0"),
            X1Command::Error(_)
        ));
        assert_eq!(
            X1Command::parse("%%CHAT  hello  there"),
            X1Command::Chat("hello  there".into())
        );
        assert_eq!(
            X1Command::parse("%%MONITOR2ON g1"),
            X1Command::Monitor2On("g1".into())
        );
        assert_eq!(
            X1Command::parse("%%MONITORON g1"),
            X1Command::MonitorOn("g1".into())
        );
        assert_eq!(
            X1Command::parse("%%MONITOROFF g1"),
            X1Command::MonitorOff("g1".into())
        );
        assert_eq!(X1Command::parse("%%%JOIN x"), X1Command::Void);
        assert!(X1Command::parse("%%HELP").reply()[0].starts_with("##[HELP] "));
        assert_eq!(X1Command::parse("%%VERSION").reply().len(), 2);
    }
}
