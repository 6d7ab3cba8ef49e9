//! The server's small embedded store (SQLite): players' tallies, the index of games and
//! the key player ids are made with (see [`crate::server::identity`]), so a restart loses
//! nothing.
//!
//! A player has a row only once it has finished a game: a login counts in the row it
//! already has and adds none, so logins that never play cost the store nothing.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

use crate::plain_text::escape_controls;
use crate::server::identity::KEY_LEN;

/// One finished game in the index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The Game_ID.
    pub id: String,
    /// The game name the players asked for (`floodgate-300-10F`).
    pub game_name: String,
    /// Black's login name.
    pub black: String,
    /// White's login name.
    pub white: String,
    /// Black's player id (`name` or `name+<digest of its trip>`): whose tally it counts in.
    pub black_id: String,
    /// White's player id.
    pub white_id: String,
    /// `YYYY/MM/DD HH:MM:SS`, UTC.
    pub start_time: String,
    /// `YYYY/MM/DD HH:MM:SS`, UTC; empty while the game is in progress.
    pub end_time: String,
    /// `RESIGN`, `TIME_UP` … (the `#` token).
    pub reason: String,
    /// `+`, `-`, or empty for a draw.
    pub winner: String,
    /// Moves played.
    pub plies: u32,
    /// The record's path, empty when none was written.
    pub path: String,
}

impl GameRow {
    /// The row's twelve columns, in the order of the `games` table.
    fn sql_params(&self) -> [&dyn rusqlite::ToSql; 12] {
        [
            &self.id,
            &self.game_name,
            &self.black,
            &self.white,
            &self.start_time,
            &self.end_time,
            &self.reason,
            &self.winner,
            &self.plies,
            &self.path,
            &self.black_id,
            &self.white_id,
        ]
    }

    /// The row with control characters escaped in every text a player could have chosen,
    /// so that an export of the index line by line has one line per game.
    fn escaped(&self) -> GameRow {
        let e = |s: &String| escape_controls(s).into_owned();
        GameRow {
            id: e(&self.id),
            game_name: e(&self.game_name),
            black: e(&self.black),
            white: e(&self.white),
            start_time: e(&self.start_time),
            end_time: e(&self.end_time),
            reason: e(&self.reason),
            winner: e(&self.winner),
            plies: self.plies,
            path: self.path.clone(),
            black_id: e(&self.black_id),
            white_id: e(&self.white_id),
        }
    }
}

/// A player's tally.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerRow {
    /// The player id (the login name, with `+<digest>` for a player with a trip).
    pub name: String,
    /// Logins accepted since its first finished game.
    pub logins: u32,
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games that ended without a winner (a draw, the move limit, an interruption).
    pub draws: u32,
}

/// The SQLite file of players' tallies, the game index and settings.
///
/// ```
/// use kifu_csa_net::server::store::Store;
///
/// let store = Store::in_memory().unwrap();
/// // A player with no finished game has no row, and a login adds none.
/// store.login("alice").unwrap();
/// assert!(store.player("alice").unwrap().is_none());
/// ```
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens (creating if needed) the store at `path`.
    pub fn open(path: &Path) -> rusqlite::Result<Store> {
        Store::init(Connection::open(path)?)
    }

    /// A store that lives in memory only.
    pub fn in_memory() -> rusqlite::Result<Store> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> rusqlite::Result<Store> {
        conn.execute_batch(
            "PRAGMA journal_mode=WAL;
             CREATE TABLE IF NOT EXISTS players (
                 name TEXT PRIMARY KEY, logins INTEGER NOT NULL DEFAULT 0,
                 wins INTEGER NOT NULL DEFAULT 0, losses INTEGER NOT NULL DEFAULT 0,
                 draws INTEGER NOT NULL DEFAULT 0);
             CREATE TABLE IF NOT EXISTS games (
                 id TEXT PRIMARY KEY, game_name TEXT NOT NULL, black TEXT NOT NULL,
                 white TEXT NOT NULL, start_time TEXT NOT NULL, end_time TEXT NOT NULL,
                 reason TEXT NOT NULL, winner TEXT NOT NULL, plies INTEGER NOT NULL,
                 path TEXT NOT NULL);
             CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value BLOB NOT NULL);
             CREATE TABLE IF NOT EXISTS ratings (
                 player TEXT PRIMARY KEY, rate INTEGER NOT NULL, rating_group INTEGER NOT NULL,
                 wins REAL NOT NULL, losses REAL NOT NULL, computed TEXT NOT NULL);
             CREATE TABLE IF NOT EXISTS buoys (
                 name TEXT PRIMARY KEY, moves TEXT NOT NULL, owner TEXT NOT NULL,
                 count INTEGER NOT NULL);",
        )?;
        // Stores made before player ids had no id columns: their rows keep the names.
        let has_ids = conn
            .prepare("SELECT 1 FROM pragma_table_info('games') WHERE name = 'black_id'")?
            .exists([])?;
        if !has_ids {
            conn.execute_batch(
                "ALTER TABLE games ADD COLUMN black_id TEXT NOT NULL DEFAULT '';
                 ALTER TABLE games ADD COLUMN white_id TEXT NOT NULL DEFAULT '';
                 UPDATE games SET black_id = black, white_id = white;",
            )?;
        }
        // WAL with NORMAL sync survives a crash of the server; only a power cut can lose the
        // last commits, and each login no longer waits for a disk flush.
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        // A store locked by another process fails fast rather than hold the server's
        // threads: the record keeper tries again, and nothing else waits for a write.
        conn.busy_timeout(std::time::Duration::from_millis(200))?;
        Ok(Store { conn })
    }

    /// Counts a login in the player's row, if it has one (see the type's notes).
    pub fn login(&self, player: &str) -> rusqlite::Result<()> {
        self.conn.execute(
            "UPDATE players SET logins = logins + 1 WHERE name = ?1",
            params![player],
        )?;
        Ok(())
    }

    /// The key player ids are made with: the stored one, or a new random one stored now.
    pub fn trip_key(&self) -> rusqlite::Result<[u8; KEY_LEN]> {
        let stored: Option<Vec<u8>> = self
            .conn
            .query_row(
                "SELECT value FROM settings WHERE name = 'trip_key'",
                [],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(key) = stored.and_then(|v| <[u8; KEY_LEN]>::try_from(v).ok()) {
            return Ok(key);
        }
        let mut key = [0u8; KEY_LEN];
        getrandom::fill(&mut key)
            .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
        self.conn.execute(
            "INSERT OR REPLACE INTO settings (name, value) VALUES ('trip_key', ?1)",
            params![&key[..]],
        )?;
        Ok(key)
    }

    /// Adds a game that has just started, in progress (no end time, no reason) until it is
    /// finished; a row a crash leaves so is closed as interrupted (`CHUDAN`) at the next
    /// start, to match its record. An id already indexed is an error — no game's row is
    /// ever replaced by another's.
    pub fn begin_game(&self, g: &GameRow) -> rusqlite::Result<()> {
        let g = &g.escaped();
        self.conn.execute(
            "INSERT INTO games (id, game_name, black, white, start_time, end_time, reason,
                 winner, plies, path, black_id, white_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            g.sql_params(),
        )?;
        Ok(())
    }

    /// Whether a game with this id is in the index.
    pub fn has_game(&self, id: &str) -> rusqlite::Result<bool> {
        let id = escape_controls(id);
        self.conn
            .query_row("SELECT 1 FROM games WHERE id = ?1", params![id], |_| Ok(()))
            .optional()
            .map(|r| r.is_some())
    }

    /// Completes a game's row (or adds it) and counts it in both players' tallies.
    pub fn finish_game(&mut self, g: &GameRow) -> rusqlite::Result<()> {
        self.finish_games(&[g])
    }

    /// [`Store::finish_game`] for several games in one transaction: all of them or none.
    pub fn finish_games(&mut self, games: &[&GameRow]) -> rusqlite::Result<()> {
        let tx = self.conn.transaction()?;
        for g in games {
            finish_in(&tx, g)?;
        }
        tx.commit()
    }

    /// Games indexed as started and never finished (a crash, or a row the server could
    /// not complete): `(id, path)`.
    pub fn unfinished_games(&self) -> rusqlite::Result<Vec<(String, String)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, path FROM games WHERE end_time = '' ORDER BY rowid")?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect()
    }

    /// Closes an unfinished game's row as interrupted, with the plies its record holds.
    pub fn close_interrupted(&self, id: &str, plies: u32, end_time: &str) -> rusqlite::Result<()> {
        self.conn.execute(
            "UPDATE games SET end_time = ?2, reason = 'CHUDAN', winner = '', plies = ?3
             WHERE id = ?1 AND end_time = ''",
            params![id, end_time, plies],
        )?;
        Ok(())
    }

    /// `name`'s tally, if it ever logged in.
    pub fn player(&self, name: &str) -> rusqlite::Result<Option<PlayerRow>> {
        self.conn
            .query_row(
                "SELECT name, logins, wins, losses, draws FROM players WHERE name = ?1",
                params![name],
                |r| {
                    Ok(PlayerRow {
                        name: r.get(0)?,
                        logins: r.get(1)?,
                        wins: r.get(2)?,
                        losses: r.get(3)?,
                        draws: r.get(4)?,
                    })
                },
            )
            .optional()
    }

    /// Every player's tally, by player id.
    pub fn players(&self) -> rusqlite::Result<Vec<PlayerRow>> {
        let mut stmt = self
            .conn
            .prepare("SELECT name, logins, wins, losses, draws FROM players ORDER BY name")?;
        stmt.query_map([], |r| {
            Ok(PlayerRow {
                name: r.get(0)?,
                logins: r.get(1)?,
                wins: r.get(2)?,
                losses: r.get(3)?,
                draws: r.get(4)?,
            })
        })?
        .collect()
    }

    /// Replaces the ratings kept with `rated` (player id, rating, group, weighted wins and
    /// losses; rating 0 and group 999 for players not rated, as `mk_rate`'s `players.yaml`
    /// The buoys set and not used up: name, moves (one CSA token, as `%%SETBUOY` takes
    /// them), owner and games left.
    pub fn buoys(&self) -> rusqlite::Result<Vec<(String, String, String, u32)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT name, moves, owner, count FROM buoys ORDER BY name")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        rows.collect()
    }

    /// Keeps a buoy with `count` games left (`0` removes it).
    pub fn put_buoy(
        &self,
        name: &str,
        moves: &str,
        owner: &str,
        count: u32,
    ) -> rusqlite::Result<()> {
        if count == 0 {
            self.conn
                .execute("DELETE FROM buoys WHERE name = ?1", params![name])?;
        } else {
            self.conn.execute(
                "INSERT OR REPLACE INTO buoys (name, moves, owner, count) VALUES (?1, ?2, ?3, ?4)",
                params![name, moves, owner, count],
            )?;
        }
        Ok(())
    }

    /// keeps them), computed at `computed` (`YYYY/MM/DD HH:MM:SS`).
    pub fn save_ratings(
        &mut self,
        rated: &[(String, i64, i64, f64, f64)],
        computed: &str,
    ) -> rusqlite::Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute("DELETE FROM ratings", [])?;
        for (player, rate, group, wins, losses) in rated {
            tx.execute(
                "INSERT INTO ratings (player, rate, rating_group, wins, losses, computed)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![player, rate, group, wins, losses, computed],
            )?;
        }
        tx.commit()
    }

    /// The ratings kept: `(player id, rating, group)`, highest first (unrated last).
    pub fn ratings(&self) -> rusqlite::Result<Vec<(String, i64, i64)>> {
        let mut stmt = self.conn.prepare(
            "SELECT player, rate, rating_group FROM ratings ORDER BY rating_group, rate DESC, player",
        )?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect()
    }

    /// Every finished game, oldest first.
    pub fn games(&self) -> rusqlite::Result<Vec<GameRow>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, game_name, black, white, start_time, end_time, reason, winner, plies, path,
                 black_id, white_id
             FROM games ORDER BY end_time, rowid",
        )?;
        stmt.query_map([], |r| {
            Ok(GameRow {
                id: r.get(0)?,
                game_name: r.get(1)?,
                black: r.get(2)?,
                white: r.get(3)?,
                start_time: r.get(4)?,
                end_time: r.get(5)?,
                reason: r.get(6)?,
                winner: r.get(7)?,
                plies: r.get(8)?,
                path: r.get(9)?,
                black_id: r.get(10)?,
                white_id: r.get(11)?,
            })
        })?
        .collect()
    }
}

/// Completes one game's row (or adds it) and counts it in both players' tallies, inside
/// `tx`.
fn finish_in(tx: &rusqlite::Transaction<'_>, g: &GameRow) -> rusqlite::Result<()> {
    let g = &g.escaped();
    tx.execute(
        "INSERT INTO games (id, game_name, black, white, start_time, end_time, reason,
             winner, plies, path, black_id, white_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
         ON CONFLICT(id) DO UPDATE SET end_time = ?6, reason = ?7, winner = ?8,
             plies = ?9, path = ?10",
        g.sql_params(),
    )?;
    for (name, sign) in [(&g.black_id, "+"), (&g.white_id, "-")] {
        let column = match g.winner.as_str() {
            "" => "draws",
            w if w == sign => "wins",
            _ => "losses",
        };
        tx.execute(
            &format!(
                "INSERT INTO players (name, {column}) VALUES (?1, 1)
                 ON CONFLICT(name) DO UPDATE SET {column} = {column} + 1"
            ),
            params![name],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_and_tallies_survive_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kifu.sqlite");
        {
            let mut s = Store::open(&path).unwrap();
            s.login("alice").unwrap();
            s.finish_game(&GameRow {
                id: "g1".into(),
                game_name: "t-60-0".into(),
                black: "alice".into(),
                white: "bob".into(),
                black_id: "alice".into(),
                white_id: "bob".into(),
                start_time: "2026/01/01 00:00:00".into(),
                end_time: "2026/01/01 00:10:00".into(),
                reason: "RESIGN".into(),
                winner: "-".into(),
                plies: 31,
                path: "x.csa".into(),
            })
            .unwrap();
            s.login("alice").unwrap();
            s.login("alice").unwrap();
            assert_eq!(s.trip_key().unwrap(), s.trip_key().unwrap());
        }
        let s = Store::open(&path).unwrap();
        let a = s.player("alice").unwrap().unwrap();
        // The login before its first game had no row to count in.
        assert_eq!((a.logins, a.wins, a.losses, a.draws), (2, 0, 1, 0));
        let b = s.player("bob").unwrap().unwrap();
        assert_eq!((b.logins, b.wins), (0, 1));
        assert_eq!(s.games().unwrap().len(), 1);
        assert_eq!(s.games().unwrap()[0].plies, 31);
        assert!(s.player("carol").unwrap().is_none());
    }

    #[test]
    fn a_started_game_is_in_progress_until_finished_and_no_row_is_replaced_by_another() {
        let s = Store::in_memory().unwrap();
        let mut row = GameRow {
            id: "g\x1b".into(),
            game_name: "t-60-0".into(),
            black: "a\rb".into(),
            white: "c".into(),
            black_id: "a\rb".into(),
            white_id: "c+00".into(),
            start_time: "2026/01/01 00:00:00".into(),
            end_time: String::new(),
            reason: String::new(),
            winner: String::new(),
            plies: 0,
            path: "/data/g.csa".into(),
        };
        s.begin_game(&row).unwrap();
        assert!(
            s.begin_game(&row).is_err(),
            "a second game under the same id"
        );
        let games = s.games().unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(
            (games[0].id.as_str(), games[0].black.as_str()),
            ("g\\x1B", "a\\x0Db")
        );
        let mut s = s;
        row.reason = "RESIGN".into();
        row.winner = "-".into();
        row.plies = 40;
        s.finish_game(&row).unwrap();
        let games = s.games().unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!((games[0].reason.as_str(), games[0].plies), ("RESIGN", 40));
        assert_eq!(s.player("c+00").unwrap().unwrap().wins, 1);
    }
}
