"""AI players for President: easy, medium, hard (spec `ai.levels`). See `base` for the contract."""
from .base import Player, choose, levels, player

__all__ = ["Player", "choose", "levels", "player"]
