//! What the record tests share: the corpus, decoded, and comparing records by content.

// Each test file compiles this module on its own and uses only part of it.
#![allow(dead_code, unused_imports)]

pub mod cetkaik;
pub mod compare;
pub mod corpus;
