"""Speed of the Python package against cshogi (a benchmark, not a test).

    python crates/kifu-py/bench/bench.py [DIR]

1. Reading a directory of CSA files into Python records with USI move lists, on one thread:
   kifu.read(path) + record.moves against cshogi's CSA.Parser.parse_file + move_to_usi.
   DIR is the 10,000-file directory scripts/bench-check-vs-cshogi builds (the 500 bulk CSA
   games ×20); without DIR scripts/make-bench-dir makes it in a temporary directory from
   the corpus. It also times the system calls alone (os.open + os.read + os.close of each file), the part of a
   file's time no reader can save, and the same calls with no interpreter (syscall_floor.c
   beside this file, built with the machine's C compiler), and says what 5× cshogi would leave
   for the rest; and kifu.read of the files' bytes already in memory, with the game and format
   told by the content and named.
2. kifu.read_many over the same files with jobs = 1, 2, … up to the number of cores, against
   jobs=1 and against kifu.read on one core.
3. Position.legal_moves() + push/pop per call against cshogi.Board's legal_moves (as USI) +
   push_usi/pop, and against cshogi's own move integers (legal_moves + push/pop, no USI), over
   the positions of the first 100 games of the lishogi USI corpus.

(1) and (3) run pinned to the first core the process may use (as `taskset -c` would), (2) on all
of them; timings are medians of RUNS runs (default 5), interleaved, with the ratios printed from
the same run. (1) and (3) also print the CPU time of the process, which on a machine shared with
other work counts only the time the benchmark ran, not the time it waited for its core.
"""

import importlib.metadata
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import cshogi
import cshogi.CSA

import kifu

REPO = pathlib.Path(__file__).resolve().parents[3]
CORPUS = pathlib.Path(os.environ.get("KIFU_CORPUS", REPO / "corpus"))
RUNS = int(os.environ.get("RUNS", "5"))


def build_dir() -> pathlib.Path:
    directory = pathlib.Path(tempfile.mkdtemp(prefix="kifu-py-bench."))
    subprocess.run([REPO / "scripts" / "make-bench-dir", directory], check=True)
    return directory


def kifu_read(paths):
    plies = 0
    for path in paths:
        for record in kifu.read(path):
            plies += len(record.moves)
    return plies


def kifu_read_bytes(contents, **told):
    """kifu.read of each file's bytes, already in memory: no system calls, and without a file
    name the game and format come from the content (unless `told`)."""
    plies = 0
    for content in contents:
        for record in kifu.read(content, **told):
            plies += len(record.moves)
    return plies


def open_read_close(paths):
    """The system calls any reader of these files makes, and nothing else: the part of each
    file's time no parser can save."""
    size = 0
    for path in paths:
        fd = os.open(path, os.O_RDONLY)
        try:
            # Until the read that finds the end, as kifu.read reads (a 64 KiB buffer: asking
            # os.read for much more makes it allocate, and free, that much every call).
            while chunk := os.read(fd, 1 << 16):
                size += len(chunk)
        finally:
            os.close(fd)
    return size


def syscall_floor(paths):
    """The line syscall_floor.c (beside this file) prints for `paths`: the kernel's part of
    reading each file, timed in C. Built with the machine's C compiler into a temporary
    directory, and run on the core this process is pinned to (a child inherits it)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return "not timed (no C compiler: cc or gcc)"
    with tempfile.TemporaryDirectory(prefix="kifu-syscall-floor.") as scratch:
        program = os.path.join(scratch, "syscall-floor")
        source = pathlib.Path(__file__).with_name("syscall_floor.c")
        try:
            subprocess.run([compiler, "-O2", "-o", program, str(source)], check=True,
                           capture_output=True, text=True)
            done = subprocess.run([program], input="\n".join(paths) + "\n", text=True,
                                  capture_output=True, check=True)
        except subprocess.CalledProcessError as e:
            return f"not timed ({' '.join(e.cmd)} failed: {e.stderr.strip()})"
        except OSError as e:
            return f"not timed ({e})"
        return done.stdout.strip()


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
    start, start_cpu = time.perf_counter(), time.process_time()
    result = fn(*args)
    return time.perf_counter() - start, time.process_time() - start_cpu, result


def compare(functions, *args):
    """Runs each of `functions` (name → function) RUNS times, interleaved; returns the median
    wall and CPU times by name, and each one's result."""
    wall = {name: [] for name in functions}
    cpu = {name: [] for name in functions}
    results = {}
    for fn in functions.values():
        fn(*args)  # warm the page cache
    for _ in range(RUNS):
        for name, fn in functions.items():
            seconds, cpu_seconds, results[name] = timed(fn, *args)
            wall[name].append(seconds)
            cpu[name].append(cpu_seconds)
    median = statistics.median
    return ({n: median(t) for n, t in wall.items()}, {n: median(t) for n, t in cpu.items()},
            results)


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


def cshogi_int_positions(games):
    calls = 0
    for moves in games:
        board = cshogi.Board()
        for move in moves:
            legal = list(board.legal_moves)
            for m in legal[:4]:
                board.push(m)
                board.pop()
            board.push_usi(move)
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
        print(f"kifu {kifu.__version__}, cshogi {importlib.metadata.version('cshogi')}; "
              f"{len(paths)} CSA files in {directory}; load {os.getloadavg()}")

        cores = sorted(os.sched_getaffinity(0))
        one_core = {cores[0]}
        os.sched_setaffinity(0, one_core)
        wall, cpu, results = compare({"kifu.read": kifu_read, "cshogi": cshogi_read}, paths)
        assert results["kifu.read"] == results["cshogi"], results
        print(f"read {len(paths)} files → records with USI moves ({results['cshogi']} plies), "
              f"one thread on core {cores[0]}:")
        for name in ("kifu.read", "cshogi"):
            print(f"  {name:<12} wall {wall[name]:7.3f} s  {len(paths) / wall[name]:9.0f} games/s"
                  f"   CPU {cpu[name]:7.3f} s  {len(paths) / cpu[name]:9.0f} games/s")
        print(f"  kifu / cshogi speed: {wall['cshogi'] / wall['kifu.read']:.2f}× (wall), "
              f"{cpu['cshogi'] / cpu['kifu.read']:.2f}× (CPU)")
        floor, floor_cpu, _ = compare({"open": open_read_close}, paths)
        per_file = {name: cpu[name] / len(paths) * 1e6 for name in cpu}
        floor_us = floor_cpu["open"] / len(paths) * 1e6
        print(f"  os.open + os.read + os.close alone: {floor_us:.2f} µs CPU per file; "
              f"kifu.read {per_file['kifu.read']:.2f} µs, cshogi {per_file['cshogi']:.2f} µs; "
              f"5× cshogi would leave {per_file['cshogi'] / 5 - floor_us:.2f} µs per file "
              f"for everything else")
        print(f"  the same system calls with no interpreter: {syscall_floor(paths)}")
        contents = [pathlib.Path(p).read_bytes() for p in paths]
        _, told_cpu, told = compare({
            "bytes": kifu_read_bytes,
            "bytes, told": lambda c: kifu_read_bytes(c, game="shogi", format="csa"),
        }, contents)
        assert told["bytes"] == told["bytes, told"] == results["cshogi"]
        print(f"  kifu.read of the bytes in memory: {told_cpu['bytes'] / len(paths) * 1e6:.2f} µs CPU "
              f"per file with the game and format from the content, "
              f"{told_cpu['bytes, told'] / len(paths) * 1e6:.2f} µs told game='shogi', format='csa'")
        c = wall["cshogi"]
        one_thread = wall["kifu.read"]

        os.sched_setaffinity(0, set(cores))
        print(f"kifu.read_many on {len(cores)} cores (wall time):")
        base = None
        for jobs in sorted({1, 2, len(cores)}):
            times = []
            for _ in range(RUNS):
                seconds, _, plies = timed(kifu_read_many, paths, jobs)
                times.append(seconds)
            m = statistics.median(times)
            base = base or m
            print(f"  jobs={jobs:<3} {m:7.3f} s  {len(paths) / m:9.0f} games/s  ({base / m:.2f}× jobs=1,"
                  f" {one_thread / m:.2f}× kifu.read on one core)"
                  f"  {c / m:.1f}× cshogi's one-core wall time")

        os.sched_setaffinity(0, one_core)
        games = positions_of_bulk_games()
        wall, cpu, results = compare(
            {"kifu": kifu_positions, "cshogi": cshogi_positions, "cshogi-int": cshogi_int_positions},
            games)
        assert results["kifu"] == results["cshogi"] == results["cshogi-int"]
        calls = results["kifu"]
        print(f"Position: legal_moves() + 4 push/pop + push, {calls} positions, one core:")
        labels = {"kifu": "kifu.shogi.Position (USI)", "cshogi": "cshogi.Board (as USI)",
                  "cshogi-int": "cshogi.Board (its ints)"}
        for name, label in labels.items():
            print(f"  {label:<26} wall {wall[name] / calls * 1e6:6.2f} µs   "
                  f"CPU {cpu[name] / calls * 1e6:6.2f} µs per position")
        for name in ("cshogi", "cshogi-int"):
            print(f"  kifu / {labels[name]} speed: {wall[name] / wall['kifu']:.2f}× (wall), "
                  f"{cpu[name] / cpu['kifu']:.2f}× (CPU)")
        print(f"load after: {os.getloadavg()}")
    finally:
        if made:
            shutil.rmtree(made)


if __name__ == "__main__":
    main()
