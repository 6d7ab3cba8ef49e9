//! What a USI engine says: one line at a time decoded (the USI protocol's public
//! description, "Commands from the engine to the GUI"), and the lines of one search folded
//! into a [`Thought`].

use kifu_shogi::{Move, Position, UsiMoveError};

/// One line of engine output, decoded as far as the bridge and `kifu link` need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    /// `id name <name>`.
    IdName(String),
    /// `option name <name> type …`: an option the engine accepts.
    Option(String),
    /// `usiok`: the handshake is over.
    UsiOk,
    /// `readyok`: the engine is ready.
    ReadyOk,
    /// `info …`: the score and principal variation the line carries, if any.
    Info(Info),
    /// `bestmove <move> [ponder <move>]`, the end of a search. A `bestmove` without a move
    /// is read as `resign`.
    BestMove {
        /// `7g7f`, `resign` or `win`.
        best: String,
        /// The reply the engine expects, from `ponder <move>`.
        ponder: Option<String>,
    },
    /// Anything else (`id author`, `info string` without a score, blank lines …).
    Other,
}

/// The score and principal variation of one `info` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `score cp N`, or ±100000 for `score mate ±N`, from the engine's side.
    pub score: Option<i64>,
    /// `pv <moves…>`, the rest of the line.
    pub pv: Option<Vec<String>>,
}

/// The score told for a mate (`score mate N`), from the engine's side.
pub const MATE_SCORE: i64 = 100_000;

impl EngineLine {
    /// Decodes one line of engine output.
    ///
    /// ```
    /// use kifu_csa::usi::EngineLine;
    ///
    /// assert_eq!(EngineLine::parse("usiok"), EngineLine::UsiOk);
    /// assert_eq!(
    ///     EngineLine::parse("bestmove 7g7f ponder 3c3d"),
    ///     EngineLine::BestMove { best: "7g7f".into(), ponder: Some("3c3d".into()) }
    /// );
    /// let EngineLine::Info(info) = EngineLine::parse("info depth 3 score cp -35 pv 7g7f 3c3d") else {
    ///     panic!()
    /// };
    /// assert_eq!(info.score, Some(-35));
    /// ```
    pub fn parse(line: &str) -> EngineLine {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["usiok"] => EngineLine::UsiOk,
            ["readyok"] => EngineLine::ReadyOk,
            ["id", "name", ..] => {
                let name = line.trim().trim_start_matches("id").trim_start();
                EngineLine::IdName(name.trim_start_matches("name").trim().to_owned())
            }
            ["option", "name", name, ..] => EngineLine::Option((*name).to_owned()),
            ["bestmove", rest @ ..] => EngineLine::BestMove {
                best: rest.first().copied().unwrap_or("resign").to_owned(),
                ponder: match rest.get(1..3) {
                    Some(["ponder", reply]) => Some((*reply).to_owned()),
                    _ => None,
                },
            },
            ["info", rest @ ..] => EngineLine::Info(Info::parse(rest)),
            _ => EngineLine::Other,
        }
    }
}

impl Info {
    fn parse(words: &[&str]) -> Info {
        let mut info = Info::default();
        let mut i = 0;
        while i < words.len() {
            match words[i] {
                "score" if i + 2 < words.len() => {
                    let n = words[i + 2].trim_start_matches('+');
                    match words[i + 1] {
                        "cp" => info.score = n.parse().ok(),
                        "mate" if n.starts_with('-') => info.score = Some(-MATE_SCORE),
                        "mate" => info.score = Some(MATE_SCORE),
                        _ => {}
                    }
                    i += 3;
                }
                "pv" => {
                    info.pv = Some(words[i + 1..].iter().map(|s| (*s).to_owned()).collect());
                    break;
                }
                _ => i += 1,
            }
        }
        info
    }
}

/// What the engine said for one `go`: the last score and principal variation before its
/// `bestmove`, and the `bestmove` itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thought {
    /// `7g7f`, `resign` or `win`.
    pub bestmove: String,
    /// `score cp N`, or ±100000 for `score mate`, from the engine's side.
    pub score: Option<i64>,
    /// The last principal variation (usually starting with the best move).
    pub pv: Vec<String>,
    /// The reply the engine expects (`bestmove … ponder <move>`, else the PV's second move).
    pub ponder: Option<String>,
}

/// A `bestmove` decoded against the position it answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// A legal move.
    Move(Move),
    /// `bestmove resign`.
    Resign,
    /// `bestmove win`: the engine declares a win (入玉宣言).
    Win,
}

/// A `bestmove` that is no legal move in the position it answers.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the engine's bestmove `{text}` is not legal: {source}")]
pub struct IllegalBestMove {
    /// The move as the engine wrote it.
    pub text: String,
    /// Why it is not a legal move there.
    pub source: UsiMoveError,
}

impl Thought {
    /// Folds one line of output into the thought; `true` once `bestmove` arrived.
    ///
    /// ```
    /// use kifu_csa::usi::Thought;
    ///
    /// let mut thought = Thought::default();
    /// assert!(!thought.absorb("info depth 3 score cp 12 pv 2g2f 8c8d 2f2e"));
    /// assert!(thought.absorb("bestmove 2g2f"));
    /// assert_eq!(thought.ponder.as_deref(), Some("8c8d"));
    /// ```
    pub fn absorb(&mut self, line: &str) -> bool {
        match EngineLine::parse(line) {
            EngineLine::BestMove { best, ponder } => {
                self.finish(best, ponder);
                true
            }
            EngineLine::Info(info) => {
                self.note(info);
                false
            }
            _ => false,
        }
    }

    pub(crate) fn note(&mut self, info: Info) {
        if let Some(score) = info.score {
            self.score = Some(score);
        }
        if let Some(pv) = info.pv {
            self.pv = pv;
        }
    }

    pub(crate) fn finish(&mut self, best: String, ponder: Option<String>) {
        self.ponder = ponder.or_else(|| match self.pv.as_slice() {
            [first, reply, ..] if *first == best => Some(reply.clone()),
            _ => None,
        });
        self.bestmove = best;
    }

    /// The `bestmove` decoded against `position`, the position the search was about.
    pub fn best(&self, position: &Position) -> Result<BestMove, IllegalBestMove> {
        match self.bestmove.as_str() {
            "resign" => Ok(BestMove::Resign),
            "win" => Ok(BestMove::Win),
            text => position
                .parse_usi_move(text)
                .map(BestMove::Move)
                .map_err(|source| IllegalBestMove {
                    text: text.to_owned(),
                    source,
                }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_and_bestmove() {
        let mut t = Thought::default();
        assert!(!t.absorb("info depth 10 seldepth 12 score cp -35 nodes 1000 pv 7g7f 3c3d 2g2f"));
        assert_eq!(t.score, Some(-35));
        assert_eq!(t.pv, ["7g7f", "3c3d", "2g2f"]);
        assert!(!t.absorb("info score mate -3 pv 8h2b+"));
        assert_eq!(t.score, Some(-100_000));
        assert!(!t.absorb("info string hello"));
        assert_eq!(
            t.score,
            Some(-100_000),
            "a line without a score keeps the last"
        );
        assert!(t.absorb("bestmove 7g7f ponder 3c3d"));
        assert_eq!(t.bestmove, "7g7f");
        assert_eq!(t.ponder.as_deref(), Some("3c3d"));
        assert!(t.absorb("bestmove"));
        assert_eq!(t.bestmove, "resign");
        assert_eq!(t.ponder, None);
    }

    #[test]
    fn the_expected_reply_falls_back_on_the_pv() {
        let mut t = Thought::default();
        t.absorb("info depth 3 score cp 12 pv 2g2f 8c8d 2f2e");
        assert!(t.absorb("bestmove 2g2f"));
        assert_eq!(t.ponder.as_deref(), Some("8c8d"));
        // A PV that does not start with the best move says nothing about the reply.
        t.absorb("info depth 4 score cp 12 pv 7g7f 3c3d");
        assert!(t.absorb("bestmove 2g2f"));
        assert_eq!(t.ponder, None);
    }

    #[test]
    fn handshake_lines() {
        assert_eq!(
            EngineLine::parse("id name  Sekirei 1.0 "),
            EngineLine::IdName("Sekirei 1.0".into())
        );
        assert_eq!(
            EngineLine::parse("option name USI_Hash type spin default 256"),
            EngineLine::Option("USI_Hash".into())
        );
        assert_eq!(EngineLine::parse(" readyok "), EngineLine::ReadyOk);
        assert_eq!(EngineLine::parse("id author someone"), EngineLine::Other);
        assert_eq!(EngineLine::parse(""), EngineLine::Other);
    }

    #[test]
    fn a_bestmove_is_decoded_against_its_position() {
        let pos = Position::startpos();
        let mut t = Thought::default();
        t.absorb("bestmove 7g7f");
        assert!(matches!(t.best(&pos), Ok(BestMove::Move(m)) if m.usi() == "7g7f"));
        t.absorb("bestmove win");
        assert_eq!(t.best(&pos), Ok(BestMove::Win));
        t.absorb("bestmove resign");
        assert_eq!(t.best(&pos), Ok(BestMove::Resign));
        t.absorb("bestmove 7g7e");
        let err = t.best(&pos).unwrap_err();
        assert_eq!(err.text, "7g7e");
        assert!(err.to_string().contains("not legal"), "{err}");
    }
}
