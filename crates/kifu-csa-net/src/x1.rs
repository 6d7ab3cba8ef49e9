//! shogi-server's extended mode (`LOGIN <name> <password> x1`): the `%%` commands this
//! server understands (reference §5). An x1 player stays connected between games.

use kifu_shogi::Color;

use crate::game_name::{GameName, Request};

/// One `%%` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum X1Command {
    /// `%%GAME <gamename> <+|-|*>`: wait for an opponent.
    Game(Request),
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
    pub fn parse(line: &str) -> X1Command {
        let words: Vec<&str> = line.split(' ').collect();
        match words.as_slice() {
            ["%%GAME"] => X1Command::Cancel,
            ["%%GAME", name, turn] | ["%%CHALLENGE", name, turn] => {
                let color = match *turn {
                    "+" => Some(Color::Black),
                    "-" => Some(Color::White),
                    "*" => None,
                    other => return X1Command::Error(format!("bad turn `{other}`: + - or *")),
                };
                match GameName::parse(name) {
                    Some(game) => X1Command::Game(Request {
                        game,
                        color,
                        trip: None,
                    }),
                    None => X1Command::Error(format!("bad game name `{name}`")),
                }
            }
            ["%%VERSION"] => X1Command::Version,
            ["%%WHO"] => X1Command::Who,
            ["%%LIST"] => X1Command::List,
            ["%%SHOW", id] => X1Command::Show((*id).to_owned()),
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
            X1Command::Error(e) => vec![format!("##[ERROR] {e}")],
            X1Command::Game(_)
            | X1Command::Cancel
            | X1Command::Who
            | X1Command::List
            | X1Command::Show(_) => Vec::new(),
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
            X1Command::parse("%%MONITORON x"),
            X1Command::Error(_)
        ));
        assert_eq!(X1Command::parse("%%VERSION").reply().len(), 2);
    }
}
