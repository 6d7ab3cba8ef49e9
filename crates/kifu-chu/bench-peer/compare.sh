#!/bin/sh
# Perft(3) and perft(4) from the start, path-based: kifu-chu (best of 5) and shogiops (best of 2)
# in the same run.
# Run from the repository root: sh crates/kifu-chu/bench-peer/compare.sh
set -e
here=$(dirname "$0")
(cd "$here" && npm install --no-audit --no-fund --silent)
cargo build --release -q -p kifu-chu --example perft
bin=${CARGO_TARGET_DIR:-target}/release/examples/perft
for d in 3 4; do
  ours=$("$bin" "$d")
  peer=$(node "$here/perft.mjs" "$d")
  echo "$ours"
  echo "$peer"
  echo "$ours|$peer" | awk -F'|' '{ split($1, a, " in "); split(a[2], t1, "s"); split($2, b, " in "); split(b[2], t2, "s"); printf "ratio (shogiops time / kifu-chu time): %.0fx\n\n", t2[1] / t1[1] }'
done
