"""Reads records with the Python peers and prints what each saw, one JSON line per input.

stdin: one `FORMAT<TAB>ENCODING<TAB>PATH` line per file (FORMAT kif, kifu or csa). stdout:
{"cshogi": R, "python-shogi": R} per line, R being {"sfen", "moves": [USI...], "ending"} or
{"error": text}. cshogi's `ending` is its `endgame` (a CSA special) when it has one, else its
`win`; python-shogi's is its `win`.
"""
import json
import sys

import cshogi
import cshogi.CSA
import cshogi.KIF
import shogi.CSA
import shogi.KIF


def by_cshogi(fmt, text):
    if fmt == "csa":
        games = cshogi.CSA.Parser.parse_str(text)
        if len(games) != 1:
            return {"error": f"{len(games)} games"}
        game = games[0]
        ending = game.endgame
    else:
        game = cshogi.KIF.Parser.parse_str(text)
        ending = game.endgame or game.win
    moves = [cshogi.move_to_usi(m) for m in game.moves]
    # cshogi says "" for a CSA record without a special.
    return {"sfen": game.sfen, "moves": moves, "ending": ending or None}


def by_python_shogi(fmt, text):
    parser = shogi.CSA.Parser if fmt == "csa" else shogi.KIF.Parser
    games = parser.parse_str(text)
    if len(games) != 1:
        return {"error": f"{len(games)} games"}
    game = games[0]
    return {"sfen": game["sfen"], "moves": list(game["moves"]), "ending": game.get("win")}


def guarded(read, fmt, text):
    try:
        return read(fmt, text)
    except Exception as e:  # a peer's failure is a result to report, not a crash
        return {"error": f"{type(e).__name__}: {e}"[:300]}


for line in sys.stdin:
    line = line.rstrip("\n")
    if not line:
        continue
    fmt, encoding, path = line.split("\t")
    with open(path, "rb") as f:
        text = f.read().decode("cp932" if encoding == "shift_jis" else "utf-8")
    print(
        json.dumps(
            {
                "cshogi": guarded(by_cshogi, fmt, text),
                "python-shogi": guarded(by_python_shogi, fmt, text),
            },
            ensure_ascii=False,
        ),
        flush=False,
    )
