"""Cetkaik (机戦) match states: legal moves, declarations, scores."""

from ._kifu import CetkaikPosition as Position

__all__ = ["Position"]
