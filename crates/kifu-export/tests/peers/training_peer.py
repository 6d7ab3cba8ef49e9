"""The real readers and writers kifu export is checked against: cshogi (hcpe, psv) and
DuckDB (Parquet). Run by crates/kifu-export/tests/*.rs and the benchmark script with the
interop virtualenv's Python; prints plain lines or JSON on stdout.

  encode                     SFEN lines on stdin -> "<hcp hex> <packed sfen hex>" per line
  hcpe FILE                  each entry: "<sfen without ply>\t<usi of move16>\t<eval>\t<gameResult>"
  hcpe3 FILE                 each move of each game, replayed from the game's start with cshogi
                             (dlshogi's layout: HuffmanCodedPosAndEval3, then per move MoveInfo
                             and its MoveVisits): "<sfen without ply>\t<usi>\t<eval>\t<result>
                             \t<opponent>\t<candidates as usi:visits,...>"
  psv FILE                   each entry: "<sfen without ply>\t<usi of move>\t<score>\t<gamePly>\t<game_result>"
  convert OUT.hcpe OUT.psv FILES...
                             the dlshogi way: CSA.Parser, then per move Board.to_hcp/to_psfen,
                             move16 and push (eval from the '** scores, side-to-move view)
  hcpe-dir OUT.hcpe DIR      the dlshogi way, hcpe only, over every *.csa below DIR (for the
                             benchmark: scripts/bench-export-vs-cshogi)
  parquet DIR                DuckDB on DIR/plies.parquet and DIR/games.parquet: JSON
"""
import json
import sys

import numpy as np


def sfen_without_ply(board):
    return board.sfen().rsplit(' ', 1)[0]


def encode():
    import cshogi
    hcp = np.zeros(1, cshogi.HuffmanCodedPos)
    psfen = np.zeros(1, cshogi.PackedSfen)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        board = cshogi.Board(line)
        board.to_hcp(hcp)
        board.to_psfen(psfen)
        print(bytes(hcp[0]['hcp']).hex(), bytes(psfen[0]['sfen']).hex())


def hcpe(path):
    import cshogi
    board = cshogi.Board()
    out = []
    for entry in np.fromfile(path, cshogi.HuffmanCodedPosAndEval):
        board.set_hcp(np.asarray(entry['hcp']))
        move = board.move_from_move16(int(entry['bestMove16']) & 0xffff)
        out.append('\t'.join([sfen_without_ply(board), cshogi.move_to_usi(move),
                              str(int(entry['eval'])), str(int(entry['gameResult']))]))
    sys.stdout.write(''.join(line + '\n' for line in out))


def hcpe3(path):
    import struct
    import cshogi
    data = open(path, 'rb').read()
    board = cshogi.Board()
    out = []
    at = 0
    while at < len(data):
        hcp = np.frombuffer(data[at:at + 32], np.uint8)
        move_num, result, opponent = struct.unpack_from('<HBB', data, at + 32)
        at += 36
        board.set_hcp(hcp)
        for _ in range(move_num):
            selected, eval, candidate_num = struct.unpack_from('<HhH', data, at)
            at += 6
            candidates = []
            for _ in range(candidate_num):
                move16, visits = struct.unpack_from('<HH', data, at)
                at += 4
                candidates.append(f"{cshogi.move_to_usi(board.move_from_move16(move16))}:{visits}")
            move = board.move_from_move16(selected)
            if not board.is_legal(move):
                sys.exit(f"hcpe3: illegal move {cshogi.move_to_usi(move)} in {board.sfen()}")
            out.append('\t'.join([sfen_without_ply(board), cshogi.move_to_usi(move), str(eval),
                                  str(result), str(opponent), ','.join(candidates)]))
            board.push(move)
    sys.stdout.write(''.join(line + '\n' for line in out))


def psv(path):
    import cshogi
    board = cshogi.Board()
    out = []
    for entry in np.fromfile(path, cshogi.PackedSfenValue):
        board.set_psfen(np.asarray(entry['sfen']))
        move = board.move_from_psv(int(entry['move']))
        out.append('\t'.join([sfen_without_ply(board), cshogi.move_to_usi(move),
                              str(int(entry['score'])), str(int(entry['gamePly'])),
                              str(int(entry['game_result']))]))
    sys.stdout.write(''.join(line + '\n' for line in out))


def convert(hcpe_path, psv_path, files):
    import cshogi
    from cshogi import CSA
    hcpes = []
    psvs = []
    board = cshogi.Board()
    for path in files:
        for kif in CSA.Parser.parse_file(path):
            board.set_sfen(kif.sfen)
            entries = np.zeros(len(kif.moves), cshogi.HuffmanCodedPosAndEval)
            packed = np.zeros(len(kif.moves), cshogi.PackedSfenValue)
            n = 0
            for move, score in zip(kif.moves, kif.scores):
                if not board.is_legal(move):
                    break
                eval = min(32767, max(score, -32767))
                eval = eval if board.turn == cshogi.BLACK else -eval
                board.to_hcp(entries[n:n + 1]['hcp'])
                entries[n]['eval'] = eval
                entries[n]['bestMove16'] = cshogi.move16(move)
                entries[n]['gameResult'] = kif.win
                board.to_psfen(packed[n:n + 1]['sfen'])
                packed[n]['score'] = eval
                packed[n]['move'] = cshogi.move16_to_psv(cshogi.move16(move))
                packed[n]['gamePly'] = board.move_number
                winner = {1: cshogi.BLACK, 2: cshogi.WHITE}.get(kif.win)
                packed[n]['game_result'] = 0 if winner is None else (1 if winner == board.turn else -1)
                board.push(move)
                n += 1
            hcpes.append(entries[:n])
            psvs.append(packed[:n])
    np.concatenate(hcpes).tofile(hcpe_path)
    np.concatenate(psvs).tofile(psv_path)


def hcpe_dir(out_path, directory):
    import os
    import cshogi
    from cshogi import CSA
    files = sorted(os.path.join(root, name) for root, _, names in os.walk(directory)
                   for name in names if name.endswith('.csa'))
    board = cshogi.Board()
    chunks = []
    for path in files:
        for kif in CSA.Parser.parse_file(path):
            board.set_sfen(kif.sfen)
            entries = np.zeros(len(kif.moves), cshogi.HuffmanCodedPosAndEval)
            n = 0
            for move, score in zip(kif.moves, kif.scores):
                if not board.is_legal(move):
                    break
                eval = min(32767, max(score, -32767))
                board.to_hcp(entries[n:n + 1]['hcp'])
                entries[n]['eval'] = eval if board.turn == cshogi.BLACK else -eval
                entries[n]['bestMove16'] = cshogi.move16(move)
                entries[n]['gameResult'] = kif.win
                board.push(move)
                n += 1
            chunks.append(entries[:n])
    np.concatenate(chunks).tofile(out_path)


def parquet(directory):
    import duckdb
    con = duckdb.connect()
    result = {}
    for table in ['plies', 'games']:
        path = f"{directory}/{table}.parquet"
        result[table] = {
            'rows': con.execute(f"select count(*) from '{path}'").fetchone()[0],
            'types': {name: kind for name, kind, *_ in
                      con.execute(f"describe select * from '{path}'").fetchall()},
        }
    result['sample'] = [list(row) for row in con.execute(
        f"select source_file, record, ply, sfen, move, notation, eval from "
        f"'{directory}/plies.parquet' where ply % 37 = 1 order by source_file, record, ply"
    ).fetchall()]
    result['games_plies'] = con.execute(
        f"select sum(plies) from '{directory}/games.parquet'").fetchone()[0]
    print(json.dumps(result, default=str))


if __name__ == '__main__':
    command, args = sys.argv[1], sys.argv[2:]
    if command == 'encode':
        encode()
    elif command == 'hcpe':
        hcpe(args[0])
    elif command == 'hcpe3':
        hcpe3(args[0])
    elif command == 'psv':
        psv(args[0])
    elif command == 'convert':
        convert(args[0], args[1], args[2:])
    elif command == 'hcpe-dir':
        hcpe_dir(args[0], args[1])
    elif command == 'parquet':
        parquet(args[0])
    else:
        sys.exit(f"unknown command {command}")
