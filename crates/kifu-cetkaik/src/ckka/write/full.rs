//! Notation ⓪: every stick result written (`無撃裁`, `橋N`, `水N`, `此無`).

use super::Style;
use crate::ckka::game_record::PlayedMove;
use crate::moves::PureMove;
use crate::sticks::{Throw, WATER_NEEDS};

pub struct Full;

pub fn count(n: u8) -> char {
    ['無', '一', '二', '三', '四', '五'][n.min(5) as usize]
}

/// Squares and piece of a move, without stick marks: `CAI巫CAMA`, `黒弓MY`, `ZO皇[TU]ZIZE`.
pub fn squares_text(m: &PlayedMove) -> String {
    let prof = m.prof.map_or('片', |p| p.kanji());
    match m.mv {
        PureMove::Plain { src, dst } => format!("{src}{prof}{dst}"),
        PureMove::StepFinite { src, step, dst } | PureMove::StepRanged { src, step, dst } => {
            format!("{src}{prof}{step}{dst}")
        }
        PureMove::Drop { color, prof, dst } => format!("{color}{prof}{dst}"),
        PureMove::TamNoStep { src, first, second } => {
            if m.tam_first_known {
                format!("{src}皇[{first}]{second}")
            } else {
                format!("{src}皇{second}")
            }
        }
        PureMove::TamStepFormer {
            src,
            step,
            first,
            second,
        } => {
            let f = if m.tam_first_known {
                first.to_string()
            } else {
                "或".into()
            };
            format!("{src}皇{step}[{f}]{second}")
        }
        PureMove::TamStepLatter {
            src,
            first,
            step,
            second,
        } => {
            let f = if m.tam_first_known {
                first.to_string()
            } else {
                "或".into()
            };
            format!("{src}皇[{f}]{step}{second}")
        }
    }
}

/// The ⓪ text of one move.
pub fn move_text(m: &PlayedMove) -> String {
    let mut s = squares_text(m);
    if m.mv.is_tam() || matches!(m.mv, PureMove::Drop { .. }) {
        return s;
    }
    let t = m.throws;
    if t.bridge.is_none() && t.water.is_none() {
        s.push_str("無撃裁");
        return s;
    }
    if let Some(b) = t.bridge {
        s.push('橋');
        match b {
            Throw::Count(n) => s.push(count(n)),
            Throw::UnknownSuccess | Throw::UnknownFailure => s.push('或'),
        }
        if t.bridge_void || b == Throw::UnknownFailure {
            s.push_str("此無");
        }
    }
    if let Some(w) = t.water {
        s.push('水');
        match w {
            Throw::Count(n) => {
                s.push(count(n));
                if n < WATER_NEEDS {
                    s.push_str("此無");
                }
            }
            Throw::UnknownSuccess => s.push('或'),
            Throw::UnknownFailure => s.push_str("或此無"),
        }
    }
    s
}

impl Style for Full {
    fn move_text(&self, m: &PlayedMove) -> String {
        move_text(m)
    }
}
