//! Notation ③: cerke_noter strings (`"meAxeze3",`).
//!
//! MRF has no mark for a failure with an unknown count, for giving up after a sufficient
//! bridge count, nor for 皇's intermediate square; such moves lose that detail.

use super::Style;
use crate::cetkaik::game_record::{DeclarationRecord, GameRecord, PlayedMove};
use kifu_cetkaik::match_state::Declaration;
use kifu_cetkaik::moves::PureMove;
use kifu_cetkaik::sticks::Throw;

/// Notation ③: cerke_noter's machine strings.
pub struct Mrf;

fn lower(sq: kifu_cetkaik::square::Square) -> String {
    sq.to_string().to_ascii_lowercase()
}

/// The notation ③ string of a move, with the declaration that follows it.
pub fn mrf_text(m: &PlayedMove, decl: Option<&DeclarationRecord>) -> String {
    let letter = m.prof.map_or('M', |p| p.mrf_letter());
    let mut s = match m.mv {
        PureMove::Plain { src, dst } => format!("{}{letter}{}", lower(src), lower(dst)),
        PureMove::StepFinite { src, step, dst } | PureMove::StepRanged { src, step, dst } => {
            format!("{}{letter}{}{}", lower(src), lower(step), lower(dst))
        }
        PureMove::Drop { color, prof, dst } => {
            let c = if color == kifu_cetkaik::profession::Color::Black {
                'B'
            } else {
                'R'
            };
            format!("{c}{}{}", prof.mrf_letter(), lower(dst))
        }
        PureMove::TamNoStep { src, second, .. } => format!("{}M{}", lower(src), lower(second)),
        PureMove::TamStepFormer {
            src, step, second, ..
        }
        | PureMove::TamStepLatter {
            src, step, second, ..
        } => {
            format!("{}M{}{}", lower(src), lower(step), lower(second))
        }
    };
    for t in [m.throws.bridge, m.throws.water].into_iter().flatten() {
        if let Throw::Count(n) = t {
            s.push(char::from(b'0' + n));
        }
    }
    match decl.map(|d| d.declaration) {
        Some(Declaration::TyMok) => s.push_str("=tymor"),
        Some(Declaration::TaXot) => s.push_str("=taxt"),
        None => {}
    }
    for c in &m.comments {
        if let Some(f) = c.strip_prefix('=') {
            s.push('=');
            s.push_str(f);
        }
    }
    serde_json::to_string(&s).unwrap_or_default()
}

impl Style for Mrf {
    fn move_text(&self, _: &PlayedMove) -> String {
        String::new()
    }

    fn moves_per_line(&self) -> usize {
        1
    }

    // The declaration rides on the move that made the hand.
    fn after_move(&self, m: &PlayedMove, next: Option<&DeclarationRecord>) -> String {
        mrf_text(m, next) + ","
    }

    fn declaration(&self, _: &GameRecord, _: &DeclarationRecord) -> String {
        String::new()
    }
}
