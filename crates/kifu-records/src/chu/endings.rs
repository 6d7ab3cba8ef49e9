//! The words chu records end a game with, as [`EndingKind`]s: the result words of CSL records
//! (`resign`, `1-0`, `投了` …), the closing words of KIF (the Kakinoki KIF page's `投了`, `中断`,
//! `千日手` …) and lishogi's game statuses (`resign`, `royalsLost`, `bareKing` …).

use kifu_chu::{EndReason, Outcome};
use kifu_record::{EndingKind, Outcome as Result_, Side};

/// The chu ending a record stores.
pub type ChuEndingKind = EndingKind<Outcome>;

/// The ending a result or closing word stands for; `None` for a word that is no ending.
pub fn ending_from_word(word: &str) -> Option<ChuEndingKind> {
    Some(match word {
        "resign" | "resigns" | "resigned" | "投了" => EndingKind::Resign,
        "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*" => EndingKind::Result(word.parse().ok()?),
        "draw" => EndingKind::Result(Result_::Draw),
        "千日手" => EndingKind::Repetition,
        "中断" => EndingKind::Abort,
        "詰み" => EndingKind::Checkmate,
        "反則勝ち" => EndingKind::IllegalMoveWin,
        "反則負け" => EndingKind::IllegalMoveLoss,
        "切れ負け" => EndingKind::TimeLoss,
        _ => return None,
    })
}

/// The word a CSL record writes for an ending (Western or Japanese), if it has one.
pub(crate) fn csl_word(kind: &ChuEndingKind, japanese: bool) -> Option<String> {
    Some(match kind {
        EndingKind::Resign if japanese => "投了".into(),
        EndingKind::Resign => "resign".into(),
        EndingKind::Repetition => "千日手".into(),
        EndingKind::Abort => "中断".into(),
        EndingKind::Result(outcome) => outcome.to_string(),
        EndingKind::Game(outcome) => outcome.to_record_outcome().to_string(),
        _ => return None,
    })
}

/// The closing word a KIF record writes for an ending, if it has one.
pub(crate) fn kif_word(kind: &ChuEndingKind) -> Option<&'static str> {
    Some(match kind {
        EndingKind::Resign => "投了",
        EndingKind::Abort => "中断",
        EndingKind::Repetition => "千日手",
        EndingKind::Checkmate => "詰み",
        EndingKind::IllegalMoveWin => "反則勝ち",
        EndingKind::IllegalMoveLoss => "反則負け",
        EndingKind::TimeLoss => "切れ負け",
        _ => return None,
    })
}

/// The ending of a lishogi game status (`resign`, `royalsLost`, `timeout` …) with its winner,
/// as lishogi's JSON export writes them; statuses that are not endings (`started`) and unknown
/// ones are kept verbatim.
pub fn lishogi_ending(status: &str, winner: Option<Side>) -> ChuEndingKind {
    match status {
        "resign" => EndingKind::Resign,
        "draw" => EndingKind::Result(Result_::Draw),
        "timeout" | "outoftime" => EndingKind::TimeLoss,
        "aborted" => EndingKind::Abort,
        "mate" => EndingKind::Checkmate,
        "repetition" => EndingKind::Repetition,
        _ => match status.parse::<EndReason>() {
            Ok(reason) => EndingKind::Game(Outcome {
                reason,
                winner: winner.map(kifu_chu::color_of),
            }),
            Err(_) => {
                shared_ending(status).unwrap_or_else(|| EndingKind::Unknown(status.to_string()))
            }
        },
    }
}

/// An ending lishogi has no status for, as [`lishogi_status`] writes it: the shared word
/// (`first player wins`, `loss by an illegal move` …), so that kifu reads back what it wrote.
fn shared_ending(status: &str) -> Option<ChuEndingKind> {
    use EndingKind::*;
    [
        NoCheckmate,
        IllegalMoveWin,
        IllegalMoveLoss,
        IllegalAction(Side::First),
        IllegalAction(Side::Second),
        MaxMoves,
        TakeBack,
        Error,
        Sealed,
        DefaultWin,
        DefaultLoss,
        Result(Result_::Win(Side::First)),
        Result(Result_::Win(Side::Second)),
        Result(Result_::None),
    ]
    .into_iter()
    .find(|kind| kind.to_string() == status)
}

/// The lishogi status of an ending, as the JSON writer puts it back.
pub(crate) fn lishogi_status(kind: &ChuEndingKind) -> String {
    match kind {
        EndingKind::Resign => "resign".into(),
        EndingKind::Result(Result_::Draw) => "draw".into(),
        EndingKind::TimeLoss => "outoftime".into(),
        EndingKind::Abort => "aborted".into(),
        EndingKind::Checkmate => "mate".into(),
        EndingKind::Repetition => "repetition".into(),
        EndingKind::Game(outcome) => outcome.reason.lishogi_status().into(),
        EndingKind::Unknown(word) => word.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_statuses() {
        assert_eq!(ending_from_word("投了"), Some(EndingKind::Resign));
        assert_eq!(
            ending_from_word("0-1"),
            Some(EndingKind::Result(Result_::Win(Side::Second)))
        );
        assert_eq!(ending_from_word("Ln-7h"), None);
        let bare = lishogi_ending("bareKing", Some(Side::Second));
        assert_eq!(lishogi_status(&bare), "bareKing");
        assert_eq!(
            bare.outcome(Side::First),
            Result_::Win(Side::Second),
            "a chu ending carries its winner"
        );
        assert_eq!(
            lishogi_ending("cheat", None),
            EndingKind::Unknown("cheat".into())
        );
    }
}
