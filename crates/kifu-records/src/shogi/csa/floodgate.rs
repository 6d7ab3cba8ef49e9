//! Floodgate's non-standard comment lines, read into fields: `'black_rate:name+hash:1850.0`,
//! `'white_rate:…`, `'summary:toryo:name1 lose:name2 win`. The lines stay in the record as
//! comments (so writing CSA keeps them); this gives their meaning.

use kifu_record::CommentKind;

use crate::shogi::ShogiRecord;

/// A player's rating as floodgate prints it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rate {
    /// `name+hash` as written.
    pub player: String,
    /// The rating after the last `:`.
    pub rating: f64,
}

/// Floodgate's closing line: the server's reason and each side's result word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// `toryo`, `time up`, `illegal move`, `uchifuzume`, `oute_kaihimore`, `sennichite`,
    /// `oute_sennichite`, `kachi`, `illegal kachi`, `max_moves`, `abnormal`, …
    pub reason: String,
    /// `win`, `lose` or `draw` for 先手.
    pub black: String,
    /// `win`, `lose` or `draw` for 後手.
    pub white: String,
}

/// What floodgate's comment lines of one record say; each is `None` when the line is absent
/// or cannot be read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Floodgate {
    /// `'black_rate:…`: 先手's rating.
    pub black_rate: Option<Rate>,
    /// `'white_rate:…`: 後手's rating.
    pub white_rate: Option<Rate>,
    /// `'summary:…`: how the server ended the game.
    pub summary: Option<Summary>,
}

fn rate(value: &str) -> Option<Rate> {
    let (player, rating) = value.rsplit_once(':')?;
    Some(Rate {
        player: player.to_owned(),
        rating: rating.trim().parse().ok()?,
    })
}

fn summary(value: &str) -> Option<Summary> {
    let mut parts = value.splitn(3, ':');
    let reason = parts.next()?.to_owned();
    let result = |s: &str| s.rsplit_once(' ').map(|(_, r)| r.to_owned());
    Some(Summary {
        reason,
        black: result(parts.next()?)?,
        white: result(parts.next()?)?,
    })
}

/// The floodgate lines found among the record's `'` comments (anywhere on the main line).
pub fn floodgate(record: &ShogiRecord) -> Floodgate {
    let tree = &record.moves;
    let mut out = Floodgate::default();
    let nodes = std::iter::once(tree.root()).chain(tree.main_line());
    for id in nodes {
        for c in tree[id]
            .comments()
            .iter()
            .filter(|c| c.kind == CommentKind::Hidden)
        {
            if let Some(v) = c.text.strip_prefix("black_rate:") {
                out.black_rate = rate(v);
            } else if let Some(v) = c.text.strip_prefix("white_rate:") {
                out.white_rate = rate(v);
            } else if let Some(v) = c.text.strip_prefix("summary:") {
                out.summary = summary(v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::csa::read;

    #[test]
    fn floodgate_lines() {
        let text = "V2\nN+gps\nN-bona\n'black_rate:gps+0123abc:2850.5\n'white_rate:bona+99:2700\nPI\n+\n\
+7776FU\nT1\n'** 30 -3334FU\n-3334FU\nT2\n%TORYO\n'summary:toryo:gps lose:bona win\n";
        let parsed = read(text);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let f = floodgate(&parsed.records[0]);
        assert_eq!(
            f.black_rate,
            Some(Rate {
                player: "gps+0123abc".into(),
                rating: 2850.5
            })
        );
        assert_eq!(f.white_rate.unwrap().rating, 2700.0);
        let s = f.summary.unwrap();
        assert_eq!(
            (s.reason.as_str(), s.black.as_str(), s.white.as_str()),
            ("toryo", "lose", "win")
        );
        let s = summary("time up:a lose:b win").unwrap();
        assert_eq!(s.reason, "time up");
        assert_eq!(summary("nonsense"), None);
    }
}
