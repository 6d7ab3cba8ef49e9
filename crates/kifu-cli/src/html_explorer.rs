//! `kifu html --archive`: the archive's answers for each position of a page's record (the
//! questions are kifu-index's `explore` and `similar`; the page part is kifu-render's
//! `explorer`). Only shogi records are asked about: the archive holds shogi games.

use std::collections::HashSet;

use kifu_index::archive::Archive;
use kifu_index::key::{game_key, hex, position_key};
use kifu_index::query::{Filter, explore, similar};
use kifu_record::{Game as _, Record};
use kifu_render::explorer::{ExploredMove, ExploredPosition, Explorer, SimilarGame};
use kifu_shogi::{Position, Shogi};

use crate::error::CliError;
use crate::games::RecordsVisitor;

/// Similar games listed on a page.
const SIMILAR_GAMES: usize = 10;
/// A position reached by more games than this is too common to tell games apart.
const COMMON_POSITION: usize = 1000;

/// Collects the explorer of each shogi record handed over; `None` for another game's.
pub struct ExplorerVisitor<'a> {
    pub archive: &'a Archive,
    pub explorers: Vec<Option<Explorer>>,
    pub error: Option<CliError>,
}

impl RecordsVisitor for ExplorerVisitor<'_> {
    fn shogi(&mut self, records: &[Record<Shogi>]) {
        for record in records {
            match explorer(self.archive, record) {
                Ok(explorer) => self.explorers.push(Some(explorer)),
                Err(e) => {
                    self.error.get_or_insert(e);
                    self.explorers.push(None);
                }
            }
        }
    }
    fn chu(&mut self, records: &[Record<kifu_chu::Chu>]) {
        self.explorers.extend(records.iter().map(|_| None));
    }
    fn cetkaik(&mut self, records: &[Record<kifu_cetkaik::Cetkaik>]) {
        self.explorers.extend(records.iter().map(|_| None));
    }
}

/// A position's text as the page's script looks it up: SFEN without its move number.
fn position_text(position: &Position) -> String {
    let sfen = position.to_sfen();
    sfen.rsplit_once(' ')
        .map_or(sfen.clone(), |(head, _)| head.to_owned())
}

fn explorer(archive: &Archive, record: &Record<Shogi>) -> Result<Explorer, CliError> {
    let failed = |e: kifu_index::archive::ArchiveError| CliError::Failed(e.to_string());
    // Every position of the record, variations included, each with its ply.
    let start = Shogi::start_position(&record.start);
    let mut positions: Vec<(Position, u32)> = vec![(start, 0)];
    record.walk_tree(|id, before, &mv| {
        let mut after = before.clone();
        after.play_unchecked(mv);
        positions.push((after, record.moves[id].ply()));
    });
    let mut main_keys = vec![position_key(&Shogi::start_position(&record.start))];
    record.walk_main_line(|_, before, &mv| {
        let mut after = before.clone();
        after.play_unchecked(mv);
        main_keys.push(position_key(&after));
    });
    let own_key = hex(game_key(&main_keys));

    let mut explorer = Explorer {
        archive_games: u64::from(archive.games()),
        ..Explorer::default()
    };
    let mut seen = HashSet::new();
    let filter = Filter::default();
    for (position, _) in &positions {
        if !seen.insert(position_key(position)) {
            continue;
        }
        let found = explore(archive, position, &filter, 0).map_err(failed)?;
        if found.games == 0 {
            continue;
        }
        explorer.positions.push(ExploredPosition {
            position: position_text(position),
            games: found.games,
            moves: found
                .moves
                .into_iter()
                .map(|m| ExploredMove {
                    mv: m.mv,
                    games: m.games,
                    wins: m.results.win,
                    draws: m.results.draw,
                    losses: m.results.loss,
                    average_rating: m.average_rating,
                })
                .collect(),
        });
    }
    let keys: Vec<(u64, u32)> = positions
        .iter()
        .map(|(p, ply)| (position_key(p), *ply))
        .collect();
    // One more than shown, as the record itself may be among them.
    for found in similar(archive, &keys, COMMON_POSITION, SIMILAR_GAMES + 1) {
        let meta = archive.game(found.game).map_err(failed)?;
        if meta.game_key == own_key || explorer.similar.len() == SIMILAR_GAMES {
            continue;
        }
        let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".into());
        let mut label = format!("{} – {}", name(&meta.black), name(&meta.white));
        if let Some(day) = meta.day.as_ref().or(meta.date.as_ref()) {
            label.push_str(&format!(", {day}"));
        }
        label.push_str(&format!(", {}", meta.result.name()));
        explorer.similar.push(SimilarGame {
            label,
            file: meta.file,
            record: meta.record,
            shared: found.shared,
            deepest_ply: found.deepest_ply,
        });
    }
    Ok(explorer)
}

/// Opens the archive `--archive` names, if any (one it cannot open is a usage error: the
/// command line named something that is no archive).
pub fn open(path: Option<&std::path::Path>) -> Result<Option<Archive>, CliError> {
    let Some(path) = path else {
        return Ok(None);
    };
    Archive::open(path)
        .map(Some)
        .map_err(|e| CliError::usage(format!("--archive: {e}")))
}

/// Adds the explorer to each page of a batch, in the order the batch made them.
pub fn attach(
    archive: &Archive,
    batch: &dyn crate::games::RecordBatch,
    pages: &mut [(kifu_render::html::Page, crate::games::Summary)],
) -> Result<(), CliError> {
    let mut visitor = ExplorerVisitor {
        archive,
        explorers: Vec::new(),
        error: None,
    };
    batch.visit(&mut visitor);
    if let Some(e) = visitor.error {
        return Err(e);
    }
    for ((page, _), explorer) in pages.iter_mut().zip(&visitor.explorers) {
        match explorer {
            Some(explorer) => kifu_render::explorer::attach(page, explorer, "data-sfen"),
            None => eprintln!(
                "kifu html: --archive holds shogi games; a page of another game has no explorer"
            ),
        }
    }
    Ok(())
}
