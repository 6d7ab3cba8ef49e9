//! Notation ⓪ of the CKKA draft (the full kanji form) for one move: every stick result
//! written (`無撃裁` for none, `橋N` for the bridge throw, `水N` for the water throw, `此無` when
//! the move fails).

use crate::moves::PureMove;
use crate::profession::Profession;
use crate::sticks::{Throw, Throws, WATER_NEEDS};

/// A stick count as notation ⓪ writes it (`無`, `一` … `五`).
pub fn count(n: u8) -> char {
    ['無', '一', '二', '三', '四', '五'][n.min(5) as usize]
}

/// Squares and piece of a move, without stick marks: `CAI巫CAMA`, `黒弓MY`, `ZO皇[TU]ZIZE`.
pub fn squares_text(mv: PureMove, prof: Option<Profession>, tam_first_known: bool) -> String {
    let prof = prof.map_or('片', |p| p.kanji());
    match mv {
        PureMove::Plain { src, dst } => format!("{src}{prof}{dst}"),
        PureMove::StepFinite { src, step, dst } | PureMove::StepRanged { src, step, dst } => {
            format!("{src}{prof}{step}{dst}")
        }
        PureMove::Drop { color, prof, dst } => format!("{color}{prof}{dst}"),
        PureMove::TamNoStep { src, first, second } => {
            if tam_first_known {
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
            let f = if tam_first_known {
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
            let f = if tam_first_known {
                first.to_string()
            } else {
                "或".into()
            };
            format!("{src}皇[{f}]{step}{second}")
        }
    }
}

/// The ⓪ text of one move: `prof` is the moving piece's (`None` writes the wildcard `片`;
/// 皇 and drops carry their own), `tam_first_known` whether 皇's intermediate square is
/// written or left as `或`.
pub fn move_text(
    mv: PureMove,
    prof: Option<Profession>,
    throws: Throws,
    tam_first_known: bool,
) -> String {
    let mut s = squares_text(mv, prof, tam_first_known);
    if mv.is_tam() || matches!(mv, PureMove::Drop { .. }) {
        return s;
    }
    let t = throws;
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
