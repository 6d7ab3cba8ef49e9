//! Engine processes kept between games: a game takes a ready engine of the specification it
//! needs and gives it back when the game leaves it fit; one that died, hung or talked
//! garbage is killed instead, and the next game that needs its specification starts a new
//! process.

use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::Mutex;

use crate::process::{Engine, EngineError};

/// How an engine is started: its command line and `setoption` pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// Program then arguments, split on whitespace.
    pub cmd: String,
    /// `setoption` pairs.
    pub options: Vec<(String, String)>,
}

/// Idle engines by the index of their [`Launch`].
pub struct EnginePool {
    launches: Vec<Launch>,
    idle: Mutex<Vec<(usize, Engine)>>,
    started: AtomicU64,
}

impl EnginePool {
    /// A pool that starts engines as `launches` say, by index.
    pub fn new(launches: Vec<Launch>) -> EnginePool {
        EnginePool {
            launches,
            idle: Mutex::new(Vec::new()),
            started: AtomicU64::new(0),
        }
    }

    /// A ready engine of launch `index`: an idle one that still answers `isready`, else a
    /// new process through the handshake.
    pub async fn take(&self, index: usize) -> Result<Engine, EngineError> {
        loop {
            let found = {
                let mut idle = self.idle.lock().await;
                idle.iter()
                    .position(|(i, _)| *i == index)
                    .map(|at| idle.swap_remove(at).1)
            };
            let Some(mut engine) = found else { break };
            if engine.ready().await.is_ok() {
                return Ok(engine);
            }
            engine.kill().await;
        }
        let launch = &self.launches[index];
        self.started.fetch_add(1, Ordering::Relaxed);
        Engine::start(&launch.cmd, &launch.options, false, None).await
    }

    /// Gives back an engine fit for another game.
    pub async fn give_back(&self, index: usize, engine: Engine) {
        self.idle.lock().await.push((index, engine));
    }

    /// Processes started so far (restarts included).
    pub fn started(&self) -> u64 {
        self.started.load(Ordering::Relaxed)
    }

    /// `quit` to every idle engine, and waits for them.
    pub async fn close(&self) {
        let idle = std::mem::take(&mut *self.idle.lock().await);
        for (_, engine) in idle {
            engine.quit().await;
        }
    }
}
