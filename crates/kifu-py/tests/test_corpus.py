"""The corpus read from Python agrees with the command line (`kifu check --json`, the Rust
library's own answers), and with the move lists the bulk games were made from."""

import json
import subprocess

import pytest

import kifu
from conftest import corpus_dir, record_files

FILES = record_files(corpus_dir())


@pytest.fixture(scope="module")
def cli_reports(kifu_bin):
    out = subprocess.run(
        [kifu_bin, "check", "--json", *map(str, FILES)], capture_output=True, text=True
    )
    assert out.returncode in (0, 1), out.stderr
    return {report["path"]: report for report in json.loads(out.stdout)["files"]}


def test_the_corpus_has_every_game():
    games = {kifu.read(path)[0].game for path in FILES}
    assert games == {"shogi", "chu", "cetkaik"}
    assert len(FILES) > 100


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(corpus_dir()).as_posix())
def test_a_file_reads_as_the_command_line_reads_it(path, cli_reports):
    report = cli_reports[str(path)]
    records = kifu.read(path)
    assert {r.game for r in records} == {report["game"]}
    # The command line reads a cetkaik match as one record; Python gives one per season.
    if report["game"] != "cetkaik":
        assert len(records) == report["records"]
        assert {r.format for r in records} == {report["format"]}
    assert sum(len(r) for r in records) == report["plies"]
    ours = sorted(
        (d.severity, d.line, d.column, d.message) for r in records for d in r.diagnostics
    )
    theirs = sorted(
        (d["severity"], d["line"], d["column"], d["message"]) for d in report["diagnostics"]
    )
    assert ours == theirs
    assert all(r.valid for r in records) == (report["errors"] == 0)
    for r in records:
        assert r.moves == r._replayed_moves()


def test_every_bulk_game_gives_the_moves_it_was_made_from(corpus):
    games = (corpus / "shogi/lishogi-usi/games.txt").read_text().splitlines()
    for kind in ("csa", "kif", "kifu"):
        paths = sorted((corpus / "shogi/bulk" / kind).glob(f"game_*.{kind}"))
        assert len(paths) == 500
        for path, moves in zip(paths, games):
            (record,) = kifu.read(path)
            assert record.valid, (path, record.diagnostics)
            assert record.moves == moves.split(), path
            assert record.ending == "TORYO"
    every = kifu.read(corpus / "shogi/bulk/all_games.csa")
    assert [r.moves for r in every] == [g.split() for g in games]


def test_read_many_gives_what_read_gives_in_the_order_asked():
    paths = FILES[::-1]
    for jobs in (1, 2, 0):
        seen = []
        for path, records in kifu.read_many(paths, jobs=jobs):
            seen.append(path)
            assert [r.moves for r in records] == [r.moves for r in kifu.read(path)]
        assert [str(p) for p in seen] == [str(p) for p in paths]


def test_chu_games_replay_as_lishogi_recorded_them(corpus):
    records = kifu.read(corpus / "chu/lishogi-games.ndjson")
    assert len(records) == 10 and all(r.valid for r in records)
    lines = [json.loads(line) for line in (corpus / "chu/lishogi-games.ndjson").read_text().splitlines() if line.strip()]
    for record, line in zip(records, lines):
        usi = line.get("usi") or line.get("moves")
        if isinstance(usi, str):
            assert record.moves == usi.split()


@pytest.mark.parametrize("target", ["csa", "kif", "kifu", "ki2", "ki2u", "jkf", "usi"])
def test_a_converted_record_reads_back_with_the_same_moves(corpus, target):
    for path in sorted((corpus / "shogi/jkf-suite").rglob("*")):
        if path.suffix not in (".csa", ".kif", ".kifu", ".ki2", ".jkf") or not path.is_file():
            continue
        for record in kifu.read(path):
            if not record.valid:
                continue
            text, warnings = record.to_string(target)
            assert isinstance(warnings, list)
            (back,) = kifu.parse(text, format=target)
            # Every reader takes 9fu's tsume start (nine 後手 pawns on file 2) with a warning.
            assert back.valid, (path, target, back.diagnostics)
            assert back.moves == record.moves, (path, target)
            data, _ = record.to_bytes(target)
            assert [r.moves for r in kifu.read(data, format=target)] == [record.moves]
