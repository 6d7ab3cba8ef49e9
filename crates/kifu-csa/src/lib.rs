//! CSA protocol codec, sessions and transports of kifu (filled in by its issue).
