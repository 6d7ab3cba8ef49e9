//! The server's clock, with shogi-server's arithmetic: now [`kifu_csa::server_protocol::Clock`],
//! where the client's USI time arithmetic can use it too; kept here for old paths.

pub use kifu_csa::server_protocol::Clock;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_name::GameName;
    use kifu_shogi::Color;

    fn clock(name: &str) -> Clock {
        let g = GameName::parse(name).unwrap();
        Clock::new(g.clock_rule(), g.clock_rule(), g.stopwatch)
    }

    #[test]
    fn byoyomi_only_accepts_9_9_seconds_and_loses_at_10() {
        let c = clock("t-0-10");
        assert_eq!(c.charge(Color::Black, 9_900), 9);
        assert!(!c.is_time_up(Color::Black, 9));
        assert!(c.is_time_up(Color::Black, 10));
        assert_eq!(c.deadline_ms(Color::Black), Some(10_000));
    }

    #[test]
    fn main_time_then_byoyomi_does_not_accumulate() {
        let mut c = clock("t-60-10");
        assert_eq!(c.deadline_ms(Color::Black), Some(70_000));
        c.commit(Color::Black, 50);
        assert_eq!(c.remaining(Color::Black), 10);
        c.commit(Color::Black, 15);
        assert_eq!(c.remaining(Color::Black), 0);
        assert_eq!(c.deadline_ms(Color::Black), Some(10_000));
        c.commit(Color::Black, 9);
        assert_eq!(c.remaining(Color::Black), 0);
        assert_eq!(c.deadline_ms(Color::White), Some(70_000));
    }

    #[test]
    fn fischer_adds_the_increment_before_the_charge() {
        let mut c = clock("floodgate-300-10F");
        assert_eq!(c.deadline_ms(Color::Black), Some(310_000));
        c.commit(Color::Black, 25);
        assert_eq!(c.remaining(Color::Black), 285);
        c.commit(Color::Black, 3);
        assert_eq!(c.remaining(Color::Black), 292);
        // 292 + 10 − t ≤ 0 ⇔ t ≥ 302.
        assert!(!c.is_time_up(Color::Black, 301));
        assert!(c.is_time_up(Color::Black, 302));
    }

    #[test]
    fn stopwatch_rounds_down_to_whole_byoyomi() {
        let mut c = clock("t-600-060");
        assert_eq!(c.charge(Color::Black, 119_999), 60);
        assert_eq!(c.charge(Color::Black, 59_000), 0);
        c.commit(Color::Black, 540);
        assert!(!c.is_time_up(Color::Black, 0));
        assert!(c.is_time_up(Color::Black, 60));
        assert_eq!(c.deadline_ms(Color::Black), Some(60_000));
    }

    #[test]
    fn least_time_and_roundup() {
        let mut rule = GameName::parse("t-10-0").unwrap().time_rule();
        rule.least = 1;
        let c = Clock::new(rule.clone(), rule.clone(), false);
        assert_eq!(c.charge(Color::White, 200), 1);
        rule.least = 0;
        rule.roundup = true;
        let c = Clock::new(rule.clone(), rule, false);
        assert_eq!(c.charge(Color::White, 200), 1);
        assert_eq!(c.charge(Color::White, 0), 0);
        assert_eq!(c.deadline_ms(Color::White), Some(9_001));
    }

    #[test]
    fn unlimited_clock_never_runs_out() {
        let c = clock("t-0-0");
        assert!(!c.is_time_up(Color::Black, 1_000_000));
        assert_eq!(c.deadline_ms(Color::Black), None);
    }

    #[test]
    fn absurd_time_fields_saturate_instead_of_overflowing() {
        let mut rule = GameName::parse("t-10-0").unwrap().time_rule();
        rule.delay = u64::MAX;
        rule.increment = u64::MAX;
        rule.byoyomi = u64::MAX;
        rule.total = Some(u64::MAX);
        let mut c = Clock::new(rule.clone(), rule, false);
        assert_eq!(
            c.charge(Color::Black, 5_000),
            0,
            "the delay swallows any thinking time"
        );
        for _ in 0..3 {
            c.commit(Color::Black, 0);
        }
        assert!(c.remaining(Color::Black) > 0);
        assert!(!c.is_time_up(Color::Black, u64::MAX));
    }
}
