//! Findings kept on disk, so that analysing the same records again with the same engine and
//! budget asks the engine nothing, an interrupted batch goes on where it stopped, and a
//! position many games reach is searched once.
//!
//! One SQLite file (`kifu analyze --cache FILE`; by default `analysis-cache.sqlite` in the
//! output directory, or beside the output file). A row per (position, engine, budget):
//!
//! - `position`: the SFEN without its move number ([`super::tasks::PositionTask::cache_key`]);
//! - `engine`: the engine's identity ([`EngineIdentity::key`]: its `id name`, its command
//!   and the options set, so that another build or other settings are not taken for it);
//! - `budget`: `nodes=20000`, `depth=12` or `movetime=500`;
//! - `finding`: the [`Finding`] as JSON.
//!
//! Each finding is written as it arrives, in its own transaction, so an interrupted batch
//! loses at most the positions being searched. The journal is SQLite's write-ahead log.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

use super::{Budget, Finding};

/// What makes two engines the same for the cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineIdentity {
    /// `id name` as the engine says it (empty if it says none).
    pub name: String,
    /// The command line it was started with.
    pub command: String,
    /// The `setoption` pairs sent, in order.
    pub options: Vec<(String, String)>,
}

impl EngineIdentity {
    /// `name|command|option=value,…`: the cache's engine column.
    pub fn key(&self) -> String {
        let options: Vec<String> = self
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!("{}|{}|{}", self.name, self.command, options.join(","))
    }
}

/// A cache file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("the analysis cache {path}: {source}")]
pub struct CacheError {
    /// The file.
    pub path: String,
    /// SQLite's reason.
    pub source: rusqlite::Error,
}

/// An open cache.
pub struct Cache {
    connection: Connection,
    path: String,
}

impl Cache {
    /// Opens (or creates) the cache file at `path`.
    pub fn open(path: &Path) -> Result<Cache, CacheError> {
        let failed = |source| CacheError {
            path: path.display().to_string(),
            source,
        };
        let connection = Connection::open(path).map_err(failed)?;
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL;
                 PRAGMA synchronous = NORMAL;
                 CREATE TABLE IF NOT EXISTS findings (
                     position TEXT NOT NULL,
                     engine TEXT NOT NULL,
                     budget TEXT NOT NULL,
                     finding TEXT NOT NULL,
                     PRIMARY KEY (position, engine, budget)
                 ) WITHOUT ROWID;",
            )
            .map_err(failed)?;
        Ok(Cache {
            connection,
            path: path.display().to_string(),
        })
    }

    fn failed(&self, source: rusqlite::Error) -> CacheError {
        CacheError {
            path: self.path.clone(),
            source,
        }
    }

    /// The finding kept for this position, engine and budget. A row that no longer reads as
    /// a finding (written by another version) counts as missing and is searched again.
    pub fn get(
        &self,
        position: &str,
        engine: &str,
        budget: Budget,
    ) -> Result<Option<Finding>, CacheError> {
        let text: Option<String> = self
            .connection
            .prepare_cached(
                "SELECT finding FROM findings WHERE position = ?1 AND engine = ?2 AND budget = ?3",
            )
            .and_then(|mut s| {
                s.query_row(params![position, engine, budget.to_string()], |row| {
                    row.get(0)
                })
                .optional()
            })
            .map_err(|e| self.failed(e))?;
        Ok(text.and_then(|t| serde_json::from_str(&t).ok()))
    }

    /// Keeps a finding (replacing one of the same key).
    pub fn put(
        &self,
        position: &str,
        engine: &str,
        budget: Budget,
        finding: &Finding,
    ) -> Result<(), CacheError> {
        let text = serde_json::to_string(finding).expect("a finding is plain data");
        self.connection
            .prepare_cached(
                "INSERT OR REPLACE INTO findings (position, engine, budget, finding) VALUES (?1, ?2, ?3, ?4)",
            )
            .and_then(|mut s| s.execute(params![position, engine, budget.to_string(), text]))
            .map_err(|e| self.failed(e))?;
        Ok(())
    }

    /// How many findings the file holds.
    pub fn len(&self) -> Result<u64, CacheError> {
        self.connection
            .query_row("SELECT count(*) FROM findings", [], |row| row.get(0))
            .map_err(|e| self.failed(e))
    }

    /// Whether the file holds no finding.
    pub fn is_empty(&self) -> Result<bool, CacheError> {
        Ok(self.len()? == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Score;

    #[test]
    fn a_finding_is_found_again_only_under_its_engine_and_budget() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache.sqlite");
        let finding = Finding {
            score: Some(Score::Centipawns(-120)),
            bestmove: "3c3d".to_owned(),
            pv: vec!["3c3d".to_owned()],
            depth: Some(7),
            seldepth: Some(9),
            nodes: Some(20000),
        };
        let engine = EngineIdentity {
            name: "sekirei".to_owned(),
            command: "sekirei".to_owned(),
            options: vec![("Threads".to_owned(), "1".to_owned())],
        }
        .key();
        {
            let cache = Cache::open(&path).unwrap();
            assert!(cache.is_empty().unwrap());
            cache
                .put("SFEN", &engine, Budget::Nodes(20000), &finding)
                .unwrap();
        }
        let cache = Cache::open(&path).unwrap();
        assert_eq!(
            cache.get("SFEN", &engine, Budget::Nodes(20000)).unwrap(),
            Some(finding)
        );
        assert_eq!(
            cache.get("SFEN", &engine, Budget::Nodes(2000)).unwrap(),
            None
        );
        assert_eq!(
            cache.get("SFEN", "other", Budget::Nodes(20000)).unwrap(),
            None
        );
        assert_eq!(
            cache.get("OTHER", &engine, Budget::Nodes(20000)).unwrap(),
            None
        );
        assert_eq!(cache.len().unwrap(), 1);
    }
}
