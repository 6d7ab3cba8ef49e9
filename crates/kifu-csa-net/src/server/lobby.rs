//! The lobby: who is logged in, who waits for which game, and the games being played.
//! Connections talk to it; it seats paired players at a [`Table`] and keeps only weak
//! references to tables, so a game lives as long as its players and its timer, not as long
//! as the server.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use kifu_shogi::Color;

use crate::game_name::Request;
use crate::server::peer::Peer;
use crate::server::rate::Bucket;
use crate::server::services::Services;
use crate::server::table::{self, IdBook, SeatSlot, Table};

/// Chat lines the whole server fans out in a burst, and then one per this long: a crowd of
/// chatters, each within its own allowance, still cannot make the server write more.
const CHAT_BURST: u32 = 40;
const CHAT_EVERY: std::time::Duration = std::time::Duration::from_millis(50);

/// Whether two waiting players' colour wishes let them play each other.
fn fits(a: &Waiting, b: &Waiting) -> bool {
    match (a.color, b.color) {
        (Some(x), Some(y)) => x != y,
        _ => true,
    }
}

/// A player waiting for an opponent.
pub(crate) struct Waiting {
    /// Which connection: a player logging in again replaces its name's old connection.
    conn: u64,
    /// Login name.
    pub name: String,
    /// Its player id (see [`crate::server::identity`]).
    pub player: String,
    color: Option<Color>,
    pub peer: Arc<Peer>,
    /// Where its connection finds the seat once it is paired.
    slot: Arc<SeatSlot>,
}

/// A logged-in player: what `%%WHO` shows of it, and what a new login under its player id
/// needs to replace it.
pub(crate) struct Presence {
    /// The login name (the player id is the key it is found under).
    pub name: String,
    pub x1: bool,
    pub status: Status,
    pub conn: u64,
    pub peer: Arc<Peer>,
    pub from: SocketAddr,
}

#[derive(Clone, Debug)]
pub(crate) enum Status {
    Connected,
    /// In the lobby for a game name, with the side asked for.
    Waiting(String, Option<Color>),
    /// Seated at a game.
    Game {
        game: String,
        color: Color,
        table: Weak<Table>,
    },
}

pub(crate) struct Lobby {
    pub services: Arc<Services>,
    waiting: Mutex<HashMap<String, Vec<Waiting>>>,
    /// Logged-in players by player id, with what `%%WHO` tells of them.
    pub online: Mutex<HashMap<String, Presence>>,
    /// What the whole server's chat may fan out: a burst, then a steady rate.
    pub chat_budget: Mutex<Bucket>,
    /// Games seated and not over yet, for `%%LIST`, `%%SHOW` and a graceful stop.
    pub games: Mutex<HashMap<String, Weak<Table>>>,
    /// Who played Black the last time two players met, by their two player ids in order: so
    /// that two players without colour wishes alternate colours from one game to the next.
    last_black: Mutex<HashMap<(String, String), String>>,
    ids: Mutex<IdBook>,
    next_conn: AtomicU64,
    /// The league ratings, computed from the store at start and after every league round
    /// (see [`crate::server::league::standings`]); what `%%RATING` answers.
    pub ratings: Mutex<Arc<crate::server::league::standings::Rated>>,
    /// Buoy games set with `%%SETBUOY` or `%%FORK`.
    pub buoys: crate::server::buoy::Buoys,
}

impl Lobby {
    pub fn new(services: Arc<Services>) -> Lobby {
        let buoys = crate::server::buoy::Buoys::new(services.store.clone());
        Lobby {
            services,
            waiting: Mutex::new(HashMap::new()),
            online: Mutex::new(HashMap::new()),
            chat_budget: Mutex::new(Bucket::new(CHAT_BURST, CHAT_EVERY)),
            games: Mutex::new(HashMap::new()),
            last_black: Mutex::new(HashMap::new()),
            ids: Mutex::new(IdBook::default()),
            next_conn: AtomicU64::new(1),
            ratings: Mutex::new(Arc::default()),
            buoys,
        }
    }

    /// The pair's key in `last_black`: the same whichever of the two comes first.
    fn pair(a: &str, b: &str) -> (String, String) {
        if a <= b {
            (a.to_owned(), b.to_owned())
        } else {
            (b.to_owned(), a.to_owned())
        }
    }

    /// Who of `a` and `b` played Black the last time they met, if they did.
    fn last_black_of<'p>(&self, a: &'p String, b: &'p String) -> Option<&'p String> {
        let last = self.last_black.lock().unwrap();
        match last.get(&Self::pair(a, b)) {
            Some(black) if black == a => Some(a),
            Some(black) if black == b => Some(b),
            _ => None,
        }
    }

    fn remember_black(&self, black: &str, white: &str) {
        /// Pairs remembered at most: one entry a pair of players who played each other; a
        /// server past this many forgets them all and starts again, rather than grow forever.
        const PAIRS: usize = 100_000;
        let mut last = self.last_black.lock().unwrap();
        if last.len() >= PAIRS {
            last.clear();
        }
        last.insert(Self::pair(black, white), black.to_owned());
    }

    pub fn new_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// The table of a game in progress, by its Game_ID (`None` once it has ended).
    pub fn game_table(&self, id: &str) -> Option<Arc<Table>> {
        self.games.lock().unwrap().get(id).and_then(Weak::upgrade)
    }

    /// Every game in progress.
    pub fn tables(&self) -> Vec<Arc<Table>> {
        self.games
            .lock()
            .unwrap()
            .values()
            .filter_map(Weak::upgrade)
            .collect()
    }

    /// Sets a logged-in player's status (no-op for players not online).
    pub fn set_status(&self, player: &str, status: Status) {
        if let Some(p) = self.online.lock().unwrap().get_mut(player) {
            p.status = status;
        }
    }

    /// Takes a player offline, unless a newer connection holds its id now.
    pub fn go_offline(&self, player: &str, conn: u64) {
        let mut online = self.online.lock().unwrap();
        if online.get(player).is_some_and(|p| p.conn == conn) {
            online.remove(player);
        }
    }

    /// Puts a player in the lobby, or pairs it with a compatible waiting player at once. The
    /// seats are handed over under the lobby's lock, so a player leaving the lobby either
    /// was seated before or will never be.
    pub fn join(
        self: &Arc<Lobby>,
        conn: u64,
        player: &str,
        request: Request,
        peer: &Arc<Peer>,
        slot: &Arc<SeatSlot>,
    ) {
        self.set_status(
            player,
            Status::Waiting(request.game.name.clone(), request.color),
        );
        let me = Waiting {
            conn,
            name: crate::server::identity::name_of(player).to_owned(),
            player: player.to_owned(),
            color: request.color,
            peer: peer.clone(),
            slot: slot.clone(),
        };
        let mut lobby = self.waiting.lock().unwrap();
        let queue = lobby.entry(request.game.name.clone()).or_default();
        // A league's players wait for its next round, where they are paired together.
        if let Some(league) = self.services.config.leagues.get(&request.game.name) {
            if me.peer.is_x1() {
                let at = league.schedule.next_after(jiff::Timestamp::now());
                me.peer.send_fan_out([format!(
                    "##[LEAGUE] {} pairs its players at {} UTC",
                    league.game.name,
                    at.strftime("%Y-%m-%d %H:%M:%S")
                )
                .as_str()]);
            }
            queue.push(me);
            return;
        }
        // A buoy game waits for its buoy (shogi-server: "not ready yet").
        if crate::server::buoy::is_buoy_game(&request.game)
            && !self.buoys.is_set(&request.game.name)
        {
            queue.push(me);
            return;
        }
        let Some(i) = queue.iter().position(|w| fits(w, &me)) else {
            queue.push(me);
            return;
        };
        let other = queue.remove(i);
        if queue.is_empty() {
            lobby.remove(&request.game.name);
        }
        let (black, white) = self.colours(other, me);
        let table = self.seat(request.game, black, white);
        drop(lobby);
        self.open(table);
    }

    /// Who of two paired players plays Black. The earlier arrival gets its wish. Without
    /// wishes, two players who met before swap the colours of their last game (as a series
    /// between two engines should); players meeting for the first time: the earlier one
    /// plays Black.
    fn colours(&self, earlier: Waiting, later: Waiting) -> (Waiting, Waiting) {
        let earlier_black = match (earlier.color, later.color) {
            (Some(c), _) => c == Color::Black,
            (None, Some(c)) => c == Color::White,
            (None, None) => {
                self.last_black_of(&earlier.player, &later.player) != Some(&earlier.player)
            }
        };
        if earlier_black {
            (earlier, later)
        } else {
            (later, earlier)
        }
    }

    /// Starts the games of players waiting for `game` while its buoy lasts (after
    /// `%%SETBUOY` or `%%FORK` set it), pairing them in the order they came.
    pub fn start_waiting(self: &Arc<Lobby>, game: &str) {
        let Some(name) = crate::game_name::GameName::parse(game) else {
            return;
        };
        let mut waiting = self.waiting();
        let mut tables = Vec::new();
        if let Some(queue) = waiting.get_mut(game) {
            while self.buoys.is_set(game) && queue.len() >= 2 {
                let Some(j) = (1..queue.len()).find(|&j| fits(&queue[0], &queue[j])) else {
                    break;
                };
                let later = queue.remove(j);
                let earlier = queue.remove(0);
                let (black, white) = self.colours(earlier, later);
                tables.push(self.seat(name.clone(), black, white));
            }
            if queue.is_empty() {
                waiting.remove(game);
            }
        }
        drop(waiting);
        for t in tables {
            self.open(t);
        }
    }

    /// The players waiting, by game name: held while players are taken out and seated, so
    /// that a player leaving the lobby either was seated before or will never be.
    pub fn waiting(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<Waiting>>> {
        self.waiting.lock().unwrap()
    }

    /// Seats two paired players at a new table (call with [`Lobby::waiting`] held, then
    /// [`Lobby::open`] the table once it is released).
    pub fn seat(
        &self,
        game: crate::game_name::GameName,
        black: Waiting,
        white: Waiting,
    ) -> Arc<Table> {
        self.remember_black(&black.player, &white.player);
        let notes = self
            .ratings
            .lock()
            .unwrap()
            .rate_lines(&black.player, &white.player);
        let initial = if crate::server::buoy::is_buoy_game(&game) {
            self.buoys.take(&game.name).unwrap_or_default()
        } else {
            Vec::new()
        };
        let t = table::seat(
            &self.services,
            &mut self.ids.lock().unwrap(),
            game,
            [
                (black.name, black.player, black.peer),
                (white.name, white.player, white.peer),
            ],
            notes,
            initial,
        );
        self.games
            .lock()
            .unwrap()
            .insert(t.id.clone(), Arc::downgrade(&t));
        t.give_seats([&black.slot, &white.slot]);
        t
    }

    /// Marks a seated table's players as playing and sends the game summaries.
    pub fn open(self: &Arc<Lobby>, t: Arc<Table>) {
        for (n, color) in t.players.iter().zip(Color::ALL) {
            let status = Status::Game {
                game: t.game.name.clone(),
                color,
                table: Arc::downgrade(&t),
            };
            self.set_status(n, status);
        }
        // The game's task holds the lobby weakly: a server dropped with games in play
        // is not kept alive by them.
        let lobby = Arc::downgrade(self);
        let id = t.id.clone();
        t.open(move || {
            if let Some(lobby) = lobby.upgrade() {
                lobby.games.lock().unwrap().remove(&id);
            }
        });
    }

    /// Takes a connection out of the lobby.
    pub fn leave(&self, conn: u64) {
        let mut lobby = self.waiting.lock().unwrap();
        for queue in lobby.values_mut() {
            queue.retain(|w| w.conn != conn);
        }
        lobby.retain(|_, q| !q.is_empty());
    }

    /// Whether someone waits for this game name with a side that fits (for `%%CHALLENGE`).
    pub fn someone_waits(&self, game: &str, color: Option<Color>) -> bool {
        let lobby = self.waiting.lock().unwrap();
        lobby.get(game).is_some_and(|q| {
            q.iter().any(|w| match (w.color, color) {
                (Some(a), Some(b)) => a != b,
                _ => true,
            })
        })
    }
}
