//! The CSA server protocol (1.2.1, and shogi-server's wire forms): sans-IO parsing and
//! formatting of every line both sides send.
//!
//! - [`client_message`]: lines from a client (`LOGIN`, `AGREE`, moves with `,'*` comments …);
//! - [`server_message`]: single lines from a server (`START:`, `+7776FU,T3`, `#RESIGN` …);
//! - [`summary`]: the `Game_Summary` block, with [`time_rule`] and [`position_block`];
//! - [`clock`]: both clocks of a game under those time rules, with shogi-server's arithmetic.
//!
//! Moves use the 1998 codec ([`crate::message::CsaMove`]); both the spec's forms
//! (`%TORYO,T4`) and shogi-server's (`%TORYO`, a repeated `%KACHI`) are read.
//!
//! ```
//! use kifu_csa::server_protocol::{ClientMessage, MoveComment, ServerMessage};
//! let ClientMessage::Move { mv, comment } = ClientMessage::parse("+7776FU,'* 30 -3334FU") else {
//!     panic!()
//! };
//! assert_eq!(comment, Some(MoveComment::Engine("30 -3334FU".into())));
//! let relay = ServerMessage::Move { mv, time: Some(3) };
//! assert_eq!(relay.to_string(), "+7776FU,T3");
//! ```

pub mod client_message;
pub mod clock;
pub mod position_block;
pub mod server_message;
pub mod summary;
pub mod time_rule;

pub use client_message::{ClientMessage, MoveComment};
pub use clock::Clock;
pub use position_block::{PositionBlock, PositionBlockError};
pub use server_message::{Reason, ServerMessage, Verdict};
pub use summary::{GameSummary, Step, SummaryError, SummaryReader, SummaryTime};
pub use time_rule::{TimeRule, TimeUnit, UnitBase};
