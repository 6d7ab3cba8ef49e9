"""kifu.analyze with a real engine (sekirei, installed by scripts/setup-test-deps): every
position of a record's main line gets a score from Black's side and a legal best move, each
move a judgement; a cache makes the second call answer without the engine searching."""

import os
import pathlib
import shutil

import pytest

import kifu
from kifu.shogi import Position


def sekirei():
    """As kifu_testkit::sekirei finds it: $KIFU_SEKIREI, PATH, ~/.cargo/bin."""
    found = os.environ.get("KIFU_SEKIREI") or shutil.which("sekirei")
    if found:
        return found
    home = pathlib.Path.home() / ".cargo" / "bin" / "sekirei"
    return str(home) if home.is_file() else None


needs_sekirei = pytest.mark.skipif(sekirei() is None, reason="needs sekirei: run scripts/setup-test-deps")


@needs_sekirei
def test_analyze_scores_every_position_and_judges_every_move(tmp_path):
    record = kifu.parse("PI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n+0045KA\n%TORYO\n")[0]
    cache = tmp_path / "cache.sqlite"
    rows = kifu.analyze(record, engine=sekirei(), nodes=3000, jobs=2, cache=cache)
    assert [r["ply"] for r in rows] == [0, 1, 2, 3, 4, 5]
    assert [r["move"] for r in rows] == record.moves + [None]
    for row in rows:
        assert isinstance(row["eval"], int), row
        assert row["failure"] is None
        assert row["best"] in Position(row["sfen"]).legal_moves(), row
    judged = [r for r in rows if r["move"] is not None]
    assert all(r["loss_cp"] is not None and r["loss_cp"] >= 0 for r in judged)
    assert all(r["class"] in (None, "inaccuracy", "dubious", "mistake", "blunder") for r in judged)
    again = kifu.analyze(record, engine=sekirei(), nodes=3000, cache=cache)
    assert again == rows


def test_analyze_refuses_two_budgets_and_other_games():
    record = kifu.parse("PI\n+\n+7776FU\n%TORYO\n")[0]
    with pytest.raises(ValueError):
        kifu.analyze(record, engine="sekirei", nodes=10, depth=3)
    with pytest.raises(RuntimeError, match="could not be started"):
        kifu.analyze(record, engine="./no-such-engine", nodes=10)
