//! Writing CSA V2.2 or V3.0.

use kifu_shogi::ShogiEnding;
use std::fmt::Write as _;

use kifu_record::{
    Comment, CommentKind, DateTime, EndingKind, HeaderEntry, HeaderField, NodeId, NodeItem, Side,
    TimeControl,
};

use super::setup::even_position;
use crate::shogi::{ShogiRecord, Written, side_of};
use kifu_shogi::{Color, Handicap, Move, PieceKind, Position, Square};

/// The CSA edition to write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CsaVersion {
    /// V2.2 (2008): whole-second times, `$TIME_LIMIT`, no `'*` comments in the spec
    /// (they are written anyway as plain `'` comments to programs that do not know them).
    V22,
    /// V3.0 (2024): encoding line, `$TIME`, millisecond times, `'*` and `'**` comments.
    #[default]
    V30,
}

impl CsaVersion {
    /// The version as its version line writes it, without the `V`.
    pub const fn number(self) -> &'static str {
        match self {
            CsaVersion::V22 => "2.2",
            CsaVersion::V30 => "3.0",
        }
    }
}

/// A CSA version kifu does not write (it writes `2.2` and `3.0`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a CSA version kifu writes (2.2 or 3.0)")]
pub struct UnknownCsaVersion(pub String);

/// Accepts `2.2`, `V2.2`, `22`, and the same for 3.0.
///
/// ```
/// use kifu_records::shogi::csa::CsaVersion;
///
/// assert_eq!("V2.2".parse::<CsaVersion>().unwrap(), CsaVersion::V22);
/// assert_eq!("3.0".parse::<CsaVersion>().unwrap(), CsaVersion::V30);
/// assert_eq!(CsaVersion::V30.to_string(), "3.0");
/// assert!("2.1".parse::<CsaVersion>().is_err());
/// ```
impl std::str::FromStr for CsaVersion {
    type Err = UnknownCsaVersion;

    fn from_str(s: &str) -> Result<CsaVersion, UnknownCsaVersion> {
        match s.strip_prefix(['V', 'v']).unwrap_or(s) {
            "2.2" | "22" => Ok(CsaVersion::V22),
            "3.0" | "30" | "3" => Ok(CsaVersion::V30),
            _ => Err(UnknownCsaVersion(s.to_owned())),
        }
    }
}

impl std::fmt::Display for CsaVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.number())
    }
}

/// Writes one record. Variations, bookmarks and whatever else CSA cannot hold are listed in
/// the warnings; header keys CSA has no line for are kept as `'` comments.
pub fn write(record: &ShogiRecord, version: CsaVersion) -> Written {
    let mut w = Writer {
        out: String::with_capacity(64 + record.moves.len() * 16),
        warnings: Vec::new(),
        version,
        truncated_times: 0,
    };
    if version == CsaVersion::V30 {
        w.out.push_str("'CSA encoding=UTF-8\n");
    }
    w.out.push('V');
    w.out.push_str(version.number());
    w.out.push('\n');
    w.header(record);
    w.position(record);
    w.moves(record);
    if w.truncated_times > 0 {
        w.warnings.push(format!(
            "{} time(s) had milliseconds; CSA V2.2 holds whole seconds, the fractions were dropped",
            w.truncated_times
        ));
    }
    Written {
        text: w.out,
        warnings: w.warnings,
    }
}

/// Writes several records separated by `/` lines (the encoding line only at the top).
pub fn write_all(records: &[ShogiRecord], version: CsaVersion) -> Written {
    write_from(records, version, 0, records.len() > 1)
}

/// `records` as the part of a CSA file after its first `before` records; `several` when the
/// file holds more than one (its warnings then name the record).
pub(crate) fn write_from(
    records: &[ShogiRecord],
    version: CsaVersion,
    before: usize,
    several: bool,
) -> Written {
    let mut all = Written::default();
    for (i, record) in (before..).zip(records) {
        let mut one = write(record, version);
        if i > 0 {
            all.text.push_str("/\n");
            if let Some(rest) = one.text.strip_prefix("'CSA encoding=UTF-8\n") {
                one.text = rest.to_owned();
            }
        }
        all.text.push_str(&one.text);
        all.warnings.extend(one.warnings.into_iter().map(|w| {
            if several {
                format!("record {}: {w}", i + 1)
            } else {
                w
            }
        }));
    }
    all
}

struct Writer {
    out: String,
    warnings: Vec<String>,
    version: CsaVersion,
    /// Times with a fraction of a second written as whole seconds (V2.2).
    truncated_times: u32,
}

/// One physical line: CSA has no way to continue a line.
fn one_line(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

fn is_csa_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b"_+-".contains(&b))
}

impl Writer {
    fn line(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn header(&mut self, record: &ShogiRecord) {
        let v3 = self.version == CsaVersion::V30;
        // The names come first, `N+` before `N-`, as in the V2.2 example: json-kifu-format's
        // grammar (Kifu for JS) rejects `N+` after a `$` line.
        let entries = record.header.entries();
        let first = entries
            .iter()
            .position(|e| e.field == Some(HeaderField::FirstPlayer));
        let second = entries
            .iter()
            .position(|e| e.field == Some(HeaderField::SecondPlayer));
        for (index, sign) in [(first, '+'), (second, '-')] {
            if let Some(i) = index {
                self.line(&format!("N{sign}{}", one_line(&entries[i].value)));
            }
        }
        for (i, entry) in entries.iter().enumerate() {
            if Some(i) == first || Some(i) == second {
                continue;
            }
            let value = one_line(&entry.value);
            let key = match entry.field {
                Some(HeaderField::Event) => "EVENT",
                Some(HeaderField::Site) => "SITE",
                Some(HeaderField::Opening) => "OPENING",
                Some(HeaderField::StartTime | HeaderField::EndTime) => {
                    let key = if entry.field == Some(HeaderField::StartTime) {
                        "START_TIME"
                    } else {
                        "END_TIME"
                    };
                    match DateTime::parse(&value) {
                        Some(d) => self.line(&format!("${key}:{d}")),
                        None => self.as_comment(entry, "not a date CSA can hold"),
                    }
                    continue;
                }
                Some(HeaderField::TimeControl) => {
                    self.time_control(entry, "TIME");
                    continue;
                }
                Some(HeaderField::FirstTimeControl) if v3 => {
                    self.time_control(entry, "TIME+");
                    continue;
                }
                Some(HeaderField::SecondTimeControl) if v3 => {
                    self.time_control(entry, "TIME-");
                    continue;
                }
                Some(HeaderField::MaxMoves) if v3 => "MAX_MOVES",
                Some(HeaderField::Rules) if v3 => "JISHOGI",
                Some(HeaderField::Note) if v3 => {
                    let escaped = entry.value.replace('\\', "\\\\").replace('\n', "\\n");
                    self.line(&format!("$NOTE:{}", escaped.replace('\r', "")));
                    continue;
                }
                // The start position says it.
                Some(HeaderField::Handicap) => continue,
                None if is_csa_key(&entry.key) => entry.key.as_str(),
                _ => {
                    self.as_comment(entry, "");
                    continue;
                }
            };
            self.line(&format!("${key}:{value}"));
        }
    }

    fn as_comment(&mut self, entry: &HeaderEntry, why: &str) {
        self.line(&format!(
            "'{}:{}",
            one_line(&entry.key),
            one_line(&entry.value)
        ));
        if !why.is_empty() {
            self.warnings
                .push(format!("header `{}` kept as a comment: {why}", entry.key));
        }
    }

    fn time_control(&mut self, entry: &HeaderEntry, v3_key: &str) {
        if entry.key == "TIME_LIMIT" && TimeControl::parse_time_limit(&entry.value).is_some() {
            self.line(&format!("$TIME_LIMIT:{}", entry.value));
            return;
        }
        let Some(tc) = TimeControl::parse(&entry.value) else {
            self.as_comment(entry, "not a time control CSA can hold");
            return;
        };
        match self.version {
            // A value read from this very key is written back as it was (`150+00+10` stays
            // so); only a value from another format is written in kifu's own spelling.
            CsaVersion::V30 if entry.key == v3_key => {
                self.line(&format!("${v3_key}:{}", one_line(&entry.value)))
            }
            CsaVersion::V30 => self.line(&format!("${v3_key}:{}", tc.to_csa_time())),
            CsaVersion::V22 => match tc.to_time_limit() {
                Some(limit) if v3_key == "TIME" => self.line(&format!("$TIME_LIMIT:{limit}")),
                _ => self.as_comment(entry, "V2.2 cannot express this time control"),
            },
        }
    }

    fn position(&mut self, record: &ShogiRecord) {
        let start = &record.start;
        match start.handicap {
            Some(h) if start.position.turn() == h.first_to_move() => {
                let mut line = String::from("PI");
                let even = even_position();
                let pos = &start.position;
                for sq in Square::all() {
                    if let Some(p) = even.piece_at(sq)
                        && pos.piece_at(sq).is_none()
                    {
                        let _ = write!(line, "{}{}{}", sq.file(), sq.rank(), p.kind.csa());
                    }
                }
                self.line(&line);
                debug_assert!(h == Handicap::Even || line.len() > 2);
            }
            _ => self.board(&start.position),
        }
        // A start taken from a diagram after N moves (KIF's `手数＝N`, SFEN's move number):
        // CSA has no line for it.
        let move_number = start.position.move_number();
        if move_number > 1 {
            self.warnings.push(format!(
                "CSA cannot say that the start is the position after {} moves; readers number \
                 its moves from 1",
                move_number - 1
            ));
        }
        self.line(match start.position.turn() {
            Color::Black => "+",
            Color::White => "-",
        });
        let root = &record.moves[record.moves.root()];
        self.comments(root);
    }

    fn board(&mut self, pos: &Position) {
        write_board(&mut self.out, pos);
    }

    fn comments(&mut self, node: &kifu_record::Node<Move, ShogiEnding>) {
        for c in node.comments() {
            let marker = match c.kind {
                CommentKind::Hidden => "'",
                CommentKind::Text => "'*",
                CommentKind::Engine => "'**",
            };
            let gap = match c.kind {
                CommentKind::Engine => Comment::engine_gap(&c.text),
                _ => "",
            };
            for line in c.text.lines() {
                self.out.push_str(marker);
                self.out.push_str(gap);
                self.out.push_str(line);
                self.out.push('\n');
            }
            if c.text.is_empty() {
                self.line(marker.trim_end());
            }
        }
        if !node.bookmarks().is_empty() {
            let names: Vec<_> = node.bookmarks().iter().map(|b| b.name.as_str()).collect();
            self.warnings.push(format!(
                "ply {}: bookmark(s) {} dropped: CSA has no bookmarks",
                node.ply(),
                names.join(", ")
            ));
        }
    }

    fn time(&mut self, ms: Option<u64>) {
        let Some(ms) = ms else { return };
        let _ = match self.version {
            CsaVersion::V22 => {
                if ms % 1000 != 0 {
                    self.truncated_times += 1;
                }
                writeln!(self.out, "T{}", ms / 1000)
            }
            CsaVersion::V30 if ms % 1000 == 0 => writeln!(self.out, "T{}", ms / 1000),
            CsaVersion::V30 => {
                let frac = format!("{:03}", ms % 1000);
                writeln!(self.out, "T{}.{}", ms / 1000, frac.trim_end_matches('0'))
            }
        };
    }

    fn moves(&mut self, record: &ShogiRecord) {
        let tree = &record.moves;
        let mut pos = record.start.position.clone();
        let mut id: NodeId = tree.root();
        let mut variations = tree.variations(id).count();
        while let Some(next) = tree.main_child(id) {
            id = next;
            variations += tree.variations(id).count();
            let node = &tree[id];
            match &node.item {
                NodeItem::Start => {}
                NodeItem::Move(mv) => {
                    let code = self.move_code(&pos, *mv, node.ply());
                    self.line(&code);
                    if !node.illegal {
                        pos.play_unchecked(*mv);
                    }
                }
                NodeItem::End(kind) => {
                    let mover = side_of(pos.turn());
                    self.ending(kind, mover, node.ply());
                }
            }
            self.time(node.time_ms());
            self.comments(node);
        }
        if variations > 0 {
            self.warnings.push(format!(
                "{variations} variation(s) dropped: CSA holds only the main line"
            ));
        }
    }

    fn move_code(&mut self, pos: &Position, mv: Move, ply: u32) -> String {
        let sign = pos.turn().csa_sign();
        let to = mv.to();
        let (from, kind) = match mv.from() {
            None => ((0, 0), mv.drop_kind().unwrap_or(PieceKind::Pawn)),
            Some(from) => {
                let base = match pos.piece_at(from) {
                    Some(p) => p.kind,
                    None => {
                        self.warnings.push(format!(
                            "ply {ply}: the illegal move from the empty square {}{} is written as a pawn move",
                            from.file(),
                            from.rank()
                        ));
                        PieceKind::Pawn
                    }
                };
                let kind = if mv.is_promotion() {
                    base.promote().unwrap_or(base)
                } else {
                    base
                };
                ((from.file(), from.rank()), kind)
            }
        };
        format!(
            "{sign}{}{}{}{}{}",
            from.0,
            from.1,
            to.file(),
            to.rank(),
            kind.csa()
        )
    }

    fn ending(&mut self, kind: &EndingKind<ShogiEnding>, mover: Side, ply: u32) {
        let v3 = self.version == CsaVersion::V30;
        let token: String = match kind {
            EndingKind::Resign => "TORYO".into(),
            EndingKind::Abort => "CHUDAN".into(),
            EndingKind::Repetition => "SENNICHITE".into(),
            EndingKind::Game(ShogiEnding::Impasse) => "JISHOGI".into(),
            EndingKind::Checkmate => "TSUMI".into(),
            EndingKind::NoCheckmate => "FUZUMI".into(),
            EndingKind::Error => "ERROR".into(),
            EndingKind::TakeBack => {
                if v3 {
                    self.warnings.push(format!(
                        "ply {ply}: %MATTA was removed in V3.0; written anyway"
                    ));
                }
                "MATTA".into()
            }
            EndingKind::Game(ShogiEnding::DeclareWin) => "KACHI".into(),
            EndingKind::Game(ShogiEnding::DeclareDraw) => "HIKIWAKE".into(),
            EndingKind::TimeLoss => "TIME_UP".into(),
            EndingKind::IllegalMoveLoss => "ILLEGAL_MOVE".into(),
            EndingKind::IllegalAction(side) => format!("{}ILLEGAL_ACTION", sign(*side)),
            // The previous move was illegal: its mover, the mover's opponent, acted illegally.
            EndingKind::IllegalMoveWin => format!("{}ILLEGAL_ACTION", sign(mover.opponent())),
            EndingKind::MaxMoves if v3 => "MAX_MOVES".into(),
            EndingKind::Unknown(word)
                if !word.is_empty()
                    && word
                        .bytes()
                        .all(|b| b.is_ascii_uppercase() || b"_+-".contains(&b)) =>
            {
                word.clone()
            }
            other => {
                let fallback = if matches!(other, EndingKind::Sealed) {
                    "CHUDAN"
                } else {
                    ""
                };
                self.warnings.push(format!(
                    "ply {ply}: the ending {other} has no CSA special{}",
                    if fallback.is_empty() {
                        "; kept as a comment".to_owned()
                    } else {
                        format!("; written as %{fallback}")
                    }
                ));
                if fallback.is_empty() {
                    self.line(&format!("'{other}"));
                    return;
                }
                fallback.into()
            }
        };
        self.line(&format!("%{token}"));
    }
}

/// `P1`…`P9` rows and the `P+`/`P-` hand lines of a position (CSA standard, "開始局面": the
/// one-line-per-rank form).
fn write_board(out: &mut String, pos: &Position) {
    for rank in 1..=9 {
        let _ = write!(out, "P{rank}");
        for file in (1..=9).rev() {
            let sq = Square::new(file, rank).expect("in range");
            match pos.piece_at(sq) {
                Some(p) => {
                    out.push(p.color.csa_sign());
                    out.push_str(p.kind.csa());
                }
                None => out.push_str(" * "),
            }
        }
        out.push('\n');
    }
    for color in Color::ALL {
        let hand = pos.hand(color);
        if hand.is_empty() {
            continue;
        }
        let _ = write!(out, "P{}", color.csa_sign());
        for (kind, n) in hand.iter() {
            for _ in 0..n {
                out.push_str("00");
                out.push_str(kind.csa());
            }
        }
        out.push('\n');
    }
}

/// A position as CSA text: the `P1`…`P9` rows, a `P+`/`P-` line per non-empty hand and the
/// side to move (`+` or `-`), as a CSA record's start position is written.
///
/// ```
/// use kifu_shogi::Position;
/// use kifu_records::shogi::csa;
///
/// let text = csa::write_position(&Position::startpos());
/// assert!(text.starts_with("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n"));
/// assert!(text.ends_with("P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n"));
/// ```
pub fn write_position(position: &Position) -> String {
    let mut out = String::with_capacity(320);
    write_board(&mut out, position);
    out.push(position.turn().csa_sign());
    out.push('\n');
    out
}

fn sign(side: Side) -> char {
    match side {
        Side::First => '+',
        Side::Second => '-',
    }
}
