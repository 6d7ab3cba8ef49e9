//! The pages: the lobby (the games in progress, with links, kept current by the lobby's
//! stream) and each game's live page (`kifu_render::live`). Both stand alone: no script or
//! font from anywhere else.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use kifu_render::svg::escape;

use crate::http::{Http, path_segment, refuse};

/// `GET /`: the games in progress, each linking to its live page.
pub(super) async fn lobby(State(http): State<Http>) -> Html<String> {
    let games = http.lobby.services.feed.games();
    let mut rows = String::new();
    for g in &games {
        let v = g.view();
        let clock = |s: u64| format!("{}:{:02}", s / 60, s % 60);
        let time = match (v.time.byoyomi, v.time.increment) {
            (0, 0) => clock(v.time.total),
            (b, 0) => format!("{} + {b}s", clock(v.time.total)),
            (_, i) => format!("{} + {i}s/move", clock(v.time.total)),
        };
        rows.push_str(&format!(
            "<tr><td><a href=\"/games/{link}\">{black}</a></td><td><a href=\"/games/{link}\">{white}</a></td>\
             <td>{name}</td><td>{time}</td><td class=\"n\">{plies}</td></tr>",
            link = path_segment(&v.id),
            black = escape(&v.black),
            white = escape(&v.white),
            name = escape(&v.game_name),
            plies = v.moves.len(),
        ));
    }
    let empty = if games.is_empty() {
        "<p id=\"none\">No game is being played.</p>"
    } else {
        ""
    };
    Html(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\"><title>Games in progress</title>\
         <style>body{{font-family:serif;margin:1em;background:#fbf7ee;color:#111}}\
         table{{border-collapse:collapse;background:#fff}}td,th{{border:1px solid #ddd;padding:.2em .6em;text-align:left}}\
         td.n{{text-align:right}}</style></head>\n<body><h1>Games in progress</h1>{empty}\
         <table id=\"games\"><thead><tr><th>☗ Black</th><th>☖ White</th><th>Game</th><th>Time</th><th>Moves</th></tr></thead>\
         <tbody>{rows}</tbody></table>\
         <p><a href=\"/api/games\">JSON</a> · <a href=\"/api/finished\">finished games</a></p>\
         <script>{LOBBY_SCRIPT}</script></body></html>\n"
    ))
}

/// The lobby reloads when a game starts or ends (a lobby is small; the reload is its
/// simplest correct update).
const LOBBY_SCRIPT: &str = "(function(){var es=new EventSource('/api/stream'),first=true;\
es.addEventListener('games',function(){if(!first)location.reload();first=false;});\
es.addEventListener('started',function(){location.reload();});\
es.addEventListener('finished',function(){location.reload();});})();";

/// `GET /games/<id>`: the live page of a game.
pub(super) async fn game(State(http): State<Http>, Path(id): Path<String>) -> Response {
    let Some(live) = http.lobby.services.feed.game(&id) else {
        return refuse(StatusCode::NOT_FOUND, format!("no game {id} in progress")).into_response();
    };
    let view = live.view();
    let record = live.record_so_far();
    let state = match serde_json::to_value(&view) {
        Ok(v) => v,
        Err(_) => {
            return refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the game cannot be shown",
            )
            .into_response();
        }
    };
    let title = format!("☗ {} vs ☖ {}", view.black, view.white);
    let stream = format!("/api/games/{}/stream", path_segment(&view.id));
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let page = kifu_render::live::page(
        &record,
        &kifu_render::live::Live {
            title: &title,
            stream: &stream,
            state: &state,
            now_ms,
        },
    );
    Html(page).into_response()
}
