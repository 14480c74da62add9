"""The fit's baseline: every divergent step of the engine's traces under their own configs, bounded.

A divergent step (`Divergent`) is counted with its clause and mechanism; of each clause and
mechanism only the first `KEEP_WHOLE` steps (in trace order), then an even sample of the later
ones (`KEEP_SPREAD` at most, `_Spread`), keep the reference position before them and both replies
(what the fit's one-step trials, the evidence and the causes need); the others keep their key,
finding and mechanism (the counts). The first `EVIDENCE` of each group become evidence, the first
divergences of a trace first.

`Baseline` takes the divergent steps one trace at a time and keeps only that. Two places feed one:
lock-step (`lockstep.Merger`), which compares every game on the reference as it is played, so a
game's divergences are known while its trace is still in memory; and the fit's own replay of the
traces lock-step did not give (the scenarios, a game played in another process). So a trace is
replayed for the baseline only when nobody compared it in this process.
"""
from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ..game.engine import GameState
from .diagnose import Evidence, Finding
from .records import Mechanism, mechanism
from .trace import Trace

Key = tuple[int, int, str]  # (trace number, step number, clause)
Group = tuple[str, Mechanism]  # (clause, mechanism)

#: Divergent steps of one clause and mechanism kept whole (the first ones, in trace order): the
#: fit's samples, the evidence and the causes are drawn from them.
KEEP_WHOLE = 128
#: ... then an even sample of the later ones, at most `KEEP_SPREAD` (`_Spread`): the causes are looked for over the games.
KEEP_SPREAD = 384
#: Evidence kept per clause and mechanism (the first divergences of a trace first).
EVIDENCE = 4


@dataclass(slots=True)
class Divergent:
    """One divergent step of one trace under some variant. Of the baseline's, only the first
    `KEEP_WHOLE` of each clause and mechanism keep the position and both replies (`whole`); the
    others keep their key, finding and mechanism (what the counts need)."""

    key: Key
    finding: Finding
    request: dict[str, Any]
    before: GameState | None  # the reference position before the step (for one-step trials)
    config: dict[str, Any]  # the trace's new_game config
    expected: dict[str, Any] = field(default_factory=dict)  # the reference's reply
    actual: Any = None  # the engine's reply (kept by the baseline's whole steps)
    mechanism: Mechanism | None = None  # what differs (set by the baseline)
    whole: bool = True
    seen: int = 0  # the reference's answer, as the fit's memo knows it (`views.seen_key`)
    #: the features of the plays that differ here (`causes.differing`): where it belongs when its group
    #: splits into causes; None: not known
    places: tuple[frozenset[str], ...] | None = None

    def lighten(self) -> None:
        """Keep only what the counts need: the key, the finding and the mechanism."""
        self.before, self.expected, self.actual, self.whole = None, _NOTHING, None, False
        self.request, self.config = _LIGHT.setdefault(str(self.request.get("cmd")), {"cmd": self.request.get("cmd")}), \
            _NOTHING

    def renumbered(self, number: int) -> "Divergent":
        """This step as a step of trace `number` (a game's divergences, numbered among all the traces)."""
        self.key = (number, self.key[1], self.key[2])
        return self


_NOTHING: dict[str, Any] = {}
_LIGHT: dict[str, dict[str, Any]] = {}


def game_requests(trace: Trace, upto: int, explicit: bool = False) -> list[dict[str, Any]]:
    """The requests of the trace's game up to step `upto`, from its last new_game (`explicit`: a
    seeded new_game with the engine's hands)."""
    reqs = (trace.explicit_requests() if explicit else trace.requests)[:upto + 1]
    start = max((i for i, r in enumerate(reqs) if r.get("cmd") == "new_game"), default=0)
    return reqs[start:]


class Baseline:
    """The divergent steps of traces under their own configs, added one trace at a time, in trace
    order (see the module docstring): what stays is bounded whatever the number of traces, but a
    few numbers per light step. `reach`: how far each trace was compared (-1: not at all)."""

    def __init__(self, place: Callable[[Divergent], tuple[frozenset[str], ...] | None] | None = None) -> None:
        #: where a step belongs when its group splits into causes (`causes.places_of`): its `places`
        self.place = place
        self.whole: dict[Key, Divergent] = {}
        self.counts: dict[Group, int] = {}
        self.spread: dict[Group, _Spread] = {}
        # the steps past KEEP_WHOLE, as (trace, step, group, seen) numbers: no object of theirs is made while
        # traces are read, so that none pins the memory those traces took (`light`)
        self.light = array("q")
        self.groups: dict[Group, int] = {}
        self.first_light: list[tuple[Group, Finding]] = []
        self.evidence: dict[Group, tuple[list[Evidence], list[Evidence]]] = {}
        self.reach: dict[int, int] = {}
        # the light steps' `places`: ids of feature sets (`features`), from `place_at[k]` on for light step k
        self.features: dict[frozenset[str], int] = {}
        self.feature_sets: list[frozenset[str]] = []
        self.place_ids, self.place_at = array("i"), array("q")

    def add(self, number: int, trace: Trace | None, divs: list[Divergent], reach: int) -> None:
        """One trace's divergent steps (numbered `number`, in step order) and its reach: each gets
        its mechanism; the group's first ones stay whole, and become evidence."""
        self.reach[number] = reach
        for k, d in enumerate(divs):
            if d.key[0] != number:
                d.renumbered(number)
            before = d.before.to_wire() if d.before is not None else None
            if d.mechanism is None:
                d.mechanism = mechanism(d.request, d.expected, d.actual, before)
            if d.places is None and self.place is not None:
                d.places = self.place(d)
            group = (d.finding.clause, d.mechanism)
            firsts, others = self.evidence.setdefault(group, ([], []))
            bucket = firsts if k == 0 else others
            if trace is not None and len(bucket) < EVIDENCE:
                bucket.append(Evidence(game_requests(trace, d.key[1]), d.expected, d.actual, before,
                                       d.finding.clause))
            count = self.counts[group] = self.counts.get(group, 0) + 1
            if count <= KEEP_WHOLE or self.spread.setdefault(group, _Spread()).keeps(d, count):
                self.whole[d.key] = d
                continue
            if group not in self.groups:
                self.groups[group] = len(self.first_light)
                self.first_light.append((group, d.finding))
            self.light.extend((number, d.key[1], self.groups[group], d.seen))
            self.place_at.append(len(self.place_ids))
            for f in d.places or ():
                if f not in self.features:
                    self.features[f] = len(self.feature_sets)
                    self.feature_sets.append(f)
                self.place_ids.append(self.features[f])

    def steps(self, offset: int = 0) -> Iterator[tuple[Key, Divergent]]:
        """Every divergent step, whole ones first, numbered `offset` on (light ones are made here)."""
        for key, d in self.whole.items():
            yield (key[0] + offset, key[1], key[2]), d.renumbered(key[0] + offset) if offset else d
        light, groups, at, ids, sets = self.light, self.first_light, self.place_at, self.place_ids, self.feature_sets
        for k, j in enumerate(range(0, len(light), 4)):
            (clause, mech), finding = groups[light[j + 2]]
            key = (light[j] + offset, light[j + 1], clause)
            end = at[k + 1] if k + 1 < len(at) else len(ids)
            places = tuple(sets[i] for i in ids[at[k]:end]) if self.place is not None else None
            yield key, Divergent(key, finding, _NOTHING, None, _NOTHING, _NOTHING, None, mech, False, light[j + 3],
                                 places)

def join_evidence(*parts: Baseline) -> dict[Group, list[Evidence]]:
    """The evidence of several baselines, in their order (the first divergences of a trace first)."""
    firsts: dict[Group, list[Evidence]] = {}
    others: dict[Group, list[Evidence]] = {}
    for part in parts:
        for g, (f, o) in part.evidence.items():
            firsts.setdefault(g, []).extend(f)
            others.setdefault(g, []).extend(o)
    return {g: (firsts[g][:EVIDENCE] + others[g][:EVIDENCE])[:EVIDENCE] for g in firsts}


class _Spread:
    """An even sample of a group's later divergent steps kept whole, whatever their number: every
    `stride`-th; when more than `KEEP_SPREAD` are kept, every other one is made light and the
    stride doubles."""

    def __init__(self) -> None:
        self.stride = 1
        self.kept: list[tuple[int, Divergent]] = []

    def keeps(self, d: Divergent, count: int) -> bool:
        if count % self.stride:
            return False
        self.kept.append((count, d))
        if len(self.kept) > KEEP_SPREAD:
            self.stride *= 2
            for c, other in self.kept:
                if c % self.stride:
                    other.lighten()
            self.kept = [(c, other) for c, other in self.kept if not c % self.stride]
        return True
