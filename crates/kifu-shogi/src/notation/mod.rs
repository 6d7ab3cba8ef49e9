//! How shogi moves are written, one move at a time: the CSA move text of records and of the
//! protocol (`+7776FU`), KIF's move words (`７六歩(77)`) and KI2's JSA notation (`５八金右`).
//! Record files are the business of `kifu-records`; this module only turns one move's text
//! into a [`crate::Move`] and back, once for the record readers, the CSA protocol and the
//! players that take typed moves alike.
//!
//! ```
//! use kifu_shogi::Position;
//! use kifu_shogi::notation::csa::CsaMove;
//!
//! let position = Position::startpos();
//! let mv = "+7776FU".parse::<CsaMove>().unwrap().to_move(&position).unwrap();
//! assert_eq!(mv.usi(), "7g7f");
//! ```

pub mod csa;
pub mod ki2;
pub mod kif;
pub mod pv;
