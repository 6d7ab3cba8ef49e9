//! Refusals that come in floods — logins refused while a failure allowance is spent,
//! connections refused at the door — are logged one in full, then summed up: one line per
//! ten seconds says how many more there were and from where. A flood then costs the log a
//! line every few seconds, not one per guess, and the log still says what happened.

use std::fmt::Display;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tracing::instrument::WithSubscriber as _;

/// How often a flood's refusals are summed up.
const WINDOW: Duration = Duration::from_secs(10);

/// Distinct sources named in a summary line.
const SAMPLES: usize = 3;

#[derive(Default)]
struct Tally {
    /// A summary is due: the first refusal was logged in full, and a task sums up the
    /// rest when the window closes.
    open: bool,
    more: u64,
    from: Vec<String>,
}

/// One kind of refusal (`what` names it in the summary line, e.g. "logins refused: too
/// many failed logins for a name").
pub(crate) struct FloodLog {
    what: &'static str,
    tally: Mutex<Tally>,
}

impl FloodLog {
    pub fn new(what: &'static str) -> Arc<FloodLog> {
        Arc::new(FloodLog {
            what,
            tally: Mutex::new(Tally::default()),
        })
    }

    /// Notes one refusal from `from`: `true` if the caller is to log it in full (the first
    /// of a flood), `false` if it is counted for the summary line (logged by a task that
    /// carries the caller's log).
    pub fn note(self: &Arc<FloodLog>, from: impl Display) -> bool {
        let mut t = self.tally.lock().unwrap();
        if !t.open {
            t.open = true;
            drop(t);
            tokio::spawn(self.clone().summarise().with_current_subscriber());
            return true;
        }
        t.more += 1;
        if t.from.len() < SAMPLES {
            let from = from.to_string();
            if !t.from.contains(&from) {
                t.from.push(from);
            }
        }
        false
    }

    /// Every window, one line for the refusals counted in it; done when one passes quiet.
    async fn summarise(self: Arc<FloodLog>) {
        loop {
            tokio::time::sleep(WINDOW).await;
            let (more, from) = {
                let mut t = self.tally.lock().unwrap();
                if t.more == 0 {
                    t.open = false;
                    return;
                }
                (std::mem::take(&mut t.more), std::mem::take(&mut t.from))
            };
            let etc = if from.len() == SAMPLES { ", …" } else { "" };
            tracing::info!(
                "{more} more {} in the last {} s (from {}{etc})",
                self.what,
                WINDOW.as_secs(),
                from.join(", ")
            );
        }
    }
}
