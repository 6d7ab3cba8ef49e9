"""One front door (issue 27), the fifth way: every record the tests have, read as bytes in
Python (no name at all), gives the same game, format, moves, ending and diagnostics as the
command line reading the file by its own name (`crates/kifu-cli/tests/front_door.rs` checks
the other four ways over the same list of files). And `read_many` takes one path or many, and
expands a directory as the command line does."""

import json
import pathlib
import subprocess

import pytest

import kifu
from conftest import REPO, corpus_dir

# Formats the content cannot tell from another without the file's name (the same reader and
# text; the name says which encoding a writer would use).
TWINS = {("kif", "kifu"), ("kifu", "kif"), ("ki2", "ki2u"), ("ki2u", "ki2")}


def front_door_records():
    """front_door.rs's list: every file of the corpus and the examples but notes and tables,
    and the first five of each bulk folder."""
    files = []
    for root in (corpus_dir(), REPO / "examples/records"):
        for path in sorted(root.rglob("*")):
            if path.is_file() and not path.name.endswith((".md", ".tsv")):
                files.append(path)
    seen = {}
    kept = []
    for path in files:
        if "/bulk/" in path.parent.as_posix() + "/":
            seen[path.parent] = seen.get(path.parent, 0) + 1
            if seen[path.parent] > 5:
                continue
        kept.append(path)
    assert len(kept) > 100
    return kept


FILES = front_door_records()


@pytest.fixture(scope="module")
def cli_reports(kifu_bin):
    out = subprocess.run(
        [kifu_bin, "check", "--json", "-j", "1", *map(str, FILES)],
        capture_output=True,
        text=True,
    )
    assert out.returncode in (0, 1), out.stderr
    return {report["path"]: report for report in json.loads(out.stdout)["files"]}


def diagnostics(records):
    return sorted(
        (d.severity, d.line, d.column, d.message) for r in records for d in r.diagnostics
    )


def read_bytes(data):
    try:
        return kifu.read(data)
    except kifu.ReadError as e:
        return e


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.as_posix().split("/corpus/")[-1])
def test_bytes_read_as_the_command_line_reads_the_named_file(path, cli_reports):
    report = cli_reports[str(path)]
    got = read_bytes(path.read_bytes())
    if report["format"] == "?":
        # The command line could not tell the format: neither can Python, in one error.
        assert isinstance(got, kifu.ReadError), got
        assert str(got).split(": ", 1)[-1].startswith("cannot tell the format") or report[
            "records"
        ] == 0
        return
    if isinstance(got, kifu.ReadError):
        pytest.fail(f"{path}: {got}; the command line read {report['format']}")
    records = got
    assert {r.game for r in records} == {report["game"]}
    if report["game"] != "cetkaik":
        # The command line counts a cetkaik match as one record; Python gives its seasons.
        assert len(records) == report["records"]
        formats = {r.format for r in records}
        assert formats == {report["format"]} or (
            len(formats) == 1 and (formats.pop(), report["format"]) in TWINS
        ), (formats, report["format"])
    assert sum(len(r) for r in records) == report["plies"]
    assert diagnostics(records) == sorted(
        (d["severity"], d["line"], d["column"], d["message"]) for d in report["diagnostics"]
    )
    # Moves and endings: the same records as reading the file by its name.
    named = kifu.read(path)
    assert [r.moves for r in records] == [r.moves for r in named]
    assert [r.ending for r in records] == [r.ending for r in named]


def test_read_many_takes_one_path_as_a_path(tmp_path):
    game = REPO / "examples/records/random-game.csa"
    (tmp_path / "a.csa").write_bytes(game.read_bytes())
    one = str(tmp_path / "a.csa")
    got = list(kifu.read_many(one))
    # One file, not one result per character of its name.
    assert [p for p, _ in got] == [one]
    assert len(got[0][1][0].moves) == 89
    assert [p for p, _ in kifu.read_many(pathlib.Path(one))] == [pathlib.Path(one)]


def test_read_many_expands_a_directory_as_the_command_line_does(tmp_path, kifu_bin):
    game = (REPO / "examples/records/random-game.csa").read_bytes()
    (tmp_path / "sub").mkdir()
    for name in ("b.csa", "a.kif", "sub/c.csa", "notes.md", "sub/data.bin"):
        (tmp_path / name).write_bytes(game)
    out = subprocess.run(
        [kifu_bin, "check", "--json", str(tmp_path)], capture_output=True, text=True
    )
    cli = [report["path"] for report in json.loads(out.stdout)["files"]]
    as_str = [p for p, _ in kifu.read_many(str(tmp_path))]
    assert as_str == cli
    assert all(isinstance(p, str) for p in as_str)
    # A directory inside a list, given as a pathlib.Path: its files as pathlib.Paths.
    mixed = list(kifu.read_many([tmp_path / "b.csa", tmp_path / "sub"]))
    assert [p for p, _ in mixed] == [tmp_path / "b.csa", tmp_path / "sub/c.csa"]
    assert all(not isinstance(r, Exception) for _, r in mixed)


def test_read_many_refuses_what_is_not_a_path():
    with pytest.raises(TypeError, match="kifu.read"):
        kifu.read_many(b"V2.2\nPI\n+\n")
    with pytest.raises(TypeError):
        kifu.read_many([1, 2])
    with pytest.raises(TypeError):
        kifu.read_many(3)


def test_read_takes_a_file_whole_in_one_positioned_read_or_as_a_stream(tmp_path):
    """`kifu.read(path)` reads a regular file with positioned reads and takes a short one as
    its end (issue 36: no second read that finds it); a named pipe refuses positioned reads
    and is read as a stream to its end, however its writer splits it."""
    import os
    import threading

    game = (REPO / "examples/records/random-game.csa").read_bytes()
    one = kifu.read(game)[0].moves
    # Larger than the first read's 64 KiB and not a multiple of it: the buffer grows and
    # the last positioned read is the short one.
    many = b"/\n".join([game] * (70 * 1024 // len(game) + 3))
    assert len(many) > 64 * 1024 and len(many) % (64 * 1024) != 0
    big = tmp_path / "many.csa"
    big.write_bytes(many)
    records = kifu.read(big)
    assert len(records) == len(kifu.read(many))
    assert all(r.moves == one for r in records)

    fifo = tmp_path / "pipe.csa"
    os.mkfifo(fifo)

    def write_in_two_parts():
        with open(fifo, "wb", buffering=0) as pipe:
            pipe.write(game[:100])
            pipe.write(game[100:])

    writer = threading.Thread(target=write_in_two_parts)
    writer.start()
    try:
        records = kifu.read(fifo)
    finally:
        writer.join()
    assert [r.moves for r in records] == [one]
