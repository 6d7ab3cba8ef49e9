//! Chu shogi rules and notations of kifu (filled in by its issue).
