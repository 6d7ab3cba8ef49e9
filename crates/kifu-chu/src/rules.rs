//! Rule sets: lishogi (the default, as the CSL plays) and JCSA over-the-board rules.
//!
//! Every difference between the two is one field of [`RuleSet`], so a caller can also mix them.

/// Which rules a position is played under.
///
/// ```
/// use kifu_chu::{Position, RuleSet};
///
/// let rules: RuleSet = "jcsa".parse().unwrap();
/// assert_eq!(rules, RuleSet::JCSA);
/// assert!(rules.checkmate_wins && !RuleSet::LISHOGI.checkmate_wins);
///
/// let pos = Position::startpos().with_rules(rules);
/// assert_eq!(pos.rules().to_string(), "jcsa");
/// assert_eq!(Position::startpos().rules(), RuleSet::default());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// Counter-strike (先獅子): after a non-lion captured a lion, may the opponent's non-lion
    /// pieces capture a lion only when it is unprotected (JCSA), instead of never except on the
    /// square of the capture (lishogi)?
    pub counter_strike_only_if_protected: bool,
    /// Does a lion captured on the first step of a horned falcon's or soaring eagle's double move
    /// start the counter-strike rule (JCSA), or only a lion captured on the final square
    /// (lishogi's server)?
    pub counter_strike_from_first_step: bool,
    /// May a lance that moves to the last rank without capturing, inside the zone, promote like a
    /// pawn (lishogi), or is it left there as a dead piece (JCSA)?
    pub lance_promotes_on_last_rank: bool,
    /// lishogi's bare-king rule (a side left with only its royal loses); JCSA instead gives the
    /// win to the side holding the only other piece when just the two kings and one piece remain.
    pub lishogi_bare_king: bool,
    /// lishogi's draw when only the two royals remain, and its loss for a side without legal moves.
    pub lishogi_draw_and_stalemate: bool,
    /// Checkmate wins as well as capturing the royals (JCSA).
    pub checkmate_wins: bool,
    /// Repetition: instead of lishogi's draw on the fourth occurrence, the player who initiates
    /// the repetition may not produce a fourth occurrence (JCSA).
    pub initiator_must_deviate: bool,
}

impl RuleSet {
    /// lishogi's rules (the default).
    pub const LISHOGI: RuleSet = RuleSet {
        counter_strike_only_if_protected: false,
        counter_strike_from_first_step: false,
        lance_promotes_on_last_rank: true,
        lishogi_bare_king: true,
        lishogi_draw_and_stalemate: true,
        checkmate_wins: false,
        initiator_must_deviate: false,
    };

    /// The rules of the Japan Chu Shogi Association (日本中将棋連盟).
    pub const JCSA: RuleSet = RuleSet {
        counter_strike_only_if_protected: true,
        counter_strike_from_first_step: true,
        lance_promotes_on_last_rank: false,
        lishogi_bare_king: false,
        lishogi_draw_and_stalemate: false,
        checkmate_wins: true,
        initiator_must_deviate: true,
    };

    /// Looks a rule set up by name: `lishogi` or `jcsa` (see the [`std::str::FromStr`] impl).
    pub fn from_name(name: &str) -> Option<RuleSet> {
        name.parse().ok()
    }

    /// `lishogi` or `jcsa` for the two named rule sets, `None` for a mixture.
    pub fn name(self) -> Option<&'static str> {
        if self == RuleSet::LISHOGI {
            Some("lishogi")
        } else if self == RuleSet::JCSA {
            Some("jcsa")
        } else {
            None
        }
    }
}

impl std::fmt::Display for RuleSet {
    /// The name of a named rule set, `custom` for a mixture.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name().unwrap_or("custom"))
    }
}

/// A text that names no rule set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule set `{0}` (expected `lishogi` or `jcsa`)")]
pub struct UnknownRuleSet(pub String);

impl std::str::FromStr for RuleSet {
    type Err = UnknownRuleSet;

    fn from_str(name: &str) -> Result<RuleSet, UnknownRuleSet> {
        match name.to_ascii_lowercase().as_str() {
            "lishogi" | "default" => Ok(RuleSet::LISHOGI),
            "jcsa" => Ok(RuleSet::JCSA),
            _ => Err(UnknownRuleSet(name.to_owned())),
        }
    }
}

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::LISHOGI
    }
}
