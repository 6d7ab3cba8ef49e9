//! The client's side of the clock: the server's `,T` charges booked with the server's own
//! arithmetic ([`Clock::commit`]), and turned into a USI `go` command with a safety margin.
//!
//! shogi-server adds the increment before charging a move, so at the start of a turn the
//! mover may use `remaining + increment (+ byoyomi)`. The engine is told `btime = remaining`
//! and `binc = increment` — never `remaining + increment` together with `binc`, which
//! would count the increment twice.

use kifu_shogi::Color;

use crate::clock::Clock;

/// The `go` line for `me` to think now, keeping `margin_ms` in hand for the network and
/// the engine's reaction; the margin comes off the per-move part (byoyomi or increment)
/// first, then off the main time. `None` when the clock is unlimited.
pub fn go_command(clock: &Clock, me: Color, margin_ms: u64) -> Option<String> {
    let rule = clock.rule(me);
    if rule.is_unlimited() {
        return None;
    }
    let ms = |c: Color| {
        let unit = clock.rule(c).unit.millis();
        let time = u64::try_from(clock.remaining(c)).unwrap_or(0) * unit;
        (
            time,
            clock.rule(c).byoyomi * unit,
            clock.rule(c).increment * unit,
        )
    };
    let mut sides = [ms(Color::Black), ms(Color::White)];
    let own = &mut sides[me.index()];
    let mut margin = margin_ms;
    for part in [&mut own.1, &mut own.2, &mut own.0] {
        let cut = margin.min(*part);
        *part -= cut;
        margin -= cut;
    }
    let [(bt, bb, bi), (wt, wb, wi)] = sides;
    Some(if bi > 0 || wi > 0 || rule.increment > 0 {
        format!("go btime {bt} wtime {wt} binc {bi} winc {wi}")
    } else {
        let byoyomi = if me == Color::Black { bb } else { wb };
        format!("go btime {bt} wtime {wt} byoyomi {byoyomi}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_name::GameName;

    fn clock(name: &str) -> Clock {
        let g = GameName::parse(name).unwrap();
        Clock::new(g.time_rule(), g.time_rule(), g.stopwatch)
    }

    #[test]
    fn byoyomi_with_margin() {
        let mut c = clock("t-600-10");
        assert_eq!(
            go_command(&c, Color::Black, 2500).unwrap(),
            "go btime 600000 wtime 600000 byoyomi 7500"
        );
        c.commit(Color::White, 30);
        assert_eq!(
            go_command(&c, Color::Black, 2500).unwrap(),
            "go btime 600000 wtime 570000 byoyomi 7500"
        );
    }

    #[test]
    fn fischer_never_counts_the_increment_twice() {
        let mut c = clock("floodgate-300-10F");
        c.commit(Color::Black, 25);
        // 300 + 10 − 25 = 285 s left; the increment is passed once, as binc.
        assert_eq!(
            go_command(&c, Color::Black, 2500).unwrap(),
            "go btime 285000 wtime 300000 binc 7500 winc 10000"
        );
        assert_eq!(
            go_command(&c, Color::White, 12_000).unwrap(),
            "go btime 285000 wtime 298000 binc 10000 winc 0"
        );
    }

    #[test]
    fn margin_larger_than_byoyomi_eats_main_time_and_unlimited_has_none() {
        let c = clock("t-0-1");
        assert_eq!(
            go_command(&c, Color::White, 2500).unwrap(),
            "go btime 0 wtime 0 byoyomi 0"
        );
        assert_eq!(go_command(&clock("t-0-0"), Color::Black, 2500), None);
    }
}
