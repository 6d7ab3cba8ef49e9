//! Match statistics for testing game engines against each other.
//!
//! - [`counts`]: results as a trinomial (losses, draws, wins of single games) or a pentanomial
//!   (game pairs played from one opening with colours reversed), each a distribution of
//!   scores;
//! - [`elo`]: the score, the logistic Elo with its 95 % interval, the likelihood of
//!   superiority (LOS) and the normalised Elo of a distribution;
//! - [`sprt`]: the generalised sequential probability ratio test (GSPRT) on either Elo model,
//!   as fishtest and fastchess define it;
//! - [`ratings`]: league ratings by the method of shogi-server's `mk_rate` (maximum likelihood
//!   on the Elo model, older games weighing less).
//!
//! ```
//! use kifu_stats::{Pentanomial, Sprt, SprtModel, Verdict, elo::Estimate};
//!
//! // Pairs: [LL, LD, DD+WL, WD, WW].
//! let pairs = Pentanomial::new([5, 20, 40, 25, 10]);
//! let e = Estimate::of(&pairs.distribution()).unwrap();
//! assert!((e.elo - 26.107).abs() < 1e-3 && (e.elo_margin - 34.826).abs() < 1e-3);
//! assert!((e.los - 0.93054).abs() < 1e-5);
//!
//! let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
//! let llr = sprt.llr(&pairs.distribution());
//! assert!((llr - 0.27831).abs() < 1e-4);
//! assert_eq!(sprt.verdict(llr), Verdict::Continue);
//! ```

pub mod counts;
pub mod elo;
mod normal;
pub mod ratings;
pub mod sprt;

pub use counts::{Distribution, Pentanomial, Trinomial};
pub use elo::Estimate;
pub use normal::{normal_cdf, normal_quantile};
pub use sprt::{Sprt, SprtError, SprtModel, Verdict};
