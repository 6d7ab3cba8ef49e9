//! Cetkaik (机戦) rules and CKKA records.
//!
//! The rules engine ([`Position`], [`candidates`], [`MatchState`], [`Cetkaik`]) knows nothing of formats; the
//! [`ckka`] module reads all four notations, replays a record against the rules and writes it
//! back in any notation.
//!
//! ```
//! use kifu_cetkaik::{Rules, ckka};
//! use kifu_cetkaik::ckka::{Notation, write};
//!
//! let text = "{一位色:黒}\nMAU弓MAIMY橋一\tME弓MIMU橋五\n";
//! let (game, diagnostics) = ckka::check(text, Rules::standard());
//! assert!(diagnostics.is_empty());
//! assert_eq!(write::write(&game, Notation::Abbreviated), "{一位色:黒}\nMAU弓MAIMY一    ME弓MIMU五\n");
//! assert_eq!(write::write(&game, Notation::Mrf), "{一位色:黒}\n\"mauAmaimy1\",\n\"meAmimu5\",\n");
//!
//! // A move the rules forbid is reported with its place.
//! let (_, diagnostics) = ckka::check("MAU弓MAIMY橋一\nME弓MU無撃裁\n", Rules::standard());
//! assert_eq!(diagnostics[0].message, "ply 2: 黒弓 on ME cannot move to MU");
//! ```

pub mod ckka;
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
