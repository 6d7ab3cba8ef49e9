//! Writing JKF with every move field filled in by replaying: from, to, piece, color, same,
//! promote (when there was a choice), capture and relative.

use kifu_shogi::ShogiEnding;
use serde_json::{Map, Value, json};

use kifu_record::{Comment, CommentKind, EndingKind, Node, NodeId, NodeItem, Side};

use crate::shogi::kif::writer::kif_key;
use crate::shogi::{ShogiRecord, Written, side_of};
use kifu_shogi::notation::ki2::{Movement, Relative, disambiguation};
use kifu_shogi::{Color, Move, PieceKind, Position, Square};

/// Writes one record as a JKF document (pretty-printed JSON).
pub fn write(record: &ShogiRecord) -> Written {
    let mut warnings = Vec::new();
    let value = to_value(record, &mut warnings);
    let mut text = serde_json::to_string_pretty(&value).expect("JSON values always serialise");
    text.push('\n');
    Written { text, warnings }
}

/// The record as a JKF JSON value.
pub fn to_value(record: &ShogiRecord, warnings: &mut Vec<String>) -> Value {
    let mut header = Map::new();
    for e in record.header.entries() {
        let key = match e.field {
            _ if !e.key.is_ascii() => e.key.as_str(),
            // JKF's header keys are KIF's, but 先手/後手 even in handicap games, as both
            // reference implementations write.
            Some(f) => kif_key(f, false).unwrap_or(e.key.as_str()),
            None => e.key.as_str(),
        };
        header.insert(key.to_owned(), Value::String(e.value.clone()));
    }
    let initial = match record.start.handicap {
        // tsshogi knows the presets 3, 5, 5_L, 7_L and 7_R not: those boards are given whole.
        Some(h) if crate::shogi::kif::writer::every_reader_knows(h) => {
            json!({ "preset": h.jkf_preset() })
        }
        Some(_) => json!({ "preset": "OTHER", "data": data_of(&record.start.position) }),
        None => json!({ "preset": "OTHER", "data": data_of(&record.start.position) }),
    };
    let tree = &record.moves;
    let mut first = Map::new();
    let root = &tree[tree.root()];
    // Comments written before the start position ends (CSA file notes such as `'対局者名`) have
    // no place in JKF; the reference implementation leaves them out too.
    let start = record.start_span;
    let before_start = |c: &kifu_record::Comment| !start.is_empty() && c.span.end <= start.end;
    let dropped = root.comments().iter().filter(|c| before_start(c)).count();
    if dropped > 0 {
        warnings.push(format!(
            "{dropped} comment line(s) before the start position dropped"
        ));
        let mut kept = root.clone();
        kept.comments_mut().retain(|c| !before_start(c));
        comments_into(&kept, &mut first);
    } else {
        comments_into(root, &mut first);
    }
    let mut moves = vec![Value::Object(first)];
    let start = record.start.position.clone();
    line(
        record,
        tree.main_child(tree.root()),
        start,
        None,
        &mut moves,
        warnings,
        0,
        false,
    );
    json!({ "header": header, "initial": initial, "moves": moves })
}

fn data_of(pos: &Position) -> Value {
    let board: Vec<Value> = (1..=9)
        .map(|x| {
            let file: Vec<Value> = (1..=9)
                .map(
                    |y| match pos.piece_at(Square::new(x, y).expect("in range")) {
                        Some(p) => json!({ "color": p.color.index(), "kind": p.kind.csa() }),
                        None => json!({}),
                    },
                )
                .collect();
            Value::Array(file)
        })
        .collect();
    let hands: Vec<Value> = Color::ALL
        .iter()
        .map(|&c| {
            let mut h = Map::new();
            for kind in PieceKind::HAND {
                h.insert(kind.csa().to_owned(), json!(pos.hand(c).count(kind)));
            }
            Value::Object(h)
        })
        .collect();
    json!({ "color": pos.turn().index(), "board": board, "hands": hands })
}

/// Comments as JKF strings; engine lines keep one `*` (as the JKF reference reads KIF `**`).
fn comments_into(node: &Node<Move, ShogiEnding>, entry: &mut Map<String, Value>) {
    let mut list: Vec<Value> = node
        .comments()
        .iter()
        .map(|c| match c.kind {
            CommentKind::Engine => {
                Value::String(format!("*{}{}", Comment::engine_gap(&c.text), c.text))
            }
            _ => Value::String(c.text.clone()),
        })
        .collect();
    list.extend(
        node.bookmarks()
            .iter()
            .map(|b| Value::String(format!("&{}", b.name))),
    );
    if !list.is_empty() {
        entry.insert("comments".to_owned(), Value::Array(list));
    }
}

fn time_value(ms: u64, total: u64) -> Value {
    let (s, t) = (ms / 1000, total / 1000);
    json!({ "now": { "m": s / 60, "s": s % 60 }, "total": { "h": t / 3600, "m": t / 60 % 60, "s": t % 60 } })
}

fn special_name(
    kind: &EndingKind<ShogiEnding>,
    mover: Side,
    ply: u32,
    warnings: &mut Vec<String>,
) -> Option<String> {
    let sign = |s: Side| if s == Side::First { '+' } else { '-' };
    Some(match kind {
        EndingKind::Resign => "TORYO".into(),
        EndingKind::Abort | EndingKind::Sealed => "CHUDAN".into(),
        EndingKind::Repetition => "SENNICHITE".into(),
        EndingKind::Game(ShogiEnding::Impasse) => "JISHOGI".into(),
        EndingKind::Checkmate => "TSUMI".into(),
        EndingKind::NoCheckmate => "FUZUMI".into(),
        EndingKind::Error => "ERROR".into(),
        EndingKind::TakeBack => "MATTA".into(),
        EndingKind::Game(ShogiEnding::DeclareWin) => "KACHI".into(),
        EndingKind::Game(ShogiEnding::DeclareDraw) => "HIKIWAKE".into(),
        EndingKind::TimeLoss => "TIME_UP".into(),
        EndingKind::IllegalMoveLoss => "ILLEGAL_MOVE".into(),
        EndingKind::IllegalAction(s) => format!("{}ILLEGAL_ACTION", sign(*s)),
        EndingKind::IllegalMoveWin => format!("{}ILLEGAL_ACTION", sign(mover.opponent())),
        other => {
            warnings.push(format!(
                "ply {ply}: JKF has no special for the ending {other}; dropped"
            ));
            return None;
        }
    })
}

/// Forks nested deeper than this are dropped (with a warning): JSON readers, ours included,
/// refuse documents nested much deeper, and writing them would recurse without bound.
const MAX_FORK_DEPTH: usize = 30;

/// Appends the line starting at `first` to `out`, with forks for later siblings (but not
/// for `first`'s own when `first_is_fork`: those belong to the entry it replaces).
#[allow(clippy::too_many_arguments)]
fn line(
    record: &ShogiRecord,
    first: Option<NodeId>,
    mut pos: Position,
    mut prev_to: Option<Square>,
    out: &mut Vec<Value>,
    warnings: &mut Vec<String>,
    depth: usize,
    first_is_fork: bool,
) {
    let tree = &record.moves;
    let mut totals = totals_before(record, first);
    let mut next = first;
    while let Some(id) = next {
        let node = &tree[id];
        let mover = pos.turn();
        let mut entry = Map::new();
        let position_before = tree
            .next_sibling(id)
            .filter(|_| !(first_is_fork && Some(id) == first))
            .map(|_| (pos.clone(), prev_to, totals));
        match &node.item {
            NodeItem::Move(mv) => {
                entry.insert("move".to_owned(), move_value(&pos, *mv, prev_to));
                prev_to = Some(mv.to());
                if !node.illegal {
                    pos.play_unchecked(*mv);
                }
            }
            NodeItem::End(kind) => {
                if let Some(name) = special_name(kind, side_of(mover), node.ply(), warnings) {
                    entry.insert("special".to_owned(), Value::String(name));
                }
            }
            NodeItem::Start => {}
        }
        if let Some(ms) = node.time_ms() {
            let total = &mut totals[mover.index()];
            *total = node.total_ms().unwrap_or(total.saturating_add(ms));
            entry.insert("time".to_owned(), time_value(ms, *total));
        }
        comments_into(node, &mut entry);
        if position_before.is_some() && depth >= MAX_FORK_DEPTH {
            warnings.push(format!(
                "ply {}: variations nested more than {MAX_FORK_DEPTH} deep dropped",
                node.ply()
            ));
        } else if let Some((p, prev, _)) = position_before {
            let mut forks = Vec::new();
            let mut alt = tree.next_sibling(id);
            while let Some(a) = alt {
                let mut fork = Vec::new();
                line_single(record, a, p.clone(), prev, &mut fork, warnings, depth + 1);
                forks.push(Value::Array(fork));
                alt = tree.next_sibling(a);
            }
            entry.insert("forks".to_owned(), Value::Array(forks));
        }
        out.push(Value::Object(entry));
        next = tree.main_child(id);
    }
}

/// A fork: the line starting with the alternative `first` (its own siblings belong to the
/// entry it replaces, so they are not repeated here).
fn line_single(
    record: &ShogiRecord,
    first: NodeId,
    pos: Position,
    prev_to: Option<Square>,
    out: &mut Vec<Value>,
    warnings: &mut Vec<String>,
    depth: usize,
) {
    // Its later siblings are forks of the entry it replaces: building them here too, once
    // for each sibling before it, took time exponential in the number of siblings.
    line(
        record,
        Some(first),
        pos,
        prev_to,
        out,
        warnings,
        depth,
        true,
    );
}

/// Each side's total time before `node`.
fn totals_before(record: &ShogiRecord, node: Option<NodeId>) -> [u64; 2] {
    let tree = &record.moves;
    let mut totals = [0u64; 2];
    let Some(node) = node else { return totals };
    let Some(parent) = tree.parent(node) else {
        return totals;
    };
    let mut color = record.start.position.turn();
    for id in tree.path_to(parent) {
        let n = &tree[id];
        if let Some(ms) = n.time_ms() {
            totals[color.index()] = n
                .total_ms()
                .unwrap_or(totals[color.index()].saturating_add(ms));
        }
        color = !color;
    }
    totals
}

fn move_value(pos: &Position, mv: Move, prev_to: Option<Square>) -> Value {
    let to = mv.to();
    let mut m = Map::new();
    m.insert("color".to_owned(), json!(pos.turn().index()));
    let xy = |s: Square| json!({ "x": s.file(), "y": s.rank() });
    match mv.from() {
        Some(from) => {
            let piece = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            m.insert("from".to_owned(), xy(from));
            m.insert("to".to_owned(), xy(to));
            m.insert("piece".to_owned(), json!(piece.csa()));
            if mv.is_promotion() {
                m.insert("promote".to_owned(), json!(true));
            } else if pos.check_move(Move::normal(from, to, true)).is_ok() {
                m.insert("promote".to_owned(), json!(false));
            }
        }
        None => {
            m.insert("to".to_owned(), xy(to));
            m.insert(
                "piece".to_owned(),
                json!(mv.drop_kind().unwrap_or(PieceKind::Pawn).csa()),
            );
        }
    }
    if prev_to == Some(to) {
        m.insert("same".to_owned(), json!(true));
    }
    if let Some(captured) = pos.piece_at(to)
        && mv.from().is_some()
    {
        m.insert("capture".to_owned(), json!(captured.kind.csa()));
    }
    if let Some(rel) = jkf_relative(pos, mv) {
        m.insert("relative".to_owned(), json!(rel));
    }
    Value::Object(m)
}

/// JKF's letters for the words (`L` `C` `R`, `U` `M` `D`, `H` for 打), e.g. `LU`.
fn jkf_relative(pos: &Position, mv: Move) -> Option<String> {
    let (rel, mov, drop) = disambiguation(pos, mv);
    let mut s = String::new();
    if let Some(r) = rel {
        s.push(match r {
            Relative::Left => 'L',
            Relative::Straight => 'C',
            Relative::Right => 'R',
        });
    }
    if let Some(m) = mov {
        s.push(match m {
            Movement::Up => 'U',
            Movement::Sideways => 'M',
            Movement::Down => 'D',
        });
    }
    if drop {
        s.push('H');
    }
    (!s.is_empty()).then_some(s)
}
