//! Cetkaik rules and CKKA records of kifu (filled in by its issue).
