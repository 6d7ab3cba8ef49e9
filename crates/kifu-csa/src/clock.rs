//! Each side's clock, derived from the time every ply took.
//!
//! The 1998 protocol carries no times: each program keeps both clocks itself. Deriving the
//! clocks from the list of per-ply times (rather than keeping running totals) makes a
//! take-back or a restart refund time for free: drop the plies, the time comes back.

use kifu_record::TimeControl;
use kifu_shogi::Color;

/// Where both clocks stand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    /// Time each side has spent so far, in milliseconds.
    pub used_ms: [u64; 2],
    /// Main time left (increments included), `None` without a time control.
    pub remaining_ms: [Option<u64>; 2],
    /// The side whose main time ran out and whose byoyomi was exceeded, if any.
    pub flagged: Option<Color>,
}

/// The clocks after the plies in `times_ms` (the first played by `first`), under `control`.
///
/// Main time is spent first; once it is gone each ply may take up to the byoyomi, and a ply
/// that takes longer flags its side. The increment is added after every ply.
pub fn clocks(control: Option<TimeControl>, first: Color, times_ms: &[u64]) -> Clocks {
    let mut c = Clocks {
        remaining_ms: control.map_or([None, None], |t| [Some(t.initial_ms); 2]),
        ..Clocks::default()
    };
    let mut mover = first;
    for &t in times_ms {
        let i = mover.index();
        c.used_ms[i] += t;
        if let (Some(tc), Some(left)) = (control, c.remaining_ms[i]) {
            let over = t.saturating_sub(left);
            if over > tc.byoyomi_ms && c.flagged.is_none() {
                c.flagged = Some(mover);
            }
            c.remaining_ms[i] = Some(left.saturating_sub(t) + tc.increment_ms);
        }
        mover = mover.flip();
    }
    c
}

/// Whether `mover`, with `clocks` as they stand before its ply, has exceeded its time
/// after thinking `elapsed_ms` on this ply.
pub fn is_out_of_time(
    control: Option<TimeControl>,
    clocks: &Clocks,
    mover: Color,
    elapsed_ms: u64,
) -> bool {
    match (control, clocks.remaining_ms[mover.index()]) {
        (Some(tc), Some(left)) => elapsed_ms > left + tc.byoyomi_ms,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TC: TimeControl = TimeControl {
        initial_ms: 10_000,
        byoyomi_ms: 5_000,
        increment_ms: 0,
    };

    #[test]
    fn main_time_then_byoyomi() {
        let c = clocks(Some(TC), Color::Black, &[4_000, 1_000, 7_000, 2_000]);
        assert_eq!(c.used_ms, [11_000, 3_000]);
        assert_eq!(c.remaining_ms, [Some(0), Some(7_000)]);
        assert_eq!(c.flagged, None);
        // Black is in byoyomi now: 5 s per ply.
        assert!(!is_out_of_time(Some(TC), &c, Color::Black, 5_000));
        assert!(is_out_of_time(Some(TC), &c, Color::Black, 5_001));
        let c = clocks(Some(TC), Color::Black, &[4_000, 1_000, 7_000, 2_000, 5_001]);
        assert_eq!(c.flagged, Some(Color::Black));
    }

    #[test]
    fn increments_and_no_control() {
        let fischer = TimeControl {
            initial_ms: 1_000,
            byoyomi_ms: 0,
            increment_ms: 2_000,
        };
        let c = clocks(Some(fischer), Color::White, &[500]);
        assert_eq!(c.remaining_ms, [Some(1_000), Some(2_500)]);
        let c = clocks(None, Color::Black, &[500, 700]);
        assert_eq!(c.used_ms, [500, 700]);
        assert_eq!(c.remaining_ms, [None, None]);
        assert!(!is_out_of_time(None, &c, Color::Black, u64::MAX));
    }
}
