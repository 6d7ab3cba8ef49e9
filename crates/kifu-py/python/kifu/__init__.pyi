"""Type stubs of kifu: records of shogi, chu shogi and cetkaik, read, checked and replayed."""

import os
from typing import Dict, Generic, Iterable, Iterator, List, Literal, Optional, Tuple, TypeVar, Union, final

from . import cetkaik as cetkaik
from . import chu as chu
from . import shogi as shogi

__version__: str

_Path = Union[str, "os.PathLike[str]"]
_GivenPath = TypeVar("_GivenPath", str, "os.PathLike[str]")
_Game = Literal["shogi", "chu", "cetkaik"]
_AnyPosition = Union[shogi.Position, chu.Position, cetkaik.Position]

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

class ReadError(ValueError):
    """The input is not text in the format's encoding (or names no known game or format)."""

    line: int
    column: int

class IllegalMove(ValueError):
    """A move the rules forbid, naming the rule."""

@final
class Diagnostic:
    """One problem found in a record, at a line and column (from 1)."""

    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def severity(self) -> Literal["error", "warning"]: ...
    @property
    def kind(self) -> str: ...
    @property
    def message(self) -> str: ...

@final
class Outcome:
    """How a game stands decided, and who won (None for a draw)."""

    @property
    def kind(self) -> str: ...
    @property
    def winner(self) -> Optional[Literal["first", "second"]]: ...

@final
class Variation:
    """A line of the move tree other than the main line, with its moves from the start."""

    @property
    def start_ply(self) -> int: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def ending(self) -> Optional[str]: ...

@final
class Record:
    """One game record with its header, moves, variations, times, comments and diagnostics."""

    @property
    def game(self) -> _Game: ...
    @property
    def format(self) -> str: ...
    @property
    def path(self) -> Optional[str]: ...
    @property
    def start(self) -> str: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def header(self) -> Dict[str, str]: ...
    @property
    def ending(self) -> Optional[str]: ...
    @property
    def winner(self) -> Optional[Literal["first", "second", "draw"]]: ...
    @property
    def times(self) -> List[Optional[float]]: ...
    @property
    def comments(self) -> Dict[int, List[str]]: ...
    @property
    def variations(self) -> List[Variation]: ...
    @property
    def valid(self) -> bool: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    def to_string(self, format: str) -> Tuple[str, List[str]]: ...
    def to_bytes(self, format: str) -> Tuple[bytes, List[str]]: ...
    def positions(self) -> List[_AnyPosition]: ...
    def start_position(self) -> _AnyPosition: ...
    def __len__(self) -> int: ...

@final
class ReadMany(Generic[_GivenPath], Iterator[Tuple[_GivenPath, Union[List[Record], OSError, ReadError]]]):
    """Each file's path, as given, with its records or the exception reading it raised."""

    def __iter__(self) -> "ReadMany[_GivenPath]": ...
    def __next__(self) -> Tuple[_GivenPath, Union[List[Record], OSError, ReadError]]: ...

@final
class RecordStream(Iterator[Record]):
    """The records of one file or text, each read when the loop asks for the next."""

    def __iter__(self) -> "RecordStream": ...
    def __next__(self) -> Record: ...

def read(
    source: Union[_Path, bytes, bytearray],
    *,
    format: Optional[str] = None,
    game: Optional[_Game] = None,
) -> List[Record]: ...
def parse(
    text: Union[str, bytes, bytearray],
    *,
    format: Optional[str] = None,
    game: Optional[_Game] = None,
) -> List[Record]: ...
def stream(
    source: Union[_Path, bytes, bytearray],
    *,
    format: Optional[str] = None,
    game: Optional[_Game] = None,
) -> RecordStream: ...
def read_many(
    paths: Iterable[_GivenPath],
    *,
    jobs: int = 0,
    format: Optional[str] = None,
    game: Optional[_Game] = None,
) -> ReadMany[_GivenPath]: ...
def formats(game: _Game) -> List[str]: ...
def analyze(
    record: Record,
    *,
    engine: str,
    nodes: Optional[int] = None,
    depth: Optional[int] = None,
    movetime: Optional[int] = None,
    options: Optional[List[Tuple[str, str]]] = None,
    jobs: int = 1,
    timeout: Optional[float] = None,
    cache: Optional[_Path] = None,
) -> List[Dict[str, object]]: ...

@final
class Archive:
    """An archive of shogi games built by ``kifu index`` (opened without loading it)."""

    def __new__(cls, path: _Path) -> "Archive": ...
    def __len__(self) -> int: ...
    def explore(
        self,
        position: str = "startpos",
        *,
        player: Optional[str] = None,
        min_rating: Optional[float] = None,
        date_from: Optional[str] = None,
        date_to: Optional[str] = None,
        event: Optional[str] = None,
        result: Optional[Literal["black-win", "white-win", "draw", "unknown"]] = None,
        top: int = 5,
    ) -> Dict[str, object]: ...
    def find(
        self,
        position: str,
        *,
        player: Optional[str] = None,
        min_rating: Optional[float] = None,
        date_from: Optional[str] = None,
        date_to: Optional[str] = None,
        event: Optional[str] = None,
        result: Optional[Literal["black-win", "white-win", "draw", "unknown"]] = None,
        limit: Optional[int] = None,
    ) -> List[Dict[str, object]]: ...
    def game(self, number: int) -> Dict[str, object]: ...
    def games(self) -> Iterator[Dict[str, object]]: ...
    def __iter__(self) -> Iterator[Record]: ...
    @staticmethod
    def position_key(position: str) -> str: ...
