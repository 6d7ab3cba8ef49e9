//! One line of the 1998 protocol: a move (`+7776FU`) or a `%` command, parsed and formatted.
//!
//! Parsing is syntax only; [`CsaMove::to_move`] checks a move against a position, where the
//! piece named after the move decides whether it promotes.

use std::fmt;

/// Move text is the shared CSA move notation of the rules crate, read the same way as in
/// record files (CSA protocol, section "指し手"; CSA standard file format V3.0).
pub use kifu_shogi::notation::csa::{CsaMove, CsaMoveError, CsaMoveMismatch as MoveError};

/// The seven commands of the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `%TORYO`: the sender resigns.
    Resign,
    /// `%MATTA`: take back the last two plies (relay operators only).
    TakeBack,
    /// `%CHUDAN`: interruption.
    Interrupt,
    /// `%SENNICHITE`: the sender claims a repetition on its turn.
    Repetition,
    /// `%JISHOGI`: the sender judges the position drawn (impasse).
    Impasse,
    /// `%KACHI`: the sender declares a win with its king in the enemy camp.
    DeclareWin,
    /// `%HIKIWAKE`: the sender declares a draw with its king in the enemy camp.
    DeclareDraw,
}

impl Command {
    /// Every command, in the order of the CSA 1998 communication protocol's list.
    pub const ALL: [Command; 7] = [
        Command::Resign,
        Command::TakeBack,
        Command::Interrupt,
        Command::Repetition,
        Command::Impasse,
        Command::DeclareWin,
        Command::DeclareDraw,
    ];

    /// The text on the line, `%` included.
    pub const fn text(self) -> &'static str {
        match self {
            Command::Resign => "%TORYO",
            Command::TakeBack => "%MATTA",
            Command::Interrupt => "%CHUDAN",
            Command::Repetition => "%SENNICHITE",
            Command::Impasse => "%JISHOGI",
            Command::DeclareWin => "%KACHI",
            Command::DeclareDraw => "%HIKIWAKE",
        }
    }

    /// The command whose line is `text` (`%` included), if any.
    pub fn from_text(text: &str) -> Option<Command> {
        Command::ALL.into_iter().find(|c| c.text() == text)
    }
}

/// One protocol line.
///
/// ```
/// use kifu_csa::{Command, Message, SyntaxError};
///
/// assert_eq!(Message::parse("%TORYO"), Ok(Message::Command(Command::Resign)));
/// let mv = Message::parse("-0034KA\r").unwrap();
/// assert_eq!(mv.to_string(), "-0034KA");
/// assert!(matches!(Message::parse("%RESIGN"), Err(SyntaxError::UnknownCommand(_))));
/// assert_eq!(Message::parse_bytes(b"\xff"), Err(SyntaxError::NotText));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Message {
    /// A move (`+7776FU`).
    Move(CsaMove),
    /// A `%` command.
    Command(Command),
}

/// Why a line is not a protocol message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    /// An empty line.
    #[error("an empty line")]
    Empty,
    #[error(
        "`{0}` is not a command of the protocol (%TORYO %MATTA %CHUDAN %SENNICHITE %JISHOGI %KACHI %HIKIWAKE)"
    )]
    /// A `%` word that is not a command.
    UnknownCommand(String),
    /// A move that does not read.
    #[error(transparent)]
    Move(#[from] CsaMoveError),
    /// Bytes that are not text.
    #[error("the line holds bytes that are not text")]
    NotText,
}

impl Message {
    /// Parses one line without its terminator (a trailing CR is tolerated).
    pub fn parse(line: &str) -> Result<Message, SyntaxError> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            return Err(SyntaxError::Empty);
        }
        if line.starts_with('%') {
            return Command::from_text(line)
                .map(Message::Command)
                .ok_or_else(|| SyntaxError::UnknownCommand(line.to_owned()));
        }
        Ok(Message::Move(CsaMove::parse(line)?))
    }

    /// Parses raw bytes of one line: text that is not UTF-8 (or not ASCII) cannot be a message.
    pub fn parse_bytes(line: &[u8]) -> Result<Message, SyntaxError> {
        std::str::from_utf8(line)
            .map_err(|_| SyntaxError::NotText)
            .and_then(Message::parse)
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Move(m) => m.fmt(f),
            Message::Command(c) => f.write_str(c.text()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_shogi::{Color, IllegalMove, PieceKind, Position, Square};

    fn sq(file: u8, rank: u8) -> Square {
        Square::new(file, rank).unwrap()
    }

    #[test]
    fn the_protocol_documents_examples_round_trip() {
        for line in ["+7776FU", "-0034KA", "+2423TO", "%TORYO", "%HIKIWAKE"] {
            assert_eq!(Message::parse(line).unwrap().to_string(), line);
        }
        assert_eq!(
            Message::parse("-0034KA\r").unwrap(),
            Message::Move(CsaMove {
                color: Color::White,
                from: None,
                to: sq(3, 4),
                piece: PieceKind::Bishop
            })
        );
    }

    #[test]
    fn every_command_parses() {
        for c in Command::ALL {
            assert_eq!(Message::parse(c.text()), Ok(Message::Command(c)));
        }
        assert!(matches!(
            Message::parse("%TSUMI"),
            Err(SyntaxError::UnknownCommand(_))
        ));
        assert!(matches!(
            Message::parse("%toryo"),
            Err(SyntaxError::UnknownCommand(_))
        ));
    }

    #[test]
    fn malformed_lines_are_rejected_with_a_reason() {
        assert_eq!(Message::parse(""), Err(SyntaxError::Empty));
        assert!(matches!(
            Message::parse("+7776F"),
            Err(SyntaxError::Move(CsaMoveError::Malformed(_)))
        ));
        assert!(matches!(
            Message::parse("*7776FU"),
            Err(SyntaxError::Move(CsaMoveError::Malformed(_)))
        ));
        assert!(matches!(
            Message::parse("+7076FU"),
            Err(SyntaxError::Move(CsaMoveError::BadSquare(_)))
        ));
        assert!(matches!(
            Message::parse("+77a6FU"),
            Err(SyntaxError::Move(CsaMoveError::BadSquare(_)))
        ));
        assert!(matches!(
            Message::parse("+7776XX"),
            Err(SyntaxError::Move(CsaMoveError::BadPiece(_)))
        ));
        assert_eq!(
            Message::parse("+0055TO"),
            Err(SyntaxError::Move(CsaMoveError::BadDropPiece("TO")))
        );
        assert_eq!(
            Message::parse("+0055OU"),
            Err(SyntaxError::Move(CsaMoveError::BadDropPiece("OU")))
        );
        assert!(matches!(
            Message::parse("+7776歩"),
            Err(SyntaxError::Move(CsaMoveError::Malformed(_)))
        ));
        assert_eq!(
            Message::parse_bytes(b"+77\xff6FU"),
            Err(SyntaxError::NotText)
        );
    }

    #[test]
    fn moves_are_checked_against_the_position() {
        let pos = Position::startpos();
        let m = CsaMove::parse("+7776FU").unwrap();
        let mv = m.to_move(&pos).unwrap();
        assert_eq!(mv.usi(), "7g7f");
        assert_eq!(CsaMove::from_move(&pos, mv), m);
        assert!(matches!(
            CsaMove::parse("-3334FU").unwrap().to_move(&pos),
            Err(MoveError::WrongSide { .. })
        ));
        assert!(matches!(
            CsaMove::parse("+7776KY").unwrap().to_move(&pos),
            Err(MoveError::PieceMismatch { .. })
        ));
        assert!(matches!(
            CsaMove::parse("+7775FU").unwrap().to_move(&pos),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            CsaMove::parse("+5554FU").unwrap().to_move(&pos),
            Err(MoveError::NoPiece(_))
        ));
    }

    #[test]
    fn a_promoted_name_means_promotion() {
        // Black pawn on 2d, about to enter the zone.
        let pos = Position::from_sfen("4k4/9/9/7P1/9/9/9/9/4K4 b - 1").unwrap();
        let promote = CsaMove::parse("+2423TO").unwrap().to_move(&pos).unwrap();
        assert!(promote.is_promotion());
        let plain = CsaMove::parse("+2423FU").unwrap().to_move(&pos).unwrap();
        assert!(!plain.is_promotion());
        assert_eq!(CsaMove::from_move(&pos, promote).to_string(), "+2423TO");
        // A promoted piece keeps its name; naming it unpromoted is a mismatch.
        let pos = Position::from_sfen("4k4/9/9/7+P1/9/9/9/9/4K4 b - 1").unwrap();
        assert!(CsaMove::parse("+2423TO").unwrap().to_move(&pos).is_ok());
        assert!(matches!(
            CsaMove::parse("+2423FU").unwrap().to_move(&pos),
            Err(MoveError::PieceMismatch { .. })
        ));
    }

    #[test]
    fn drops_need_the_piece_in_hand() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w B 1").unwrap();
        assert!(matches!(
            CsaMove::parse("-0034KA").unwrap().to_move(&pos),
            Err(MoveError::Illegal(IllegalMove::NotInHand { .. }))
        ));
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w b 1").unwrap();
        let mv = CsaMove::parse("-0034KA").unwrap().to_move(&pos).unwrap();
        assert_eq!(CsaMove::from_move(&pos, mv).to_string(), "-0034KA");
    }
}
