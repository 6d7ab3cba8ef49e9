//! One line of the 1998 protocol: a move (`+7776FU`) or a `%` command, parsed and formatted.
//!
//! Parsing is syntax only; [`CsaMove::to_move`] checks a move against a position, where the
//! piece named after the move decides whether it promotes.

use std::fmt;

use kifu_shogi::{Color, IllegalMove, Move, PieceKind, Position, Square};

/// A move as written on the line: who moves, from where (`None` for a drop, written `00`),
/// to where, and the piece as it stands after the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CsaMove {
    pub color: Color,
    pub from: Option<Square>,
    pub to: Square,
    pub piece: PieceKind,
}

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

    pub fn from_text(text: &str) -> Option<Command> {
        Command::ALL.into_iter().find(|c| c.text() == text)
    }
}

/// One protocol line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Message {
    Move(CsaMove),
    Command(Command),
}

/// Why a line is not a protocol message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    #[error("an empty line")]
    Empty,
    #[error(
        "`{0}` is not a command of the protocol (%TORYO %MATTA %CHUDAN %SENNICHITE %JISHOGI %KACHI %HIKIWAKE)"
    )]
    UnknownCommand(String),
    #[error("`{0}` is not a move like +7776FU: sign, two squares, piece")]
    Malformed(String),
    #[error("`{0}` is not a square (11 … 99)")]
    BadSquare(String),
    #[error("`{0}` is not a piece (FU KY KE GI KI KA HI OU TO NY NK NG UM RY)")]
    BadPiece(String),
    #[error("a drop must name an unpromoted piece other than the king, not {0}")]
    BadDropPiece(&'static str),
    #[error("the line holds bytes that are not text")]
    NotText,
}

/// Why a well-formed move cannot be played in the current position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("it is {turn}'s turn, but the move is signed for {sign}")]
    WrongSide { turn: Color, sign: Color },
    #[error("there is no piece on {0}")]
    NoPiece(Square),
    #[error("the piece on {square} is {actual}, not {named}")]
    PieceMismatch {
        square: Square,
        actual: &'static str,
        named: &'static str,
    },
    #[error("{0}")]
    Illegal(#[from] IllegalMove),
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
        CsaMove::parse(line).map(Message::Move)
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

fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
        return None;
    }
    Square::new(b[0] - b'0', b[1] - b'0')
}

impl CsaMove {
    /// Parses `+7776FU` and the like (syntax only).
    pub fn parse(line: &str) -> Result<CsaMove, SyntaxError> {
        let malformed = || SyntaxError::Malformed(line.to_owned());
        if line.len() != 7 || !line.is_ascii() {
            return Err(malformed());
        }
        let color = match line.as_bytes()[0] {
            b'+' => Color::Black,
            b'-' => Color::White,
            _ => return Err(malformed()),
        };
        let (from_text, to_text, piece_text) = (&line[1..3], &line[3..5], &line[5..7]);
        let piece =
            PieceKind::from_csa(piece_text).ok_or(SyntaxError::BadPiece(piece_text.to_owned()))?;
        let to = parse_square(to_text).ok_or(SyntaxError::BadSquare(to_text.to_owned()))?;
        let from = if from_text == "00" {
            if !piece.is_hand_kind() {
                return Err(SyntaxError::BadDropPiece(piece.csa()));
            }
            None
        } else {
            Some(parse_square(from_text).ok_or(SyntaxError::BadSquare(from_text.to_owned()))?)
        };
        Ok(CsaMove {
            color,
            from,
            to,
            piece,
        })
    }

    /// The line form of a legal `mv` in `pos` (the piece after the move is read off the board).
    pub fn from_move(pos: &Position, mv: Move) -> CsaMove {
        let piece = match (mv.from(), mv.drop_kind()) {
            (_, Some(kind)) => kind,
            (Some(from), None) => {
                let kind = pos.piece_at(from).map_or(PieceKind::King, |p| p.kind);
                if mv.is_promotion() {
                    kind.promote().unwrap_or(kind)
                } else {
                    kind
                }
            }
            (None, None) => PieceKind::King,
        };
        CsaMove {
            color: pos.turn(),
            from: mv.from(),
            to: mv.to(),
            piece,
        }
    }

    /// The move this line means in `pos`, checked under the full rules. A promoted name on
    /// an unpromoted piece means promotion; any other mismatch of names is an error.
    pub fn to_move(&self, pos: &Position) -> Result<Move, MoveError> {
        let turn = pos.turn();
        if self.color != turn {
            return Err(MoveError::WrongSide {
                turn,
                sign: self.color,
            });
        }
        let mv = match self.from {
            None => Move::drop(self.piece, self.to),
            Some(from) => {
                let on_board = pos.piece_at(from).ok_or(MoveError::NoPiece(from))?;
                let mismatch = || MoveError::PieceMismatch {
                    square: from,
                    actual: on_board.kind.csa(),
                    named: self.piece.csa(),
                };
                let promote = if on_board.kind == self.piece {
                    false
                } else if on_board.kind.promote() == Some(self.piece) {
                    true
                } else {
                    return Err(mismatch());
                };
                Move::normal(from, self.to, promote)
            }
        };
        pos.check_move(mv)?;
        Ok(mv)
    }
}

impl fmt::Display for CsaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (ff, fr) = self.from.map_or((0, 0), |s| (s.file(), s.rank()));
        write!(
            f,
            "{}{ff}{fr}{}{}{}",
            self.color.csa_sign(),
            self.to.file(),
            self.to.rank(),
            self.piece.csa()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(file: u8, rank: u8) -> Square {
        Square::new(file, rank).unwrap()
    }

    #[test]
    fn the_seed_examples_round_trip() {
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
            Err(SyntaxError::Malformed(_))
        ));
        assert!(matches!(
            Message::parse("*7776FU"),
            Err(SyntaxError::Malformed(_))
        ));
        assert!(matches!(
            Message::parse("+7076FU"),
            Err(SyntaxError::BadSquare(_))
        ));
        assert!(matches!(
            Message::parse("+77a6FU"),
            Err(SyntaxError::BadSquare(_))
        ));
        assert!(matches!(
            Message::parse("+7776XX"),
            Err(SyntaxError::BadPiece(_))
        ));
        assert_eq!(
            Message::parse("+0055TO"),
            Err(SyntaxError::BadDropPiece("TO"))
        );
        assert_eq!(
            Message::parse("+0055OU"),
            Err(SyntaxError::BadDropPiece("OU"))
        );
        assert!(matches!(
            Message::parse("+7776歩"),
            Err(SyntaxError::Malformed(_))
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
