//! Notation ②: pekzep words (`LE gua2 TE ZE ap1.`); unattested words stay in kanji.

use super::abbreviated::abbreviated_sticks;
use super::{Style, player, raw};
use crate::cetkaik::game_record::{DeclarationRecord, GameRecord, PlayedMove};
use kifu_cetkaik::match_state::Declaration;
use kifu_cetkaik::moves::PureMove;
use kifu_cetkaik::notation::phonetic::NUMBER_WORDS;
use kifu_cetkaik::numeral::to_pekzep;

/// Notation ②: the pekzep readings.
pub struct Phonetic;

fn number_words(n: i32) -> String {
    to_pekzep(n)
        .chars()
        .filter_map(|c| NUMBER_WORDS.iter().find(|(_, k)| *k == c).map(|(w, _)| *w))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Style for Phonetic {
    fn move_text(&self, m: &PlayedMove) -> String {
        let prof = m.prof.map_or("tam2", |p| p.pekzep());
        let f = |known: bool, sq: kifu_cetkaik::square::Square| {
            if known {
                format!("[{sq}]")
            } else {
                "[或]".into()
            }
        };
        let mut s = match m.mv {
            PureMove::Plain { src, dst } => format!("{src} {prof} {dst}"),
            PureMove::StepFinite { src, step, dst } | PureMove::StepRanged { src, step, dst } => {
                format!("{src} {prof} {step} {dst}")
            }
            PureMove::Drop { color, prof, dst } => {
                format!("{} {} {dst}", color.pekzep(), prof.pekzep())
            }
            PureMove::TamNoStep { src, first, second } => {
                if m.tam_first_known {
                    format!("{src} tam2 [{first}] {second}")
                } else {
                    format!("{src} tam2 {second}")
                }
            }
            PureMove::TamStepFormer {
                src,
                step,
                first,
                second,
            } => {
                format!("{src} tam2 {step} {} {second}", f(m.tam_first_known, first))
            }
            PureMove::TamStepLatter {
                src,
                first,
                step,
                second,
            } => {
                format!("{src} tam2 {} {step} {second}", f(m.tam_first_known, first))
            }
        };
        for p in abbreviated_sticks(m.throws, &|n| number_words(n as i32), "或", "此無") {
            s.push(' ');
            s.push_str(&p);
        }
        s
    }

    fn after_move(&self, m: &PlayedMove, _: Option<&DeclarationRecord>) -> String {
        let mut s = String::from(".");
        for c in &m.comments {
            s.push_str(&raw('{', '}', c));
        }
        s
    }

    fn declaration(&self, game: &GameRecord, d: &DeclarationRecord) -> String {
        let word = if d.declaration == Declaration::TyMok {
            "ty mok1."
        } else {
            "ta xot1."
        };
        if d.hands.is_empty() {
            return word.to_string();
        }
        let who = player(game, d.mover).map_or("或".to_string(), |n| raw('[', ']', &n));
        let hands: Vec<String> = d
            .hands
            .iter()
            .map(|h| {
                if h.same_color {
                    h.to_string()
                } else {
                    h.pekzep().to_string()
                }
            })
            .collect();
        let mut s = format!("{who} zau {}", hands.join(" "));
        if d.declaration == Declaration::TaXot {
            s.push_str(" hop1 ");
            s.push_str(&number_words(d.gain));
        }
        s.push_str(".\n");
        s.push_str(word);
        s
    }
}
