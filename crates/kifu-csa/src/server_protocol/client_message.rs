//! Lines a client sends to a CSA server (protocol 1.2.1 and shogi-server's extensions).

use std::fmt;

use crate::message::{CsaMove, CsaMoveError};

/// The comment a client sends after its move, in shogi-server's reading: the field after the
/// move's comma that starts with `'`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveComment {
    /// `,'* 30 -3334FU`: floodgate's evaluation and PV (text after `'*`, trimmed). Records
    /// keep it as an engine comment (`'**`).
    Engine(String),
    /// `,'any text`: a comment for people (text after `'`, trailing spaces dropped). Records
    /// keep it as shogi-server does, after `'*`.
    Text(String),
}

impl MoveComment {
    /// The comment's text, either kind.
    pub fn text(&self) -> &str {
        match self {
            MoveComment::Engine(t) | MoveComment::Text(t) => t,
        }
    }
}

/// One line from a client. Parsing never fails: what is not a message of the protocol is
/// kept as [`ClientMessage::BadMove`] (a move attempt the server judges illegal) or
/// [`ClientMessage::Unknown`] (which shogi-server answers with `##[ERROR]`).
#[derive(Clone, PartialEq, Eq)]
pub enum ClientMessage {
    /// `LOGIN <name> <password> [x1]`.
    Login {
        /// The player's name.
        name: String,
        /// The password (in CSA mode `<game>,<trip>` on floodgate).
        password: String,
        /// The `x1` flag: the extended mode.
        x1: bool,
    },
    /// `LOGOUT`.
    Logout,
    /// `AGREE [<Game_ID>]`.
    Agree(Option<String>),
    /// `REJECT [<Game_ID>]`.
    Reject(Option<String>),
    /// `+7776FU` with an optional comment: floodgate's `,'* 30 -3334FU` or a free `,'text`.
    Move {
        /// The move.
        mv: CsaMove,
        /// The comment after `,'`, if any.
        comment: Option<MoveComment>,
    },
    /// `%TORYO`.
    Resign,
    /// `%KACHI`.
    Declare,
    /// Any other `%` command (`%CHUDAN`, `%MATTA` …): a server judges it an illegal move.
    OtherCommand(String),
    /// An x1 `%%` command, the whole line.
    Extended(String),
    /// An empty line: keep-alive, answered with an empty line.
    KeepAlive,
    /// A line of spaces only: ignored (shogi-server sends nothing back).
    Blank,
    /// A line starting with a sign that is not a move (or a malformed comment).
    BadMove {
        /// The line.
        text: String,
        /// Why it is not a move.
        reason: String,
    },
    /// Anything else.
    Unknown(String),
}

impl ClientMessage {
    /// Parses one line's bytes without its LF. Only a move's comment may be other than
    /// ASCII: shogi-server's clients send it in UTF-8 or EUC-JP (shogi-server converts every
    /// comment to EUC-JP), some in Shift_JIS, so a comment that is not UTF-8 is decoded as
    /// EUC-JP or Shift_JIS, whichever reads cleanly. Any other line that is not UTF-8 is
    /// [`ClientMessage::Unknown`].
    pub fn parse_bytes(line: &[u8]) -> ClientMessage {
        if let Ok(text) = std::str::from_utf8(line) {
            return ClientMessage::parse(text);
        }
        let comment_at = line.windows(2).position(|w| w == b",'");
        match (line.first(), comment_at) {
            (Some(b'+' | b'-'), Some(at)) if line[..at].is_ascii() => {
                let decoded = kifu_record::decode(&line[at..], kifu_record::TextEncoding::EucJp);
                let head = std::str::from_utf8(&line[..at]).unwrap_or_default();
                ClientMessage::parse(&format!("{head}{}", decoded.text))
            }
            // A move with a byte that is not text in the move itself: shogi-server judges
            // it (an illegal move), it does not answer it as an unknown command.
            (Some(b'+' | b'-'), _) => ClientMessage::BadMove {
                text: String::from_utf8_lossy(line).into_owned(),
                reason: "a byte that is not ASCII in the move".to_owned(),
            },
            _ => ClientMessage::Unknown("(bytes that are not text)".to_owned()),
        }
    }

    /// Parses one line without its LF (a trailing CR is tolerated).
    pub fn parse(line: &str) -> ClientMessage {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            return ClientMessage::KeepAlive;
        }
        if line.bytes().all(|b| b == b' ') {
            return ClientMessage::Blank;
        }
        match line.as_bytes()[0] {
            b'+' | b'-' => return parse_move(line),
            b'%' if line.starts_with("%%") => return ClientMessage::Extended(line.to_owned()),
            b'%' => {
                // shogi-server reads only the token: `%TORYO,T3` and `%TORYO ` resign too.
                let token = line.split([',', ' ']).next().unwrap_or(line);
                return match token {
                    "%TORYO" => ClientMessage::Resign,
                    "%KACHI" => ClientMessage::Declare,
                    _ => ClientMessage::OtherCommand(line.to_owned()),
                };
            }
            _ => {}
        }
        // shogi-server splits LOGIN on any run of white space (Ruby's `split`), so a double
        // space, a TAB or spaces around the line are taken there too.
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["LOGIN", name, password] => return login(name, password, false),
            ["LOGIN", name, password, "x1"] => return login(name, password, true),
            _ => {}
        }
        let words: Vec<&str> = line.split(' ').collect();
        match words.as_slice() {
            ["LOGOUT"] => ClientMessage::Logout,
            ["AGREE"] => ClientMessage::Agree(None),
            ["AGREE", id] if !id.is_empty() => ClientMessage::Agree(Some((*id).to_owned())),
            ["REJECT"] => ClientMessage::Reject(None),
            ["REJECT", id] if !id.is_empty() => ClientMessage::Reject(Some((*id).to_owned())),
            _ => ClientMessage::Unknown(line.to_owned()),
        }
    }

    /// A move line, with or without a floodgate comment (`,'* <comment>`).
    pub fn mv(mv: CsaMove, comment: Option<String>) -> ClientMessage {
        ClientMessage::Move {
            mv,
            comment: comment.map(MoveComment::Engine),
        }
    }
}

fn login(name: &str, password: &str, x1: bool) -> ClientMessage {
    if name.is_empty() || password.is_empty() {
        return ClientMessage::Unknown(format!("LOGIN {name} ****"));
    }
    ClientMessage::Login {
        name: name.to_owned(),
        password: password.to_owned(),
        x1,
    }
}

/// A move line as shogi-server reads it: the move is the text before the first comma (spaces
/// after it are tolerated); after the comma, a field starting with `'` is a comment and
/// anything else (`T5`, the time a client echoes back) is ignored. Text glued to the move
/// without a comma (`+7776FU '* 30`) makes it no move at all, which shogi-server has judged
/// an illegal move since its 2020-12-06 release.
fn parse_move(line: &str) -> ClientMessage {
    let bad = |reason: String| ClientMessage::BadMove {
        text: line.to_owned(),
        reason,
    };
    let (body, rest) = match line.split_once(',') {
        None => (line, None),
        Some((body, rest)) => (body, Some(rest)),
    };
    let body = body.trim_end_matches(' ');
    let comment = rest
        .and_then(|r| r.strip_prefix('\''))
        .map(|c| match c.strip_prefix('*') {
            Some(engine) => MoveComment::Engine(engine.trim().to_owned()),
            None => MoveComment::Text(c.trim_end().to_owned()),
        });
    match CsaMove::parse(body) {
        Ok(mv) => ClientMessage::Move { mv, comment },
        Err(CsaMoveError::Malformed(_)) if body.len() > 7 && body.contains('\'') => {
            bad("a comment must follow a comma: ,'* …".to_owned())
        }
        Err(e) => bad(e.to_string()),
    }
}

impl fmt::Display for ClientMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientMessage::Login { name, password, x1 } => {
                write!(f, "LOGIN {name} {password}")?;
                if *x1 {
                    f.write_str(" x1")?;
                }
                Ok(())
            }
            ClientMessage::Logout => f.write_str("LOGOUT"),
            ClientMessage::Agree(None) => f.write_str("AGREE"),
            ClientMessage::Agree(Some(id)) => write!(f, "AGREE {id}"),
            ClientMessage::Reject(None) => f.write_str("REJECT"),
            ClientMessage::Reject(Some(id)) => write!(f, "REJECT {id}"),
            ClientMessage::Move { mv, comment: None } => mv.fmt(f),
            ClientMessage::Move {
                mv,
                comment: Some(MoveComment::Engine(c)),
            } => write!(f, "{mv},'* {c}"),
            ClientMessage::Move {
                mv,
                comment: Some(MoveComment::Text(c)),
            } => write!(f, "{mv},'{c}"),
            ClientMessage::Resign => f.write_str("%TORYO"),
            ClientMessage::Declare => f.write_str("%KACHI"),
            ClientMessage::KeepAlive => Ok(()),
            ClientMessage::Blank => f.write_str(" "),
            ClientMessage::OtherCommand(t)
            | ClientMessage::Extended(t)
            | ClientMessage::Unknown(t)
            | ClientMessage::BadMove { text: t, .. } => f.write_str(t),
        }
    }
}

/// Passwords never reach a log through `{:?}`.
impl fmt::Debug for ClientMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientMessage::Login { name, x1, .. } => f
                .debug_struct("Login")
                .field("name", name)
                .field("password", &"****")
                .field("x1", x1)
                .finish(),
            other => write!(f, "ClientMessage({:?})", other.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> ClientMessage {
        ClientMessage::parse(s)
    }

    #[test]
    fn login_forms() {
        assert_eq!(
            p("LOGIN alice secret"),
            ClientMessage::Login {
                name: "alice".into(),
                password: "secret".into(),
                x1: false
            }
        );
        assert_eq!(
            p("LOGIN alice floodgate-300-10F,trip x1\r"),
            ClientMessage::Login {
                name: "alice".into(),
                password: "floodgate-300-10F,trip".into(),
                x1: true
            }
        );
        assert!(matches!(p("LOGIN alice"), ClientMessage::Unknown(_)));
        assert!(matches!(p("LOGIN a b c"), ClientMessage::Unknown(_)));
        // Any run of white space separates LOGIN's words, as in shogi-server.
        for spaced in [
            "LOGIN  alice pw",
            "LOGIN\talice pw",
            " LOGIN alice pw ",
            "LOGIN alice pw\t",
        ] {
            assert_eq!(
                p(spaced),
                ClientMessage::Login {
                    name: "alice".into(),
                    password: "pw".into(),
                    x1: false
                },
                "{spaced:?}"
            );
        }
        assert!(matches!(
            ClientMessage::parse_bytes(b"+77\xff6FU"),
            ClientMessage::BadMove { .. }
        ));
        for s in [
            "LOGIN alice secret",
            "LOGIN bob pw x1",
            "LOGOUT",
            "AGREE",
            "AGREE g1",
            "REJECT",
            "REJECT g1",
        ] {
            assert_eq!(p(s).to_string(), s);
        }
    }

    #[test]
    fn debug_hides_the_password() {
        let text = format!("{:?}", p("LOGIN alice hunter2"));
        assert!(!text.contains("hunter2"), "{text}");
        assert!(text.contains("alice"));
    }

    #[test]
    fn agree_reject_with_and_without_id() {
        assert_eq!(p("AGREE"), ClientMessage::Agree(None));
        assert_eq!(
            p("AGREE 20150505-CSA25-3-5-7"),
            ClientMessage::Agree(Some("20150505-CSA25-3-5-7".into()))
        );
        assert_eq!(p("REJECT x"), ClientMessage::Reject(Some("x".into())));
        assert!(matches!(p("AGREE a b"), ClientMessage::Unknown(_)));
    }

    #[test]
    fn moves_with_and_without_comments() {
        let m = p("+7776FU");
        assert!(matches!(m, ClientMessage::Move { comment: None, .. }));
        assert_eq!(m.to_string(), "+7776FU");
        let m = p("-3334FU,'* 30 +2726FU -8384FU");
        match &m {
            ClientMessage::Move { mv, comment } => {
                assert_eq!(mv.to_string(), "-3334FU");
                assert_eq!(
                    comment,
                    &Some(MoveComment::Engine("30 +2726FU -8384FU".into()))
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(m.to_string(), "-3334FU,'* 30 +2726FU -8384FU");
    }

    #[test]
    fn malformed_moves_and_comments_are_bad_moves() {
        for s in [
            "+7776F",
            "+7776FU'* 30",
            "+7776FU '* 30 -3334FU",
            "+7776FU T10",
            "+7076FU",
            "-0055TO",
            "+7776FUX",
            " +7776FU",
        ] {
            assert!(
                matches!(
                    p(s),
                    ClientMessage::BadMove { .. } | ClientMessage::Unknown(_)
                ),
                "{s}"
            );
        }
    }

    /// What shogi-server's move reading lets through (the move before the first comma; a
    /// `'` field is a comment, any other field is ignored).
    #[test]
    fn shogi_server_leniency() {
        let mv = |s: &str| match p(s) {
            ClientMessage::Move { mv, comment } => (mv.to_string(), comment),
            other => panic!("{s}: {other:?}"),
        };
        let text = |t: &str| Some(MoveComment::Text(t.to_owned()));
        assert_eq!(mv("+2625FU,'comment"), ("+2625FU".into(), text("comment")));
        assert_eq!(mv("+2625FU,'日本語"), ("+2625FU".into(), text("日本語")));
        assert_eq!(mv("+7776FU,T5"), ("+7776FU".into(), None));
        assert_eq!(mv("+7776FU,"), ("+7776FU".into(), None));
        assert_eq!(mv("+7776FU "), ("+7776FU".into(), None));
        assert_eq!(mv("+7776FU,'comment "), ("+7776FU".into(), text("comment")));
        assert_eq!(
            mv("+7776FU,'* 30 -3334FU "),
            (
                "+7776FU".into(),
                Some(MoveComment::Engine("30 -3334FU".into()))
            )
        );
        assert_eq!(p("+2625FU,'comment").to_string(), "+2625FU,'comment");
        assert_eq!(p("%TORYO,T3"), ClientMessage::Resign);
        assert_eq!(p("%TORYO "), ClientMessage::Resign);
        assert_eq!(p("%KACHI,T0"), ClientMessage::Declare);
        // EUC-JP and Shift_JIS comments are read as text.
        let euc = b"+2625FU,'\xc6\xfc\xcb\xdc\xb8\xec";
        assert_eq!(
            ClientMessage::parse_bytes(euc),
            ClientMessage::Move {
                mv: CsaMove::parse("+2625FU").unwrap(),
                comment: text("日本語"),
            }
        );
        assert!(matches!(
            ClientMessage::parse_bytes(b"HELLO\xff"),
            ClientMessage::Unknown(_)
        ));
        // A byte that is not text in the move itself: a move attempt, judged illegal.
        assert!(matches!(
            ClientMessage::parse_bytes(b"+26\xff25FU,'x"),
            ClientMessage::BadMove { .. }
        ));
    }

    #[test]
    fn commands_keep_alive_and_unknown() {
        assert_eq!(p("%TORYO"), ClientMessage::Resign);
        assert_eq!(p("%KACHI\r"), ClientMessage::Declare);
        assert_eq!(p("%CHUDAN"), ClientMessage::OtherCommand("%CHUDAN".into()));
        assert_eq!(
            p("%%GAME floodgate-300-10F *"),
            ClientMessage::Extended("%%GAME floodgate-300-10F *".into())
        );
        assert_eq!(p(""), ClientMessage::KeepAlive);
        assert_eq!(p("\r"), ClientMessage::KeepAlive);
        assert_eq!(p(" "), ClientMessage::Blank);
        assert_eq!(p("HELLO"), ClientMessage::Unknown("HELLO".into()));
        assert_eq!(p("logout"), ClientMessage::Unknown("logout".into()));
    }
}
