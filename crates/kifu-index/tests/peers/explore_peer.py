"""What an opening explorer over some CSA files must answer, computed by cshogi alone.

Usage: explore_peer.py FILE...  (the names as `kifu index` was given them)

Replays every game of every file with cshogi's CSA parser and Board, and prints one JSON
document: for the start position and for the positions most games reached by more than one
move order, the moves played there with how many games played each, and each game that
reached it with the first ply at which it did. Positions are told apart by their SFEN without
the move number (board, side to move, hands) — the same thing kifu's position key hashes.
"""
import json
import sys
from collections import defaultdict

import cshogi
from cshogi import CSA


def position_of(board):
    return board.sfen().rsplit(" ", 1)[0]


def main(files):
    # position -> {(file, record): first ply}
    reached = defaultdict(dict)
    # position -> usi -> set of games
    played = defaultdict(lambda: defaultdict(set))
    # position -> set of move orders (the sorted-insensitive sequence played to reach it)
    orders = defaultdict(set)
    start = None
    for name in files:
        for record, kif in enumerate(CSA.Parser.parse_file(name), 1):
            board = cshogi.Board(kif.sfen)
            if start is None and kif.sfen.startswith(cshogi.STARTING_SFEN.rsplit(" ", 1)[0]):
                start = position_of(board)
            game = (name, record)
            line = []
            for ply, move in enumerate(kif.moves):
                here = position_of(board)
                reached[here].setdefault(game, ply)
                orders[here].add(tuple(line))
                played[here][cshogi.move_to_usi(move)].add(game)
                line.append(move)
                board.push(move)
            here = position_of(board)
            reached[here].setdefault(game, len(kif.moves))
            orders[here].add(tuple(line))

    def answer(position):
        return {
            "sfen": position,
            "moves": {usi: len(games) for usi, games in played[position].items()},
            "games": sorted(
                [{"file": f, "record": r, "ply": p} for (f, r), p in reached[position].items()],
                key=lambda g: (g["file"], g["record"]),
            ),
        }

    transposed = [p for p, o in orders.items() if len(o) > 1 and len(reached[p]) > 1]
    transposed.sort(key=lambda p: (-len(reached[p]), p))
    json.dump(
        {"start": answer(start), "transposed": [answer(p) for p in transposed[:25]]},
        sys.stdout,
    )


if __name__ == "__main__":
    main(sys.argv[1:])
