"""cshogi's side of `scripts/bench-check-vs-cshogi`: validate every CSA file under a directory.

The whole-process counterpart of `kifu check DIR`: walk the directory, and for every `*.csa`
file parse it with cshogi's C++ CSA parser (`Parser.parse_file`, which reads the file), then
replay every move on a Board, checking `is_legal` before each `push`, as
crates/kifu-records/benches/peers/cshogi_csa.py does for files already in memory.
Prints one summary line (files, plies, illegal games) and exits 1 if any game was illegal.

    python crates/kifu-cli/benches/peers/cshogi_check.py DIR
"""

import os
import sys

import cshogi
from cshogi import CSA


def check_file(path: str) -> tuple[int, bool]:
    plies = 0
    for parsed in CSA.Parser.parse_file(path):
        board = cshogi.Board(parsed.sfen)
        for mv in parsed.moves:
            if not board.is_legal(mv):
                return plies, False
            board.push(mv)
            plies += 1
    return plies, True


def main() -> int:
    root = sys.argv[1]
    files = plies = invalid = 0
    # Sorted like `kifu check` walks, so both read the files in the same order.
    for directory, subdirs, names in os.walk(root):
        subdirs.sort()
        for name in sorted(names):
            if not name.endswith(".csa"):
                continue
            n, ok = check_file(os.path.join(directory, name))
            files += 1
            plies += n
            invalid += not ok
    print(f"cshogi: {files} files, {plies} plies, {invalid} invalid")
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
