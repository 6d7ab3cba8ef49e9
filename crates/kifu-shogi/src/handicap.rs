//! The start positions of KIF's 手合割 list.

use std::fmt;
use std::str::FromStr;

use crate::{Color, Position};

/// A start position by name: 平手 or one of the handicaps, where the
/// handicap giver (上手, White) moves first.
///
/// The list and the names are those of the 手合割 line on the Kakinoki KIF page; each
/// handicap removes the named pieces from White's side of the even start. "Left" and "right"
/// are White's own: its left lance stands on 1a, its right one on 9a. The JKF preset names
/// are those of the JSON Kifu Format's `initial.preset`.
///
/// ```
/// use kifu_shogi::{Color, Handicap};
///
/// let h: Handicap = "二枚落ち".parse().unwrap();
/// assert_eq!(h, Handicap::TwoPieces);
/// assert_eq!(h.sfen(), "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
/// assert_eq!(h.first_to_move(), Color::White);
/// assert_eq!(h.jkf_preset(), "2");
/// assert_eq!(Handicap::of_position(&h.position()), Some(h));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 平手: no handicap, Black moves first (JKF `HIRATE`).
    Even,
    /// 香落ち: White's left lance (1a) removed (`KY`).
    Lance,
    /// 右香落ち: White's right lance (9a) removed (`KY_R`).
    RightLance,
    /// 角落ち: the bishop removed (`KA`).
    Bishop,
    /// 飛車落ち: the rook removed (`HI`).
    Rook,
    /// 飛香落ち: the rook and the left lance removed (`HIKY`).
    RookLance,
    /// 二枚落ち: rook and bishop removed (`2`).
    TwoPieces,
    /// 三枚落ち: rook, bishop and the left lance removed (`3`).
    ThreePieces,
    /// 四枚落ち: rook, bishop and both lances removed (`4`).
    FourPieces,
    /// 五枚落ち: rook, bishop, both lances and the right knight (8a) removed (`5`).
    FivePieces,
    /// 左五枚落ち: rook, bishop, both lances and the left knight (2a) removed (`5_L`).
    LeftFivePieces,
    /// 六枚落ち: rook, bishop, both lances and both knights removed (`6`).
    SixPieces,
    /// 左七枚落ち: as 六枚落ち, and the left silver (3a) too (`7_L`).
    LeftSevenPieces,
    /// 右七枚落ち: as 六枚落ち, and the right silver (7a) too (`7_R`).
    RightSevenPieces,
    /// 八枚落ち: as 六枚落ち, and both silvers too (`8`).
    EightPieces,
    /// 十枚落ち: as 八枚落ち, and both golds too: White has the king and its pawns (`10`).
    TenPieces,
}

/// `(handicap, KIF name, JKF preset, White's first two ranks in SFEN)`.
const TABLE: [(Handicap, &str, &str, &str); 16] = [
    (Handicap::Even, "平手", "HIRATE", "lnsgkgsnl/1r5b1"),
    (Handicap::Lance, "香落ち", "KY", "lnsgkgsn1/1r5b1"),
    (Handicap::RightLance, "右香落ち", "KY_R", "1nsgkgsnl/1r5b1"),
    (Handicap::Bishop, "角落ち", "KA", "lnsgkgsnl/1r7"),
    (Handicap::Rook, "飛車落ち", "HI", "lnsgkgsnl/7b1"),
    (Handicap::RookLance, "飛香落ち", "HIKY", "lnsgkgsn1/7b1"),
    (Handicap::TwoPieces, "二枚落ち", "2", "lnsgkgsnl/9"),
    (Handicap::ThreePieces, "三枚落ち", "3", "lnsgkgsn1/9"),
    (Handicap::FourPieces, "四枚落ち", "4", "1nsgkgsn1/9"),
    (Handicap::FivePieces, "五枚落ち", "5", "2sgkgsn1/9"),
    (Handicap::LeftFivePieces, "左五枚落ち", "5_L", "1nsgkgs2/9"),
    (Handicap::SixPieces, "六枚落ち", "6", "2sgkgs2/9"),
    (Handicap::LeftSevenPieces, "左七枚落ち", "7_L", "2sgkg3/9"),
    (Handicap::RightSevenPieces, "右七枚落ち", "7_R", "3gkgs2/9"),
    (Handicap::EightPieces, "八枚落ち", "8", "3gkg3/9"),
    (Handicap::TenPieces, "十枚落ち", "10", "4k4/9"),
];

impl Handicap {
    /// Every named start, 平手 first, in the order of the Kakinoki KIF page's list.
    pub const ALL: [Handicap; 16] = {
        let mut all = [Handicap::Even; 16];
        let mut i = 0;
        while i < 16 {
            all[i] = TABLE[i].0;
            i += 1;
        }
        all
    };

    fn row(self) -> &'static (Handicap, &'static str, &'static str, &'static str) {
        &TABLE[self as usize]
    }

    /// The KIF `手合割` name, e.g. `飛香落ち`.
    pub fn kif_name(self) -> &'static str {
        self.row().1
    }

    /// The JKF `initial.preset` name, e.g. `HIKY`.
    pub fn jkf_preset(self) -> &'static str {
        self.row().2
    }

    /// Looks up a KIF name; a few spellings seen in the wild are accepted too.
    pub fn from_kif_name(name: &str) -> Option<Handicap> {
        let name = name.trim();
        let canonical = match name {
            "香車落ち" | "左香落ち" => "香落ち",
            "右香車落ち" => "右香落ち",
            "角行落ち" => "角落ち",
            "飛落ち" => "飛車落ち",
            "飛車香落ち" => "飛香落ち",
            "2枚落ち" => "二枚落ち",
            "4枚落ち" => "四枚落ち",
            "6枚落ち" => "六枚落ち",
            "8枚落ち" => "八枚落ち",
            "10枚落ち" => "十枚落ち",
            other => other,
        };
        TABLE.iter().find(|r| r.1 == canonical).map(|r| r.0)
    }

    /// Looks up a JKF `initial.preset` name (`HIRATE`, `KY`, … `10`).
    pub fn from_jkf_preset(preset: &str) -> Option<Handicap> {
        TABLE.iter().find(|r| r.2 == preset).map(|r| r.0)
    }

    /// The full SFEN of the start position.
    pub fn sfen(self) -> String {
        let side = if self == Handicap::Even { 'b' } else { 'w' };
        format!(
            "{}/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL {side} - 1",
            self.row().3
        )
    }

    /// The start position, with no history.
    pub fn position(self) -> Position {
        Position::from_sfen(&self.sfen()).expect("handicap table holds valid positions")
    }

    /// The side that moves first: Black in an even game, the giver (White) otherwise.
    pub fn first_to_move(self) -> Color {
        if self == Handicap::Even {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Recognises a start position as one of the named ones.
    pub fn of_position(pos: &Position) -> Option<Handicap> {
        let sfen = pos.to_sfen();
        let board_and_side = sfen.rsplit_once(' ').map_or(sfen.as_str(), |(a, _)| a);
        Handicap::ALL.into_iter().find(|h| {
            let s = h.sfen();
            s.rsplit_once(' ').map(|(a, _)| a) == Some(board_and_side)
        })
    }
}

impl fmt::Display for Handicap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kif_name())
    }
}

/// Text that is not a KIF handicap name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a KIF handicap name (平手, 香落ち, 角落ち, 飛車落ち, 二枚落ち, …)")]
pub struct ParseHandicapError(pub String);

/// Reads a KIF `手合割` name, as [`Handicap::from_kif_name`] does.
///
/// ```
/// use kifu_shogi::Handicap;
///
/// let h: Handicap = "飛香落ち".parse().unwrap();
/// assert_eq!(h.to_string(), "飛香落ち");
/// assert!("九枚落ち".parse::<Handicap>().is_err());
/// ```
impl FromStr for Handicap {
    type Err = ParseHandicapError;

    fn from_str(text: &str) -> Result<Handicap, ParseHandicapError> {
        Handicap::from_kif_name(text).ok_or_else(|| ParseHandicapError(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PieceKind, Square};

    #[test]
    fn every_handicap_is_a_valid_position_with_the_giver_to_move() {
        for h in Handicap::ALL {
            let p = h.position();
            assert_eq!(p.turn(), h.first_to_move());
            assert_eq!(Handicap::from_kif_name(h.kif_name()), Some(h));
            assert_eq!(Handicap::from_jkf_preset(h.jkf_preset()), Some(h));
            assert_eq!(Handicap::of_position(&p), Some(h));
            assert!(p.has_legal_moves());
        }
    }

    #[test]
    fn removed_pieces_match_the_csa_pi_lines() {
        // PI82HI22KA11KY91KY81KE21KE71GI31GI61KI41KI removes these for 十枚落ち.
        let p = Handicap::TenPieces.position();
        for sq in ["8b", "2b", "1a", "9a", "8a", "2a", "7a", "3a", "6a", "4a"] {
            assert_eq!(p.piece_at(Square::parse(sq).unwrap()), None, "{sq}");
        }
        let p = Handicap::RightSevenPieces.position();
        assert_eq!(p.piece_at(Square::parse("7a").unwrap()), None);
        assert_eq!(
            p.piece_at(Square::parse("3a").unwrap()).map(|p| p.kind),
            Some(PieceKind::Silver)
        );
    }
}
