"""Deliberately wrong engines: `python tests/mutants/mutant.py NAME` serves protocol v1.

Each mutant patches one rule of the reference engine (president/game/engine.py) and serves it
exactly like `president engine`. `conform --games 0` (the scenarios alone) must reject every
one; tests/conform/test_mutants.py measures that (the mutation score).
"""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from president.game import cards, engine  # noqa: E402
from president.game.engine import PASS, GameState, Phase, Ruleset  # noqa: E402

_check, _apply, _act, _start_deal = GameState.check, GameState.apply, GameState.act, GameState._start_deal


def _rank(mask: int) -> int:
    return (mask.bit_length() - 1) >> 2


def _waive(rule: str, when: Callable[[GameState, int, int], bool] = lambda g, s, a: True) -> None:
    """Accept what the reference refuses by `rule` (when `when` holds)."""
    def check(self: GameState, seat: int, action: int, give: bool = False):
        err = _check(self, seat, action, give)
        if err is not None and err.rule == rule and when(self, seat, action):
            return None
        return err
    GameState.check = check  # type: ignore[method-assign]


def ties_allowed() -> None:
    _waive("play.strictly-higher", lambda g, s, a: _rank(a) == _rank(g.trick))


def count_not_enforced() -> None:
    _waive("play.count-matches",
           lambda g, s, a: (_rank(a) < _rank(g.trick)) if g.reversed else (_rank(a) > _rank(g.trick)))


def mixed_ranks() -> None:
    _waive("play.same-rank")


def pass_not_final() -> None:
    def act(self: GameState, seat: int, action: int, give: bool = False) -> None:
        err = _check(self, seat, action, give)
        if err is not None and err.rule == "pass.final":
            self.passed &= ~(1 << seat)
            self.to_act = seat
        _act(self, seat, action, give)
    GameState.act = act  # type: ignore[method-assign]


def _after_quad(fix: Callable[[GameState, int, bool], None]) -> None:
    def apply(self: GameState, action: int) -> None:
        seat, was = self.to_act, self.reversed
        _apply(self, action)
        if self.phase == Phase.PLAY and action.bit_count() == self.rules.revolution_cards:
            fix(self, seat, was)
    GameState.apply = apply  # type: ignore[method-assign]


def quad_clears_trick() -> None:
    def fix(g: GameState, seat: int, was: bool) -> None:
        g.trick, g.passed = 0, 0
        if g.hands[seat]:
            g.to_act = seat
    _after_quad(fix)


def quad_does_not_flip() -> None:
    def fix(g: GameState, seat: int, was: bool) -> None:
        g.reversed = was
    _after_quad(fix)


def revolution_off_ignored() -> None:
    config = Ruleset.config

    def table(self: Ruleset, *args, **options):  # every table plays with revolution, whatever it asks
        return dataclasses.replace(config(self, *args, **options), revolution=True)
    Ruleset.config = table  # type: ignore[method-assign]


def reversed_kept() -> None:
    def start(self: GameState, hands) -> None:
        was = getattr(self, "reversed", False)
        _start_deal(self, hands)
        self.reversed = was
    GameState._start_deal = start  # type: ignore[method-assign]


def leader_may_pass() -> None:
    def act(self: GameState, seat: int, action: int, give: bool = False) -> None:
        if action == PASS and not give and self.phase == Phase.PLAY and not self.trick and seat == self.to_act:
            s = seat
            while True:
                s = (s + 1) % self.n
                if self.hands[s]:
                    self.to_act = s
                    self._legal = None
                    return
        _act(self, seat, action, give)
    GameState.act = act  # type: ignore[method-assign]


def wrong_next_leader() -> None:
    def apply(self: GameState, action: int) -> None:
        by = self.trick_by if action == PASS else self.to_act
        _apply(self, action)
        if self.phase == Phase.PLAY and not self.trick and by is not None and not self.hands[by]:
            self.to_act = next(s for s in range(self.n) if self.hands[s])  # the lowest seat, not the next
    GameState.apply = apply  # type: ignore[method-assign]


def passes_never_reset() -> None:
    """The pass record is never reset within a deal: a seat that passed once is skipped in every
    later trick (its pass still shows in `passed`), until it leads; the leader's own pass is cleared."""
    def apply(self: GameState, action: int) -> None:
        kept = self.passed | (1 << self.to_act if action == PASS and self.phase == Phase.PLAY else 0)
        _apply(self, action)
        if self.phase == Phase.PLAY and not self.trick and self.to_act is not None:
            active = sum(1 << s for s in range(self.n) if self.hands[s])
            self.passed = kept & active & ~(1 << self.to_act)
            self._legal = None
    GameState.apply = apply  # type: ignore[method-assign]


def next_leader_skips_one() -> None:
    """When a trick's winner has gone out, the lead skips the next active seat and goes to the one
    after it (lead.next-active names the next one)."""
    def apply(self: GameState, action: int) -> None:
        by = self.trick_by if action == PASS else self.to_act
        ended = bool(self.trick) or action != PASS  # a leader's pass (leader_may_pass) ends no trick
        _apply(self, action)
        if self.phase == Phase.PLAY and ended and not self.trick and by is not None and not self.hands[by]:
            active = [s for s in ((by + k) % self.n for k in range(1, self.n)) if self.hands[s]]
            if len(active) >= 2:
                self.to_act = active[1]
                self._legal = None
    GameState.apply = apply  # type: ignore[method-assign]


def scoring_off_by_one() -> None:
    Ruleset.points = lambda self, place, n, scheme="places": n - place  # type: ignore[method-assign]


def vice_not_exchanging() -> None:
    post = Ruleset.__post_init__ if hasattr(Ruleset, "__post_init__") else None

    def init(self: Ruleset) -> None:
        if post:
            post(self)
        object.__setattr__(self, "exchanges", tuple(e for e in self.exchanges if e[0] == -1))
    Ruleset.__post_init__ = init  # type: ignore[attr-defined]


def worst_cards_given() -> None:
    engine.best_cards = cards.worst_cards  # type: ignore[attr-defined]


def two_ranked_low() -> None:
    def eff(r: int) -> int:
        return -1 if r == 12 else r

    def check(self: GameState, seat: int, action: int, give: bool = False):
        err = _check(self, seat, action, give)
        if (err is None or err.rule == "play.strictly-higher") and self.trick and action and not give \
                and self.phase == Phase.PLAY and action.bit_count() == self.trick.bit_count():
            r, t = eff(_rank(action)), eff(_rank(self.trick))
            higher = r < t if self.reversed else r > t
            if higher:
                return None
            return err or engine.IllegalAction("not_higher", "play.strictly-higher", "2 ranks low here")
        return err
    GameState.check = check  # type: ignore[method-assign]


MUTANTS: dict[str, Callable[[], None]] = {
    "ties-allowed": ties_allowed,
    "count-not-enforced": count_not_enforced,
    "mixed-ranks": mixed_ranks,
    "pass-not-final": pass_not_final,
    "quad-clears-trick": quad_clears_trick,
    "quad-does-not-flip": quad_does_not_flip,
    "revolution-off-ignored": revolution_off_ignored,
    "reversed-kept": reversed_kept,
    "leader-may-pass": leader_may_pass,
    "wrong-next-leader": wrong_next_leader,
    "passes-never-reset": passes_never_reset,
    "next-leader-skips-one": next_leader_skips_one,
    "scoring-off-by-one": scoring_off_by_one,
    "vice-not-exchanging": vice_not_exchanging,
    "worst-cards-given": worst_cards_given,
    "two-ranked-low": two_ranked_low,
}


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in MUTANTS:
        print(f"usage: mutant.py NAME  (one of {', '.join(MUTANTS)})", file=sys.stderr)
        return 2
    MUTANTS[argv[0]]()
    from president.protocol.server import Session, serve

    return serve(session=Session(name=f"mutant-{argv[0]}"))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
