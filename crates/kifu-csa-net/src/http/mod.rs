//! The server's read-only HTTP side for spectators (`kifu csa-server --http ADDR:PORT`):
//! a JSON API of the games in progress, finished games and players (`api.rs`), event
//! streams of each game's moves and of games starting and ending (`stream.rs`, Server-Sent
//! Events), and the pages: a lobby listing the games and a live page per game (`pages.rs`).
//!
//! It runs on the server's own tokio runtime and reads only what the games publish to the
//! feed ([`crate::server::feed`]) and what the store holds: never a game's lock, so no
//! spectator can slow a player. Streams are capped (503 beyond the cap, with the reason)
//! and a stream that falls behind is closed. Everything a player chose (a name, a comment)
//! reaches a page as text and the JSON through `serde`; no path of the server's machine is
//! in any answer; another origin's pages may read the API only when the operator names it.
//!
//! | Path | Answer |
//! |---|---|
//! | `/` | the lobby page |
//! | `/games/<id>` | the live page of a game |
//! | `/api/games` | the games in progress (JSON array) |
//! | `/api/games/<id>` | one game (in progress or just finished) |
//! | `/api/games/<id>/record.csa`, `record.kif` | its record so far (or the finished one) |
//! | `/api/games/<id>/stream` | its events (`game`, then `move` …, `end`); `?from=<ply>` |
//! | `/api/stream` | the lobby's events (`games`, then `started`, `finished`) |
//! | `/api/finished` | finished games from the store, newest first (`?player=`, `?limit=`) |
//! | `/api/players` | players online and their tallies |

use std::sync::Arc;

use axum::Router;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::server::lobby::Lobby;

mod api;
mod pages;
mod stream;

/// What every handler reaches.
#[derive(Clone)]
struct Http {
    lobby: Arc<Lobby>,
    /// One permit per open stream.
    spectators: Arc<Semaphore>,
    max_spectators: usize,
}

/// Serves the HTTP side on `listener` until the task is dropped.
pub(crate) async fn serve(listener: TcpListener, lobby: Arc<Lobby>) -> std::io::Result<()> {
    let config = lobby.services.config.http.clone();
    let (cors, max_spectators) = match &config {
        Some(c) => (c.cors.clone(), c.max_spectators),
        None => (None, 0),
    };
    let state = Http {
        lobby,
        spectators: Arc::new(Semaphore::new(max_spectators)),
        max_spectators,
    };
    if let Ok(addr) = listener.local_addr() {
        tracing::info!("spectators' HTTP side on http://{addr}/");
    }
    let cors = cors.and_then(|origin| HeaderValue::from_str(&origin).ok());
    let app = router(state).layer(axum::middleware::map_response(
        move |mut response: Response| {
            let cors = cors.clone();
            async move {
                if let Some(origin) = cors {
                    response
                        .headers_mut()
                        .insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
                }
                response
            }
        },
    ));
    axum::serve(listener, app).await
}

fn router(state: Http) -> Router {
    Router::new()
        .route("/", get(pages::lobby))
        .route("/games/{id}", get(pages::game))
        .route("/api/games", get(api::games))
        .route("/api/games/{id}", get(api::game))
        .route("/api/games/{id}/record.csa", get(api::record_csa))
        .route("/api/games/{id}/record.kif", get(api::record_kif))
        .route("/api/games/{id}/stream", get(stream::game))
        .route("/api/stream", get(stream::lobby))
        .route("/api/finished", get(api::finished))
        .route("/api/players", get(api::players))
        .with_state(state)
}

/// A refusal: a status and a plain-text reason.
struct Refusal(StatusCode, String);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (
            self.0,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            self.1,
        )
            .into_response()
    }
}

fn refuse(status: StatusCode, why: impl Into<String>) -> Refusal {
    Refusal(status, why.into())
}

/// A path segment as a URL holds it: a Game_ID holds `+` and whatever its players' names
/// hold, so everything but the unreserved characters is percent-encoded.
fn path_segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use axum::extract::{Path, State};
    use axum::response::IntoResponse;
    use kifu_csa::server_protocol::GameSummary;
    use tokio::sync::Semaphore;

    use super::Http;
    use crate::game_name::GameName;
    use crate::server::feed::LiveGame;
    use crate::server::lobby::Lobby;
    use crate::server::record::Meta;
    use crate::server::services::Services;
    use crate::server::{Config, HttpConfig};

    const HOSTILE: &str = "<script>alert(1)</script>";

    /// The HTTP side's state over a server's parts, with no server running: the login
    /// names a real server lets in cannot hold `<`, so a hostile name is published here
    /// directly, as a name from anywhere else would be.
    fn http(max_spectators: usize) -> Http {
        let mut config = Config::new("127.0.0.1:0".parse().unwrap());
        config.http = Some(HttpConfig::new("127.0.0.1:0".parse().unwrap()));
        let services = Arc::new(Services {
            config,
            store: None,
            log: tracing::Dispatch::none(),
            records: None,
            feed: Arc::default(),
        });
        Http {
            lobby: Arc::new(Lobby::new(services)),
            spectators: Arc::new(Semaphore::new(max_spectators)),
            max_spectators,
        }
    }

    fn start(http: &Http, id: &str, black: &str, white: &str) -> Arc<LiveGame> {
        let game = GameName::parse("t-600-10").unwrap();
        let summary = GameSummary::new(id, black, white, game.time_rule());
        http.lobby
            .services
            .feed
            .started(id, &game, &summary, &Meta::default(), [600_000, 600_000])
    }

    async fn body(response: axum::response::Response) -> String {
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn a_game_id_is_percent_encoded_in_a_path() {
        assert_eq!(
            super::path_segment("kifu+t-60-1+a/b+c d"),
            "kifu%2Bt-60-1%2Ba%2Fb%2Bc%20d"
        );
    }

    #[tokio::test]
    async fn a_hostile_name_is_text_in_the_lobby_and_the_page_and_the_json_stays_valid() {
        let http = http(10);
        start(&http, "g1", HOSTILE, "bob\"\u{2028}");
        let lobby = super::pages::lobby(State(http.clone())).await.0;
        assert!(!lobby.contains(HOSTILE), "{lobby}");
        assert!(lobby.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        let page = body(super::pages::game(State(http.clone()), Path("g1".to_owned())).await).await;
        assert!(!page.contains(HOSTILE));
        // The page's data holds the name as JSON text, where `</` cannot close a script.
        assert!(page.contains("<\\/script>"));
        let games = body(super::api::games(State(http.clone())).await.into_response()).await;
        let json: serde_json::Value = serde_json::from_str(&games).unwrap();
        assert_eq!(json[0]["black"], HOSTILE);
        assert_eq!(json[0]["white"], "bob\"\u{2028}");
    }

    #[tokio::test]
    async fn a_spectator_a_whole_channel_behind_is_told_and_dropped() {
        let http = http(1);
        let live = start(&http, "g2", "alice", "bob");
        let (_, _, rx) = live.subscribe(0);
        let permit = http.spectators.clone().try_acquire_owned().unwrap();
        let mut pos = kifu_shogi::Position::startpos();
        let cycle = ["2h3h", "8b7b", "3h2h", "7b8b"];
        for i in 0..100 {
            let mv = pos.parse_usi_move(cycle[i % 4]).unwrap();
            let played = crate::server::game::PlayedMove {
                mv,
                t: 1,
                comment: None,
            };
            live.moved(&played, [600_000, 600_000], 1000);
            pos.play_unchecked(mv);
        }
        use futures_util::StreamExt as _;
        let events: Vec<_> = tokio::time::timeout(
            std::time::Duration::from_secs(5),
            super::stream::follow(rx, permit).collect::<Vec<_>>(),
        )
        .await
        .expect("the stream of a lagging spectator ends");
        // One event, saying how much was missed, then the end.
        assert_eq!(events.len(), 1);
        assert_eq!(
            http.spectators.available_permits(),
            1,
            "its place is free again"
        );
    }
}
