//! A person at the terminal: the board is shown, moves are typed in CSA (`7776FU`,
//! `+7776FU`), USI (`7g7f`) or KIF/KI2 style (`76歩`, `同　歩`, `58金右`, `２四歩成`,
//! `34角打`, `76歩(77)`), commands by name.

use std::io::{BufRead, Write};

use kifu_shogi::notation::ki2::{self, Ki2Move, Ki2ParseError, Ki2ResolveError};
use kifu_shogi::notation::kif::{Action, Destination};
use kifu_shogi::{IllegalMove, Move, Position, Square, UsiMoveError};

use super::{Player, PlayerError, ThinkRequest};
use crate::message::{CsaMove, CsaMoveError, MoveError};
use crate::session::Decision;

/// Why the person's terminal cannot give a move.
#[derive(Debug, thiserror::Error)]
pub enum HumanError {
    /// The input ended (Ctrl-D, a closed pipe).
    #[error("the terminal input ended")]
    InputEnded,
    /// Reading the input failed.
    #[error("reading the terminal: {0}")]
    Read(std::io::Error),
}

/// Why a typed line is not a decision in the position (shown to the person, who types
/// again).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// Not a CSA move (`7776FU`, `+7776FU`).
    #[error(transparent)]
    CsaSyntax(#[from] CsaMoveError),
    /// A CSA move that does not fit the position.
    #[error("{text}: {source}")]
    CsaMismatch {
        /// The move as typed.
        text: String,
        /// Why it does not fit.
        source: MoveError,
    },
    /// Not a USI move (`7g7f`).
    #[error(transparent)]
    Usi(#[from] UsiMoveError),
    /// Not a KIF/KI2 move.
    #[error("`{text}`: {source}")]
    KifSyntax {
        /// The move as typed.
        text: String,
        /// Why it does not read.
        source: Ki2ParseError,
    },
    /// A KIF/KI2 move that names no single legal move; `candidates` lists the legal moves of
    /// that piece to that square, in CSA form.
    #[error("`{text}`: {source}{}", if candidates.is_empty() { String::new() } else { format!(" ({})", candidates.join(", ")) })]
    KifUnresolved {
        /// The move as typed.
        text: String,
        /// Why it is not one legal move.
        source: Ki2ResolveError,
        /// The legal moves it could mean.
        candidates: Vec<String>,
    },
    /// A KIF origin in parentheses that is not a square.
    #[error("`{text}`: `{origin}` is not an origin square like (77)")]
    BadOrigin {
        /// The move as typed.
        text: String,
        /// The origin as typed.
        origin: String,
    },
    /// `同` with no move before it.
    #[error("`{text}`: no destination square")]
    NoDestination {
        /// The move as typed.
        text: String,
    },
    /// No legal move of that piece between the two squares.
    #[error("`{text}`: no legal move of that piece from {from} to {to}")]
    NoSuchMove {
        /// The move as typed.
        text: String,
        /// The origin, as file and rank digits.
        from: String,
        /// The destination, as file and rank digits.
        to: String,
    },
    /// A move the rules do not allow here.
    #[error("{text}: {source}")]
    Illegal {
        /// The move as typed.
        text: String,
        /// The rule it breaks.
        source: IllegalMove,
    },
}

/// A person at the terminal: reads moves from `input`, shows the board on `output`.
pub struct Human<R, W> {
    input: R,
    output: W,
}

impl<R: BufRead + Send, W: Write + Send> Human<R, W> {
    /// A person typing on `input` and reading `output`.
    pub fn new(input: R, output: W) -> Human<R, W> {
        Human { input, output }
    }
}

const HELP: &str = "type a move (7776FU, 7g7f, 76歩, 同歩, 58金右, 24歩成, 34角打) or a command: \
toryo (resign), matta (take back), chudan (interrupt), sennichite, jishogi, kachi, hikiwake";

impl<R: BufRead + Send, W: Write + Send> Player for Human<R, W> {
    fn name(&self) -> String {
        "human".into()
    }

    fn think(&mut self, request: &ThinkRequest) -> Result<Decision, PlayerError> {
        let pos = &request.position;
        let _ = write!(self.output, "\n{}", pos.diagram());
        let c = &request.clocks;
        let _ = writeln!(
            self.output,
            "time used: 先手 {:.0} s, 後手 {:.0} s",
            c.used_ms[0] as f64 / 1000.0,
            c.used_ms[1] as f64 / 1000.0
        );
        loop {
            let _ = write!(self.output, "{} to move> ", pos.turn().japanese());
            let _ = self.output.flush();
            let mut line = String::new();
            match self.input.read_line(&mut line) {
                Ok(0) => return Err(HumanError::InputEnded.into()),
                Ok(_) => {}
                Err(e) => return Err(HumanError::Read(e).into()),
            }
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            match parse_input(pos, text) {
                Ok(d) => return Ok(d),
                Err(why) => {
                    let _ = writeln!(self.output, "{why}\n{HELP}");
                }
            }
        }
    }
}

/// What a typed line means in `pos`; only legal moves are accepted.
pub fn parse_input(pos: &Position, text: &str) -> Result<Decision, InputError> {
    let command = text.trim_start_matches('%').to_ascii_lowercase();
    let decision = match command.as_str() {
        "toryo" | "resign" | "投了" => Some(Decision::Resign),
        "matta" | "undo" | "待った" => Some(Decision::TakeBack),
        "chudan" | "interrupt" | "中断" => Some(Decision::Interrupt),
        "sennichite" | "千日手" => Some(Decision::ClaimRepetition),
        "jishogi" | "持将棋" => Some(Decision::Impasse),
        "kachi" | "入玉勝ち" => Some(Decision::DeclareWin),
        "hikiwake" | "引き分け" => Some(Decision::DeclareDraw),
        _ => None,
    };
    if let Some(d) = decision {
        return Ok(d);
    }
    let mv = parse_move(pos, text)?;
    pos.check_move(mv).map_err(|source| InputError::Illegal {
        text: text.to_owned(),
        source,
    })?;
    Ok(Decision::Move(mv))
}

fn parse_move(pos: &Position, text: &str) -> Result<Move, InputError> {
    if text.len() == 6 && text.is_ascii() && text.as_bytes()[0].is_ascii_digit() {
        let signed = format!("{}{text}", pos.turn().csa_sign());
        return csa_move(pos, &signed);
    }
    if text.starts_with(['+', '-']) {
        return csa_move(pos, text);
    }
    if text.is_ascii() {
        return Ok(kifu_shogi::usi::parse_move(text)?);
    }
    kif_move(pos, text)
}

fn csa_move(pos: &Position, text: &str) -> Result<Move, InputError> {
    let m = CsaMove::parse(text)?;
    m.to_move(pos).map_err(|source| InputError::CsaMismatch {
        text: text.to_owned(),
        source,
    })
}

/// KIF and KI2 style: `76歩`, `７六歩`, `同　歩`, `58金右`, `24銀直`, `57銀引`, `24歩成`,
/// `24歩不成`, `34角打`, and KIF's origin in parentheses, `76歩(77)`. The relative words
/// are resolved the way kifu's KI2 reader resolves them, so a move that needs one to be
/// unique is refused without it, naming the candidates.
fn kif_move(pos: &Position, text: &str) -> Result<Move, InputError> {
    let (written, used) = ki2::parse(text).map_err(|source| InputError::KifSyntax {
        text: text.to_owned(),
        source,
    })?;
    let prev_to = pos.moves_played().last().map(|m| m.to());
    let origin = text[used..].trim();
    if origin.is_empty() {
        return ki2::resolve(pos, prev_to, &written).map_err(|source| InputError::KifUnresolved {
            text: text.to_owned(),
            source,
            candidates: candidates(pos, prev_to, &written),
        });
    }
    let from = kif_origin(origin).ok_or_else(|| InputError::BadOrigin {
        text: text.to_owned(),
        origin: origin.to_owned(),
    })?;
    let to = match written.to {
        Destination::Square(f, r) => Square::new(f, r),
        Destination::Same => prev_to,
    }
    .ok_or_else(|| InputError::NoDestination {
        text: text.to_owned(),
    })?;
    let promote = written.action == Action::Promote;
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| {
            m.from() == Some(from)
                && m.to() == to
                && m.is_promotion() == promote
                && pos.piece_at(from).is_some_and(|p| p.kind == written.piece)
        })
        .ok_or_else(|| InputError::NoSuchMove {
            text: text.to_owned(),
            from: format!("{}{}", from.file(), from.rank()),
            to: format!("{}{}", to.file(), to.rank()),
        })
}

/// `(77)` or `（７７）`: the square a KIF move starts from.
fn kif_origin(text: &str) -> Option<Square> {
    let inner = text
        .strip_prefix(['(', '（'])?
        .strip_suffix([')', '）'])?
        .trim();
    let mut digits = inner.chars().map(|c| match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '０' as u32) as u8),
        _ => None,
    });
    match (digits.next()??, digits.next()??, digits.next()) {
        (f, r, None) => Square::new(f, r),
        _ => None,
    }
}

/// The legal moves of the written piece to the written square, in CSA form, so the person
/// can see which relative word (or CSA/USI form) picks the one meant.
fn candidates(pos: &Position, prev_to: Option<Square>, written: &Ki2Move) -> Vec<String> {
    let to = match written.to {
        Destination::Square(f, r) => Square::new(f, r),
        Destination::Same => prev_to,
    };
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|m| Some(m.to()) == to)
        .filter(|m| {
            m.from()
                .is_some_and(|f| pos.piece_at(f).is_some_and(|p| p.kind == written.piece))
        })
        .map(|m| CsaMove::from_move(pos, m).to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usi(pos: &Position, text: &str) -> String {
        match parse_input(pos, text) {
            Ok(Decision::Move(m)) => m.usi(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn moves_in_three_notations() {
        let pos = Position::startpos();
        for t in ["7776FU", "+7776FU", "7g7f", "76歩", "７六歩"] {
            assert_eq!(usi(&pos, t), "7g7f", "{t}");
        }
        assert!(parse_input(&pos, "7775FU").is_err());
        assert!(parse_input(&pos, "55歩").is_err());
        assert!(parse_input(&pos, "-3334FU").is_err());
        // Two golds can reach 5h: the error names both, a relative word picks one.
        let err = parse_input(&pos, "58金").unwrap_err().to_string();
        assert!(err.contains("+6958KI") && err.contains("+4958KI"), "{err}");
        assert_eq!(usi(&pos, "58金右"), "4i5h");
        assert_eq!(usi(&pos, "５八金左"), "6i5h");
        assert_eq!(usi(&pos, "76歩(77)"), "7g7f");
        assert_eq!(usi(&pos, "７六歩（７７）"), "7g7f");
        assert!(parse_input(&pos, "76歩(78)").is_err());
        assert_eq!(parse_input(&pos, "toryo"), Ok(Decision::Resign));
        assert_eq!(parse_input(&pos, "%MATTA"), Ok(Decision::TakeBack));
    }

    #[test]
    fn kif_promotion_and_drops() {
        let pos = Position::from_sfen("4k4/9/9/7P1/9/9/9/9/4K4 b B 1").unwrap();
        assert_eq!(usi(&pos, "23歩成"), "2d2c+");
        assert_eq!(usi(&pos, "23歩不成"), "2d2c");
        assert_eq!(usi(&pos, "23歩"), "2d2c");
        assert_eq!(usi(&pos, "34角打"), "B*3d");
        assert_eq!(usi(&pos, "34角"), "B*3d");
    }

    /// After `position`'s moves, played from the start position.
    fn after(moves: &[&str]) -> Position {
        let mut pos = Position::startpos();
        for m in moves {
            let mv = pos.parse_usi_move(m).unwrap();
            pos.play_unchecked(mv);
        }
        pos
    }

    #[test]
    fn same_square_and_relative_words() {
        // Black pushes the rook pawn to 2d; White takes it back on the same square: 同　歩.
        let pos = after(&["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "2e2d"]);
        assert_eq!(usi(&pos, "同　歩"), "2c2d");
        assert_eq!(usi(&pos, "同歩"), "2c2d");
        assert_eq!(usi(&pos, "△同歩"), "2c2d");
        assert!(
            parse_input(&pos, "▲同歩")
                .unwrap_err()
                .to_string()
                .contains("turn")
        );
        assert!(parse_input(&Position::startpos(), "同歩").is_err());

        // Two silvers on 4h and 6h, both can reach 5g: 上 alone does not pick one.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/3S1S3/4K4 b - 1").unwrap();
        let err = parse_input(&pos, "57銀").unwrap_err().to_string();
        assert!(err.contains("relative word"), "{err}");
        assert!(parse_input(&pos, "57銀上").is_err());
        assert_eq!(usi(&pos, "57銀右"), "4h5g");
        assert_eq!(usi(&pos, "57銀左"), "6h5g");

        // 直: of three golds that can reach 5h, the one straight below.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/3GGG2K b - 1").unwrap();
        assert_eq!(usi(&pos, "58金直"), "5i5h");
        assert_eq!(usi(&pos, "58金右"), "4i5h");
        // 寄 and 引: a gold beside the square and one above it.
        let pos = Position::from_sfen("4k4/9/9/9/9/4G4/3G5/9/4K4 b - 1").unwrap();
        assert_eq!(usi(&pos, "57金寄"), "6g5g");
        assert_eq!(usi(&pos, "57金引"), "5f5g");

        // 成 / 不成 from the same square; 打 when the piece could also move there.
        let pos = Position::from_sfen("4k4/9/9/2S6/9/9/9/9/4K4 b S 1").unwrap();
        assert_eq!(usi(&pos, "63銀成"), "7d6c+");
        assert_eq!(usi(&pos, "63銀不成"), "7d6c");
        assert_eq!(usi(&pos, "63銀打"), "S*6c");
        assert!(parse_input(&pos, "63銀").is_ok());
    }

    #[test]
    fn the_terminal_loop_asks_again_after_a_mistake() {
        let input = b"55FU\n\n7g7f\n".as_slice();
        let mut out = Vec::new();
        let mut h = Human::new(input, &mut out);
        let pos = Position::startpos();
        let req = ThinkRequest {
            start: pos.clone(),
            moves: vec![],
            position: pos,
            clocks: Default::default(),
            time: None,
            relay: true,
        };
        let d = h.think(&req).unwrap();
        assert!(matches!(d, Decision::Move(m) if m.usi() == "7g7f"));
        assert!(h.think(&req).is_err(), "end of input");
        let shown = String::from_utf8(out).unwrap();
        assert!(shown.contains("先手 to move>"));
        assert!(shown.contains("type a move"));
        assert!(shown.contains("time used: 先手 0 s, 後手 0 s"));
    }
}
