//! Single lines a CSA server sends (everything except the `Game_Summary` block, which
//! [`super::summary`] reads and writes).

use std::fmt;

use crate::message::CsaMove;

/// Why a game ended: the `#` line before the result.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// `#RESIGN`.
    Resign,
    /// `#TIME_UP`.
    TimeUp,
    /// `#ILLEGAL_MOVE`.
    IllegalMove,
    /// `#SENNICHITE`: a repetition (a draw).
    Sennichite,
    /// `#OUTE_SENNICHITE`: a repetition of checks (the checking side loses).
    OuteSennichite,
    /// `#JISHOGI`: a valid `%KACHI`.
    Jishogi,
    /// `#MAX_MOVES`: the move limit.
    MaxMoves,
    /// `#CHUDAN`: interrupted; no result line follows.
    Chudan,
    /// `#ILLEGAL_ACTION`.
    IllegalAction,
    /// A token some servers or clients use (`#TSUMI`, `#FUZUMI`, `#KACHI` …), kept as written.
    Other(String),
}

impl Reason {
    /// The token after `#`.
    pub fn token(&self) -> &str {
        match self {
            Reason::Resign => "RESIGN",
            Reason::TimeUp => "TIME_UP",
            Reason::IllegalMove => "ILLEGAL_MOVE",
            Reason::Sennichite => "SENNICHITE",
            Reason::OuteSennichite => "OUTE_SENNICHITE",
            Reason::Jishogi => "JISHOGI",
            Reason::MaxMoves => "MAX_MOVES",
            Reason::Chudan => "CHUDAN",
            Reason::IllegalAction => "ILLEGAL_ACTION",
            Reason::Other(t) => t,
        }
    }

    fn from_token(t: &str) -> Reason {
        match t {
            "RESIGN" => Reason::Resign,
            "TIME_UP" => Reason::TimeUp,
            "ILLEGAL_MOVE" => Reason::IllegalMove,
            "SENNICHITE" => Reason::Sennichite,
            "OUTE_SENNICHITE" => Reason::OuteSennichite,
            "JISHOGI" => Reason::Jishogi,
            "MAX_MOVES" => Reason::MaxMoves,
            "CHUDAN" => Reason::Chudan,
            "ILLEGAL_ACTION" => Reason::IllegalAction,
            other => Reason::Other(other.to_owned()),
        }
    }
}

/// The result line, from the recipient's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// `#WIN`.
    Win,
    /// `#LOSE`.
    Lose,
    /// `#DRAW`.
    Draw,
    /// `#CENSORED`: the move limit was reached (counted as a draw).
    Censored,
}

impl Verdict {
    /// The token after `#`.
    pub fn token(self) -> &'static str {
        match self {
            Verdict::Win => "WIN",
            Verdict::Lose => "LOSE",
            Verdict::Draw => "DRAW",
            Verdict::Censored => "CENSORED",
        }
    }
}

/// One line from a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerMessage {
    /// `LOGIN:<name> OK`.
    LoginOk {
        /// The name logged in.
        name: String,
    },
    /// `LOGIN:incorrect`.
    LoginIncorrect,
    /// `LOGOUT:completed`.
    LogoutCompleted,
    /// `START:<Game_ID>`.
    Start {
        /// The game started.
        game_id: String,
    },
    /// `REJECT:<Game_ID> by <name>`.
    Rejected {
        /// The game rejected.
        game_id: String,
        /// Who rejected it.
        by: String,
    },
    /// A relayed move `+7776FU,T12` (`time` is `None` when the server left `,T` out).
    Move {
        /// The move.
        mv: CsaMove,
        /// The time charged, in the summary's unit.
        time: Option<u64>,
    },
    /// `%TORYO` (shogi-server) or `%TORYO,T4` (the spec's examples).
    Resign {
        /// The time charged, if given.
        time: Option<u64>,
    },
    /// `%KACHI,T8`, or a bare `%KACHI` (shogi-server repeats the declaration).
    Declare {
        /// The time charged, if given.
        time: Option<u64>,
    },
    /// `#RESIGN`, `#TIME_UP` …
    Reason(Reason),
    /// `#WIN`, `#LOSE`, `#DRAW`, `#CENSORED`.
    Result(Verdict),
    /// An empty line (answer to a keep-alive).
    KeepAlive,
    /// `##[TAG] text`: x1 replies and shogi-server's errors (`##[ERROR] unknown command`).
    Info {
        /// The tag between the brackets.
        tag: String,
        /// The text after it.
        text: String,
    },
    /// Any other line (including the lines of a `Game_Summary` block read one by one).
    Other(String),
}

impl ServerMessage {
    /// Parses one line without its LF (a trailing CR is tolerated).
    pub fn parse(line: &str) -> ServerMessage {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let other = || ServerMessage::Other(line.to_owned());
        if line.is_empty() {
            return ServerMessage::KeepAlive;
        }
        if let Some(rest) = line.strip_prefix("##[") {
            return match rest.split_once(']') {
                Some((tag, text)) => ServerMessage::Info {
                    tag: tag.to_owned(),
                    text: text.strip_prefix(' ').unwrap_or(text).to_owned(),
                },
                None => other(),
            };
        }
        if let Some(token) = line.strip_prefix('#') {
            return match token {
                "WIN" => ServerMessage::Result(Verdict::Win),
                "LOSE" => ServerMessage::Result(Verdict::Lose),
                "DRAW" => ServerMessage::Result(Verdict::Draw),
                "CENSORED" => ServerMessage::Result(Verdict::Censored),
                _ => ServerMessage::Reason(Reason::from_token(token)),
            };
        }
        if line.starts_with(['+', '-', '%']) {
            let (body, time) = match line.split_once(',') {
                None => (line, None),
                Some((body, t)) => match t.strip_prefix('T').and_then(|n| n.parse().ok()) {
                    Some(n) => (body, Some(n)),
                    None => return other(),
                },
            };
            return match body {
                "%TORYO" => ServerMessage::Resign { time },
                "%KACHI" => ServerMessage::Declare { time },
                _ => match CsaMove::parse(body) {
                    Ok(mv) => ServerMessage::Move { mv, time },
                    Err(_) => other(),
                },
            };
        }
        if let Some(rest) = line.strip_prefix("LOGIN:") {
            if rest == "incorrect" {
                return ServerMessage::LoginIncorrect;
            }
            if let Some(name) = rest.strip_suffix(" OK") {
                return ServerMessage::LoginOk {
                    name: name.to_owned(),
                };
            }
            return other();
        }
        if line == "LOGOUT:completed" {
            return ServerMessage::LogoutCompleted;
        }
        if let Some(id) = line.strip_prefix("START:") {
            return ServerMessage::Start {
                game_id: id.to_owned(),
            };
        }
        if let Some((id, by)) = line
            .strip_prefix("REJECT:")
            .and_then(|rest| rest.split_once(" by "))
        {
            return ServerMessage::Rejected {
                game_id: id.to_owned(),
                by: by.to_owned(),
            };
        }
        other()
    }

    /// Whether this line ends a game for its recipient (a result, or `#CHUDAN`).
    pub fn ends_game(&self) -> bool {
        matches!(
            self,
            ServerMessage::Result(_) | ServerMessage::Reason(Reason::Chudan)
        )
    }
}

fn time_suffix(f: &mut fmt::Formatter<'_>, time: Option<u64>) -> fmt::Result {
    match time {
        Some(t) => write!(f, ",T{t}"),
        None => Ok(()),
    }
}

impl fmt::Display for ServerMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerMessage::LoginOk { name } => write!(f, "LOGIN:{name} OK"),
            ServerMessage::LoginIncorrect => f.write_str("LOGIN:incorrect"),
            ServerMessage::LogoutCompleted => f.write_str("LOGOUT:completed"),
            ServerMessage::Start { game_id } => write!(f, "START:{game_id}"),
            ServerMessage::Rejected { game_id, by } => write!(f, "REJECT:{game_id} by {by}"),
            ServerMessage::Move { mv, time } => {
                mv.fmt(f)?;
                time_suffix(f, *time)
            }
            ServerMessage::Resign { time } => {
                f.write_str("%TORYO")?;
                time_suffix(f, *time)
            }
            ServerMessage::Declare { time } => {
                f.write_str("%KACHI")?;
                time_suffix(f, *time)
            }
            ServerMessage::Reason(r) => write!(f, "#{}", r.token()),
            ServerMessage::Result(v) => write!(f, "#{}", v.token()),
            ServerMessage::KeepAlive => Ok(()),
            ServerMessage::Info { tag, text } => write!(f, "##[{tag}] {text}"),
            ServerMessage::Other(t) => f.write_str(t),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> ServerMessage {
        ServerMessage::parse(s)
    }

    #[test]
    fn every_line_round_trips() {
        for s in [
            "LOGIN:alice OK",
            "LOGIN:incorrect",
            "LOGOUT:completed",
            "START:wdoor+floodgate-300-10F+alice+bob+20211105220005",
            "REJECT:g1 by bob",
            "REJECT:g1 by the Server (timed out)",
            "+7776FU,T12",
            "-0034KA,T0",
            "+2726FU",
            "%TORYO",
            "%TORYO,T4",
            "%KACHI",
            "%KACHI,T8",
            "#RESIGN",
            "#TIME_UP",
            "#ILLEGAL_MOVE",
            "#SENNICHITE",
            "#OUTE_SENNICHITE",
            "#JISHOGI",
            "#MAX_MOVES",
            "#CHUDAN",
            "#ILLEGAL_ACTION",
            "#TSUMI",
            "#WIN",
            "#LOSE",
            "#DRAW",
            "#CENSORED",
            "",
            "##[LOGIN] +OK x1",
            "##[ERROR] unknown command: HELLO",
            "BEGIN Game_Summary",
        ] {
            assert_eq!(p(s).to_string(), s, "{s}");
        }
    }

    #[test]
    fn both_forms_of_endings_parse() {
        assert_eq!(p("%TORYO"), ServerMessage::Resign { time: None });
        assert_eq!(p("%TORYO,T4"), ServerMessage::Resign { time: Some(4) });
        assert_eq!(p("%KACHI,T8\r"), ServerMessage::Declare { time: Some(8) });
        assert_eq!(p("#CENSORED"), ServerMessage::Result(Verdict::Censored));
        assert_eq!(
            p("#FUZUMI"),
            ServerMessage::Reason(Reason::Other("FUZUMI".into()))
        );
        assert!(p("#WIN").ends_game());
        assert!(p("#CHUDAN").ends_game());
        assert!(!p("#RESIGN").ends_game());
    }

    #[test]
    fn moves_carry_their_time() {
        match p("-3334FU,T123") {
            ServerMessage::Move { mv, time } => {
                assert_eq!(mv.to_string(), "-3334FU");
                assert_eq!(time, Some(123));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(p("+7776FU,X1"), ServerMessage::Other(_)));
        assert!(matches!(p("+7776XX,T1"), ServerMessage::Other(_)));
    }

    #[test]
    fn login_and_info_lines() {
        assert_eq!(
            p("LOGIN:alice OK\r"),
            ServerMessage::LoginOk {
                name: "alice".into()
            }
        );
        assert_eq!(
            p("##[LOGIN] +OK x1"),
            ServerMessage::Info {
                tag: "LOGIN".into(),
                text: "+OK x1".into()
            }
        );
        assert_eq!(
            p("REJECT:g by alice"),
            ServerMessage::Rejected {
                game_id: "g".into(),
                by: "alice".into()
            }
        );
    }
}
