//! A person at the terminal: the board is shown, moves are typed in CSA (`7776FU`,
//! `+7776FU`), USI (`7g7f`) or KIF style (`76歩`, `２四歩成`, `34角打`), commands by name.

use std::io::{BufRead, Write};

use kifu_shogi::{Move, PieceKind, Position, Square};

use super::{Player, ThinkRequest};
use crate::message::CsaMove;
use crate::session::Decision;

pub struct Human<R, W> {
    input: R,
    output: W,
}

impl<R: BufRead + Send, W: Write + Send> Human<R, W> {
    pub fn new(input: R, output: W) -> Human<R, W> {
        Human { input, output }
    }
}

const HELP: &str = "type a move (7776FU, 7g7f, 76歩, 24歩成, 34角打) or a command: \
toryo (resign), matta (take back), chudan (interrupt), sennichite, jishogi, kachi, hikiwake";

impl<R: BufRead + Send, W: Write + Send> Player for Human<R, W> {
    fn name(&self) -> String {
        "human".into()
    }

    fn think(&mut self, request: &ThinkRequest) -> Result<Decision, String> {
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
            let _ = write!(self.output, "{} to move> ", pos.side_to_move().japanese());
            let _ = self.output.flush();
            let mut line = String::new();
            match self.input.read_line(&mut line) {
                Ok(0) => return Err("the terminal input ended".into()),
                Ok(_) => {}
                Err(e) => return Err(format!("reading the terminal: {e}")),
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
pub fn parse_input(pos: &Position, text: &str) -> Result<Decision, String> {
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
    pos.check_move(mv).map_err(|e| format!("{text}: {e}"))?;
    Ok(Decision::Move(mv))
}

fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    if text.len() == 6 && text.is_ascii() && text.as_bytes()[0].is_ascii_digit() {
        let signed = format!("{}{text}", pos.side_to_move().csa_sign());
        return csa_move(pos, &signed);
    }
    if text.starts_with(['+', '-']) {
        return csa_move(pos, text);
    }
    if text.is_ascii() {
        return kifu_shogi::usi::parse_move(text);
    }
    kif_move(pos, text)
}

fn csa_move(pos: &Position, text: &str) -> Result<Move, String> {
    let m = CsaMove::parse(text).map_err(|e| e.to_string())?;
    m.to_move(pos).map_err(|e| format!("{text}: {e}"))
}

fn digit(c: char) -> Option<u8> {
    const KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '０' as u32) as u8),
        _ => KANJI.iter().position(|&k| k == c).map(|i| i as u8 + 1),
    }
}

/// `76歩`, `７六歩`, `24歩成`, `24歩不成`, `34角打`: destination, piece, then 成/不成/打.
/// The legal move it names must be unique (no 右/左 disambiguation).
fn kif_move(pos: &Position, text: &str) -> Result<Move, String> {
    let mut chars = text.chars();
    let (Some(f), Some(r)) = (chars.next().and_then(digit), chars.next().and_then(digit)) else {
        return Err(format!("`{text}` is not a move"));
    };
    let to = Square::new(f, r).ok_or_else(|| format!("`{text}`: no such square"))?;
    let rest: String = chars.collect();
    let kinds: Vec<(PieceKind, &str)> = PieceKind::ALL
        .iter()
        .flat_map(|&k| [(k, k.kif_name()), (k, k.kanji())])
        .chain([(PieceKind::King, "王"), (PieceKind::Dragon, "竜")])
        .collect();
    let (kind, suffix) = kinds
        .iter()
        .filter_map(|&(k, name)| rest.strip_prefix(name).map(|s| (k, s)))
        .max_by_key(|(_, s)| std::cmp::Reverse(s.len()))
        .ok_or_else(|| format!("`{text}`: name the piece (歩 香 桂 銀 金 角 飛 玉 と 馬 龍 …)"))?;
    let (promote, drop) = match suffix {
        "" => (None, false),
        "成" => (Some(true), false),
        "不成" => (Some(false), false),
        "打" => (Some(false), true),
        other => return Err(format!("`{text}`: `{other}` is not 成, 不成 or 打")),
    };
    let candidates: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| m.to() == to)
        .filter(|m| match m.from() {
            None => m.drop_kind() == Some(kind),
            Some(from) => !drop && pos.piece_at(from).is_some_and(|p| p.kind == kind),
        })
        .filter(|m| promote.is_none_or(|p| m.is_promotion() == p))
        .collect();
    let unpromoting: Vec<Move> = candidates
        .iter()
        .copied()
        .filter(|m| !m.is_promotion())
        .collect();
    match (candidates.as_slice(), unpromoting.as_slice()) {
        ([one], _) => Ok(*one),
        // 76歩 without 成 when promotion is optional: the plain move.
        (_, [one]) if promote.is_none() && candidates.iter().all(|m| m.from() == one.from()) => {
            Ok(*one)
        }
        ([], _) => Err(format!(
            "`{text}`: no legal move of that piece to that square"
        )),
        _ => Err(format!(
            "`{text}` is ambiguous: type it in CSA or USI form ({})",
            candidates
                .iter()
                .map(|m| CsaMove::from_move(pos, *m).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
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
        // Two golds can reach 5h.
        assert!(parse_input(&pos, "58金").unwrap_err().contains("ambiguous"));
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
