"""What the fit may say: an option value is shown as an explanation only when it can be one.

A candidate option value (`fit`) explains nothing, and is shown nowhere (text, JSON, HTML, the
table of engines), when

- the engine's own `hello.options` rule it out: the option is declared and the value is not among
  the declared ones (`ruled_out`);
- the engine's deck rules it out: the value changes the deck (`jokers`) and the engine dealt a
  seeded deal of the spec's own deck (`ruled_out`);
- it adds more divergent steps than it removes, unless it removes one clause's divergences whole
  and adds no more clauses than it removes; or it removes less than half of the divergent steps of
  every clause it touches (`worth_showing`): a value that makes the reference refuse the tables the
  engine plays (`jokers=1` on a deck without jokers) explains nothing.

With the scenarios alone (no lock-step game) a fitted value is advised only when it explains
whole divergent scenarios (every divergence of each scenario it touches, at least
`SCENARIOS_NEEDED` of them) and adds none (`scenario_evidence`); a value that does less is a guess,
reported as one.
"""
from __future__ import annotations

from typing import Any, Iterable, Protocol, Sequence

from ..errors import IllegalAction
from ..game.engine import Ruleset

#: Divergent scenarios a value must explain wholly before a scenario-only fit advises it.
SCENARIOS_NEEDED = 2
#: A partial explanation removes at least this share of the divergent steps of a clause it touches.
SHARE_NEEDED = 0.5
#: ... or this share, when it adds more divergent steps than it removes.
WHOLE_CLAUSE = 0.9


class _Divergent(Protocol):
    key: tuple[int, int, str]


class _Judged(Protocol):
    variant: tuple[tuple[str, Any], ...]

    @property
    def removed(self) -> Sequence[_Divergent]: ...

    @property
    def added(self) -> Sequence[_Divergent]: ...


def declared_out(options: dict[str, Any] | None, option: str, value: Any) -> bool:
    """Do the engine's `hello.options` declare `option` without `value`?"""
    if not options or option not in options or option in ("players", "deals", "seed", "ai"):
        return False
    listed = options[option]
    values = listed if isinstance(listed, list) else [listed]
    return not any(type(v) is type(value) and v == value for v in values)


def dealt_sizes(traces: Iterable[Any]) -> set[int]:
    """The number of cards of each seeded deal the engine made (its own deck, as it dealt it)."""
    out: set[int] = set()
    for trace in traces:
        for req, reply in trace.steps:
            if req.get("cmd") != "new_game" or "hands" in req or "seed" not in req:
                continue
            state = reply.get("state") if isinstance(reply, dict) and reply.get("ok") else None
            hands = state.get("hands") if isinstance(state, dict) else None
            if isinstance(hands, list) and all(isinstance(h, list) for h in hands):
                out.add(sum(len(h) for h in hands))
    return out


def deck_size(rules: Ruleset, option: str, value: Any) -> int | None:
    """The cards of the deck the reference deals with `option=value` (None when it refuses it)."""
    try:
        return int(rules.config(players=rules.spec.players.min, **{option: value}).deck).bit_count()
    except (IllegalAction, TypeError, ValueError):
        return None


def ruled_out(variant: tuple[tuple[str, Any], ...], options: dict[str, Any] | None, rules: Ruleset,
              dealt: set[int]) -> bool:
    """Does the engine's hello, or its own deck (`dealt`, from `dealt_sizes`), rule out a value of `variant`?"""
    for option, value in variant:
        if declared_out(options, option, value):
            return True
        if dealt:
            size = deck_size(rules, option, value)
            default = deck_size(rules, option, rules.spec.option(option).default)
            if size is not None and size != default and size not in dealt:
                return True
    return False


def _clauses(items: Iterable[_Divergent]) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in items:
        out[d.key[2]] = out.get(d.key[2], 0) + 1
    return out


def worth_showing(j: _Judged, divergent: dict[str, int]) -> bool:
    """Is a candidate that removes some divergences and adds others a partial explanation worth
    naming (`divergent`: the baseline's steps per clause that its replay reached, `Judgement.compared`)? Either it removes more divergent steps
    than it adds, among them at least `SHARE_NEEDED` of one clause's; or it removes one clause's
    divergences whole (`WHOLE_CLAUSE`: the rule it names is that clause's) and adds no more clauses
    than it removes (another rule of the same option, as `holder:3C` adding its must-play-3C)."""
    removed, added = _clauses(j.removed), _clauses(j.added)
    if not removed:
        return False
    share = max(n / divergent.get(c, n) for c, n in removed.items())
    if len(j.removed) > len(j.added) and share >= SHARE_NEEDED:
        return True
    return share >= WHOLE_CLAUSE and len(set(added) - set(removed)) <= len(removed)


def scenario_evidence(j: _Judged, baseline_by_trace: dict[int, set[tuple[int, int, str]]]) -> bool:
    """Does a value, fitted from the scenarios alone, explain whole scenarios: every divergence of
    each scenario it removes one from, at least `SCENARIOS_NEEDED` of them, adding none?"""
    if j.added:
        return False
    removed = {d.key for d in j.removed}
    touched = {k[0] for k in removed}
    return len(touched) >= SCENARIOS_NEEDED and all(baseline_by_trace.get(t, set()) <= removed for t in touched)


def scenario_only(fitted: Any) -> None:
    """A fit from the scenarios alone (`fit.Fit`, changed in place): each fitted value that does not
    explain whole scenarios (`scenario_evidence`, by its own replay) becomes a guess
    (`fitted.guesses`), no longer advised; what it explained is no longer explained."""
    if not fitted.variant:
        return
    by_trace: dict[int, set[tuple[int, int, str]]] = {}
    for d in fitted.baseline:
        by_trace.setdefault(d.key[0], set()).add(d.key)
    keep: list[tuple[str, Any]] = []
    guess: list[tuple[str, Any]] = []
    for kv in fitted.variant:
        own = [j for j in fitted.judged if j.variant == (kv,)] or [
            j for j in fitted.judged if kv in j.variant and not j.added]
        (keep if any(scenario_evidence(j, by_trace) for j in own) else guess).append(kv)
    if guess:
        fitted.variant, fitted.guesses = tuple(keep), tuple(guess)
        fitted.explained = {d.key for j in fitted.judged if j.removed and not j.added and set(j.variant) <= set(keep)
                            for d in j.removed}
