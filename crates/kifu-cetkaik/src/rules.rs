//! Rule variants as configuration: each known difference is one switch.

/// How a futile 皇 move (皇再来 or 皇無行) is treated.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FutileMove {
    /// Not a legal move.
    Forbidden,
    /// Legal and free.
    Allowed,
    /// Legal; costs the given points and counts as making a hand (triggers 再行/終季).
    PenaltyHand(i32),
}

/// What stepping on 皇 (撃皇) costs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StepOnTam {
    /// The mover loses the points at once (times the rate); no declaration follows.
    ImmediatePenalty(i32),
    /// Counts as making a hand worth the (negative) points.
    PenaltyHand(i32),
}

/// What a player must announce before a ranged throw; records cannot show it, it is kept
/// so that a configuration says everything a rule says.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Announcement {
    /// Nothing.
    Nothing,
    /// The direction of the move.
    Direction,
    /// The exact destination.
    ExactDestination,
}

/// One rule set. Use [`Rules::standard`], [`Rules::cerke_online`] or [`Rules::hard_tam`].
///
/// ```
/// use kifu_cetkaik::Rules;
///
/// let rules = Rules::by_name("硬皇力").unwrap();
/// assert_eq!(rules, Rules::hard_tam());
/// assert_eq!((rules.king_hand_points, Rules::standard().king_hand_points), (3, 5));
/// assert_eq!(Rules::standard().seasons, 4);
/// assert!(Rules::by_name("chess").is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    /// Short name, as the `{律:…}` header would carry it.
    pub name: &'static str,
    /// 皇's own square is tam2 hue (matters when a piece steps on 皇).
    pub tam_itself_is_tam_hue: bool,
    /// The eight squares around 皇 are tam2 hue. Off in 硬皇力: spec example 3 (`ME弓MIMU四`
    /// with 皇 on CE) is legal only so (unverified beyond that move).
    pub tam_hue_around_tam: bool,
    /// What stepping on 皇 (撃皇) costs.
    pub step_on_tam: StepOnTam,
    /// 皇再来: moving 皇 right after the opponent moved it.
    pub tam_moved_again: FutileMove,
    /// 皇無行: a 皇 move that ends where it started.
    pub tam_returns: FutileMove,
    /// A failed throw cancels a 撃皇 incurred on the way.
    pub failed_move_exempts_step_on_tam: bool,
    /// 再行 doubles the rate (up to ×64).
    pub rate_doubles: bool,
    /// Points of the hand 王.
    pub king_hand_points: i32,
    /// The score written in a hand line is the named hands' value, not the rate-multiplied total.
    pub declared_score_is_named_hands: bool,
    /// 車 moves any distance diagonally, inside tam2 hue or not (硬皇力 records; unverified
    /// beyond the four 車 moves in them).
    pub chariot_ranged_diagonal: bool,
    /// A player may leave a hand undeclared and just go on (硬皇力 records do).
    pub declaration_optional: bool,
    /// 終季 scores the hands declared during the season, not every hand held.
    pub gain_from_declared_hands: bool,
    /// Seasons in a game.
    pub seasons: u8,
    /// How a hand is announced.
    pub announcement: Announcement,
}

impl Rules {
    /// 官定 y1 huap1, the standardized rule (strict reading).
    pub const fn standard() -> Rules {
        Rules {
            name: "官定",
            tam_itself_is_tam_hue: false,
            tam_hue_around_tam: true,
            step_on_tam: StepOnTam::PenaltyHand(-5),
            tam_moved_again: FutileMove::PenaltyHand(-3),
            tam_returns: FutileMove::PenaltyHand(-3),
            failed_move_exempts_step_on_tam: false,
            rate_doubles: true,
            king_hand_points: 5,
            declared_score_is_named_hands: false,
            chariot_ranged_diagonal: false,
            declaration_optional: false,
            gain_from_declared_hands: false,
            seasons: 4,
            announcement: Announcement::ExactDestination,
        }
    }

    /// What cerke_online implements.
    pub const fn cerke_online() -> Rules {
        Rules {
            name: "cerke_online",
            tam_itself_is_tam_hue: true,
            step_on_tam: StepOnTam::ImmediatePenalty(-5),
            tam_moved_again: FutileMove::Forbidden,
            tam_returns: FutileMove::Allowed,
            announcement: Announcement::Direction,
            ..Rules::standard()
        }
    }

    /// 硬皇力 pek1 tam2 py, the 2018 house rule, as far as its records show (`fedirrgavir/001`,
    /// `004`): 王 scores 3; 再行 does not double; a hand may go undeclared; 終季 scores the
    /// hands declared in the season and a hand line states their value; 車 moves any distance
    /// diagonally. Everything else follows [`Rules::standard`] (unverified).
    pub const fn hard_tam() -> Rules {
        Rules {
            name: "硬皇力",
            rate_doubles: false,
            king_hand_points: 3,
            declared_score_is_named_hands: true,
            chariot_ranged_diagonal: true,
            tam_hue_around_tam: false,
            declaration_optional: true,
            gain_from_declared_hands: true,
            ..Rules::standard()
        }
    }

    /// The rule set a `{律:…}` value names.
    pub fn by_name(name: &str) -> Option<Rules> {
        match name.trim() {
            "官定" | "y1 huap1" | "standard" => Some(Rules::standard()),
            "cerke_online" | "cerke-online" | "online" => Some(Rules::cerke_online()),
            "硬皇力" | "pek1 tam2 py" | "hard-tam" => Some(Rules::hard_tam()),
            _ => None,
        }
    }
}

/// A name that is no known rule set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a known cetkaik rule set (官定 / standard, cerke_online, 硬皇力 / hard-tam)")]
pub struct UnknownRules(pub String);

impl std::str::FromStr for Rules {
    type Err = UnknownRules;

    fn from_str(s: &str) -> Result<Rules, UnknownRules> {
        Rules::by_name(s).ok_or_else(|| UnknownRules(s.to_owned()))
    }
}

impl std::fmt::Display for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::standard()
    }
}
