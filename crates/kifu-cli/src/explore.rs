//! `kifu explore` and `kifu find`: the two questions an archive answers (kifu-index's
//! `query`), with the position and the filters given the same way.

use std::io::Write;
use std::path::PathBuf;

use kifu_index::archive::{Archive, ArchiveError};
use kifu_index::games::GameResult;
use kifu_index::query::{self, Filter, GameRef};
use kifu_shogi::Position;

use crate::Outcome;
use crate::error::CliError;

/// Where the position comes from and which games count.
#[derive(clap::Args)]
pub struct Question {
    /// The archive (`kifu index … -o ARCHIVE`).
    #[arg(value_name = "ARCHIVE")]
    archive: PathBuf,
    /// `startpos`, an SFEN (quoted), `startpos moves 7g7f …`, or a record file (with --ply).
    #[arg(value_name = "POSITION", default_value = "startpos")]
    position: String,
    /// With a record file: the position after this many moves of its main line.
    #[arg(long, value_name = "N", default_value_t = 0)]
    ply: usize,
    /// With a record file: which record of it, counted from 1.
    #[arg(long, value_name = "N", default_value_t = 1)]
    record: usize,
    /// Only games where a player's name contains this (case-insensitive).
    #[arg(long, value_name = "NAME")]
    player: Option<String>,
    /// Only games where both players are rated at least this.
    #[arg(long, value_name = "RATING")]
    min_rating: Option<f32>,
    /// Only games started on or after this day (YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    from: Option<String>,
    /// Only games started on or before this day (YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    to: Option<String>,
    /// Only games whose event contains this (case-insensitive).
    #[arg(long, value_name = "TEXT")]
    event: Option<String>,
    /// Only games with this result: black-win, white-win, draw or unknown.
    #[arg(long, value_name = "RESULT")]
    result: Option<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  kifu explore games.kidx\n  \
kifu explore games.kidx \"startpos moves 7g7f 3c3d\" --min-rating 3000 --json\n  \
kifu explore games.kidx game.kif --ply 24")]
pub struct ExploreArgs {
    #[command(flatten)]
    question: Question,
    /// How many top-rated and latest games to list.
    #[arg(long, value_name = "N", default_value_t = 5)]
    top: usize,
}

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  kifu find games.kidx \"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\"\n  \
kifu find games.kidx game.csa --ply 30 --player suisho --json"
)]
pub struct FindArgs {
    #[command(flatten)]
    question: Question,
    /// List at most this many games.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
}

impl Question {
    fn filter(&self) -> Result<Filter, CliError> {
        let day = |d: &Option<String>, flag: &str| {
            d.as_deref()
                .map(|t| Filter::day(t).map_err(|e| CliError::Usage(format!("{flag}: {e}"))))
                .transpose()
        };
        Ok(Filter {
            player: self.player.clone(),
            min_rating: self.min_rating,
            from_day: day(&self.from, "--from")?,
            to_day: day(&self.to, "--to")?,
            event: self.event.clone(),
            result: self
                .result
                .as_deref()
                .map(|r| {
                    GameResult::by_name(r).ok_or_else(|| {
                        CliError::Usage(format!(
                            "--result: `{r}` (one of: black-win, white-win, draw, unknown)"
                        ))
                    })
                })
                .transpose()?,
        })
    }

    fn position(&self) -> Result<Position, CliError> {
        let path = std::path::Path::new(&self.position);
        if !path.is_file() {
            if self.ply != 0 || self.record != 1 {
                return Err(CliError::usage(
                    "--ply and --record go with a record file, not a position",
                ));
            }
            return query::parse_position(&self.position).map_err(CliError::Usage);
        }
        let bytes =
            std::fs::read(path).map_err(|e| crate::inputs::open_error(&self.position, e))?;
        let file = kifu_index::read::read_file(&self.position, Some(path), &bytes, None);
        if let Some(why) = file.failed {
            return Err(CliError::Failed(format!("{}: {why}", self.position)));
        }
        let count = file.games.len();
        let game = self
            .record
            .checked_sub(1)
            .and_then(|i| file.games.get(i))
            .ok_or_else(|| crate::games::no_such_record(self.record, count, &self.position))?;
        if self.ply > game.moves.len() {
            return Err(CliError::usage(format!(
                "--ply {}: record {} of {} has {} moves",
                self.ply,
                self.record,
                self.position,
                game.moves.len()
            )));
        }
        let mut position = match &game.meta.start {
            Some(sfen) => Position::from_sfen(sfen).map_err(|e| CliError::Failed(e.to_string()))?,
            None => Position::startpos(),
        };
        for &code in &game.moves[..self.ply] {
            if let Some(mv) = kifu_index::key::move_of_code(code) {
                position.play_unchecked(mv);
            }
        }
        Ok(position)
    }

    fn open(&self) -> Result<Archive, CliError> {
        Archive::open(&self.archive).map_err(|e| match e {
            ArchiveError::NotAnArchive(_) => CliError::Usage(e.to_string()),
            ArchiveError::Io { ref source, .. }
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                CliError::Usage(format!("{}: no such archive", self.archive.display()))
            }
            _ => CliError::Failed(e.to_string()),
        })
    }
}

fn print(text: &str) -> Result<(), CliError> {
    std::io::stdout()
        .write_all(text.as_bytes())
        .map_err(|e| CliError::Failed(format!("writing the answer: {e}")))
}

fn failed(e: ArchiveError) -> CliError {
    CliError::Failed(e.to_string())
}

fn game_line(g: &GameRef) -> String {
    let name = |n: &Option<String>, r: Option<f64>| {
        let n = n.as_deref().unwrap_or("?");
        match r {
            Some(r) => format!("{n} ({r:.0})"),
            None => n.to_owned(),
        }
    };
    format!(
        "{}#{} ply {}  {} vs {}  {}  {}",
        g.file,
        g.record,
        g.ply,
        name(&g.black, g.black_rating),
        name(&g.white, g.white_rating),
        g.date.as_deref().unwrap_or("-"),
        g.result.name()
    )
}

pub fn explore(args: ExploreArgs) -> Result<Outcome, CliError> {
    let q = &args.question;
    let filter = q.filter()?;
    let position = q.position()?;
    let archive = q.open()?;
    let found = query::explore(&archive, &position, &filter, args.top).map_err(failed)?;
    if q.json {
        let mut text = serde_json::to_string(&found).map_err(|e| e.to_string())?;
        text.push('\n');
        return print(&text).map(|()| Outcome::Ok);
    }
    let mut out = format!(
        "{}\n{} games, {} to move: {} won, {} drawn, {} lost, {} unfinished; {} ended here\n\n",
        found.position,
        found.games,
        found.side_to_move,
        found.results.win,
        found.results.draw,
        found.results.loss,
        found.results.unknown,
        found.ended_here,
    );
    out.push_str(&format!(
        "{:<8}{:>9}{:>8}{:>8}{:>8}{:>10}  {}\n",
        "move", "games", "win%", "draw%", "loss%", "rating", "last played"
    ));
    for m in &found.moves {
        let pct = |n: u64| 100.0 * n as f64 / m.games.max(1) as f64;
        out.push_str(&format!(
            "{:<8}{:>9}{:>8.1}{:>8.1}{:>8.1}{:>10}  {}\n",
            m.mv,
            m.games,
            pct(m.results.win),
            pct(m.results.draw),
            pct(m.results.loss),
            m.average_rating.map_or("-".into(), |r| format!("{r:.0}")),
            m.last_played.as_deref().unwrap_or("-")
        ));
    }
    for (title, list) in [
        ("top games", &found.top_games),
        ("latest games", &found.latest_games),
    ] {
        if !list.is_empty() {
            out.push_str(&format!("\n{title}:\n"));
            for g in list {
                out.push_str(&format!("  {}\n", game_line(g)));
            }
        }
    }
    print(&out).map(|()| Outcome::Ok)
}

pub fn find(args: FindArgs) -> Result<Outcome, CliError> {
    let q = &args.question;
    let filter = q.filter()?;
    let position = q.position()?;
    let archive = q.open()?;
    let found = query::find(&archive, &position, &filter, args.limit).map_err(failed)?;
    let mut out = String::new();
    if q.json {
        out = serde_json::to_string(&found).map_err(|e| e.to_string())?;
        out.push('\n');
    } else {
        for g in &found {
            out.push_str(&game_line(g));
            out.push('\n');
        }
        out.push_str(&format!("{} games\n", found.len()));
    }
    print(&out).map(|()| Outcome::Ok)
}
