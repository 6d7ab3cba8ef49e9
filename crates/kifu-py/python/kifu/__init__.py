"""kifu: read, check, convert and replay game records of shogi, chu shogi and cetkaik.

The core is Rust (the kifu toolkit); this package is its Python face::

    import kifu
    records = kifu.read("game.kif")       # every record of the file
    for r in kifu.stream("archive.csa"):  # or one at a time, for files of many games
        ...
    r = records[0]
    r.moves                               # ['7g7f', '3c3d', ...]  (USI)
    r.valid, r.diagnostics                # problems are diagnostics, not exceptions

Positions to play on are in :mod:`kifu.shogi`, :mod:`kifu.chu` and :mod:`kifu.cetkaik`.
"""

from ._kifu import (
    Diagnostic,
    IllegalMove,
    Outcome,
    ReadError,
    ReadMany,
    Record,
    RecordStream,
    Variation,
    __version__,
    formats,
    parse,
    read,
    read_many,
    stream,
)
from . import cetkaik, chu, shogi

__all__ = [
    "Diagnostic",
    "IllegalMove",
    "Outcome",
    "ReadError",
    "ReadMany",
    "Record",
    "RecordStream",
    "Variation",
    "__version__",
    "cetkaik",
    "chu",
    "formats",
    "parse",
    "read",
    "read_many",
    "shogi",
    "stream",
]
