//! The client's record of a game: what the server relayed, with times, the engine's own
//! comments and the ending as announced (`%CHUDAN` when the connection was lost).

use kifu_csa::record::RecordBuilder;
use kifu_csa::server_protocol::{GameSummary, Reason, Verdict};
use kifu_record::{CommentKind, EndingKind, Side};
use kifu_records::shogi::csa;
use kifu_shogi::ShogiEnding;
use kifu_shogi::{Color, Move};

use crate::server::record::{Meta, csa_text};

/// A move as relayed, with its charge and (for our own moves) the engine's comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// The time the server charged for it (`,T<n>`, in the game's `Time_Unit`).
    pub t: u64,
    /// The engine's comment sent with it (`'* <score> <pv>`), for our own moves.
    pub comment: Option<String>,
}

/// The ending a record writes for the server's reason line.
fn ending(reason: Option<&Reason>, verdict: Option<Verdict>, me: Color) -> EndingKind<ShogiEnding> {
    let side = |c: Color| {
        if c == Color::Black {
            Side::First
        } else {
            Side::Second
        }
    };
    match (reason, verdict) {
        (_, None) | (Some(Reason::Chudan), _) | (None, _) => EndingKind::Abort,
        (Some(Reason::Resign), _) => EndingKind::Resign,
        (Some(Reason::TimeUp), _) => EndingKind::TimeLoss,
        (Some(Reason::IllegalMove), _) => EndingKind::IllegalMoveLoss,
        (Some(Reason::Sennichite), _) => EndingKind::Repetition,
        (Some(Reason::Jishogi), _) => EndingKind::Game(ShogiEnding::DeclareWin),
        (Some(Reason::MaxMoves), _) => EndingKind::MaxMoves,
        (Some(Reason::OuteSennichite | Reason::IllegalAction), Some(v)) => {
            let loser = if v == Verdict::Lose { me } else { me.flip() };
            EndingKind::IllegalAction(side(loser))
        }
        (Some(Reason::Other(t)), _) => EndingKind::Unknown(t.clone()),
    }
}

/// CSA V3.0 text of the game as far as it went, with the start and end times of `meta`
/// and the time control of the summary.
pub fn to_csa(
    summary: &GameSummary,
    played: &[Played],
    reason: Option<&Reason>,
    verdict: Option<Verdict>,
    meta: &Meta,
) -> String {
    let mut game = RecordBuilder::from_summary(
        summary,
        meta.start_time.as_deref(),
        meta.end_time.as_deref(),
    );
    for p in played {
        game.play_charged(p.mv, Some(p.t));
        if let Some(c) = &p.comment {
            game.comment(CommentKind::Engine, c);
        }
    }
    game.end(ending(reason, verdict, summary.your_turn), "");
    csa_text(&game.finish(), csa::CsaVersion::V30)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_csa::server_protocol::{TimeRule, TimeUnit};
    use kifu_shogi::Position;

    #[test]
    fn the_record_carries_times_time_control_and_no_control_characters() {
        let time = TimeRule {
            unit: TimeUnit::SECOND,
            total: Some(300),
            increment: 10,
            least: 1,
            ..TimeRule::default()
        };
        let summary = GameSummary::new("kifu+f-300-10F+a+b+20260101000000", "a\rb", "c", time);
        let mut pos = Position::startpos();
        let mv = pos.parse_usi_move("7g7f").unwrap();
        pos.play_unchecked(mv);
        let played = [Played {
            mv,
            t: 3,
            comment: Some("12 -3334FU\r%TORYO".to_owned()),
        }];
        let meta = Meta {
            start_time: Some("2026/01/01 00:00:01".to_owned()),
            end_time: Some("2026/01/01 00:05:00".to_owned()),
            notes: Vec::new(),
        };
        let text = to_csa(&summary, &played, Some(&Reason::Resign), None, &meta);
        for line in [
            "N+a\\x0Db",
            "$START_TIME:2026/01/01 00:00:01",
            "$END_TIME:2026/01/01 00:05:00",
            "$TIME:300+0+10",
            "'Least_Time_Per_Move:1",
            "'** 12 -3334FU\\x0D%TORYO",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
        }
        assert!(!text.contains('\r'), "{text}");
    }
}
