"""Reading lets other Python threads run: a path, and bytes or a str of more than a few KiB, are
read with the interpreter released, as C extensions do for long work."""

import threading
import time

import kifu


def others_run_while(read):
    """How much a counting thread got done while `read()` ran, against what it does alone in
    the same time: near 1 when the reading released the interpreter, near 0 when it held it."""
    count = 0
    stop = False

    def counter():
        nonlocal count
        while not stop:
            count += 1

    thread = threading.Thread(target=counter)
    thread.start()
    try:
        time.sleep(0.05)
        before, started = count, time.perf_counter()
        read()
        elapsed = time.perf_counter() - started
        during = count - before
        before = count
        time.sleep(elapsed)
        alone = count - before
    finally:
        stop = True
        thread.join()
    return during / alone


def archive(corpus, copies=5):
    games = (corpus / "shogi/bulk/all_games.csa").read_bytes().rstrip(b"\n")
    return b"\n/\n".join([games] * copies) + b"\n"


def test_reading_bytes_lets_other_threads_run(corpus):
    data = archive(corpus)
    assert others_run_while(lambda: kifu.read(data, format="csa")) > 0.25
    text = data.decode()
    assert others_run_while(lambda: kifu.parse(text, format="csa")) > 0.25


def test_reading_a_file_lets_other_threads_run(corpus, tmp_path):
    path = tmp_path / "archive.csa"
    path.write_bytes(archive(corpus))
    assert others_run_while(lambda: kifu.read(path)) > 0.25


def test_streaming_lets_other_threads_run(corpus, tmp_path):
    path = tmp_path / "archive.csa"
    path.write_bytes(archive(corpus))
    assert others_run_while(lambda: sum(len(r) for r in kifu.stream(path))) > 0.25


def test_threads_share_a_stream_and_get_every_record_once(corpus):
    from concurrent.futures import ThreadPoolExecutor

    data = archive(corpus, copies=4)
    records = kifu.stream(data, format="csa")

    def drain(_):
        return [(len(r), r.moves[:3]) for r in records]

    with ThreadPoolExecutor(4) as pool:
        parts = list(pool.map(drain, range(4)))
    taken = [one for part in parts for one in part]
    expected = [(len(r), r.moves[:3]) for r in kifu.read(data, format="csa")]
    assert len(taken) == len(expected) == 2_000
    assert sorted(taken) == sorted(expected)
