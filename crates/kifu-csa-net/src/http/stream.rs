//! The event streams (Server-Sent Events): a game's moves, and the lobby's games starting
//! and ending.
//!
//! Each stream holds one of the spectators' permits while it is open; none left is a 503.
//! A stream reads its game's broadcast channel, whose sender never waits: a spectator that
//! falls a whole channel behind (a stalled connection, a reader too slow for the moves) is
//! told so in a last `lagged` event and its stream closed — it may reconnect and catch up
//! with `?from=<ply>`.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream, StreamExt};
use serde::Deserialize;
use tokio::sync::OwnedSemaphorePermit;
use tokio::sync::broadcast::{Receiver, error::RecvError};

use crate::http::{Http, Refusal, refuse};
use crate::server::feed::{GameEvent, LobbyEvent};

/// A comment line this often keeps a quiet stream open through proxies.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

fn permit(http: &Http) -> Result<OwnedSemaphorePermit, Refusal> {
    http.spectators.clone().try_acquire_owned().map_err(|_| {
        refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "too many spectators: this server streams to {} at once; try again later",
                http.max_spectators
            ),
        )
    })
}

fn json_event(name: &str, value: &impl serde::Serialize) -> Event {
    // The feed's types always serialize; an error would be a bug, sent as an empty event.
    Event::default()
        .event(name)
        .json_data(value)
        .unwrap_or_else(|_| Event::default().event(name))
}

fn game_event(event: &GameEvent) -> Event {
    match event {
        GameEvent::Move(mv) => json_event("move", mv),
        GameEvent::End(result) => json_event("end", result),
    }
}

fn sse(
    events: impl Stream<Item = Event> + Send + 'static,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    Sse::new(events.map(Ok)).keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}

#[derive(Deserialize)]
pub(super) struct From {
    /// The ply the spectator has seen up to: moves after it are sent first.
    from: Option<usize>,
}

/// `GET /api/games/<id>/stream`: `game` (the whole game), the moves after `?from=` (all
/// of them without it), then each move as it is played and `end`.
pub(super) async fn game(
    State(http): State<Http>,
    Path(id): Path<String>,
    Query(q): Query<From>,
) -> Response {
    let Some(live) = http.lobby.services.feed.game(&id) else {
        return refuse(StatusCode::NOT_FOUND, format!("no game {id} in progress")).into_response();
    };
    let permit = match permit(&http) {
        Ok(p) => p,
        Err(refusal) => return refusal.into_response(),
    };
    let (view, missed, rx) = live.subscribe(q.from.unwrap_or(0));
    let ended = missed.iter().any(|e| matches!(**e, GameEvent::End(_)));
    let first = stream::iter(
        std::iter::once(json_event("game", &view))
            .chain(missed.into_iter().map(|e| game_event(&e))),
    );
    let rest = if ended {
        stream::empty().left_stream()
    } else {
        follow(rx, permit).right_stream()
    };
    sse(first.chain(rest)).into_response()
}

/// The game's events as they come, until its end (or until the spectator lags).
pub(super) fn follow(
    rx: Receiver<Arc<GameEvent>>,
    permit: OwnedSemaphorePermit,
) -> impl Stream<Item = Event> + Send + 'static {
    stream::unfold(Some((rx, permit)), |state| async move {
        let (mut rx, permit) = state?;
        match rx.recv().await {
            Ok(event) => {
                let end = matches!(*event, GameEvent::End(_));
                let next = if end { None } else { Some((rx, permit)) };
                Some((game_event(&event), next))
            }
            Err(RecvError::Lagged(n)) => Some((lagged(n), None)),
            Err(RecvError::Closed) => None,
        }
    })
}

fn lagged(missed: u64) -> Event {
    Event::default().event("lagged").data(format!(
        "{missed} events missed: reconnect with ?from=<ply>"
    ))
}

/// `GET /api/stream`: `games` (those in progress), then `started` and `finished` as games
/// start and end.
pub(super) async fn lobby(State(http): State<Http>) -> Response {
    let permit = match permit(&http) {
        Ok(p) => p,
        Err(refusal) => return refusal.into_response(),
    };
    let (games, rx) = http.lobby.services.feed.subscribe();
    let views: Vec<_> = games.iter().map(|g| g.view()).collect();
    let first = stream::once(async move { json_event("games", &views) });
    let rest = stream::unfold(Some((rx, permit)), |state| async move {
        let (mut rx, permit) = state?;
        match rx.recv().await {
            Ok(event) => {
                let name = match &event {
                    LobbyEvent::Started(_) => "started",
                    LobbyEvent::Finished { .. } => "finished",
                };
                Some((json_event(name, &event), Some((rx, permit))))
            }
            Err(RecvError::Lagged(n)) => Some((lagged(n), None)),
            Err(RecvError::Closed) => None,
        }
    });
    sse(first.chain(rest)).into_response()
}
