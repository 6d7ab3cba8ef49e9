"""Positions agree with cshogi (a test-only peer) on random playouts: the legal move sets, SFEN,
check, and the same again after pushing and popping."""

import random

import cshogi
import pytest

from kifu.shogi import Position


def cshogi_moves(board):
    return sorted(cshogi.move_to_usi(m) for m in board.legal_moves)


def agree(pos, board):
    assert sorted(pos.legal_moves()) == cshogi_moves(board), board.sfen()
    assert pos.sfen() == board.sfen()
    assert pos.is_check() == board.is_check()


@pytest.mark.parametrize("seed", range(40))
def test_random_playouts_agree_with_cshogi(seed):
    rng = random.Random(seed)
    pos, board = Position(), cshogi.Board()
    for ply in range(300):
        agree(pos, board)
        moves = pos.legal_moves()
        if not moves:
            assert board.is_game_over()
            assert pos.outcome() is not None
            break
        move = rng.choice(moves)
        assert pos.check_move(move) is None
        pos.push(move)
        board.push_usi(move)
        if rng.random() < 0.2:
            assert pos.pop() == move
            board.pop()
            agree(pos, board)
            pos.push(move)
            board.push_usi(move)
    # Back to the start, one move at a time.
    while pos.history:
        pos.pop()
        board.pop()
    agree(pos, board)
    assert pos.sfen() == Position().sfen()


def test_illegal_moves_are_refused_as_cshogi_refuses_them():
    rng = random.Random(7)
    pos, board = Position(), cshogi.Board()
    squares = [f"{f}{r}" for f in "123456789" for r in "abcdefghi"]
    for _ in range(60):
        legal = set(pos.legal_moves())
        cshogi_legal = set(cshogi_moves(board))
        for _ in range(40):
            if rng.random() < 0.5:
                text = rng.choice(squares) + rng.choice(squares) + rng.choice(["", "+"])
            else:
                text = rng.choice("PLNSGBR") + "*" + rng.choice(squares)
            mine = pos.check_move(text) is None
            assert mine == (text in legal), text
            # cshogi's own is_legal takes some moves its generator does not (a bishop promoting
            # outside the zone, 8h7i+): its legal move list is the reference.
            assert mine == (text in cshogi_legal), (board.sfen(), text)
        move = rng.choice(sorted(legal))
        pos.push(move)
        board.push_usi(move)
