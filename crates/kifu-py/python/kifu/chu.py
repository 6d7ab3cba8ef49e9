"""Chu shogi (中将棋) positions under lishogi's rules: legal moves, USI moves, SFEN."""

from ._kifu import ChuPosition as Position

__all__ = ["Position"]
