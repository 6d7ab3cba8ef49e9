//! The archive benchmark's two halves that are not `kifu index` itself (issue 34): making a
//! large archive of real games from a fixed seed, and timing questions asked of it from a cold
//! process. `scripts/bench-archive` runs both around `kifu index` and prints every figure.
//!
//! ```text
//! bench_archive generate OUT_DIR [--games N] [--files F] [--seed S]
//!     OUT_DIR/records/bench-NN.csa   F multi-record CSA files (records separated by `/`)
//!                                    holding N games
//!     OUT_DIR/queries.txt            1,000 positions of those games (SFEN), sampled with
//!                                    the same seed
//! bench_archive query KIFU_BINARY ARCHIVE QUERIES_FILE
//!     runs `kifu explore ARCHIVE POSITION --json` as a new process for the start position and
//!     for each listed position, and prints p50/p99/max of the wall time, spawn to exit
//! bench_archive run -- COMMAND…
//!     runs COMMAND and prints its wall time and peak resident memory (getrusage)
//! ```
//!
//! The games are the 500 real games of the corpus (`shogi/lishogi-usi/games.txt`), each new game
//! a prefix of one of them (a quarter of it or more) continued with random legal moves (up to
//! 60 plies, never past a position the rules end): real openings, with the spread of positions
//! a real archive has further on. Headers carry players from a pool of 400, floodgate-style
//! ratings, a date over ten years and an event, so filters and partitions have something to
//! work on. Each game draws from its own splitmix64 stream (seed, game number), so the files
//! are the same byte for byte whatever the number of threads.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use kifu_shogi::notation::csa::CsaMove;
use kifu_shogi::{Move, MoveList, Position};
use rayon::prelude::*;

/// splitmix64, the generator `docs/position-key.md` draws the key's numbers from.
struct Rng(u64);

impl Rng {
    fn new(seed: u64, stream: u64) -> Rng {
        let mut rng = Rng(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        rng.next();
        rng
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}

const PLAYERS: u64 = 400;
const MAX_RANDOM_PLIES: u64 = 60;
const QUERIES: usize = 1000;
/// Games made at a time: each batch is made in parallel and written in order.
const BATCH: usize = 8192;

/// One generated game: its CSA text and, when it was sampled, a position of it for the queries.
fn make_game(
    sources: &[Vec<Move>],
    seed: u64,
    number: u64,
    sample: bool,
) -> (String, Option<String>) {
    let mut rng = Rng::new(seed, number);
    let source = &sources[rng.below(sources.len() as u64) as usize];
    let keep = source.len() / 4 + rng.below((source.len() - source.len() / 4) as u64 + 1) as usize;
    let extra = rng.below(MAX_RANDOM_PLIES + 1);
    let mut position = Position::startpos();
    position.reserve(keep + extra as usize);
    let mut moves: Vec<Move> = Vec::with_capacity(keep + extra as usize);
    for &mv in &source[..keep] {
        moves.push(mv);
        position.play_unchecked(mv);
    }
    let mut legal = MoveList::new();
    for _ in 0..extra {
        if position.outcome().is_some() {
            break;
        }
        legal.clear();
        position.generate_legal_moves(&mut legal);
        let mv = legal[rng.below(legal.len() as u64) as usize];
        moves.push(mv);
        position.play_unchecked(mv);
    }

    let black = rng.below(PLAYERS);
    let white = (black + 1 + rng.below(PLAYERS - 1)) % PLAYERS;
    let rating = |rng: &mut Rng| 1200 + rng.below(2000);
    let (black_rate, white_rate) = (rating(&mut rng), rating(&mut rng));
    // 2015-01-01 plus up to ten years, as a civil date.
    let day = 16_436 + rng.below(3652) as i64;
    let (y, m, d) = civil_from_days(day);
    let (hour, minute) = (rng.below(24), rng.below(60));

    let mut text = String::with_capacity(160 + moves.len() * 12);
    let _ = write!(
        text,
        "V2.2\nN+player{black:03}\nN-player{white:03}\n\
         'black_rate:player{black:03}:{black_rate}.0\n'white_rate:player{white:03}:{white_rate}.0\n\
         $EVENT:bench {y} game {number}\n$START_TIME:{y:04}/{m:02}/{d:02} {hour:02}:{minute:02}:00\n\
         $TIME_LIMIT:00:10+10\nPI\n+\n"
    );
    let sample_ply = sample.then(|| rng.below(moves.len() as u64 + 1) as usize);
    let mut sampled = None;
    let mut replay = Position::startpos();
    replay.reserve(moves.len());
    for (ply, &mv) in moves.iter().enumerate() {
        if sample_ply == Some(ply) {
            sampled = Some(replay.to_sfen());
        }
        let _ = writeln!(
            text,
            "{}\nT{}",
            CsaMove::from_move(&replay, mv),
            rng.below(30)
        );
        replay.play_unchecked(mv);
    }
    if sample_ply == Some(moves.len()) {
        sampled = Some(replay.to_sfen());
    }
    text.push_str("%TORYO\n");
    (text, sampled)
}

/// A civil date from days since 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn read_sources() -> Vec<Vec<Move>> {
    let text = std::fs::read_to_string(kifu_testkit::corpus::path("shogi/lishogi-usi/games.txt"))
        .expect("the corpus's lishogi games");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut position = Position::startpos();
            line.split_whitespace()
                .map(|usi| {
                    let mv = position.parse_usi_move(usi).expect("a corpus move");
                    position.play(mv).expect("a legal corpus move");
                    mv
                })
                .collect()
        })
        .collect()
}

fn generate(out: &Path, games: u64, files: u64, seed: u64) -> Result<(), String> {
    let records = out.join("records");
    std::fs::create_dir_all(&records).map_err(|e| format!("{}: {e}", records.display()))?;
    let sources = read_sources();
    // Which games give a query position: QUERIES distinct numbers from the seed's own stream.
    let mut picker = Rng::new(seed, u64::MAX);
    let mut sampled = std::collections::BTreeSet::new();
    while sampled.len() < QUERIES.min(games as usize) {
        sampled.insert(picker.below(games));
    }
    let per_file = games.div_ceil(files.max(1));
    let mut queries = Vec::new();
    let started = Instant::now();
    let mut bytes = 0u64;
    for file in 0..files {
        let first = file * per_file;
        let last = (first + per_file).min(games);
        if first >= last {
            break;
        }
        let path = records.join(format!("bench-{file:02}.csa"));
        let handle =
            std::fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut writer = std::io::BufWriter::with_capacity(1 << 20, handle);
        let mut number = first;
        while number < last {
            let end = (number + BATCH as u64).min(last);
            let made: Vec<(String, Option<String>)> = (number..end)
                .into_par_iter()
                .map(|n| make_game(&sources, seed, n, sampled.contains(&n)))
                .collect();
            for (i, (text, query)) in made.into_iter().enumerate() {
                if number + i as u64 != first {
                    writer.write_all(b"/\n").map_err(|e| e.to_string())?;
                    bytes += 2;
                }
                writer
                    .write_all(text.as_bytes())
                    .map_err(|e| e.to_string())?;
                bytes += text.len() as u64;
                queries.extend(query);
            }
            number = end;
        }
        writer.flush().map_err(|e| e.to_string())?;
    }
    std::fs::write(out.join("queries.txt"), queries.join("\n") + "\n")
        .map_err(|e| e.to_string())?;
    println!(
        "generated {games} games in {files} files ({:.0} MB) in {:.1} s; {} query positions",
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64(),
        queries.len()
    );
    Ok(())
}

/// The CPU time (user + system) of the children waited for so far, in milliseconds.
fn children_cpu_ms() -> f64 {
    // SAFETY: getrusage writes into the struct it is given and nothing else.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1e3 + t.tv_usec as f64 / 1e3;
    ms(usage.ru_utime) + ms(usage.ru_stime)
}

/// Wall and CPU times of a command started afresh for each position, in milliseconds, each
/// list sorted. On a loaded machine the wall time includes waiting for a core; the CPU time
/// does not.
fn time_queries(
    kifu: &Path,
    archive: &Path,
    positions: &[String],
) -> Result<(Vec<f64>, Vec<f64>), String> {
    let mut times = Vec::with_capacity(positions.len());
    let mut cpu = Vec::with_capacity(positions.len());
    for position in positions {
        let cpu_before = children_cpu_ms();
        let started = Instant::now();
        let output = Command::new(kifu)
            .arg("explore")
            .arg(archive)
            .arg(position)
            .arg("--json")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("{}: {e}", kifu.display()))?;
        let ms = started.elapsed().as_secs_f64() * 1e3;
        cpu.push(children_cpu_ms() - cpu_before);
        if !output.status.success() {
            return Err(format!(
                "kifu explore {position}: {}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        let answer: serde_json::Value = serde_json::from_slice(&output.stdout)
            .map_err(|e| format!("kifu explore {position}: not JSON: {e}"))?;
        if answer["moves"].as_array().is_none() {
            return Err(format!("kifu explore {position}: no moves list"));
        }
        times.push(ms);
    }
    times.sort_by(f64::total_cmp);
    cpu.sort_by(f64::total_cmp);
    Ok((times, cpu))
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let at = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[at]
}

fn query(kifu: &Path, archive: &Path, queries: &Path) -> Result<(), String> {
    let listed =
        std::fs::read_to_string(queries).map_err(|e| format!("{}: {e}", queries.display()))?;
    let random: Vec<String> = listed
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    let start = vec!["startpos".to_owned(); random.len()];
    for (label, positions) in [("start position", &start), ("archive positions", &random)] {
        let (times, cpu) = time_queries(kifu, archive, positions)?;
        println!(
            "explore, {label}: {} cold processes, wall p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; \
             CPU p50 {:.1} ms, p99 {:.1} ms",
            times.len(),
            percentile(&times, 0.50),
            percentile(&times, 0.99),
            times.last().copied().unwrap_or(0.0),
            percentile(&cpu, 0.50),
            percentile(&cpu, 0.99),
        );
    }
    Ok(())
}

/// Runs a command and reports its wall time and peak resident set (of the child, by
/// getrusage: the kernel's own count, so nothing sampled is missed).
fn run(command: &[String]) -> Result<(), String> {
    let (program, args) = command.split_first().ok_or("run: no command")?;
    let started = Instant::now();
    let status = Command::new(program)
        .args(args)
        .status()
        .map_err(|e| format!("{program}: {e}"))?;
    let seconds = started.elapsed().as_secs_f64();
    // SAFETY: getrusage writes into the struct it is given and nothing else.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    println!(
        "wall {seconds:.2} s, user {:.2} s, system {:.2} s, peak memory {:.0} MB",
        usage.ru_utime.tv_sec as f64 + usage.ru_utime.tv_usec as f64 / 1e6,
        usage.ru_stime.tv_sec as f64 + usage.ru_stime.tv_usec as f64 / 1e6,
        usage.ru_maxrss as f64 / 1024.0
    );
    if status.success() {
        Ok(())
    } else {
        Err(format!("{program} ended with {status}"))
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str, default: u64| -> Result<u64, String> {
        match args.iter().position(|a| a == name) {
            Some(i) => args
                .get(i + 1)
                .and_then(|v| v.replace('_', "").parse().ok())
                .ok_or(format!("{name} takes a number")),
            None => Ok(default),
        }
    };
    let result = match args.first().map(String::as_str) {
        Some("generate") if args.len() >= 2 => (|| {
            generate(
                &PathBuf::from(&args[1]),
                flag("--games", 1_000_000)?,
                flag("--files", 20)?,
                flag("--seed", 34)?,
            )
        })(),
        Some("query") if args.len() == 4 => query(
            Path::new(&args[1]),
            Path::new(&args[2]),
            Path::new(&args[3]),
        ),
        Some("run") if args.len() >= 3 && args[1] == "--" => run(&args[2..]),
        _ => Err(
            "usage: bench_archive generate OUT_DIR [--games N] [--files F] [--seed S]\n       \
                  bench_archive query KIFU ARCHIVE QUERIES\n       bench_archive run -- COMMAND…"
                .to_owned(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench_archive: {e}");
            ExitCode::from(2)
        }
    }
}
