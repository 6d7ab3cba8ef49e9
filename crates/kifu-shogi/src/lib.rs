//! Standard shogi for kifu.
