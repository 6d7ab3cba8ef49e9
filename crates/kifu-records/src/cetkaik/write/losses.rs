//! What a notation cannot carry, so that a converter can warn before writing.

use crate::cetkaik::game_record::{Event, GameRecord};
use crate::cetkaik::record::Notation;
use kifu_cetkaik::sticks::Throw;

/// One line per detail of `game` that writing it in `notation` would lose.
pub fn losses(game: &GameRecord, notation: Notation) -> Vec<String> {
    if notation != Notation::Mrf {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut ply = 0;
    let named_hands = game
        .seasons
        .iter()
        .flat_map(|s| &s.events)
        .filter(|e| matches!(e, Event::Declaration(d) if !d.hands.is_empty()))
        .count();
    if named_hands > 0 {
        out.push(format!(
            "③ has no hand lines: the hands named by {named_hands} declaration(s) are not written (a reader lists the hands held)"
        ));
    }
    for e in game.seasons.iter().flat_map(|s| &s.events) {
        let Event::Move(m) = e else { continue };
        ply += 1;
        let text = super::full::move_text(m);
        let throws = [m.throws.bridge, m.throws.water];
        if throws.contains(&Some(Throw::UnknownFailure)) {
            out.push(format!(
                "ply {ply} ({text}): ③ cannot say that a throw failed with an unknown count"
            ));
        }
        if let (Some(Throw::Count(n)), true) = (m.throws.bridge, m.throws.bridge_void)
            && m.mv.step().is_some_and(|s| s.distance(m.mv.dst()) <= n)
        {
            out.push(format!(
                "ply {ply} ({text}): ③ cannot say that the player gave up after the throw"
            ));
        }
        if m.mv.is_tam() && m.tam_first_known {
            out.push(format!(
                "ply {ply} ({text}): ③ does not keep 皇's intermediate square"
            ));
        }
        if m.comments.iter().any(|c| !c.starts_with('=')) {
            out.push(format!("ply {ply} ({text}): ③ has no comments"));
        }
    }
    out
}

/// What kifu's JSON form cannot carry: nothing, as every move is kept in its ⓪ text with its
/// comments, and the header, players, hands and scores as they are (checked by the round-trip
/// tests over the corpus).
pub fn json_losses(_game: &GameRecord) -> Vec<String> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cetkaik;
    use kifu_cetkaik::rules::Rules;

    #[test]
    fn mrf_losses_are_listed() {
        let (g, d) = cetkaik::check("LAU弓LAILY無{c} ZO皇[ZU]TU\n", Rules::standard());
        assert!(d.is_empty(), "{d:?}");
        let l = losses(&g, Notation::Mrf);
        assert_eq!(l.len(), 3, "{l:?}");
        assert!(l[0].contains("unknown count"));
        assert!(l[2].contains("intermediate square"), "{l:?}");
        assert!(losses(&g, Notation::Abbreviated).is_empty());
    }
}
