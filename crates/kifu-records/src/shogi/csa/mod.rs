//! CSA standard record files: the 1997 baseline and V2, V2.1, V2.2, V3.0.
//!
//! [`read`] accepts every edition (and files without a version line), `,` multi-statements
//! and several records separated by `/`. [`write`] produces V2.2 or V3.0.

mod floodgate;
mod reader;
mod setup;
pub mod syntax;
mod writer;

pub use floodgate::{Floodgate, Rate, Summary, floodgate};
pub use reader::{Records, ending_kind, read};
pub use writer::{CsaVersion, write, write_all, write_position};

#[cfg(test)]
mod tests;
