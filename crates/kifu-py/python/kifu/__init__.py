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

from ._kifu import Archive as _Archive
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
    analyze,
    formats,
    parse,
    read,
    read_many,
    stream,
)
from . import cetkaik, chu, shogi



class Archive(_Archive):
    """An archive of shogi games built by ``kifu index`` (see ``_kifu.Archive``): ``explore``,
    ``find``, ``game(n)``, ``len()``; iterating it gives each game's record, read from its
    source file (as ``kifu.read`` reads it; relative paths are taken from the directory
    ``kifu index`` ran in, which must be the current one)."""

    def games(self):
        """Each game's facts (a dict), in the order they were added."""
        return (self.game(n) for n in range(len(self)))

    def __iter__(self):
        cached = (None, None)
        for facts in self.games():
            if cached[0] != facts["file"]:
                cached = (facts["file"], read(facts["file"], format=facts["format"], game="shogi"))
            yield cached[1][facts["record"] - 1]


__all__ = [
    "Archive",
    "analyze",
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
