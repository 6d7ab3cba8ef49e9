//! One game between two engine processes, judged move by move under kifu's rules: the
//! position each engine is told, its clock, its `bestmove` decoded and checked against the
//! position (an illegal move loses, with the rule it broke named), 千日手 and 連続王手の千日手,
//! `bestmove win` judged under the 27- or 24-point rule, the move limit, adjudication, and
//! every way an engine can fail (it dies, hangs, or prints what USI does not know) — each
//! ends this game only. The game's CSA record is built as it goes.

use std::time::{Duration, SystemTime};

use kifu_csa::record::{RecordBuilder, timestamp};
use kifu_csa::usi::{BestMove, EngineEvent, GameOver, PositionCommand, Thought};
use kifu_record::{CommentKind, EndingKind, HeaderField};
use kifu_records::shogi::ShogiRecord;
use kifu_shogi::{
    Color, DeclarationRule, DeclarationVerdict, Move, Outcome, Position, ShogiEnding, side_of,
};
use tokio::time::Instant;

use crate::adjudication::{Adjudication, DrawRule, ResignRule, ScoreHistory};
use crate::clock::{SideClock, search_limit};
use crate::evaluation::{Evaluation, RecordStyle};
use crate::openings::Opening;
use crate::process::Engine;
use crate::spec::EngineSpec;

/// The rules every game of a match is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Plies after which the game is drawn (opening plies included, as CSA's `$MAX_MOVES`
    /// counts them); 0 for no limit.
    pub max_plies: u32,
    /// The point rule `bestmove win` is judged by.
    pub declaration: DeclarationRule,
    /// Resignation adjudication, if any.
    pub resign: Option<ResignRule>,
    /// Draw adjudication, if any.
    pub draw: Option<DrawRule>,
    /// What a move may take beyond its clock before it loses on time (pipes, scheduling).
    pub margin_ms: u64,
    /// How long an engine without a clock (node or depth limit) may take before it is taken
    /// to hang.
    pub hang_ms: u64,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            max_plies: 512,
            declaration: DeclarationRule::Points27,
            resign: None,
            draw: None,
            margin_ms: 1000,
            hang_ms: 60_000,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// `bestmove resign`.
    Resign,
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move without being in check (it loses).
    NoLegalMoves,
    /// 千日手.
    Repetition,
    /// 連続王手の千日手: the checking side loses.
    PerpetualCheck,
    /// A declaration (`bestmove win`) that the point rule accepts.
    Declaration,
    /// A declaration the 24-point rule makes a draw.
    DeclarationDraw,
    /// A declaration the rule refuses: the declarer loses.
    FailedDeclaration,
    /// An illegal move: its side loses.
    IllegalMove,
    /// Longer than the clock allows.
    TimeLoss,
    /// No `bestmove` within the hang timeout.
    NoAnswer,
    /// The engine died or closed its output.
    Crash,
    /// The engine printed a line USI does not know.
    Garbage,
    /// The move limit.
    MaxMoves,
    /// Resignation adjudicated on both engines' scores.
    AdjudicatedLoss,
    /// Draw adjudicated on both engines' scores.
    AdjudicatedDraw,
}

impl Reason {
    /// The name tables and JSON use.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Resign => "resign",
            Reason::Checkmate => "checkmate",
            Reason::NoLegalMoves => "no-legal-moves",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::Declaration => "declaration",
            Reason::DeclarationDraw => "declaration-draw",
            Reason::FailedDeclaration => "failed-declaration",
            Reason::IllegalMove => "illegal-move",
            Reason::TimeLoss => "time-loss",
            Reason::NoAnswer => "no-answer",
            Reason::Crash => "crash",
            Reason::Garbage => "garbage",
            Reason::MaxMoves => "max-moves",
            Reason::AdjudicatedLoss => "adjudicated-loss",
            Reason::AdjudicatedDraw => "adjudicated-draw",
        }
    }

    /// The reason of a name [`Reason::as_str`] gave.
    pub fn from_name(name: &str) -> Option<Reason> {
        ALL_REASONS.iter().copied().find(|r| r.as_str() == name)
    }
}

const ALL_REASONS: [Reason; 16] = [
    Reason::Resign,
    Reason::Checkmate,
    Reason::NoLegalMoves,
    Reason::Repetition,
    Reason::PerpetualCheck,
    Reason::Declaration,
    Reason::DeclarationDraw,
    Reason::FailedDeclaration,
    Reason::IllegalMove,
    Reason::TimeLoss,
    Reason::NoAnswer,
    Reason::Crash,
    Reason::Garbage,
    Reason::MaxMoves,
    Reason::AdjudicatedLoss,
    Reason::AdjudicatedDraw,
];

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended.
    pub reason: Reason,
    /// What happened, in a sentence (the illegal move and its rule, the time used …).
    pub detail: String,
    /// Plies the engines played (the opening's excluded).
    pub plies: u32,
    /// Thinking time each side used, Black's then White's, in ms.
    pub time_ms: [u64; 2],
    /// Sides whose engine is no longer fit to play (dead, hung, confused): the pool
    /// restarts it.
    pub faulty: [bool; 2],
    /// The record.
    pub record: ShogiRecord,
}

/// One side of a game: its specification (with the match's limit filled in) and process.
pub struct Player<'a> {
    /// Name, command, options and limit.
    pub spec: &'a EngineSpec,
    /// The running engine, ready for `usinewgame`.
    pub engine: &'a mut Engine,
}

/// The ending decided by the game loop.
struct End {
    winner: Option<Color>,
    reason: Reason,
    detail: String,
    /// The side that broke down, if one did.
    faulty: Option<Color>,
}

/// What the side to move answered.
enum Answer {
    Thought(Thought, u64),
    Failed(End),
}

/// Words an engine's line may begin with (the USI description's engine-to-GUI commands).
const USI_WORDS: [&str; 7] = [
    "id",
    "option",
    "usiok",
    "readyok",
    "info",
    "bestmove",
    "checkmate",
];

/// Plays one game from `opening`, Black's engine first in `players`; the engines'
/// evaluations go into the record in `style`'s comments.
pub async fn play(
    players: [Player<'_>; 2],
    opening: &Opening,
    rules: &Rules,
    event: &str,
    style: RecordStyle,
) -> GameReport {
    let [black, white] = players;
    let specs = [black.spec, white.spec];
    let mut engines: [&mut Engine; 2] = [black.engine, white.engine];
    let mut clocks = [
        SideClock::new(&specs[0].limit),
        SideClock::new(&specs[1].limit),
    ];

    let mut record = RecordBuilder::new(opening.start.clone());
    record
        .players(&specs[0].name, &specs[1].name)
        .event(event)
        .start_time(&timestamp(SystemTime::now()));
    if let (Some(b), Some(w)) = (specs[0].limit.clock, specs[1].limit.clock)
        && b == w
    {
        record.time_control(b.record());
    }
    for (side, spec) in [("+", specs[0]), ("-", specs[1])] {
        record.comment(
            CommentKind::Hidden,
            &format!("{side} {} ({}) {}", spec.name, spec.cmd, spec.limit),
        );
    }
    record.comment(CommentKind::Hidden, &format!("opening {}", opening.label));
    for &mv in &opening.moves {
        record.play(mv, None);
    }
    let mut position = opening.position();
    let mut moves: Vec<Move> = opening.moves.clone();
    let mut scores = ScoreHistory::default();
    let mut time_ms = [0u64; 2];
    let mut plies = 0u32;

    let mut faulty = [false; 2];
    for (i, engine) in engines.iter_mut().enumerate() {
        engine.protocol().new_game();
        if engine.flush().await.is_err() {
            faulty[i] = true;
        }
    }

    let end = 'game: loop {
        if let Some(i) = faulty.iter().position(|&f| f) {
            let c = if i == 0 { Color::Black } else { Color::White };
            break End {
                winner: Some(c.flip()),
                reason: Reason::Crash,
                detail: format!("{} did not take `usinewgame`", specs[i].name),
                faulty: Some(c),
            };
        }
        let turn = position.turn();
        if let Some(end) = judge_position(&position) {
            break end;
        }
        if rules.max_plies > 0 && position.move_number().saturating_sub(1) >= rules.max_plies {
            break End {
                winner: None,
                reason: Reason::MaxMoves,
                detail: format!("{} plies", rules.max_plies),
                faulty: None,
            };
        }
        match scores.judge(rules.resign, rules.draw, position.move_number() - 1) {
            Adjudication::Loss(loser) if loser == turn => {
                break End {
                    winner: Some(loser.flip()),
                    reason: Reason::AdjudicatedLoss,
                    detail: "both engines' scores beyond the resignation threshold".to_owned(),
                    faulty: None,
                };
            }
            Adjudication::Draw => {
                break End {
                    winner: None,
                    reason: Reason::AdjudicatedDraw,
                    detail: "both engines' scores within the draw band".to_owned(),
                    faulty: None,
                };
            }
            _ => {}
        }

        let me = turn as usize;
        let spec = specs[me];
        let limit = search_limit(&spec.limit, [&clocks[0], &clocks[1]], turn);
        let command = PositionCommand::from_game(&opening.start, &moves);
        let engine = &mut *engines[me];
        let answer = think(engine, spec, &command, &limit, &clocks[me], rules, turn).await;
        let (thought, used) = match answer {
            Answer::Thought(t, used) => (t, used),
            Answer::Failed(end) => break end,
        };
        time_ms[me] += used;
        if let Err(loss) = clocks[me].charge(used, rules.margin_ms) {
            break End {
                winner: Some(turn.flip()),
                reason: Reason::TimeLoss,
                detail: format!(
                    "{} used {} ms of {} ms (margin {} ms)",
                    spec.name, loss.used_ms, loss.allowed_ms, rules.margin_ms
                ),
                faulty: None,
            };
        }
        match thought.best(&position) {
            Err(illegal) => {
                break 'game End {
                    winner: Some(turn.flip()),
                    reason: Reason::IllegalMove,
                    detail: format!("{}: {illegal}", spec.name),
                    faulty: None,
                };
            }
            Ok(BestMove::Resign) => {
                break End {
                    winner: Some(turn.flip()),
                    reason: Reason::Resign,
                    detail: String::new(),
                    faulty: None,
                };
            }
            Ok(BestMove::Win) => {
                break match position.declaration(rules.declaration) {
                    Ok((DeclarationVerdict::Win, count)) => End {
                        winner: Some(turn),
                        reason: Reason::Declaration,
                        detail: format!("{}: {} points", rules.declaration, count.points),
                        faulty: None,
                    },
                    Ok((DeclarationVerdict::Draw, count)) => End {
                        winner: None,
                        reason: Reason::DeclarationDraw,
                        detail: format!("{}: {} points", rules.declaration, count.points),
                        faulty: None,
                    },
                    Err(failure) => End {
                        winner: Some(turn.flip()),
                        reason: Reason::FailedDeclaration,
                        detail: format!(
                            "{} declared under {}: {failure}",
                            spec.name, rules.declaration
                        ),
                        faulty: None,
                    },
                };
            }
            Ok(BestMove::Move(mv)) => {
                let evaluation = Evaluation::new(&position, mv, &thought);
                position.play_unchecked(mv);
                moves.push(mv);
                plies += 1;
                record.play(mv, Some(used));
                if let Some(e) = evaluation {
                    for (kind, text) in e.comments(style, &position, &spec.name) {
                        record.comment(kind, &text);
                    }
                }
                scores.push(turn, thought.score);
            }
        }
    };

    if let Some(side) = end.faulty {
        faulty[side as usize] = true;
    }
    // The engines still fit hear how the game ended, from their own side.
    for (i, engine) in engines.iter_mut().enumerate() {
        if faulty[i] {
            continue;
        }
        let me = if i == 0 { Color::Black } else { Color::White };
        engine.stop().await;
        let word = match end.winner {
            None => GameOver::Draw,
            Some(w) if w == me => GameOver::Win,
            Some(_) => GameOver::Lose,
        };
        engine.protocol().game_over(word);
        if engine.flush().await.is_err() || engine.protocol().is_searching() {
            faulty[i] = true;
        }
    }

    record.end(ending(&end, position.turn()), &end_note(&end));
    record.end_time(&timestamp(SystemTime::now()));
    let mut record = record.finish();
    record
        .header
        .set(HeaderField::Opening, "OPENING", opening.label.clone());
    GameReport {
        winner: end.winner,
        reason: end.reason,
        detail: end.detail,
        plies,
        time_ms,
        faulty,
        record,
    }
}

/// The rules' verdict on the position before the side to move is asked.
fn judge_position(position: &Position) -> Option<End> {
    let turn = position.turn();
    let end = |winner: Option<Color>, reason, detail: &str| End {
        winner,
        reason,
        detail: detail.to_owned(),
        faulty: None,
    };
    Some(match position.outcome()? {
        Outcome::Checkmate { winner } => end(Some(winner), Reason::Checkmate, ""),
        Outcome::NoLegalMoves { winner } => end(
            Some(winner),
            Reason::NoLegalMoves,
            &format!("{turn} has no legal move"),
        ),
        Outcome::Repetition => end(None, Reason::Repetition, "the fourth occurrence (千日手)"),
        Outcome::PerpetualCheck { winner } => end(
            Some(winner),
            Reason::PerpetualCheck,
            &format!("{} checked every move (連続王手の千日手)", winner.flip()),
        ),
    })
}

/// Sends `go` and waits for the answer, within the clock (plus margin) or the hang timeout.
async fn think(
    engine: &mut Engine,
    spec: &EngineSpec,
    command: &PositionCommand,
    limit: &kifu_csa::usi::SearchLimit,
    clock: &SideClock,
    rules: &Rules,
    turn: Color,
) -> Answer {
    let fail = |reason, detail: String| {
        Answer::Failed(End {
            winner: Some(turn.flip()),
            reason,
            detail,
            faulty: Some(turn),
        })
    };
    if let Err(e) = engine.protocol().go_limited(command, limit) {
        return fail(Reason::Crash, format!("{}: {e}", spec.name));
    }
    if let Err(e) = engine.flush().await {
        return fail(
            Reason::Crash,
            format!("{} cannot be written to: {e}", spec.name),
        );
    }
    let started = Instant::now();
    let (budget, on_clock) = match clock.allowed_ms() {
        Some(ms) => (ms + rules.margin_ms, true),
        None => (rules.hang_ms, false),
    };
    let deadline = started + Duration::from_millis(budget);
    loop {
        match tokio::time::timeout_at(deadline, engine.next_line()).await {
            Err(_) => {
                let used = started.elapsed().as_millis() as u64;
                // Told to stop, an engine that merely overran answers; one that hangs does
                // not, and is restarted.
                engine.stop().await;
                let hung = engine.protocol().is_searching();
                let (reason, detail) = if on_clock {
                    (
                        Reason::TimeLoss,
                        format!(
                            "{} used more than {} ms of {} ms (margin {} ms)",
                            spec.name,
                            used,
                            budget - rules.margin_ms,
                            rules.margin_ms
                        ),
                    )
                } else {
                    (
                        Reason::NoAnswer,
                        format!("{} gave no bestmove in {} ms", spec.name, rules.hang_ms),
                    )
                };
                return Answer::Failed(End {
                    winner: Some(turn.flip()),
                    reason,
                    detail,
                    faulty: hung.then_some(turn),
                });
            }
            Ok(Err(e)) => return fail(Reason::Crash, format!("{}: {e}", spec.name)),
            Ok(Ok((_, Some(EngineEvent::BestMove(thought))))) => {
                return Answer::Thought(thought, started.elapsed().as_millis() as u64);
            }
            Ok(Ok((line, None))) if is_garbage(&line) => {
                return fail(
                    Reason::Garbage,
                    format!("{} printed `{}`, which is not USI", spec.name, line.trim()),
                );
            }
            Ok(Ok(_)) => {}
        }
    }
}

/// A line no USI engine prints: not blank, and its first word none of the engine's commands.
pub(crate) fn is_garbage(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|w| !USI_WORDS.contains(&w))
}

/// The record's ending; the mover is the side to move when the game ended.
fn ending(end: &End, mover: Color) -> EndingKind<ShogiEnding> {
    let loser = end.winner.map(Color::flip);
    match end.reason {
        Reason::Resign | Reason::AdjudicatedLoss | Reason::NoLegalMoves => EndingKind::Resign,
        Reason::Checkmate => EndingKind::Checkmate,
        Reason::Repetition => EndingKind::Repetition,
        Reason::Declaration => EndingKind::Game(ShogiEnding::DeclareWin),
        Reason::DeclarationDraw | Reason::AdjudicatedDraw => {
            EndingKind::Game(ShogiEnding::DeclareDraw)
        }
        Reason::FailedDeclaration | Reason::IllegalMove => EndingKind::IllegalMoveLoss,
        Reason::TimeLoss | Reason::NoAnswer => EndingKind::TimeLoss,
        Reason::MaxMoves => EndingKind::MaxMoves,
        Reason::PerpetualCheck | Reason::Crash | Reason::Garbage => {
            EndingKind::IllegalAction(side_of(loser.unwrap_or(mover)))
        }
    }
}

fn end_note(end: &End) -> String {
    if end.detail.is_empty() {
        end.reason.as_str().to_owned()
    } else {
        format!("{}: {}", end.reason.as_str(), end.detail)
    }
}
