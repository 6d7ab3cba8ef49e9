//! Cetkaik (机戦) rules and CKKA records.

pub mod ckka;
pub mod game;
pub mod movement;
pub mod moves;
pub mod numeral;
pub mod piece;
pub mod play;
pub mod position;
pub mod profession;
pub mod rules;
pub mod square;
pub mod sticks;
pub mod yaku;

pub use game::{Declaration, Game, GameError, MoveReport};
pub use moves::{PureMove, candidates};
pub use piece::{Piece, Side};
pub use play::{Effect, IllegalMove};
pub use position::{Hop1zuo1, Position};
pub use profession::{Color, Profession};
pub use rules::Rules;
pub use square::Square;
pub use sticks::{StickRng, Throw, Throws};
pub use yaku::{Hand, HandKind, HandSet, hands_of};
