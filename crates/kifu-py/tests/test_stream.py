"""kifu.stream: the records of a file one at a time, the same as kifu.read gives them, in the
memory of one record."""

import subprocess
import sys

import pytest

import kifu
from conftest import corpus_dir, record_files

FILES = record_files(corpus_dir())


def summary(record):
    """What a record holds that Python sees, to compare two readings of it."""
    return (
        record.game,
        record.format,
        record.path,
        record.start,
        record.moves,
        record.header,
        record.ending,
        record.winner,
        record.times,
        record.comments,
        [(v.start_ply, v.moves, v.ending) for v in record.variations],
        record.valid,
        [(d.line, d.column, d.severity, d.kind, d.message) for d in record.diagnostics],
    )


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(corpus_dir()).as_posix())
def test_stream_gives_what_read_gives(path):
    streamed = [summary(r) for r in kifu.stream(path)]
    assert streamed == [summary(r) for r in kifu.read(path)]
    assert streamed, "a file gives at least one record (an empty one is an invalid record)"


def test_stream_takes_bytes_and_the_format_named(corpus):
    data = (corpus / "shogi/bulk/all_games.csa").read_bytes()
    streamed = [summary(r) for r in kifu.stream(data, format="csa", game="shogi")]
    assert len(streamed) == 500
    assert streamed == [summary(r) for r in kifu.read(bytearray(data), format="csa")]
    assert [r.moves for r in kifu.stream(b"7g7f 3c3d\n2g2f\n", format="usi")] == [
        ["7g7f", "3c3d"],
        ["2g2f"],
    ]


def test_stream_is_an_iterator_that_ends():
    records = kifu.stream(b"7g7f 3c3d\n2g2f\n", format="usi")
    assert iter(records) is records
    assert len(next(records)) == 2
    assert len(next(records)) == 1
    with pytest.raises(StopIteration):
        next(records)
    with pytest.raises(StopIteration):
        next(records)


def test_an_empty_text_streams_one_invalid_record():
    (record,) = kifu.stream(b"")
    assert not record.valid
    assert record.diagnostics[0].kind == "no-record"


def test_stream_raises_where_read_raises(tmp_path):
    with pytest.raises(FileNotFoundError):
        kifu.stream(tmp_path / "missing.csa")
    with pytest.raises(ValueError, match="unknown format"):
        kifu.stream(b"7g7f", format="pgn")
    with pytest.raises(TypeError):
        kifu.stream(42)
    bad = tmp_path / "bad.jkf"
    bad.write_bytes(b'{"header": {}, "moves": [{}]}\xff\xfe')
    with pytest.raises(kifu.ReadError) as streamed:
        kifu.stream(bad)
    with pytest.raises(kifu.ReadError) as read:
        kifu.read(bad)
    assert (streamed.value.line, streamed.value.column) == (read.value.line, read.value.column)


MEMORY = """
import resource, sys, kifu
path, how = sys.argv[1], sys.argv[2]
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
games = plies = 0
for record in (kifu.stream(path) if how == "stream" else kifu.read(path)):
    games += 1
    plies += len(record.moves)
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(games, plies, grown // 1024)
"""


def peak_growth_mb(path, how):
    """Games, plies and the growth of the peak memory, in MB, of reading `path` in a process
    of its own."""
    out = subprocess.run(
        [sys.executable, "-c", MEMORY, str(path), how], capture_output=True, text=True, check=True
    )
    games, plies, grown = map(int, out.stdout.split())
    return games, plies, grown


def test_a_large_archive_streams_in_the_memory_of_its_text(corpus, tmp_path):
    # 10,000 games (10 MB of CSA with `/` between games): kifu.read holds every record,
    # about 25 KB each; kifu.stream one at a time.
    games = (corpus / "shogi/bulk/all_games.csa").read_text().rstrip("\n")
    archive = tmp_path / "archive.csa"
    archive.write_text("\n/\n".join([games] * 20) + "\n")
    streamed = peak_growth_mb(archive, "stream")
    read = peak_growth_mb(archive, "read")
    assert streamed[:2] == read[:2] == (10_000, 773_080)
    assert streamed[2] < 40, streamed
    # kifu.read keeps each record in about its own size (the first reader gave each one room
    # for 8 KB of text, 111 KB: 1.1 GB here).
    assert read[2] < 400, read
