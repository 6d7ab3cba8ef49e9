"""Every reader's bad input gives diagnostics, never a crash: corpus files of every format cut
short and garbled, read as their own format and as the others. A file may still be unreadable
as text (kifu.ReadError); nothing else may escape, and no record with an error passes as valid."""

import random

import pytest

import kifu
from conftest import corpus_dir, record_files

FORMATS = {game: kifu.formats(game) for game in ("shogi", "chu", "cetkaik")}


def sources():
    root = corpus_dir()
    seen = set()
    for path in record_files(root):
        key = (path.parent, path.suffix)
        if key in seen and "bulk" in path.parts:
            continue
        seen.add(key)
        yield path


SOURCES = list(sources())


def damaged(data: bytes, rng: random.Random):
    yield data[: len(data) // 2]
    yield data[: rng.randrange(1, max(2, len(data)))]
    for _ in range(4):
        garbled = bytearray(data)
        for _ in range(rng.randrange(1, 8)):
            at = rng.randrange(len(garbled)) if garbled else 0
            choice = rng.random()
            if choice < 0.4 and garbled:
                garbled[at] = rng.randrange(256)
            elif choice < 0.7:
                garbled[at:at] = rng.choice([b"\n", b"+", b"%", b"*", b"\xe6\x89\x8b", b"{", b"[", b"\x00"])
            elif garbled:
                del garbled[at : at + rng.randrange(1, 20)]
        yield bytes(garbled)
    lines = data.splitlines(keepends=True)
    rng.shuffle(lines)
    yield b"".join(lines)


def read_checked(source, **options):
    try:
        records = kifu.read(source, **options)
    except kifu.ReadError as e:
        assert e.line >= 1 and e.column >= 1
        return
    assert records, "a read gives at least one record"
    for r in records:
        errors = [d for d in r.diagnostics if d.severity == "error"]
        assert r.valid == (not errors)
        for d in r.diagnostics:
            assert d.line >= 1 and d.column >= 1 and d.message
        # Everything a record offers works on a damaged one too.
        r.moves, r.header, r.ending, r.times, r.comments, r.variations, r.start, r.winner
        r.positions()
        assert r.moves == r._replayed_moves()


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(corpus_dir()).as_posix())
def test_damaged_files_give_diagnostics(path):
    rng = random.Random(path.name)
    data = path.read_bytes()
    for bad in damaged(data, rng):
        read_checked(bad)
        game = kifu.read(path)[0].game
        for fmt in FORMATS[game]:
            read_checked(bad, format=fmt, game=game)


def test_a_wrong_format_is_diagnosed_not_raised(corpus):
    data = (corpus / "shogi/bulk/csa/game_0001.csa").read_bytes()
    for game, names in FORMATS.items():
        for fmt in names:
            read_checked(data, format=fmt, game=game)


def test_empty_and_binary_input():
    for data in (b"", b"\n\n", b"\x00\x01\x02", bytes(range(256)), b"\xef\xbb\xbf"):
        read_checked(data)
        for game, names in FORMATS.items():
            for fmt in names:
                read_checked(data, format=fmt, game=game)
