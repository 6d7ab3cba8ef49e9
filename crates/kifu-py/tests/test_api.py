"""The Python API as documented: reading, records, errors, positions of the three games."""

import pathlib

import pytest

import kifu
from kifu.shogi import Position

CSA = "V2.2\nN+Sente\nN-Gote\n$EVENT:test\nPI\n+\n'opening\n+7776FU\nT12\n-3334FU\nT5\n%TORYO\n"


def test_a_record_offers_its_parts():
    (r,) = kifu.parse(CSA)
    assert (r.game, r.format, r.valid, len(r)) == ("shogi", "csa", True, 2)
    assert r.moves == ["7g7f", "3c3d"]
    assert r.header["EVENT"] == "test"
    assert r.ending == "TORYO" and r.winner == "second"  # first resigns
    assert r.times == [12.0, 5.0]
    assert r.comments == {0: ["opening"]}
    assert r.start == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    assert r.positions()[-1].sfen() == "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    assert r.diagnostics == []
    assert "2 moves" in repr(r)
    assert "Record" in kifu.Record.__doc__ and kifu.Record.moves.__doc__


def test_reading_a_path_bytes_and_text_agree(tmp_path: pathlib.Path):
    path = tmp_path / "game.csa"
    path.write_text(CSA)
    a = kifu.read(path)[0]
    b = kifu.read(str(path))[0]
    c = kifu.read(CSA.encode())[0]
    d = kifu.parse(CSA)[0]
    assert a.moves == b.moves == c.moves == d.moves
    assert a.path == str(path) and c.path is None
    with pytest.raises(FileNotFoundError) as e:
        kifu.read(tmp_path / "missing.csa")
    assert e.value.filename == str(tmp_path / "missing.csa")
    with pytest.raises(TypeError):
        kifu.read(12)


def test_record_problems_are_diagnostics():
    (r,) = kifu.parse("PI\n+\n+7776FU\n-3334FU\n+7776FU\n")
    assert not r.valid and r.moves == ["7g7f", "3c3d"]
    (d,) = [d for d in r.diagnostics if d.severity == "error"]
    assert (d.line, d.column, d.kind) == (5, 1, "illegal-move")
    assert "77" in d.message
    assert str(d).startswith("5:1: error:")


def test_unreadable_input_raises_read_error_with_a_place():
    with pytest.raises(kifu.ReadError) as e:
        kifu.read(b"V2.2\nPI\n+\n+7776FU\n\xff\xfe\n", format="csa")
    assert (e.value.line, e.value.column) == (5, 1)
    with pytest.raises(ValueError):
        kifu.parse(CSA, format="nope")
    with pytest.raises(ValueError):
        kifu.parse(CSA, game="chess")


def test_read_many_yields_each_file_with_its_records_or_its_error(tmp_path):
    good = tmp_path / "a.csa"
    good.write_text(CSA)
    bad = tmp_path / "b.csa"
    bad.write_bytes(b"V2.2\nPI\n+\n\xff\xfe\n")
    missing = tmp_path / "c.csa"
    got = list(kifu.read_many([good, bad, missing], jobs=2))
    assert [p for p, _ in got] == [good, bad, missing]
    assert got[0][1][0].moves == ["7g7f", "3c3d"]
    assert isinstance(got[1][1], kifu.ReadError) and got[1][1].line == 4
    assert isinstance(got[2][1], FileNotFoundError)


def test_read_many_gives_back_each_path_as_given(tmp_path):
    path = tmp_path / "a.csa"
    path.write_text(CSA)
    name = str(path)
    got = [p for p, _ in kifu.read_many([name, path, name], jobs=2)]
    assert got[0] is name and got[1] is path and got[2] is name


def test_variations_reach_every_branch():
    kif = (
        "手数----指手---------消費時間--\n"
        "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n"
        "\n変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n"
        "\n変化：3手\n   3 ６八銀(79)\n"
    )
    (r,) = kifu.parse(kif, format="kif")
    assert r.moves == ["7g7f", "3c3d", "2g2f"]
    got = [(v.start_ply, v.moves) for v in r.variations]
    assert got == [(2, ["7g7f", "8c8d", "2g2f"]), (3, ["7g7f", "8c8d", "7i6h"])]


def test_to_string_warns_about_what_the_format_cannot_hold():
    (r,) = kifu.parse(CSA)
    text, warnings = r.to_string("usi")
    assert "7g7f 3c3d" in text
    assert warnings  # USI holds no header, times or comments
    kif, _ = r.to_string("kif")
    assert "７六歩(77)" in kif
    data, _ = r.to_bytes("kif")
    assert "７六歩".encode("cp932") in data
    with pytest.raises(ValueError):
        r.to_string("pgn")


def test_shogi_positions_push_pop_and_name_the_rule():
    pos = Position("4k4/9/9/9/9/9/4P4/9/4K4 b P 1")
    message = pos.check_move("P*5c")
    assert message.startswith("P*5c: 二歩")
    with pytest.raises(kifu.IllegalMove, match="二歩"):
        pos.push("P*5c")
    assert pos.sfen() == "4k4/9/9/9/9/9/4P4/9/4K4 b P 1"
    pos.push("P*4b")
    assert pos.turn == "second" and pos.history == ["P*4b"]
    assert pos.pop() == "P*4b"
    with pytest.raises(IndexError):
        pos.pop()
    mated = Position("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1")
    o = mated.outcome()
    assert (o.kind, o.winner) == ("checkmate", "first")
    assert mated.is_check() and mated.legal_moves() == []
    with pytest.raises(ValueError):
        Position("not a sfen")


def test_chu_positions():
    pos = kifu.chu.Position()
    assert len(pos.legal_moves()) == 36
    pos.push("7j7h")  # the lion jumps
    assert pos.turn == "second" and pos.history == ["7j7h"]
    assert pos.pop() == "7j7h"
    assert pos.sfen() == kifu.chu.Position().sfen()
    assert pos.check_move("1a1b") is not None
    with pytest.raises(kifu.IllegalMove):
        pos.push("1a1b")


def test_cetkaik_positions_and_records(tmp_path):
    pos = kifu.cetkaik.Position()
    moves = pos.legal_moves()
    assert "KAI-KY" in moves
    pos.push("KAI-KY")
    assert pos.turn == "second"
    assert pos.pop() == "KAI-KY"
    assert pos.check_move("終季") is not None
    text = "{一位色:黒}\n[JV]二十 [SY]二十\nMAU弓MAIMY橋一\tME弓MIMU橋五\n"
    (season,) = kifu.parse(text)
    assert season.game == "cetkaik" and season.valid
    assert season.moves[0] == "MAU弓MAIMY橋一"
    ckka1, warnings = season.to_string("ckka1")
    assert "MAU弓MAIMY一" in ckka1


def test_help_shows_the_docstrings():
    import pydoc

    text = pydoc.render_doc(kifu.Record)
    assert "diagnostics" in text and "to_string" in text and "USI" in text
    assert "二歩" in pydoc.render_doc(Position.check_move)


def test_the_type_stubs_name_what_exists():
    import ast

    package = pathlib.Path(kifu.__file__).parent
    for stub, module in [("__init__.pyi", kifu), ("shogi.pyi", kifu.shogi), ("chu.pyi", kifu.chu), ("cetkaik.pyi", kifu.cetkaik)]:
        tree = ast.parse((package / stub).read_text())
        for node in tree.body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
                assert hasattr(module, node.name), (stub, node.name)
                if isinstance(node, ast.ClassDef):
                    cls = getattr(module, node.name)
                    for item in node.body:
                        if isinstance(item, ast.FunctionDef) and not item.name.startswith("__"):
                            assert hasattr(cls, item.name), (stub, node.name, item.name)
    assert (package / "py.typed").exists()


def test_the_docstring_examples_run():
    import doctest

    for obj in (kifu.Record, kifu.parse, kifu.shogi.Position, kifu.chu.Position):
        finder = doctest.DocTestFinder(recurse=False)
        runner = doctest.DocTestRunner()
        for test in finder.find(obj, obj.__name__, globs={}):
            runner.run(test)
        assert runner.failures == 0, obj
        assert runner.tries > 0, obj
