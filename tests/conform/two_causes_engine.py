"""A reference engine with two rules of one symptom: `python tests/conform/two_causes_engine.py`.

1. After a 7 (in the normal order) only lower cards may follow: plays of the trick's size and a
   lower rank, never a higher one.
2. Only a prefix of a rank's cards may be played: k cards of a rank are the k lowest suits of that
   rank the seat holds (3C 3D 3H: 3C, 3C 3D or all three; never 3D alone).

Both make the engine leave out of `legal` (and refuse) follows the reference allows: one clause,
one mechanism (`flow.follow`, act play refused), two causes. The runner must report each with its
own evidence and minimal scenario. Argument `seven` or `prefix` keeps only that rule.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from president.errors import IllegalAction  # noqa: E402
from president.game.cards import RANK_MASKS, RANK_SYMBOLS, rank_of  # noqa: E402
from president.game.engine import PASS, GameState, Phase  # noqa: E402
from president.protocol.server import Session, serve  # noqa: E402

SEVEN = RANK_SYMBOLS.index("7")
RULES = set(sys.argv[1:]) or {"seven", "prefix"}
_generate, _check = GameState._generate, GameState.check


def _subsets(cards: list[int], k: int) -> list[int]:
    from itertools import combinations
    return [sum(c) for c in combinations(cards, k)]


def _prefix(play: int, hand: int) -> bool:
    rank = rank_of(play)
    if rank >= len(RANK_MASKS) or play & ~RANK_MASKS[rank]:
        return True  # jokers, runs: the rule is about the cards of one rank
    held = [1 << i for i in range(52) if (hand & RANK_MASKS[rank]) >> i & 1]
    return play == sum(held[:play.bit_count()])


def generate(self: GameState) -> list[int]:
    out = _generate(self)
    if self.phase != Phase.PLAY or self.to_act is None:
        return out
    hand, trick = self.hands[self.to_act], self.trick
    if "seven" in RULES and trick and not self.reversed and rank_of(trick) == SEVEN:
        k = trick.bit_count()
        out = [PASS] + [p for r in range(SEVEN) for p in _subsets(
            [1 << i for i in range(52) if (hand & RANK_MASKS[r]) >> i & 1], k)]
    if "prefix" in RULES:
        out = [a for a in out if a == PASS or _prefix(a, hand)]
    return out


def check(self: GameState, seat: int | None, action: int, give: bool = False) -> IllegalAction | None:
    if give or self.phase != Phase.PLAY or seat != self.to_act or action == PASS:
        return _check(self, seat, action, give)
    if action in self.legal_actions():
        return None
    return _check(self, seat, action, give) or IllegalAction("not_allowed", "house", "this engine does not allow it")


if __name__ == "__main__":
    GameState._generate = generate  # type: ignore[method-assign]
    GameState.check = check  # type: ignore[method-assign]
    sys.exit(serve(session=Session(name="two-causes")))
