//! Writers: ⓪ (canonical), ①, ②, ③ and JSON, all from a replayed [`GameRecord`].

pub mod abbreviated;
pub mod full;
pub mod losses;
pub mod mrf;
pub mod phonetic;

pub use losses::{json_losses, losses};

use super::game_record::{DeclarationRecord, Event, GameRecord, PlayedMove};
use super::record::Notation;
use kifu_cetkaik::match_state::Declaration;
use kifu_cetkaik::numeral::to_pekzep;
use kifu_cetkaik::piece::Side;
use std::fmt::Write;

/// Writes the game in one notation (what each notation cannot hold: [`losses`](fn@losses)). Commands
/// write seasons through the format table instead ([`crate::cetkaik::FORMATS`]), which groups
/// them into a match and calls this.
///
/// ```
/// use kifu_cetkaik::Rules;
/// use kifu_records::cetkaik::write::{losses, write};
/// use kifu_records::cetkaik::{Notation, check};
///
/// let (game, diagnostics) = check("MAU弓MAIMY橋一\tME弓MIMU橋五\n", Rules::standard());
/// assert!(diagnostics.iter().all(|d| !d.is_error()));
/// let abbreviated = write(&game, Notation::Abbreviated);
/// assert!(abbreviated.contains("MAU弓MAIMY一"), "{abbreviated}");
/// assert!(losses(&game, Notation::Abbreviated).is_empty());
/// ```
pub fn write(game: &GameRecord, notation: Notation) -> String {
    match notation {
        Notation::Full => write_with(game, &full::Full),
        Notation::Abbreviated => write_with(game, &abbreviated::Abbreviated),
        Notation::Phonetic => write_with(game, &phonetic::Phonetic),
        Notation::Mrf => write_with(game, &mrf::Mrf),
    }
}

/// The pretty JSON form.
pub fn write_json(game: &GameRecord) -> String {
    serde_json::to_string_pretty(&game.to_json()).unwrap_or_default() + "\n"
}

/// Text between `{` `}` (or `#{` `}#` … when the text holds `}`).
pub fn raw(open: char, close: char, text: &str) -> String {
    let mut hashes = String::new();
    loop {
        let terminator = format!("{close}{hashes}");
        if !text.contains(&terminator) {
            return format!("{hashes}{open}{text}{close}{hashes}");
        }
        hashes.push('#');
    }
}

/// What differs between notations.
pub trait Style {
    /// One move as the notation writes it.
    fn move_text(&self, m: &PlayedMove) -> String;
    /// How many moves go on one line (two: one of each side).
    fn moves_per_line(&self) -> usize {
        2
    }
    /// Text right after the move on its line (capture comment, `=tymor`, …); `next` is the
    /// declaration that follows the move, if any.
    fn after_move(&self, m: &PlayedMove, _next: Option<&DeclarationRecord>) -> String {
        let mut s = String::new();
        for c in &m.comments {
            s.push_str(&raw('{', '}', c));
        }
        if let Some((c, p)) = m.captured {
            let _ = write!(s, " 手{c}{p}");
        }
        s
    }
    /// A 再行 or 終季 declaration as the notation writes it: who made it with which hands (and,
    /// on 終季, the points taken), then the word.
    fn declaration(&self, game: &GameRecord, d: &DeclarationRecord) -> String {
        let word = if d.declaration == Declaration::TyMok {
            "再行"
        } else {
            "終季"
        };
        if d.hands.is_empty() {
            // Only a penalty counted as a hand (撃皇, futile 皇 moves): nothing to name.
            return word.to_string();
        }
        let who = player(game, d.mover).map_or("或".to_string(), |n| raw('[', ']', &n));
        let hands: Vec<String> = d.hands.iter().map(|h| h.to_string()).collect();
        let mut s = format!("{who}為{}", hands.join("加"));
        if d.declaration == Declaration::TaXot {
            let _ = write!(s, "而手{}", to_pekzep(d.gain));
        }
        s.push('\n');
        s.push_str(word);
        s
    }
}

/// The name of the player on `side`: from the names line, else `{黒名:…}` / `{赤名:…}`.
pub fn player(game: &GameRecord, side: Side) -> Option<String> {
    match game.names.as_ref() {
        Some(n) => Some(if side == game.first_side() {
            n.first.name.clone()
        } else {
            n.second.name.clone()
        }),
        None => {
            let key = if side == Side::IASide {
                "黒名"
            } else {
                "赤名"
            };
            game.items
                .iter()
                .find(|i| i.key.as_deref() == Some(key))
                .map(|i| i.value.clone())
        }
    }
}

fn season_end(game: &GameRecord, index: usize) -> &'static str {
    let offset = game
        .items
        .iter()
        .find(|i| i.key.as_deref() == Some("季"))
        .and_then(|i| {
            ['春', '夏', '秋', '冬']
                .iter()
                .position(|&c| i.value.trim().starts_with(c))
        })
        .unwrap_or(0);
    let index = index + offset;
    if game.rules.seasons == 2 {
        return if index == 0 { "上季終" } else { "下季終" };
    }
    ["春終", "夏終", "秋終", "冬終"]
        .get(index)
        .copied()
        .unwrap_or("")
}

fn write_with(game: &GameRecord, style: &dyn Style) -> String {
    let mut out = String::new();
    for item in &game.items {
        let text = match &item.key {
            Some(k) => format!("{k}:{}", item.value),
            None if item.value.contains(':') && !item.value.contains("//") => {
                format!(":{}", item.value)
            }
            None => item.value.clone(),
        };
        out.push_str(&raw('{', '}', &text));
        out.push('\n');
    }
    if let Some(n) = &game.names {
        let score = |s: Option<i32>| s.map(to_pekzep).unwrap_or_default();
        let _ = writeln!(
            out,
            "{}{} {}{}",
            raw('[', ']', &n.first.name),
            score(n.first.score),
            raw('[', ']', &n.second.name),
            score(n.second.score)
        );
    }
    for (i, season) in game.seasons.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        // Two moves to a line, as players and cerke_online write; a declaration stands
        // apart between blank lines.
        let mut on_line = 0;
        for (k, e) in season.events.iter().enumerate() {
            match e {
                Event::Move(m) => {
                    let next = match season.events.get(k + 1) {
                        Some(Event::Declaration(d)) => Some(d),
                        _ => None,
                    };
                    if on_line == 1 {
                        out.push_str("    ");
                    }
                    out.push_str(&style.move_text(m));
                    out.push_str(&style.after_move(m, next));
                    on_line += 1;
                    if on_line == style.moves_per_line() {
                        out.push('\n');
                        on_line = 0;
                    }
                }
                Event::Declaration(d) => {
                    let text = style.declaration(game, d);
                    if on_line > 0 {
                        out.push('\n');
                        on_line = 0;
                    }
                    if !text.is_empty() {
                        out.push('\n');
                        out.push_str(&text);
                        if d.declaration == Declaration::TaXot && season.ended {
                            out.push_str("    ");
                            out.push_str(season_end(game, i));
                        }
                        out.push('\n');
                        if k + 1 < season.events.len() {
                            out.push('\n');
                        }
                    }
                }
            }
        }
        if on_line > 0 {
            out.push('\n');
        }
    }
    if game.game_end_marker {
        out.push_str("\n星一周\n");
    }
    out
}
