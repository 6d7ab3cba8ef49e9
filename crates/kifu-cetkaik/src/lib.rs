//! Cetkaik (机戦) rules, and the CKKA draft's notation of a single move.
//!
//! The rules engine ([`Position`], [`candidates`], [`MatchState`]) knows nothing of files;
//! [`Cetkaik`] presents it to the record model as a [`kifu_record::Game`] (one record is one
//! season), and [`notation`] reads and writes one move in each CKKA notation. CKKA files
//! (headers, bodies, hand lines, replay, writers) are in `kifu-records` (`kifu_records::cetkaik`).
//!
//! ```
//! use kifu_cetkaik::notation::{cursor::Cursor, kanji::board_move, resolve::resolve};
//! use kifu_cetkaik::{MatchState, Rules, Side};
//!
//! let mut state = MatchState::new(Rules::standard(), Side::IASide, [20, 20]);
//! assert!(!state.legal_moves().is_empty());
//! // Read `MAU弓MAIMY橋一` as notation ⓪ writes it, resolve it against the position, play it.
//! let (mut diags, mut explicit) = (Vec::new(), false);
//! let written = board_move(&mut Cursor::new("MAU弓MAIMY橋一", 0), &mut diags, &mut explicit).unwrap();
//! let resolved = resolve(state.position(), &written, &state.rules).unwrap();
//! state.play(resolved.mv, resolved.throws).unwrap();
//! assert_eq!(state.turn(), Side::ASide);
//!
//! // A move the rules forbid says why.
//! let written = board_move(&mut Cursor::new("ME弓MU無撃裁", 0), &mut diags, &mut explicit).unwrap();
//! let err = resolve(state.position(), &written, &state.rules).unwrap_err();
//! assert_eq!(err.to_string(), "黒弓 on ME cannot move to MU");
//! ```

#![warn(missing_docs)]

pub mod diagram;
pub mod game;
pub mod match_state;
pub mod movement;
pub mod moves;
pub mod notation;
pub mod numeral;
pub mod piece;
pub mod play;
pub mod position;
pub mod profession;
pub mod rules;
pub mod square;
pub mod sticks;
pub mod yaku;

pub use game::{Cetkaik, CetkaikEnding, Event, SeasonStart};
pub use match_state::{Declaration, IllegalEvent, MatchState, MoveReport};
pub use moves::{PureMove, candidates};
pub use piece::{Piece, Side};
pub use play::{Effect, IllegalMove};
pub use position::{Hop1zuo1, Position};
pub use profession::{Color, Profession};
pub use rules::Rules;
pub use square::Square;
pub use sticks::{StickRng, Throw, Throws};
pub use yaku::{Hand, HandKind, HandSet, hands_of};
