"""kifu.Archive answers as `kifu explore`/`kifu find --json` do for the same archive."""

import json
import subprocess

import kifu


def test_archive_explores_finds_and_iterates(tmp_path, corpus, kifu_bin):
    files = sorted((corpus / "shogi" / "bulk" / "csa").glob("*.csa"))[:60]
    archive = tmp_path / "games.kidx"
    subprocess.run([kifu_bin, "index", *map(str, files), "-o", str(archive)], check=True,
                   capture_output=True)
    a = kifu.Archive(str(archive))
    assert len(a) == 60
    explored = a.explore("startpos")
    cli = json.loads(subprocess.run([kifu_bin, "explore", str(archive), "startpos", "--json"],
                                    check=True, capture_output=True).stdout)
    assert explored == cli
    assert sum(m["games"] for m in explored["moves"]) == 60
    first = explored["moves"][0]["move"]
    found = a.find(f"startpos moves {first}")
    assert len(found) == explored["moves"][0]["games"]
    assert all(g["ply"] == 1 and g["record"] == 1 for g in found)
    assert a.find("startpos", min_rating=99999) == []
    records = list(a)
    assert len(records) == 60
    assert records[0].moves == kifu.read(str(files[0]))[0].moves
    assert len(kifu.Archive.position_key("startpos")) == 16
