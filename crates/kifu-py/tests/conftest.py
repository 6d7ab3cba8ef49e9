"""Shared fixtures: the repository's test corpus and the `kifu` command line built from it.

The corpus is corpus/ at the root of the repository (or $KIFU_CORPUS), as for the Rust tests; the command line is $KIFU_BIN, or target/debug/kifu, which scripts/test builds before
running these tests.
"""

import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


def corpus_dir() -> pathlib.Path:
    root = pathlib.Path(os.environ.get("KIFU_CORPUS", REPO / "corpus"))
    if not root.is_dir():
        raise RuntimeError(f"the test corpus is missing: {root} (set KIFU_CORPUS)")
    return root.resolve()


@pytest.fixture(scope="session")
def corpus() -> pathlib.Path:
    return corpus_dir()


@pytest.fixture(scope="session")
def kifu_bin() -> str:
    # Cargo reads a relative CARGO_TARGET_DIR from the repository root; pytest runs elsewhere.
    target = REPO / os.environ.get("CARGO_TARGET_DIR", "target")
    path = os.environ.get("KIFU_BIN") or str(target / "debug" / "kifu")
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"the kifu command line is missing: {path} (cargo build -p kifu-cli, or set KIFU_BIN)")
    return path


def record_files(root: pathlib.Path) -> list:
    """Every record file of the corpus the command line checks (not its tables and notes), with
    a sample of the bulk directory."""
    files = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.name.startswith("README"):
            continue
        rel = path.relative_to(root).as_posix()
        if rel.startswith(("shogi/perft", "shogi/lishogi-usi", "chu/perft", "chu/notation")):
            continue
        if path.suffix == ".tsv":
            continue
        if rel.startswith("shogi/bulk/") and rel != "shogi/bulk/all_games.csa":
            # Every 25th game of each bulk format: the full 1,500 are compared with the
            # game list in test_corpus.py.
            number = int(path.stem.split("_")[1])
            if number % 25:
                continue
        files.append(path)
    return files
