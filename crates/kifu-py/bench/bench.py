"""Speed of the Python package against cshogi (a benchmark, not a test).

    python crates/kifu-py/bench/bench.py [DIR]

1. Reading a directory of CSA files into Python records with USI move lists, on one thread:
   kifu.read(path) + record.moves against cshogi's CSA.Parser.parse_file + move_to_usi.
   DIR is the 10,000-file directory scripts/bench-check-vs-cshogi builds (the 500 bulk CSA
   games ×20); without DIR it is built in a temporary directory from the corpus.
2. kifu.read_many over the same files with jobs = 1, 2, … up to the number of cores.
3. Position.legal_moves() + push/pop per call against cshogi.Board's legal_moves (as USI) +
   push_usi/pop, over the positions of the bulk games.

(1) and (3) run pinned to the first core the process may use, (2) on all of them; timings are
medians of RUNS runs (default 5), interleaved, with the ratios printed from the same run.
"""

import os
import pathlib
import shutil
import statistics
import sys
import tempfile
import time

import cshogi
import cshogi.CSA

import kifu

REPO = pathlib.Path(__file__).resolve().parents[3]
CORPUS = pathlib.Path(os.environ.get("KIFU_CORPUS", REPO / ".." / "shared" / "corpus"))
RUNS = int(os.environ.get("RUNS", "5"))


def build_dir() -> pathlib.Path:
    directory = pathlib.Path(tempfile.mkdtemp(prefix="kifu-py-bench."))
    for copy in range(1, 21):
        shutil.copytree(CORPUS / "shogi/bulk/csa", directory / f"copy{copy:02}")
    return directory


def kifu_read(paths):
    plies = 0
    for path in paths:
        for record in kifu.read(path):
            plies += len(record.moves)
    return plies


def kifu_read_many(paths, jobs):
    plies = 0
    for _, records in kifu.read_many(paths, jobs=jobs):
        for record in records:
            plies += len(record.moves)
    return plies


def cshogi_read(paths):
    plies = 0
    move_to_usi = cshogi.move_to_usi
    for path in paths:
        for parser in cshogi.CSA.Parser.parse_file(path):
            plies += len([move_to_usi(m) for m in parser.moves])
    return plies


def timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - start, result


def compare(name_a, fn_a, name_b, fn_b, *args):
    times = {name_a: [], name_b: []}
    results = {}
    fn_a(*args), fn_b(*args)  # warm the page cache
    for _ in range(RUNS):
        for name, fn in ((name_a, fn_a), (name_b, fn_b)):
            seconds, results[name] = timed(fn, *args)
            times[name].append(seconds)
    medians = {name: statistics.median(t) for name, t in times.items()}
    return medians, results


def positions_of_bulk_games(limit=100):
    games = (CORPUS / "shogi/lishogi-usi/games.txt").read_text().splitlines()[:limit]
    return [line.split() for line in games]


def kifu_positions(games):
    calls = 0
    for moves in games:
        pos = kifu.shogi.Position()
        for move in moves:
            legal = pos.legal_moves()
            for m in legal[:4]:
                pos.push(m)
                pos.pop()
            pos.push(move)
            calls += 1
    return calls


def cshogi_positions(games):
    calls = 0
    move_to_usi = cshogi.move_to_usi
    for moves in games:
        board = cshogi.Board()
        for move in moves:
            legal = [move_to_usi(m) for m in board.legal_moves]
            for m in legal[:4]:
                board.push_usi(m)
                board.pop()
            board.push_usi(move)
            calls += 1
    return calls


def main():
    made = None
    if len(sys.argv) > 1:
        directory = pathlib.Path(sys.argv[1])
    else:
        directory = made = build_dir()
    try:
        paths = sorted(str(p) for p in directory.rglob("*.csa"))
        print(f"kifu {kifu.__version__}, cshogi {cshogi.__version__ if hasattr(cshogi, '__version__') else '?'}; "
              f"{len(paths)} CSA files in {directory}; load {os.getloadavg()}")

        cores = sorted(os.sched_getaffinity(0))
        one_core = {cores[0]}
        os.sched_setaffinity(0, one_core)
        medians, results = compare("kifu.read", kifu_read, "cshogi", cshogi_read, paths)
        assert results["kifu.read"] == results["cshogi"], results
        k, c = medians["kifu.read"], medians["cshogi"]
        print(f"read {len(paths)} files → records with USI moves ({results['cshogi']} plies), one thread:")
        print(f"  kifu.read      {k:7.3f} s  {len(paths) / k:9.0f} games/s")
        print(f"  cshogi         {c:7.3f} s  {len(paths) / c:9.0f} games/s")
        print(f"  kifu / cshogi speed: {c / k:.1f}×")

        os.sched_setaffinity(0, set(cores))
        print(f"kifu.read_many on {len(cores)} cores:")
        base = None
        for jobs in sorted({1, 2, len(cores)}):
            times = []
            for _ in range(RUNS):
                seconds, plies = timed(kifu_read_many, paths, jobs)
                times.append(seconds)
            m = statistics.median(times)
            base = base or m
            print(f"  jobs={jobs:<3} {m:7.3f} s  {len(paths) / m:9.0f} games/s  ({base / m:.2f}× jobs=1)"
                  f"  {c / m:.1f}× cshogi")

        os.sched_setaffinity(0, one_core)
        games = positions_of_bulk_games()
        medians, results = compare("kifu", kifu_positions, "cshogi", cshogi_positions, games)
        assert results["kifu"] == results["cshogi"]
        calls = results["kifu"]
        k, c = medians["kifu"], medians["cshogi"]
        print(f"Position: legal_moves() as USI + 4 push/pop + push, {calls} positions:")
        print(f"  kifu.shogi.Position {k / calls * 1e6:7.2f} µs per position")
        print(f"  cshogi.Board        {c / calls * 1e6:7.2f} µs per position")
        print(f"  kifu / cshogi speed: {c / k:.2f}×")
        print(f"load after: {os.getloadavg()}")
    finally:
        if made:
            shutil.rmtree(made)


if __name__ == "__main__":
    main()
