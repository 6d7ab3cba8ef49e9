//! Notation ①: stick words left out, counts alone (`ME弓MIMU四`, `LY弓ZY無`).

use super::Style;
use super::full::{count, squares_text};
use crate::cetkaik::game_record::PlayedMove;
use kifu_cetkaik::sticks::{Throw, Throws};

/// Notation ① (abbreviated): stick counts only where a move needs them.
pub struct Abbreviated;

/// The ① stick suffix: counts, then `此無` where a failure is not implied by a count.
pub fn abbreviated_sticks(
    t: Throws,
    numeral: &dyn Fn(u8) -> String,
    unknown: &str,
    void: &str,
) -> Vec<String> {
    let mut parts = Vec::new();
    let mut failed_explicitly = false;
    if let Some(b) = t.bridge {
        match b {
            Throw::Count(n) => parts.push(numeral(n)),
            Throw::UnknownSuccess => {
                if t.water.is_some() {
                    parts.push(unknown.to_string());
                }
            }
            Throw::UnknownFailure => {
                parts.push(unknown.to_string());
                failed_explicitly = true;
            }
        }
        if t.bridge_void && matches!(b, Throw::Count(_)) {
            failed_explicitly = true;
        }
    }
    if let Some(w) = t.water {
        match w {
            Throw::Count(0) => {
                parts.push(numeral(0));
                failed_explicitly = true;
            }
            // Below three the count itself says the entry failed.
            Throw::Count(n) => parts.push(numeral(n)),
            Throw::UnknownSuccess => {}
            Throw::UnknownFailure => {
                if t.bridge.is_some() {
                    parts.push(unknown.to_string());
                }
                failed_explicitly = true;
            }
        }
    }
    // A zero written alone would read as "failed, count unknown".
    if parts.last().is_some_and(|p| *p == numeral(0)) {
        failed_explicitly = true;
    }
    if failed_explicitly {
        parts.push(void.to_string());
    }
    parts
}

impl Style for Abbreviated {
    fn move_text(&self, m: &PlayedMove) -> String {
        let mut s = squares_text(m);
        for p in abbreviated_sticks(m.throws, &|n| count(n).to_string(), "或", "此無") {
            s.push_str(&p);
        }
        s
    }
}
