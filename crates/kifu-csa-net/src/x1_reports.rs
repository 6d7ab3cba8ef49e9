//! The x1 commands that report on the server: `%%WHO`, `%%LIST` and `%%SHOW` (reference §5),
//! each answered with `##[TAG] …` lines and a closing `##[TAG] +OK`.

use crate::server::{Shared, Status};

/// One line per logged-in player: `<name> <x1|CSA> <status>`, where a waiting player adds
/// the game name and side asked for (`+`, `-`, `*`) and a seated one the game id.
pub(crate) fn who(shared: &Shared) -> Vec<String> {
    let online = shared.online.lock().unwrap();
    let mut names: Vec<&String> = online.keys().collect();
    names.sort();
    let mut out: Vec<String> = names
        .into_iter()
        .map(|name| {
            let p = &online[name];
            let protocol = if p.x1 { "x1" } else { "CSA" };
            let status = match &p.status {
                Status::Connected => "connected".to_owned(),
                Status::Waiting(game, side) => {
                    format!("game_waiting {game} {}", side.map_or('*', |c| c.csa_sign()))
                }
                Status::Game(id) => format!("game {id}"),
            };
            format!("##[WHO] {name} {protocol} {status}")
        })
        .collect();
    out.push("##[WHO] +OK".to_owned());
    out
}

/// One line per game in progress: its id.
pub(crate) fn list(shared: &Shared) -> Vec<String> {
    let games = shared.games.lock().unwrap();
    let mut ids: Vec<&String> = games.keys().collect();
    ids.sort();
    let mut out: Vec<String> = ids.iter().map(|id| format!("##[LIST] {id}")).collect();
    out.push("##[LIST] +OK".to_owned());
    out
}

/// The game's summary with its clocks and moves so far, or an error for an unknown id.
pub(crate) fn show(shared: &Shared, id: &str) -> Vec<String> {
    let table = shared
        .games
        .lock()
        .unwrap()
        .get(id)
        .and_then(|w| w.upgrade());
    match table {
        Some(t) => {
            let mut out = t.show();
            out.push("##[SHOW] +OK".to_owned());
            out
        }
        None => vec![format!("##[ERROR] no game in progress with id {id}")],
    }
}
