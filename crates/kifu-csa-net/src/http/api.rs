//! The JSON API and the records: games in progress from the feed, finished games and
//! players from the store (read on a blocking thread: the store's lock is the record
//! keeper's too, and a disk must not hold up the runtime).

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use kifu_records::shogi::{ShogiRecord, csa, kif};
use serde::{Deserialize, Serialize};

use crate::http::{Http, Refusal, refuse};
use crate::server::feed::GameView;
use crate::server::lobby::Status;
use crate::server::record::csa_text;
use crate::server::store::GameRow;

/// `GET /api/games`: every game in progress, in the order they started.
pub(super) async fn games(State(http): State<Http>) -> Json<Vec<GameView>> {
    let feed = &http.lobby.services.feed;
    Json(feed.games().iter().map(|g| g.view()).collect())
}

/// `GET /api/games/<id>`: one game in progress (or finished a moment ago).
pub(super) async fn game(State(http): State<Http>, Path(id): Path<String>) -> Response {
    match http.lobby.services.feed.game(&id) {
        Some(live) => Json(live.view()).into_response(),
        None => not_found(&id).into_response(),
    }
}

fn not_found(id: &str) -> Refusal {
    // The id is the asker's own text: it goes back as plain text only.
    refuse(StatusCode::NOT_FOUND, format!("no game {id} in progress"))
}

/// A finished game as the API lists it: the store's row without the record's path.
#[derive(Serialize)]
struct Finished {
    id: String,
    game_name: String,
    black: String,
    white: String,
    start_time: String,
    end_time: String,
    reason: String,
    winner: String,
    plies: u32,
}

impl From<GameRow> for Finished {
    fn from(g: GameRow) -> Finished {
        Finished {
            id: g.id,
            game_name: g.game_name,
            black: g.black,
            white: g.white,
            start_time: g.start_time,
            end_time: g.end_time,
            reason: g.reason,
            winner: g.winner,
            plies: g.plies,
        }
    }
}

#[derive(Deserialize)]
pub(super) struct FinishedQuery {
    /// Only games this player (login name or player id) played.
    player: Option<String>,
    /// At most this many (100 unless asked, 1,000 at most).
    limit: Option<usize>,
}

/// Finished games listed at most per answer.
const FINISHED_LIMIT: usize = 1_000;

/// `GET /api/finished`: finished games from the store, newest first.
pub(super) async fn finished(State(http): State<Http>, Query(q): Query<FinishedQuery>) -> Response {
    let limit = q.limit.unwrap_or(100).min(FINISHED_LIMIT);
    let rows = match stored_games(&http).await {
        Ok(rows) => rows,
        Err(refusal) => return refusal.into_response(),
    };
    let list: Vec<Finished> = rows
        .into_iter()
        .rev()
        // The index has a row from each game's start; a game in progress has no reason yet.
        .filter(|g| !g.reason.is_empty())
        .filter(|g| {
            q.player.as_deref().is_none_or(|p| {
                [&g.black, &g.white, &g.black_id, &g.white_id]
                    .iter()
                    .any(|n| n.as_str() == p)
            })
        })
        .take(limit)
        .map(Finished::from)
        .collect();
    Json(list).into_response()
}

/// Every finished game of the store, oldest first; an answer saying why when there is none.
async fn stored_games(http: &Http) -> Result<Vec<GameRow>, Refusal> {
    let Some(store) = http.lobby.services.store.clone() else {
        return Err(refuse(
            StatusCode::NOT_FOUND,
            "this server keeps no finished games (it runs without --data)",
        ));
    };
    let rows = tokio::task::spawn_blocking(move || store.lock().unwrap().games()).await;
    match rows {
        Ok(Ok(rows)) => Ok(rows),
        Ok(Err(e)) => {
            tracing::info!("HTTP: the store could not list its games: {e}");
            Err(refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the store could not be read",
            ))
        }
        Err(_) => Err(refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the store could not be read",
        )),
    }
}

#[derive(Serialize)]
pub(super) struct Player {
    name: String,
    /// `connected`, `waiting` or `playing`.
    status: &'static str,
    /// The game name waited for or played.
    game: Option<String>,
}

#[derive(Serialize)]
pub(super) struct Tally {
    name: String,
    wins: u32,
    losses: u32,
    draws: u32,
}

#[derive(Serialize)]
pub(super) struct Players {
    online: Vec<Player>,
    /// Every player with a finished game in the store.
    tallies: Vec<Tally>,
}

/// `GET /api/players`: who is logged in, and the store's tallies.
pub(super) async fn players(State(http): State<Http>) -> Json<Players> {
    let mut online: Vec<Player> = http
        .lobby
        .online
        .lock()
        .unwrap()
        .values()
        .map(|p| {
            let (status, game) = match &p.status {
                Status::Connected => ("connected", None),
                Status::Waiting(game, _) => ("waiting", Some(game.clone())),
                Status::Game { game, .. } => ("playing", Some(game.clone())),
            };
            Player {
                name: p.name.clone(),
                status,
                game,
            }
        })
        .collect();
    online.sort_by(|a, b| a.name.cmp(&b.name));
    let tallies = match http.lobby.services.store.clone() {
        Some(store) => tokio::task::spawn_blocking(move || store.lock().unwrap().players())
            .await
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default()
            .into_iter()
            .map(|p| Tally {
                name: p.name,
                wins: p.wins,
                losses: p.losses,
                draws: p.draws,
            })
            .collect(),
        None => Vec::new(),
    };
    Json(Players { online, tallies })
}

/// A game's record: the feed's while it goes on (or just ended), else the one on disk.
async fn record_of(http: &Http, id: &str) -> Result<ShogiRecord, Refusal> {
    if let Some(live) = http.lobby.services.feed.game(id) {
        return Ok(live.record());
    }
    let rows = stored_games(http).await.map_err(|_| not_found(id))?;
    let Some(row) = rows.into_iter().find(|g| g.id == id) else {
        return Err(not_found(id));
    };
    let path = row.path.clone();
    let read = tokio::task::spawn_blocking(move || std::fs::read(path))
        .await
        .unwrap_or_else(|e| Err(std::io::Error::other(e)));
    let text = read.map_err(|e| {
        // The path is the operator's business: the log has it, the answer does not.
        tracing::info!(
            "HTTP: the record of {id} ({}) cannot be read: {e}",
            row.path
        );
        refuse(StatusCode::NOT_FOUND, "the game's record cannot be read")
    })?;
    let text = kifu_record::decode(&text, kifu_record::TextEncoding::Utf8).text;
    csa::read(&text).records.into_iter().next().ok_or_else(|| {
        refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the game's record holds no game",
        )
    })
}

fn text(body: String, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// `GET /api/games/<id>/record.csa`.
pub(super) async fn record_csa(State(http): State<Http>, Path(id): Path<String>) -> Response {
    match record_of(&http, &id).await {
        Ok(record) => text(
            csa_text(&record, http.lobby.services.config.csa_version),
            "text/plain; charset=utf-8",
        ),
        Err(refusal) => refusal.into_response(),
    }
}

/// `GET /api/games/<id>/record.kif`.
pub(super) async fn record_kif(State(http): State<Http>, Path(id): Path<String>) -> Response {
    match record_of(&http, &id).await {
        Ok(record) => text(kif::write(&record).text, "text/plain; charset=utf-8"),
        Err(refusal) => refusal.into_response(),
    }
}
