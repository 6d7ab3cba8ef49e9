//! A league's rounds: at each scheduled time, the ratings are brought up to date from the
//! store and the players waiting for the league's game name are paired and seated.

use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::Duration;

use jiff::Timestamp;
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::server::league::config::{LeagueSpec, PairingStrategy};
use crate::server::league::pairing::{self, Candidate, LastGame};
use crate::server::league::standings::{Rated, rated};
use crate::server::lobby::Lobby;
use crate::server::store::GameRow;

/// Runs league `index`'s rounds until the server is gone.
pub(crate) async fn run(lobby: Weak<Lobby>, index: usize) {
    let mut rng = StdRng::from_os_rng();
    let mut round = 0;
    loop {
        let Some(league) = lobby
            .upgrade()
            .map(|l| l.services.config.leagues.leagues[index].clone())
        else {
            return;
        };
        // Round times are wall-clock times (hh:00 and hh:30), so the wait is measured on the
        // wall clock, not on the runtime's.
        let now = Timestamp::now();
        let next = league.schedule.next_after(now);
        let wait = (next.as_millisecond() - now.as_millisecond()).max(0) as u64;
        tokio::time::sleep(Duration::from_millis(wait)).await;
        let Some(lobby) = lobby.upgrade() else { return };
        let rows = finished_games(&lobby).await;
        let ratings = Arc::new(rated(
            &rows,
            Timestamp::now(),
            &lobby.services.config.leagues.method,
        ));
        *lobby.ratings.lock().unwrap() = ratings.clone();
        play_round(&lobby, &league, round, &rows, &ratings, &mut rng);
        keep(&lobby, &ratings).await;
        round += 1;
    }
}

/// How often the ratings are brought up to date besides league rounds (for `%%RATING` on a
/// server whose games are not in leagues).
const REFRESH: Duration = Duration::from_secs(300);

/// Computes the ratings at once, then every [`REFRESH`], until the server is gone.
pub(crate) async fn refresh_ratings(lobby: Weak<Lobby>) {
    loop {
        let Some(l) = lobby.upgrade() else { return };
        let rows = finished_games(&l).await;
        let ratings = Arc::new(rated(
            &rows,
            Timestamp::now(),
            &l.services.config.leagues.method,
        ));
        *l.ratings.lock().unwrap() = ratings.clone();
        keep(&l, &ratings).await;
        drop(l);
        tokio::time::sleep(REFRESH).await;
    }
}

/// Keeps the ratings in the store (with `--data`), off the runtime; a failure is logged.
async fn keep(lobby: &Arc<Lobby>, ratings: &Arc<Rated>) {
    let Some(store) = lobby.services.store.clone() else {
        return;
    };
    let rows = ratings.rows();
    let now = Timestamp::now().strftime("%Y/%m/%d %H:%M:%S").to_string();
    let written =
        tokio::task::spawn_blocking(move || store.lock().unwrap().save_ratings(&rows, &now));
    if let Ok(Err(e)) = written.await {
        tracing::warn!("ratings: cannot keep them in the store: {e}");
    }
}

/// Every finished game in the store (none without one).
pub(crate) async fn finished_games(lobby: &Arc<Lobby>) -> Vec<GameRow> {
    let Some(store) = lobby.services.store.clone() else {
        return Vec::new();
    };
    let read = tokio::task::spawn_blocking(move || store.lock().unwrap().games());
    match read.await {
        Ok(Ok(rows)) => rows
            .into_iter()
            .filter(|r| !r.end_time.is_empty())
            .collect(),
        Ok(Err(e)) => {
            tracing::warn!("league: cannot read the games from the store: {e}");
            Vec::new()
        }
        Err(_) => Vec::new(),
    }
}

/// What the league's history says of one player: their last decisive league game and their
/// colours so far.
#[derive(Default)]
struct History {
    last: Option<(String, bool)>,
    balance: i64,
}

fn histories<'r>(rows: &'r [GameRow], game: &str) -> HashMap<&'r str, History> {
    let mut h: HashMap<&str, History> = HashMap::new();
    for row in rows.iter().filter(|r| r.game_name == game) {
        h.entry(&row.black_id).or_default().balance += 1;
        h.entry(&row.white_id).or_default().balance -= 1;
        if let Some(black_won) = match row.winner.as_str() {
            "+" => Some(true),
            "-" => Some(false),
            _ => None,
        } {
            h.get_mut(row.black_id.as_str()).unwrap().last =
                Some((row.white_id.clone(), black_won));
            h.get_mut(row.white_id.as_str()).unwrap().last =
                Some((row.black_id.clone(), !black_won));
        }
    }
    h
}

fn play_round(
    lobby: &Arc<Lobby>,
    league: &LeagueSpec,
    round: usize,
    rows: &[GameRow],
    ratings: &Rated,
    rng: &mut StdRng,
) {
    let game = &league.game.name;
    let history = histories(rows, game);
    let rate = |id: &str| ratings.rate_of(id).map(|r| r as f64);
    let mut waiting = lobby.waiting();
    let players = waiting.remove(game).unwrap_or_default();
    let candidates: Vec<Candidate> = players
        .iter()
        .map(|w| {
            let h = history.get(w.player.as_str());
            Candidate {
                id: w.player.clone(),
                name: w.name.clone(),
                rate: rate(&w.player),
                last: h
                    .and_then(|h| h.last.as_ref())
                    .map(|(opponent, won)| LastGame {
                        opponent: opponent.clone(),
                        won: *won,
                        opponent_rate: rate(opponent),
                    }),
                colour_balance: h.map_or(0, |h| h.balance),
            }
        })
        .collect();
    let plan = match league.pairing {
        PairingStrategy::LeastDifference => pairing::least_difference(&candidates, rng),
        PairingStrategy::Random => pairing::random(&candidates, rng),
        PairingStrategy::RoundRobin => pairing::round_robin(&candidates, &league.players, round),
    };
    tracing::info!(
        "league {game}: round {} pairs {} of {} waiting",
        round + 1,
        plan.pairs.len() * 2,
        players.len()
    );
    let mut slots: Vec<Option<_>> = players.into_iter().map(Some).collect();
    let mut tables = Vec::new();
    for pair in &plan.pairs {
        let (Some(black), Some(white)) = (slots[pair.black].take(), slots[pair.white].take())
        else {
            continue;
        };
        tables.push(lobby.seat(league.game.clone(), black, white));
    }
    let rest: Vec<_> = slots.into_iter().flatten().collect();
    let next = league.schedule.next_after(Timestamp::now());
    for w in rest.iter().filter(|w| w.peer.is_x1()) {
        let line = format!(
            "##[LEAGUE] no opponent for you in this round of {game}; you wait for the next, at {} UTC",
            next.strftime("%Y-%m-%d %H:%M:%S")
        );
        w.peer.send_fan_out([line.as_str()]);
    }
    if !rest.is_empty() {
        waiting.insert(game.clone(), rest);
    }
    drop(waiting);
    for t in tables {
        lobby.open(t);
    }
}
