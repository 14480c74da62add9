"""AI players for President: easy, medium, hard (spec `ai.levels`). See `base` for the contract."""
from . import easy, hard, medium  # noqa: F401  (each registers its level in base's registry)
from .base import Player, choose, levels, player

__all__ = ["Player", "choose", "levels", "player"]
