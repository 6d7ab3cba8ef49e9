//! The `BEGIN Game_Summary` … `END Game_Summary` block: written by a server, read line by
//! line by a client.

use kifu_shogi::{Color, Position};

use super::position_block::{PositionBlock, PositionBlockError};
use super::time_rule::TimeRule;

/// Clock settings: one `BEGIN Time` block for both sides, or `Time+` / `Time-` blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SummaryTime {
    /// One `BEGIN Time` block for both sides.
    Both(TimeRule),
    /// `BEGIN Time+` and `BEGIN Time-` (CSA server protocol 1.2.1): each side its own rule.
    PerSide {
        /// Black's rule (`Time+`).
        black: TimeRule,
        /// White's rule (`Time-`).
        white: TimeRule,
    },
}

impl SummaryTime {
    /// The rule `color` plays under.
    pub fn of(&self, color: Color) -> &TimeRule {
        match (self, color) {
            (SummaryTime::Both(t), _) => t,
            (SummaryTime::PerSide { black, .. }, Color::Black) => black,
            (SummaryTime::PerSide { white, .. }, Color::White) => white,
        }
    }
}

/// Everything a `Game_Summary` says. Unknown lines are kept in `extra`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// `Protocol_Version` (`1.2`).
    pub protocol_version: String,
    /// `Protocol_Mode` (`Server`).
    pub protocol_mode: String,
    /// `Format` (`Shogi 1.0`).
    pub format: String,
    /// `Declaration:Jishogi 1.1`, the rule `%KACHI` is judged by.
    pub declaration: Option<String>,
    /// `Game_ID`.
    pub game_id: String,
    /// `Name+`: Black's player.
    pub black: String,
    /// `Name-`: White's player.
    pub white: String,
    /// The recipient's colour.
    pub your_turn: Color,
    /// `Rematch_On_Draw:YES`.
    pub rematch_on_draw: bool,
    /// The side to move after the listed moves.
    pub to_move: Color,
    /// Ply limit including the listed moves; 0 = none.
    pub max_moves: u32,
    /// The `Time` blocks.
    pub time: SummaryTime,
    /// The `Position` block: the start and the moves already played.
    pub position: PositionBlock,
    /// Lines the reader does not know, kept as written.
    pub extra: Vec<String>,
}

impl GameSummary {
    /// A summary as shogi-server writes it, for an even game with no moves yet.
    pub fn new(game_id: &str, black: &str, white: &str, time: TimeRule) -> GameSummary {
        GameSummary {
            protocol_version: "1.2".to_owned(),
            protocol_mode: "Server".to_owned(),
            format: "Shogi 1.0".to_owned(),
            declaration: Some("Jishogi 1.1".to_owned()),
            game_id: game_id.to_owned(),
            black: black.to_owned(),
            white: white.to_owned(),
            your_turn: Color::Black,
            rematch_on_draw: false,
            to_move: Color::Black,
            max_moves: 0,
            time: SummaryTime::Both(time),
            position: PositionBlock::new(Position::startpos()),
            extra: Vec::new(),
        }
    }

    /// The copy for one player.
    pub fn for_player(&self, color: Color) -> GameSummary {
        GameSummary {
            your_turn: color,
            ..self.clone()
        }
    }

    /// The name of `color`'s player.
    pub fn name(&self, color: Color) -> &str {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The block's lines, `BEGIN Game_Summary` and `END Game_Summary` included.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![
            "BEGIN Game_Summary".to_owned(),
            format!("Protocol_Version:{}", self.protocol_version),
            format!("Protocol_Mode:{}", self.protocol_mode),
            format!("Format:{}", self.format),
        ];
        if let Some(d) = &self.declaration {
            out.push(format!("Declaration:{d}"));
        }
        out.push(format!("Game_ID:{}", self.game_id));
        out.push(format!("Name+:{}", self.black));
        out.push(format!("Name-:{}", self.white));
        out.push(format!("Your_Turn:{}", self.your_turn.csa_sign()));
        out.push(format!(
            "Rematch_On_Draw:{}",
            if self.rematch_on_draw { "YES" } else { "NO" }
        ));
        out.push(format!("To_Move:{}", self.to_move.csa_sign()));
        out.push(format!("Max_Moves:{}", self.max_moves));
        let mut block = |name: &str, rule: &TimeRule| {
            out.push(format!("BEGIN {name}"));
            out.extend(rule.lines());
            out.push(format!("END {name}"));
        };
        match &self.time {
            SummaryTime::Both(t) => block("Time", t),
            SummaryTime::PerSide { black, white } => {
                block("Time+", black);
                block("Time-", white);
            }
        }
        out.extend(self.extra.iter().cloned());
        out.push("BEGIN Position".to_owned());
        out.extend(self.position.lines());
        out.push("END Position".to_owned());
        out.push("END Game_Summary".to_owned());
        out
    }
}

/// What [`SummaryReader::push`] made of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The line is not part of a summary (the reader is idle).
    NotMine,
    /// The line was taken into the block being read.
    Taken,
    /// The block is complete.
    Done(Box<GameSummary>),
    /// The block is complete but unusable.
    Failed(SummaryError),
}

/// Why a complete `Game_Summary` block is unusable (CSA server protocol 1.2.1, Game_Summary).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SummaryError {
    /// A line of a `Time` block that is no known `Key:value`.
    #[error("bad time line `{0}`")]
    BadTimeLine(String),
    /// `Your_Turn` or `To_Move` is neither `+` nor `-`.
    #[error("{key}:{value} is neither + nor -")]
    BadSign {
        /// The field.
        key: &'static str,
        /// Its value.
        value: String,
    },
    /// A field the block must have.
    #[error("{0} is missing")]
    Missing(&'static str),
    /// The `Position` block does not read.
    #[error(transparent)]
    Position(#[from] PositionBlockError),
    /// `To_Move` names the side that is not to move in the position.
    #[error("To_Move:{} disagrees with the position, where {now} is to move", to_move.csa_sign())]
    ToMoveDisagrees {
        /// What `To_Move` says.
        to_move: Color,
        /// Who is to move in the position.
        now: Color,
    },
    /// `Max_Moves` is not a number.
    #[error("Max_Moves:{0} is not a number")]
    MaxMoves(String),
    /// Only one of the per-side blocks `Time+` and `Time-`.
    #[error("only one of Time+ and Time- is given")]
    OneSideTime,
}

#[derive(Clone, Debug, Default)]
enum Part {
    #[default]
    Idle,
    Head,
    Time(Option<Color>),
    Position,
}

/// Reads a `Game_Summary` block one line at a time, as it arrives.
#[derive(Clone, Debug, Default)]
pub struct SummaryReader {
    part: Part,
    fields: Vec<(String, String)>,
    time_both: Option<TimeRule>,
    time_side: [Option<TimeRule>; 2],
    position: Vec<String>,
    extra: Vec<String>,
    problems: Vec<SummaryError>,
}

impl SummaryReader {
    /// A reader waiting for `BEGIN Game_Summary`.
    pub fn new() -> SummaryReader {
        SummaryReader::default()
    }

    /// Whether a block has been opened and not yet closed.
    pub fn is_reading(&self) -> bool {
        !matches!(self.part, Part::Idle)
    }

    /// Takes one line (a trailing CR is dropped).
    pub fn push(&mut self, line: &str) -> Step {
        let line = line.strip_suffix('\r').unwrap_or(line);
        match &self.part {
            Part::Idle => {
                if line == "BEGIN Game_Summary" {
                    *self = SummaryReader {
                        part: Part::Head,
                        ..SummaryReader::default()
                    };
                    Step::Taken
                } else {
                    Step::NotMine
                }
            }
            Part::Head => self.head(line),
            Part::Time(side) => {
                let side = *side;
                let name = match side {
                    None => "END Time",
                    Some(Color::Black) => "END Time+",
                    Some(Color::White) => "END Time-",
                };
                if line == name {
                    self.part = Part::Head;
                    return Step::Taken;
                }
                let rule = match side {
                    None => self.time_both.get_or_insert_with(TimeRule::default),
                    Some(c) => self.time_side[c.index()].get_or_insert_with(TimeRule::default),
                };
                let ok = line.split_once(':').is_some_and(|(k, v)| rule.apply(k, v));
                if !ok {
                    self.problems
                        .push(SummaryError::BadTimeLine(line.to_owned()));
                }
                Step::Taken
            }
            Part::Position => {
                if line == "END Position" {
                    self.part = Part::Head;
                } else {
                    self.position.push(line.to_owned());
                }
                Step::Taken
            }
        }
    }

    fn head(&mut self, line: &str) -> Step {
        match line {
            "END Game_Summary" => {
                self.part = Part::Idle;
                match self.finish() {
                    Ok(s) => Step::Done(Box::new(s)),
                    Err(e) => Step::Failed(e),
                }
            }
            "BEGIN Time" => {
                self.part = Part::Time(None);
                Step::Taken
            }
            "BEGIN Time+" => {
                self.part = Part::Time(Some(Color::Black));
                Step::Taken
            }
            "BEGIN Time-" => {
                self.part = Part::Time(Some(Color::White));
                Step::Taken
            }
            "BEGIN Position" => {
                self.part = Part::Position;
                Step::Taken
            }
            _ => {
                match line.split_once(':') {
                    Some((k, v)) if KNOWN.contains(&k) => {
                        self.fields.push((k.to_owned(), v.to_owned()))
                    }
                    _ => self.extra.push(line.to_owned()),
                }
                Step::Taken
            }
        }
    }

    fn field(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn finish(&mut self) -> Result<GameSummary, SummaryError> {
        if let Some(p) = self.problems.first() {
            return Err(p.clone());
        }
        let sign = |key: &'static str| -> Result<Color, SummaryError> {
            match self.field(key) {
                Some("+") => Ok(Color::Black),
                Some("-") => Ok(Color::White),
                Some(v) => Err(SummaryError::BadSign {
                    key,
                    value: v.to_owned(),
                }),
                None => Err(SummaryError::Missing(key)),
            }
        };
        let your_turn = sign("Your_Turn")?;
        let position = PositionBlock::parse(&self.position)?;
        let now = position.current().turn();
        let to_move = match self.field("To_Move") {
            None => now,
            Some(_) => sign("To_Move")?,
        };
        if to_move != now {
            return Err(SummaryError::ToMoveDisagrees { to_move, now });
        }
        let max_moves = match self.field("Max_Moves") {
            None => 0,
            Some(v) => v
                .parse()
                .map_err(|_| SummaryError::MaxMoves(v.to_owned()))?,
        };
        let time = match (&self.time_both, &self.time_side) {
            (_, [Some(b), Some(w)]) => SummaryTime::PerSide {
                black: b.clone(),
                white: w.clone(),
            },
            (Some(t), _) => SummaryTime::Both(t.clone()),
            (None, [None, None]) => SummaryTime::Both(TimeRule::default()),
            _ => return Err(SummaryError::OneSideTime),
        };
        let text = |key: &str, default: &str| self.field(key).unwrap_or(default).to_owned();
        Ok(GameSummary {
            protocol_version: text("Protocol_Version", ""),
            protocol_mode: text("Protocol_Mode", "Server"),
            format: text("Format", "Shogi 1.0"),
            declaration: self.field("Declaration").map(str::to_owned),
            game_id: self
                .field("Game_ID")
                .ok_or(SummaryError::Missing("Game_ID"))?
                .to_owned(),
            black: text("Name+", ""),
            white: text("Name-", ""),
            your_turn,
            rematch_on_draw: self.field("Rematch_On_Draw") == Some("YES"),
            to_move,
            max_moves,
            time,
            position,
            extra: std::mem::take(&mut self.extra),
        })
    }
}

const KNOWN: [&str; 12] = [
    "Protocol_Version",
    "Protocol_Mode",
    "Format",
    "Declaration",
    "Game_ID",
    "Name+",
    "Name-",
    "Your_Turn",
    "Rematch_On_Draw",
    "To_Move",
    "Max_Moves",
    "Move_Order",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server_protocol::time_rule::TimeUnit;

    fn read(text: &str) -> Step {
        let mut r = SummaryReader::new();
        let mut last = Step::NotMine;
        for line in text.lines() {
            last = r.push(line);
        }
        last
    }

    const FLOODGATE: &str = "\
BEGIN Game_Summary
Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:wdoor+floodgate-300-10F+alice+bob+20211105220005
Name+:alice
Name-:bob
Your_Turn:-
Rematch_On_Draw:NO
To_Move:+
Max_Moves:256
BEGIN Time
Time_Unit:1sec
Total_Time:300
Byoyomi:0
Increment:10
Least_Time_Per_Move:0
END Time
BEGIN Position
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
END Position
END Game_Summary";

    #[test]
    fn shogi_server_summary_reads_and_writes_back_identically() {
        let Step::Done(s) = read(FLOODGATE) else {
            panic!("not read")
        };
        assert_eq!(s.your_turn, Color::White);
        assert_eq!(s.max_moves, 256);
        let t = s.time.of(Color::Black);
        assert_eq!(
            (t.total, t.byoyomi, t.increment, t.least),
            (Some(300), 0, 10, 0)
        );
        assert_eq!(s.lines().join("\n"), FLOODGATE);
    }

    #[test]
    fn spec_form_with_per_side_time_and_moves() {
        let text = "BEGIN Game_Summary\nProtocol_Version:1.2.1\nGame_ID:20150505-CSA25-3-5-7\n\
Name+:a\nName-:b\nYour_Turn:+\nTo_Move:-\nBEGIN Time+\nTime_Unit:100msec\nTotal_Time:6000\n\
Delay:10\nTime_Roundup:YES\nEND Time+\nBEGIN Time-\nTime_Unit:1min\nTotal_Time:10\nByoyomi:1\n\
END Time-\nSome_Future_Key:1\nBEGIN Position\nPI\n+\n+2726FU,T12\nEND Position\nEND Game_Summary";
        let Step::Done(s) = read(text) else {
            panic!("not read")
        };
        let b = s.time.of(Color::Black);
        assert_eq!(b.unit, TimeUnit::parse("100msec").unwrap());
        assert_eq!((b.total, b.delay, b.roundup), (Some(6000), 10, true));
        assert_eq!(s.time.of(Color::White).unit.millis(), 60_000);
        assert_eq!(s.position.moves.len(), 1);
        assert_eq!(s.extra, ["Some_Future_Key:1"]);
        assert_eq!(s.max_moves, 0);
        let mut again = SummaryReader::new();
        let mut last = Step::NotMine;
        for l in s.lines() {
            last = again.push(&l);
        }
        assert_eq!(last, Step::Done(s));
    }

    #[test]
    fn every_time_field_in_per_side_blocks() {
        let blocks = "BEGIN Time+\nTime_Unit:1sec\nTotal_Time:600\nByoyomi:10\nIncrement:0\n\
Delay:0\nLeast_Time_Per_Move:1\nTime_Roundup:NO\nEND Time+\nBEGIN Time-\nTime_Unit:500msec\n\
Total_Time:600\nByoyomi:0\nIncrement:20\nDelay:4\nLeast_Time_Per_Move:0\nTime_Roundup:YES\n\
END Time-\n";
        let text = FLOODGATE.replace(
            "BEGIN Time\nTime_Unit:1sec\nTotal_Time:300\nByoyomi:0\nIncrement:10\n\
Least_Time_Per_Move:0\nEND Time\n",
            blocks,
        );
        assert_ne!(text, FLOODGATE);
        let Step::Done(s) = read(&text) else {
            panic!("not read")
        };
        let (b, w) = (s.time.of(Color::Black), s.time.of(Color::White));
        assert_eq!(b.unit.millis(), 1000);
        assert_eq!(
            (b.total, b.byoyomi, b.increment, b.delay, b.least, b.roundup),
            (Some(600), 10, 0, 0, 1, false)
        );
        assert_eq!(w.unit.millis(), 500);
        assert_eq!(
            (w.total, w.byoyomi, w.increment, w.delay, w.least, w.roundup),
            (Some(600), 0, 20, 4, 0, true)
        );
        // Absent fields take the spec's defaults: unlimited, no byoyomi, 1 s units.
        let bare = FLOODGATE.replace(
            "Time_Unit:1sec\nTotal_Time:300\nByoyomi:0\nIncrement:10\nLeast_Time_Per_Move:0\n",
            "",
        );
        let Step::Done(s) = read(&bare) else {
            panic!("not read")
        };
        assert_eq!(s.time, SummaryTime::Both(TimeRule::default()));
        assert!(s.time.of(Color::White).is_unlimited());
        let half = FLOODGATE
            .replace("BEGIN Time\n", "BEGIN Time+\n")
            .replace("END Time\n", "END Time+\n");
        assert!(matches!(read(&half), Step::Failed(e) if e.to_string().contains("Time-")));
    }

    #[test]
    fn inconsistent_blocks_fail_with_a_reason() {
        let bad_turn = FLOODGATE.replace("To_Move:+", "To_Move:-");
        assert!(matches!(read(&bad_turn), Step::Failed(e) if e.to_string().contains("To_Move")));
        let no_id = FLOODGATE.replace("Game_ID:", "Game_Id:");
        assert!(matches!(read(&no_id), Step::Failed(e) if e.to_string().contains("Game_ID")));
        let bad_time = FLOODGATE.replace("Total_Time:300", "Total_Time:lots");
        assert!(matches!(read(&bad_time), Step::Failed(_)));
    }

    #[test]
    fn lines_outside_a_block_are_not_taken() {
        let mut r = SummaryReader::new();
        assert_eq!(r.push("LOGIN:alice OK"), Step::NotMine);
        assert_eq!(r.push("BEGIN Game_Summary"), Step::Taken);
        assert!(r.is_reading());
    }
}
