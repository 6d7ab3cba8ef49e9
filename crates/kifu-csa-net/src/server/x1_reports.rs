//! The x1 commands that report on the server, in shogi-server's formats: `%%WHO`, `%%LIST`,
//! `%%SHOW`, `%%RATING` (each answered with `##[TAG] …` lines and a closing
//! `##[TAG] +OK`), and `%%CHAT`.

use crate::plain_text::escape_controls;
use crate::server::lobby::{Lobby, Status};

/// One line per logged-in player, as shogi-server writes them: `<name> <x1|CSA> <status>`,
/// and for a player waiting or seated the game name and its side (`+`, `-`, `*`). The
/// status is `connected`, `game_waiting`, `agree_waiting`, `start_waiting` or `game`.
pub(crate) fn who(lobby: &Lobby) -> Vec<String> {
    let online = lobby.online.lock().unwrap();
    let mut players: Vec<&String> = online.keys().collect();
    players.sort();
    let mut out: Vec<String> = players
        .into_iter()
        .map(|player| {
            let p = &online[player];
            let name = &p.name;
            let protocol = if p.x1 { "x1" } else { "CSA" };
            let status = match &p.status {
                Status::Connected => "connected".to_owned(),
                Status::Waiting(game, side) => {
                    format!("game_waiting {game} {}", side.map_or('*', |c| c.csa_sign()))
                }
                Status::Game {
                    game, color, table, ..
                } => {
                    let phase = table.upgrade().map_or("game", |t| t.phase_of(*color));
                    format!("{phase} {game} {}", color.csa_sign())
                }
            };
            format!("##[WHO] {name} {protocol} {status}")
        })
        .collect();
    out.push("##[WHO] +OK".to_owned());
    out
}

/// One line per game in progress: its id.
pub(crate) fn list(lobby: &Lobby) -> Vec<String> {
    let games = lobby.games.lock().unwrap();
    let mut ids: Vec<&String> = games.keys().collect();
    ids.sort();
    let mut out: Vec<String> = ids.iter().map(|id| format!("##[LIST] {id}")).collect();
    out.push("##[LIST] +OK".to_owned());
    out
}

/// The game's state, or nothing but the closing line for an id not in progress (as
/// shogi-server answers).
pub(crate) fn show(lobby: &Lobby, id: &str) -> Vec<String> {
    let table = lobby
        .games
        .lock()
        .unwrap()
        .get(id)
        .and_then(|w| w.upgrade());
    let mut out = table.map(|t| t.show()).unwrap_or_default();
    out.push("##[SHOW] +OK".to_owned());
    out
}

/// The rated players, by rating (see [`crate::server::league::standings`]).
pub(crate) fn rating(lobby: &Lobby) -> Vec<String> {
    let ratings = lobby.ratings.lock().unwrap().clone();
    ratings.rating_lines()
}

/// `##[CHAT][<from>] <message>` to every x1 player (CSA-mode players are not told, as in
/// shogi-server). The message's control characters are escaped: a lone CR in it must not
/// give the other players a line of its own (`##[CHAT][x] hi\r#WIN`). Each receiver takes
/// it as a fanned-out line: dropped for a client that is not reading, never a reason to
/// cut a player off. `false` when the server's whole chat allowance is spent (the sender's
/// own is the caller's to check) and the line went to no one.
pub(crate) fn chat(lobby: &Lobby, from: &str, message: &str) -> bool {
    if !lobby.chat_budget.lock().unwrap().take() {
        return false;
    }
    let line = format!(
        "##[CHAT][{}] {}",
        escape_controls(from),
        escape_controls(message)
    );
    let peers: Vec<_> = lobby
        .online
        .lock()
        .unwrap()
        .values()
        .filter(|p| p.x1)
        .map(|p| p.peer.clone())
        .collect();
    for p in peers {
        p.send_fan_out([line.as_str()]);
    }
    true
}
