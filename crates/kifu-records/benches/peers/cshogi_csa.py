"""Validated CSA games/s with cshogi, the peer the records benchmark compares against.

For every file of the repository's corpus/shogi/bulk/csa (read into memory first, like the Rust
benchmark does): parse it with cshogi's C++ CSA parser, then replay every move on a Board
checking `is_legal` first. Single-threaded; prints games/s of the best of several rounds.

    pip install cshogi
    python3 crates/kifu-records/benches/peers/cshogi_csa.py
"""

import pathlib
import sys
import time

import cshogi
from importlib.metadata import version
from cshogi import CSA

ROOT = pathlib.Path(__file__).resolve().parents[4] / "corpus" / "shogi" / "bulk" / "csa"


def validate(text: str) -> int:
    parsers = CSA.Parser.parse_str(text)
    plies = 0
    for p in parsers:
        board = cshogi.Board(p.sfen)
        for mv in p.moves:
            if not board.is_legal(mv):
                raise ValueError("illegal move")
            board.push(mv)
            plies += 1
    return plies


def main() -> None:
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
    texts = [p.read_text(encoding="utf-8") for p in sorted(root.glob("*.csa"))]
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        plies = sum(validate(t) for t in texts)
        best = min(best, time.perf_counter() - start)
    print(f"cshogi {version('cshogi')}: {len(texts)} games, {plies} plies, "
          f"{len(texts) / best:,.0f} validated games/s (best of 5)")


if __name__ == "__main__":
    main()
