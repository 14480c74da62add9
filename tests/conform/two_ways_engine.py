"""A reference engine that ends tricks early in two ways: `python tests/conform/two_ways_engine.py`.

A play of eights ends the trick at once (its player leads again), and so does the first pass after
a play (the trick's player leads again). Both break `trick.end` by different mechanisms (after a
play, after a pass): one mechanism, one deviation, so the runner must report two.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from president.game.cards import RANK_SYMBOLS  # noqa: E402
from president.game.engine import PASS, GameState, Phase  # noqa: E402
from president.protocol.server import Session, serve  # noqa: E402

EIGHT = RANK_SYMBOLS.index("8")
_apply = GameState.apply


def _leader(g: GameState, seat: int) -> int:
    """The seat that leads the next trick: `seat` if it still holds cards, else the next that does."""
    s = seat
    while not g.hands[s]:
        s = (s + 1) % g.n
    return s


def apply(self: GameState, action: int) -> None:
    seat, by, phase = self.to_act, self.trick_by, self.phase
    _apply(self, action)
    if phase != Phase.PLAY or self.phase != Phase.PLAY or not self.trick:
        return
    if action != PASS and (action.bit_length() - 1) >> 2 == EIGHT:
        leader = seat
    elif action == PASS and by is not None:
        leader = by
    else:
        return
    self.trick, self.passed, self._legal = 0, 0, None
    self.to_act = _leader(self, leader)  # type: ignore[arg-type]


if __name__ == "__main__":
    GameState.apply = apply  # type: ignore[method-assign]
    sys.exit(serve(session=Session(name="two-ways")))
