//! What kifu writes, the record libraries people use read the same way.
//!
//! Every shogi record of the corpus (`corpus/`, the bulk folder included) is converted by kifu to
//! KIF, KIFU, KI2, CSA 3.0, CSA 2.2 and JKF; each real peer that reads the format reads it:
//! tsshogi (ShogiHome's library) and json-kifu-format (Kifu for JS) through node, cshogi and
//! python-shogi through Python. Each must see the start position, the main line's moves and
//! the ending kifu has. The peers are pinned in `crates/kifu-testkit/interop` and installed by
//! `scripts/setup-test-deps`; this test never installs anything and fails when one is missing.
//!
//! A difference that is the peer's fault is listed in [`KNOWN_PEER_BUGS`] with the reason;
//! every other difference fails the test. Files whose conversions are byte-identical are read
//! once (the bulk folder holds each game three times).

use kifu_shogi::ShogiEnding;
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use kifu_record::RecordFormat;
use kifu_record::{EndingKind, NodeItem, Outcome, Side};
use kifu_records::read_bytes;
use kifu_records::shogi::{
    ShogiRecord,
    csa::{self, CsaFormat, CsaVersion},
    format_by_extension, jkf, ki2, kif, side_of, usi_record,
};
use kifu_shogi::Shogi;
use serde_json::Value;

/// The outputs kifu writes and which peers read each. `encoding` is what the peers decode with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Output {
    Kif,
    Kifu,
    Ki2,
    Csa30,
    Csa22,
    Jkf,
}

impl Output {
    const ALL: [Output; 6] = [
        Output::Kif,
        Output::Kifu,
        Output::Ki2,
        Output::Csa30,
        Output::Csa22,
        Output::Jkf,
    ];

    /// The table's format, or CSA V2.2 (the table's CSA writes V3.0).
    fn format(self) -> &'static dyn RecordFormat<Shogi> {
        static CSA_V22: CsaFormat = CsaFormat::new(CsaVersion::V22);
        match self {
            Output::Kif => &kif::KIF,
            Output::Kifu => &kif::KIFU,
            Output::Ki2 => &ki2::KI2,
            Output::Csa30 => &csa::CSA,
            Output::Csa22 => &CSA_V22,
            Output::Jkf => &jkf::JKF,
        }
    }

    /// The format name the peer scripts take.
    fn peer_format(self) -> &'static str {
        match self {
            Output::Kif | Output::Kifu => "kif",
            Output::Ki2 => "ki2",
            Output::Csa30 | Output::Csa22 => "csa",
            Output::Jkf => "jkf",
        }
    }

    fn encoding(self) -> &'static str {
        match self {
            Output::Kif | Output::Ki2 => "shift_jis",
            _ => "utf-8",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Output::Kif => "kif",
            Output::Kifu => "kifu",
            Output::Ki2 => "ki2",
            Output::Csa30 => "v30.csa",
            Output::Csa22 => "v22.csa",
            Output::Jkf => "jkf",
        }
    }

    /// Which peers read this output: both JavaScript peers read every format; cshogi reads
    /// KIF and CSA; python-shogi reads KIF and CSA up to V2.2 (it predates V3.0).
    fn python_reads(self) -> bool {
        matches!(
            self,
            Output::Kif | Output::Kifu | Output::Csa30 | Output::Csa22
        )
    }
}

const TSSHOGI: &str = "tsshogi";
const JKF: &str = "json-kifu-format";
const CSHOGI: &str = "cshogi";
const PYTHON_SHOGI: &str = "python-shogi";

/// A difference between a peer and kifu that is the peer's doing.
struct KnownPeerBug {
    peer: &'static str,
    outputs: &'static [Output],
    /// Which parts differ: "start", "moves", "ending" or "error".
    parts: &'static [&'static str],
    /// Which records show it.
    when: fn(&Expected) -> bool,
    reason: &'static str,
}

const KIF_OUTPUTS: &[Output] = &[Output::Kif, Output::Kifu];
const ALL_PARTS: &[&str] = &["start", "moves", "ending", "error"];

fn always(_: &Expected) -> bool {
    true
}

fn kif_diagram(e: &Expected) -> bool {
    e.kif_diagram
}

fn has_variations(e: &Expected) -> bool {
    e.has_variations
}

/// An illegal action by the side not to move: the mover wins.
fn opponent_fouled(e: &Expected) -> bool {
    matches!(&e.ending, Some((EndingKind::IllegalAction(o), mover)) if o != mover)
}

/// A start with ten or more of one kind in a hand (a tsume start's `14p`).
fn hand_count_over_nine(e: &Expected) -> bool {
    let hands = e.start.rsplit(' ').next().unwrap_or_default();
    hands
        .split(|c: char| !c.is_ascii_digit())
        .any(|n| n.len() >= 2)
}

/// A start kifu reads only leniently (e.g. nine pawns on one file in jkf-suite's 9fu tsume).
fn unplayable_start(e: &Expected) -> bool {
    kifu_shogi::Position::from_sfen(&format!("{} 1", e.start)).is_err()
}

fn ends_in_checkmate(e: &Expected) -> bool {
    matches!(&e.ending, Some((EndingKind::Checkmate, _)))
}

const KNOWN_PEER_BUGS: &[KnownPeerBug] = &[
    KnownPeerBug {
        peer: PYTHON_SHOGI,
        outputs: &[Output::Csa30],
        parts: &["error"],
        when: always,
        reason: "python-shogi 1.1.1 reads CSA up to V2.2; `'CSA encoding=UTF-8` and V3.0 lines are unknown to it",
    },
    KnownPeerBug {
        peer: JKF,
        outputs: &[Output::Csa30],
        parts: &["error"],
        when: always,
        reason: "json-kifu-format 5.5.0's CSA grammar knows the version lines V2, V2.1 and V2.2 only (it predates CSA V3.0)",
    },
    KnownPeerBug {
        peer: CSHOGI,
        outputs: KIF_OUTPUTS,
        parts: ALL_PARTS,
        when: kif_diagram,
        reason: "cshogi 1.1.0's KIF reader ignores board diagrams: it starts from the 手合割 name, or the even start without one",
    },
    KnownPeerBug {
        peer: CSHOGI,
        outputs: KIF_OUTPUTS,
        parts: &["moves", "ending"],
        when: has_variations,
        reason: "cshogi 1.1.0's KIF reader does not know `変化：` blocks and reads their moves as the main line's",
    },
    KnownPeerBug {
        peer: PYTHON_SHOGI,
        outputs: KIF_OUTPUTS,
        parts: ALL_PARTS,
        when: kif_diagram,
        reason: "python-shogi 1.1.1 takes a KIF diagram's side to move from the side to move after the last move",
    },
    KnownPeerBug {
        peer: PYTHON_SHOGI,
        outputs: KIF_OUTPUTS,
        parts: &["moves", "ending", "error"],
        when: has_variations,
        reason: "python-shogi 1.1.1's KIF reader does not know `変化：` blocks and reads their moves as the main line's",
    },
    KnownPeerBug {
        peer: TSSHOGI,
        outputs: &[Output::Csa30, Output::Csa22, Output::Jkf],
        parts: &["ending"],
        when: opponent_fouled,
        reason: "tsshogi 2.2.0 reads %+ILLEGAL_ACTION and %-ILLEGAL_ACTION alike as a loss of the side to move",
    },
    KnownPeerBug {
        peer: PYTHON_SHOGI,
        outputs: &[Output::Kif, Output::Kifu, Output::Csa30, Output::Csa22],
        parts: ALL_PARTS,
        when: hand_count_over_nine,
        reason: "python-shogi 1.1.1 garbles a hand of ten or more of a kind (its SFEN counts are one digit)",
    },
    KnownPeerBug {
        peer: PYTHON_SHOGI,
        outputs: &[Output::Csa22],
        parts: &["error"],
        when: unplayable_start,
        reason: "python-shogi 1.1.1 fails to replay jkf-suite's 9fu tsume (nine pawns on one file at the start): `The piece is not in hand`",
    },
    KnownPeerBug {
        peer: PYTHON_SHOGI,
        outputs: KIF_OUTPUTS,
        parts: &["ending"],
        when: ends_in_checkmate,
        reason: "python-shogi 1.1.1 gives no winner for a KIF ending in 詰み",
    },
];

/// What a reader saw: the start (SFEN without the move number, hands normalised), the main
/// line as USI moves, and the ending in the reader's own terms.
#[derive(Debug, PartialEq)]
struct Seen {
    start: String,
    moves: Vec<String>,
    ending: Option<String>,
}

/// SFEN board, side and hands, the hands in one fixed order (peers order them differently),
/// without the move number. Done on the text: a tsume start may not be a playable position.
fn normalise_sfen(sfen: &str) -> String {
    let mut fields = sfen.split(' ');
    let (board, side, hands) = (
        fields.next().unwrap_or_default(),
        fields.next().unwrap_or_default(),
        fields.next().unwrap_or("-"),
    );
    let mut counts: BTreeMap<usize, u32> = BTreeMap::new();
    let mut number = 0u32;
    for c in hands.chars() {
        if let Some(d) = c.to_digit(10) {
            number = number * 10 + d;
        } else if let Some(i) = "RBGSNLPrbgsnlp".find(c) {
            *counts.entry(i).or_default() += number.max(1);
            number = 0;
        }
    }
    let mut hand = String::new();
    for (i, n) in counts {
        if n > 1 {
            hand.push_str(&n.to_string());
        }
        hand.push("RBGSNLPrbgsnlp".as_bytes()[i] as char);
    }
    if hand.is_empty() {
        hand.push('-');
    }
    format!("{board} {side} {hand}")
}

/// What kifu has: start, main-line moves and ending (with the side to move at the ending).
struct Expected {
    start: String,
    moves: Vec<String>,
    ending: Option<(EndingKind<ShogiEnding>, Side)>,
    /// Whether kifu's KIF gives the start as a board diagram.
    kif_diagram: bool,
    has_variations: bool,
}

fn expected(record: &ShogiRecord) -> Expected {
    let mut pos = record.start.position.clone();
    let mut moves = Vec::new();
    let mut ending = None;
    for id in record.moves.main_line() {
        match &record.moves[id].item {
            NodeItem::Move(mv) => {
                moves.push(mv.usi());
                pos.play_unchecked(*mv);
            }
            NodeItem::End(kind) => ending = Some((kind.clone(), side_of(pos.turn()))),
            NodeItem::Start => {}
        }
    }
    let tree = &record.moves;
    let has_variations = tree
        .main_line()
        .chain(std::iter::once(tree.root()))
        .any(|id| tree.variations(id).next().is_some());
    Expected {
        start: normalise_sfen(&record.start.position.to_sfen()),
        moves,
        ending,
        kif_diagram: kifu_records::shogi::kif::write(record)
            .text
            .contains("\n+---------------------------+\n"),
        has_variations,
    }
}

/// The CSA special kifu writes for an ending (JKF's `special` uses the same words).
fn csa_special(kind: &EndingKind<ShogiEnding>, mover: Side) -> Option<String> {
    let sign = |s: Side| if s == Side::First { '+' } else { '-' };
    Some(
        match kind {
            EndingKind::Resign => "TORYO",
            EndingKind::Abort | EndingKind::Sealed => "CHUDAN",
            EndingKind::Repetition => "SENNICHITE",
            EndingKind::Game(ShogiEnding::Impasse) => "JISHOGI",
            EndingKind::Checkmate => "TSUMI",
            EndingKind::NoCheckmate => "FUZUMI",
            EndingKind::Error => "ERROR",
            EndingKind::TakeBack => "MATTA",
            EndingKind::Game(ShogiEnding::DeclareWin) => "KACHI",
            EndingKind::Game(ShogiEnding::DeclareDraw) => "HIKIWAKE",
            EndingKind::TimeLoss => "TIME_UP",
            EndingKind::IllegalMoveLoss => "ILLEGAL_MOVE",
            EndingKind::MaxMoves => "MAX_MOVES",
            EndingKind::IllegalAction(side) => {
                return Some(format!("{}ILLEGAL_ACTION", sign(*side)));
            }
            EndingKind::IllegalMoveWin => {
                return Some(format!("{}ILLEGAL_ACTION", sign(mover.opponent())));
            }
            _ => return None,
        }
        .to_owned(),
    )
}

/// tsshogi's `SpecialMoveType` for an ending.
fn tsshogi_special(kind: &EndingKind<ShogiEnding>, mover: Side) -> Option<String> {
    Some(
        match kind {
            EndingKind::Resign => "resign",
            EndingKind::Abort | EndingKind::Sealed => "interrupt",
            EndingKind::Repetition => "repetitionDraw",
            EndingKind::Game(ShogiEnding::Impasse) => "impass",
            EndingKind::Checkmate => "mate",
            EndingKind::NoCheckmate => "noMate",
            EndingKind::TimeLoss => "timeout",
            EndingKind::IllegalMoveWin => "foulWin",
            EndingKind::IllegalMoveLoss => "foulLose",
            EndingKind::IllegalAction(side) if *side == mover => "foulLose",
            EndingKind::IllegalAction(_) => "foulWin",
            EndingKind::Game(ShogiEnding::DeclareWin) => "enteringOfKing",
            EndingKind::Game(ShogiEnding::DeclareDraw) => "draw",
            EndingKind::MaxMoves => "maxMoves",
            EndingKind::DefaultWin => "winByDefault",
            EndingKind::DefaultLoss => "loseByDefault",
            EndingKind::Game(ShogiEnding::Try) => "try",
            _ => return None,
        }
        .to_owned(),
    )
}

/// The ending as `peer` should report it after reading `output`.
fn expected_ending(
    peer: &str,
    output: Output,
    ending: &Option<(EndingKind<ShogiEnding>, Side)>,
) -> Option<String> {
    let (kind, mover) = ending.as_ref()?;
    match peer {
        TSSHOGI => tsshogi_special(kind, *mover),
        JKF => csa_special(kind, *mover),
        CSHOGI if matches!(output, Output::Csa30 | Output::Csa22) => {
            csa_special(kind, *mover).map(|s| format!("%{s}"))
        }
        // From the `まで` line: the special it implies.
        CSHOGI => match kind.outcome(*mover) {
            Outcome::Win(side) => Some(match kind {
                EndingKind::Game(ShogiEnding::DeclareWin) => "%KACHI".to_owned(),
                EndingKind::IllegalMoveLoss => "%ILLEGAL_MOVE".to_owned(),
                EndingKind::IllegalMoveWin | EndingKind::IllegalAction(_) => {
                    format!(
                        "%{}ILLEGAL_ACTION",
                        if side == Side::First { '+' } else { '-' }
                    )
                }
                _ => "%TORYO".to_owned(),
            }),
            Outcome::Draw if *kind == EndingKind::Repetition => Some("%SENNICHITE".to_owned()),
            _ if *kind == EndingKind::Abort => Some("%CHUDAN".to_owned()),
            _ => None,
        },
        // python-shogi states only the winner.
        _ => match kind.outcome(*mover) {
            Outcome::Win(Side::First) => Some("b".to_owned()),
            Outcome::Win(Side::Second) => Some("w".to_owned()),
            Outcome::Draw | Outcome::None => None,
        },
    }
}

fn seen(value: &Value) -> Result<Seen, String> {
    if let Some(e) = value.get("error") {
        return Err(e.as_str().unwrap_or_default().to_owned());
    }
    let start = normalise_sfen(value["sfen"].as_str().unwrap_or_default());
    let moves = value["moves"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|m| m.as_str().unwrap_or("?").to_owned())
                .collect()
        })
        .unwrap_or_default();
    let ending = value["ending"].as_str().map(str::to_owned);
    Ok(Seen {
        start,
        moves,
        ending,
    })
}

/// Every shogi record file of the corpus.
fn corpus_files() -> Vec<PathBuf> {
    let root = kifu_testkit::corpus::path("shogi");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("csa" | "kif" | "kifu" | "ki2" | "ki2u" | "jkf" | "json")
            ) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// One converted file for the peers to read.
struct Job {
    output: Output,
    path: PathBuf,
    /// The corpus records it was written from (several when conversions were identical).
    sources: Vec<String>,
    expected: Expected,
}

/// Feeds `jobs` to a peer script (one `FORMAT\tENCODING\tPATH` line each) and returns its
/// JSON answer per job.
fn run_peer(program: &Path, script: &Path, jobs: &[&Job]) -> Vec<Value> {
    let mut child = Command::new(program)
        .arg(script)
        .current_dir(script.parent().unwrap())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
    let mut stdin = child.stdin.take().unwrap();
    let input: String = jobs
        .iter()
        .map(|j| {
            format!(
                "{}\t{}\t{}\n",
                j.output.peer_format(),
                j.output.encoding(),
                j.path.display()
            )
        })
        .collect();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let answers: Vec<Value> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).expect("a peer script prints JSON lines"))
        .collect();
    writer.join().unwrap().unwrap();
    let status = child.wait().unwrap();
    assert!(
        status.success(),
        "{} {} failed: {status}",
        program.display(),
        script.display()
    );
    assert_eq!(
        answers.len(),
        jobs.len(),
        "{} answered fewer files than it was given",
        script.display()
    );
    answers
}

#[test]
#[ignore = "needs node with tsshogi and json-kifu-format, and cshogi and python-shogi: run scripts/setup-test-deps"]
fn peers_read_what_kifu_writes_as_kifu_does() {
    let mut records = Vec::new();
    let mut unread = Vec::new();
    for file in corpus_files() {
        let bytes = std::fs::read(&file).unwrap();
        let format = format_by_extension(&file).unwrap_or(&jkf::JKF);
        let (_, parsed) = read_bytes(&bytes, format);
        if parsed.has_errors() {
            // Not kifu's output to test: the reader's own tests cover these files.
            unread.push(file.display().to_string());
            continue;
        }
        for (i, record) in parsed.records.into_iter().enumerate() {
            records.push((format!("{} record {}", file.display(), i + 1), record));
        }
    }
    assert!(
        records.len() > 1500,
        "only {} corpus records were read",
        records.len()
    );
    if !unread.is_empty() {
        eprintln!(
            "interop: {} corpus files kifu reports errors in (not converted): {unread:?}",
            unread.len()
        );
    }
    check_with_peers("corpus", &records);
}

/// Converts `records` to every output, has every peer read each distinct file and fails on
/// any difference that is not a known peer bug.
fn check_with_peers(name: &str, records: &[(String, ShogiRecord)]) {
    let node = kifu_testkit::interop_node();
    let python = kifu_testkit::interop_python();
    let dir = std::env::temp_dir().join(format!("kifu-interop-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    // Convert every record to every output, once per distinct text.
    let mut jobs: Vec<Job> = Vec::new();
    let mut by_bytes: HashMap<(Output, Vec<u8>), usize> = HashMap::new();
    for (source, record) in records {
        for output in Output::ALL {
            let format = output.format();
            let written = format.write(std::slice::from_ref(record));
            let (text, _) = written.encode(format.encoding());
            if let Some(&j) = by_bytes.get(&(output, text.clone())) {
                jobs[j].sources.push(source.clone());
                continue;
            }
            let path = dir.join(format!("{}.{}", jobs.len(), output.extension()));
            std::fs::write(&path, &text).unwrap();
            by_bytes.insert((output, text), jobs.len());
            jobs.push(Job {
                output,
                path,
                sources: vec![source.clone()],
                expected: expected(record),
            });
        }
    }

    let interop = kifu_testkit::interop_dir();
    let all: Vec<&Job> = jobs.iter().collect();
    let python_jobs: Vec<&Job> = jobs.iter().filter(|j| j.output.python_reads()).collect();
    let (js_answers, py_answers) = std::thread::scope(|s| {
        let js = s.spawn(|| run_peer(&node, &interop.join("read-records.mjs"), &all));
        let py = s.spawn(|| run_peer(&python, &interop.join("read_records.py"), &python_jobs));
        (js.join().unwrap(), py.join().unwrap())
    });

    let mut answers: Vec<(&Job, &str, &Value)> = Vec::new();
    for (job, answer) in all.iter().zip(&js_answers) {
        answers.push((job, TSSHOGI, &answer[TSSHOGI]));
        answers.push((job, JKF, &answer[JKF]));
    }
    for (job, answer) in python_jobs.iter().zip(&py_answers) {
        answers.push((job, CSHOGI, &answer[CSHOGI]));
        answers.push((job, PYTHON_SHOGI, &answer[PYTHON_SHOGI]));
    }

    // Differences grouped by (peer, output, part); known peer bugs counted apart.
    let mut unexpected: BTreeMap<(&str, Output, &str), Vec<String>> = BTreeMap::new();
    let mut known: BTreeMap<&str, usize> = BTreeMap::new();
    for (job, peer, answer) in answers {
        let exp = &job.expected;
        let mut report = |part: &'static str, detail: String| {
            let bug = KNOWN_PEER_BUGS.iter().find(|b| {
                b.peer == peer
                    && b.outputs.contains(&job.output)
                    && b.parts.contains(&part)
                    && (b.when)(exp)
            });
            match bug {
                Some(b) => *known.entry(b.reason).or_default() += 1,
                None => unexpected
                    .entry((peer, job.output, part))
                    .or_default()
                    .push(format!(
                        "{} (from {}): {detail}",
                        job.path.display(),
                        job.sources[0]
                    )),
            }
        };
        match seen(answer) {
            Err(e) => report("error", e),
            Ok(mut seen) => {
                if peer == PYTHON_SHOGI && seen.ending.as_deref() == Some("-") {
                    // python-shogi's `-` stands for a draw and for no result alike.
                    seen.ending = None;
                }
                if seen.start != exp.start {
                    report("start", format!("kifu {} / peer {}", exp.start, seen.start));
                }
                if seen.moves != exp.moves {
                    let at = seen
                        .moves
                        .iter()
                        .zip(&exp.moves)
                        .take_while(|(a, b)| a == b)
                        .count();
                    report(
                        "moves",
                        format!(
                            "from ply {}: kifu {:?} / peer {:?} ({} / {} moves)",
                            at + 1,
                            exp.moves.get(at),
                            seen.moves.get(at),
                            exp.moves.len(),
                            seen.moves.len()
                        ),
                    );
                }
                let want = expected_ending(peer, job.output, &exp.ending);
                if seen.ending != want {
                    report(
                        "ending",
                        format!("kifu {:?} → {want:?} / peer {:?}", exp.ending, seen.ending),
                    );
                }
            }
        }
    }
    eprintln!(
        "interop ({name}): {} records, {} distinct files written, {} peer readings",
        records.len(),
        jobs.len(),
        js_answers.len() * 2 + py_answers.len() * 2
    );
    for (reason, n) in &known {
        eprintln!("interop: known peer bug, {n} file(s): {reason}");
    }
    let mut message = String::new();
    for ((peer, output, part), cases) in &unexpected {
        message.push_str(&format!(
            "\n{peer} reading kifu's {output:?}: {} file(s) differ in {part}, e.g.\n",
            cases.len()
        ));
        for c in cases.iter().take(3) {
            message.push_str(&format!("    {c}\n"));
        }
    }
    assert!(
        unexpected.is_empty(),
        "peers read kifu's output differently (the files are kept in {}):{message}",
        dir.display()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every named start, each also with the other side to move, and a handicap board given as a
/// diagram with 下手 to move: whatever kifu writes for them, the peers set up the same start.
#[test]
#[ignore = "needs node with tsshogi and json-kifu-format, and cshogi and python-shogi: run scripts/setup-test-deps"]
fn start_positions_survive_for_the_peers() {
    let mut records = Vec::new();
    for h in kifu_shogi::Handicap::ALL {
        for flip in [false, true] {
            let sfen = h.sfen();
            let sfen = if flip {
                let side = if h.first_to_move() == kifu_shogi::Color::Black {
                    " w "
                } else {
                    " b "
                };
                sfen.replacen(" b ", side, 1).replacen(" w ", side, 1)
            } else {
                sfen
            };
            // One move by whoever is to move, so that the side to move matters to the replay.
            let first = if sfen.contains(" b ") { "5i5h" } else { "5a4b" };
            let (_, parsed) = read_bytes(
                format!("position sfen {sfen} moves {first}\n").as_bytes(),
                &usi_record::USI,
            );
            assert!(!parsed.has_errors(), "{sfen}: {:?}", parsed.diagnostics);
            let mut record = parsed.records.into_iter().next().unwrap();
            // A header naming the handicap, as a KIF or KI2 source would have it.
            record.header.push(kifu_record::HeaderEntry {
                key: "手合割".to_owned(),
                value: h.kif_name().to_owned(),
                field: Some(kifu_record::HeaderField::Handicap),
                span: Default::default(),
            });
            records.push((
                format!(
                    "{} {}",
                    h.kif_name(),
                    if flip { "other side to move" } else { "" }
                ),
                record,
            ));
        }
    }
    check_with_peers("starts", &records);
}

/// Runs `bod.mjs` (tsshogi's BOD reader and writer) on JSON requests.
fn tsshogi_bod(requests: &[Value]) -> Vec<Value> {
    let script = kifu_testkit::interop_dir().join("bod.mjs");
    let mut child = Command::new(kifu_testkit::interop_node())
        .arg(&script)
        .current_dir(script.parent().unwrap())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs");
    let input: String = requests.iter().map(|r| format!("{r}\n")).collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// kifu's BOD (with its `手数＝N  ▲…(NN)  まで` title) sets up the same position in tsshogi, and
/// tsshogi's exportBOD reads in kifu as that position with the ply count kept.
#[test]
#[ignore = "needs node with tsshogi: run scripts/setup-test-deps"]
fn board_diagrams_both_ways_with_tsshogi() {
    let games = [
        "7g7f 3c3d 8h2b+",
        "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d P*2c 2d2f 8e8f 8g8f 8b8f P*8g",
    ];
    let mut requests = Vec::new();
    let mut positions = Vec::new();
    for game in games {
        let mut pos = kifu_shogi::Position::startpos();
        let mut last = None;
        for usi in game.split(' ') {
            let mv = pos.parse_usi_move(usi).unwrap();
            pos.play_unchecked(mv);
            last = Some(mv);
        }
        requests
            .push(serde_json::json!({ "read": kifu_records::shogi::kif::write_bod(&pos, last) }));
        requests.push(serde_json::json!({ "export": format!("position startpos moves {game}") }));
        positions.push(pos);
    }
    let answers = tsshogi_bod(&requests);
    for (pos, pair) in positions.iter().zip(answers.chunks(2)) {
        let plies = pos.move_number() - 1;
        let board = normalise_sfen(&pos.to_sfen());
        assert_eq!(
            normalise_sfen(pair[0]["sfen"].as_str().unwrap_or_default()),
            board,
            "{:?}",
            pair[0]
        );
        let bod = pair[1]["bod"].as_str().expect("tsshogi exported a BOD");
        assert!(bod.contains(&format!("手数＝{plies}  ")), "{bod}");
        let (_, parsed) = read_bytes(bod.as_bytes(), &kif::KIFU);
        assert!(!parsed.has_errors(), "{bod}\n{:?}", parsed.diagnostics);
        let start = &parsed.records[0].start.position;
        assert_eq!(normalise_sfen(&start.to_sfen()), board, "{bod}");
        assert_eq!(
            start.move_number(),
            plies + 1,
            "the title's ply count is kept: {bod}"
        );
    }
}
