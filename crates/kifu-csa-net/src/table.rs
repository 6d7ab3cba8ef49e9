//! One game on the server: summaries, AGREE/REJECT, START, then the judge with a real
//! timer; at the end the record is written and the game indexed.

use std::sync::Arc;
use std::time::Duration;

use kifu_csa::server_protocol::{ClientMessage, GameSummary, PositionBlock};
use kifu_shogi::Color;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::game::{Game, Outbox};
use crate::game_name::GameName;
use crate::record::{Meta, to_csa, write_atomically};
use crate::server::{Out, Player, Shared};
use crate::store::GameRow;
use crate::wall_time::Stamp;

/// What a connection learns when it is seated: its colour and where its lines go.
pub struct Seat {
    pub color: Color,
    pub to_game: mpsc::Sender<(Color, Input)>,
}

/// What a connection tells its table.
#[derive(Debug)]
pub enum Input {
    Line(ClientMessage),
    Gone,
}

pub(crate) fn spawn(shared: Arc<Shared>, game: GameName, players: [Player; 2]) {
    tokio::spawn(run(shared, game, players));
}

fn game_id(shared: &Shared, game: &GameName, players: &[Player; 2], start: &Stamp) -> String {
    let base = format!(
        "{}+{}+{}+{}+{}",
        shared.config.event,
        game.name,
        players[0].name,
        players[1].name,
        start.compact()
    );
    let mut ids = shared.ids.lock().unwrap();
    if ids.len() > 100_000 {
        ids.clear();
    }
    let mut id = base.clone();
    let mut n = 1;
    while !ids.insert(id.clone()) {
        n += 1;
        id = format!("{base}-{n}");
    }
    id
}

async fn run(shared: Arc<Shared>, game: GameName, players: [Player; 2]) {
    let start = Stamp::now();
    let id = game_id(&shared, &game, &players, &start);
    let (to_game, mut inbox) = mpsc::channel(64);
    let mut outs = Vec::with_capacity(2);
    for (player, color) in players.into_iter().zip(Color::ALL) {
        let _ = player.seat.send(Seat {
            color,
            to_game: to_game.clone(),
        });
        outs.push((player.name, player.out));
    }
    drop(to_game);
    let names = [outs[0].0.clone(), outs[1].0.clone()];
    let send = |color: Color, line: String| outs[color.index()].1.try_send(Out::Line(line)).is_ok();
    let mut summary = GameSummary::new(&id, &names[0], &names[1], game.time_rule());
    summary.max_moves = shared.config.max_moves;
    if let Some(h) = game.handicap {
        summary.position = PositionBlock::new(h.position());
        summary.to_move = summary.position.start.side_to_move();
    }
    for color in Color::ALL {
        for line in summary.for_player(color).lines() {
            send(color, line);
        }
    }

    // AGREE from both, or the game is off.
    let mut agreed = [false; 2];
    let agree_deadline = Instant::now() + shared.config.agree_timeout;
    while !(agreed[0] && agreed[1]) {
        let input = tokio::time::timeout_at(agree_deadline, inbox.recv()).await;
        let by = match input {
            Err(_) => "the Server (timed out)".to_owned(),
            Ok(None) => "the Server".to_owned(),
            Ok(Some((c, Input::Line(ClientMessage::Agree(_))))) => {
                agreed[c.index()] = true;
                continue;
            }
            Ok(Some((c, Input::Line(ClientMessage::KeepAlive)))) => {
                send(c, String::new());
                continue;
            }
            Ok(Some((c, Input::Line(ClientMessage::Reject(_))))) | Ok(Some((c, Input::Gone))) => {
                names[c.index()].clone()
            }
            Ok(Some(_)) => continue,
        };
        for color in Color::ALL {
            send(color, format!("REJECT:{id} by {by}"));
            let _ = outs[color.index()].1.try_send(Out::Close);
        }
        return;
    }
    for color in Color::ALL {
        send(color, format!("START:{id}"));
    }

    let origin = Instant::now();
    let now_ms = || u64::try_from(origin.elapsed().as_millis()).unwrap_or(u64::MAX);
    let mut play = Game::new(summary, game.stopwatch, 0);
    let mut outbox = Outbox::default();
    while play.ending().is_none() {
        let deadline = play
            .deadline_ms()
            .map(|d| origin + Duration::from_millis(d));
        let timer = async {
            match deadline {
                Some(d) => tokio::time::sleep_until(d).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            input = inbox.recv() => match input {
                Some((c, Input::Line(msg))) => play.handle(c, msg, now_ms(), &mut outbox),
                Some((c, Input::Gone)) => play.disconnect(c, now_ms(), &mut outbox),
                None => {
                    for c in Color::ALL {
                        play.disconnect(c, now_ms(), &mut outbox);
                    }
                }
            },
            _ = timer => play.tick(now_ms(), &mut outbox),
        }
        if play.ending().is_some() {
            break;
        }
        for color in Color::ALL {
            for line in outbox.take(color) {
                if !send(color, line) {
                    // A client that does not read loses its seat, not the other's game.
                    play.disconnect(color, now_ms(), &mut outbox);
                }
            }
        }
    }
    // The record is on disk before anyone hears the result.
    finish(&shared, &game, &play, &start);
    for color in Color::ALL {
        for line in outbox.take(color) {
            send(color, line);
        }
    }
}

fn finish(shared: &Shared, game: &GameName, play: &Game, start: &Stamp) {
    let end = Stamp::now();
    let meta = Meta {
        start_time: Some(start.csa()),
        end_time: Some(end.csa()),
    };
    let summary = play.summary();
    let mut path = String::new();
    if let Some(dir) = &shared.config.data {
        let [y, m, d] = start.dirs();
        let dir = dir.join(y).join(m).join(d);
        let name = format!("{}.csa", summary.game_id);
        if let Ok(p) = write_atomically(&dir, &name, &to_csa(play, &meta)) {
            path = p.display().to_string();
        }
    }
    if let (Some(store), Some(ending)) = (&shared.store, play.ending()) {
        let row = GameRow {
            id: summary.game_id.clone(),
            game_name: game.name.clone(),
            black: summary.black.clone(),
            white: summary.white.clone(),
            start_time: meta.start_time.unwrap_or_default(),
            end_time: meta.end_time.unwrap_or_default(),
            reason: ending.reason.token().to_owned(),
            winner: ending
                .winner
                .map(|c| c.csa_sign().to_string())
                .unwrap_or_default(),
            plies: u32::try_from(play.moves().len()).unwrap_or(u32::MAX),
            path,
        };
        let _ = store.lock().unwrap().finish_game(&row);
    }
}
