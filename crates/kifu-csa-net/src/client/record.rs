//! The client's record of a game: what the server relayed, with times, the engine's own
//! comments and the ending as announced (`%CHUDAN` when the connection was lost).

use kifu_csa::server_protocol::{GameSummary, Reason, Verdict};
use kifu_record::{Comment, CommentKind, EndingKind, HeaderField, Side, Span};
use kifu_records::shogi::{ShogiRecord, StartPosition, csa};
use kifu_shogi::ShogiEnding;
use kifu_shogi::{Color, Move};

use crate::plain_text::escape_controls;
use crate::server::record::{Meta, csa_text, time_control};

/// A move as relayed, with its charge and (for our own moves) the engine's comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub mv: Move,
    pub t: u64,
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
    let mut record = ShogiRecord::new(StartPosition::custom(summary.position.start.clone()));
    let h = &mut record.header;
    let plain = |text: &str| escape_controls(text).into_owned();
    h.set(HeaderField::FirstPlayer, "N+", plain(&summary.black));
    h.set(HeaderField::SecondPlayer, "N-", plain(&summary.white));
    h.set(HeaderField::Event, "EVENT", plain(&summary.game_id));
    if let Some(t) = &meta.start_time {
        h.set(HeaderField::StartTime, "START_TIME", t.clone());
    }
    if let Some(t) = &meta.end_time {
        h.set(HeaderField::EndTime, "END_TIME", t.clone());
    }
    time_control(h, &summary.time);
    if summary.max_moves > 0 {
        h.set(
            HeaderField::MaxMoves,
            "MAX_MOVES",
            summary.max_moves.to_string(),
        );
    }
    let mut pos = summary.position.start.clone();
    let tree = &mut record.moves;
    let mut at = tree.root();
    let ms = |color: Color, t: u64| {
        let unit = summary.time.of(color).unit.millis();
        Some(t.saturating_mul(unit))
    };
    let listed = summary
        .position
        .moves
        .iter()
        .map(|(mv, t)| (*mv, t.unwrap_or(0), None));
    let relayed = played.iter().map(|p| (p.mv, p.t, p.comment.clone()));
    for (mv, t, comment) in listed.chain(relayed) {
        at = tree.add_move(at, mv, Span::default());
        tree[at].time_ms = ms(pos.turn(), t);
        if let Some(c) = comment {
            tree[at].comments.push(Comment::new(
                CommentKind::Engine,
                plain(&c),
                Span::default(),
            ));
        }
        pos.play_unchecked(mv);
    }
    let kind = ending(reason, verdict, summary.your_turn);
    tree.add_ending(at, kind, Span::default());
    csa_text(&record, csa::CsaVersion::V30)
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
