"""Standard shogi positions: legal moves, USI moves, SFEN, check and the end of the game."""

from ._kifu import ShogiPosition as Position

__all__ = ["Position"]
