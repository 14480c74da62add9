"""What changed between two saved runs of one engine: deviations new, gone or changed (a CI gate).

A deviation is keyed by its clause and its mechanism, what differs (the request, the refusal or
acceptance, the STATE field), never by its place in the list: the values in its text (cards, seats,
scores) are left out of the key, so another seed finding the same difference gives the same key.
A report may carry a deviation's mechanism itself (`mechanism`); it is used when present. Among
deviations of one clause left unmatched on both sides, the old and the new are paired as one
deviation whose difference changed. Scenarios that newly crash or break the protocol, and
lock-step games that newly end in an engine error, count as new too: they are regressions that
name no deviation.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..textsafe import inert
from .saved import Report, SavedDeviation

NEW, GONE, CHANGED = "new", "gone", "changed"
_VALUES = [
    (re.compile(r"\[[^\[\]]*\]"), "[...]"),  # lists (innermost first, twice for nested ones)
    (re.compile(r"\[[^\[\]]*\]"), "[...]"),
    (re.compile(r"\{[^{}]*\}"), "{...}"),
    (re.compile(r"'[^']*'|\"[^\"]*\""), "'...'"),
    (re.compile(r"\b(?:10|[2-9VDRJQKA])[CDHS]\b|\bJK\d*\b"), "<card>"),
    (re.compile(r"<card>(?:\s+<card>)+"), "<card>"),
    (re.compile(r"\b\d+\b"), "N"),
]


def shape(text: str) -> str:
    """`text` with its values (lists, cards, numbers, quoted words) replaced by placeholders."""
    for pattern, placeholder in _VALUES:
        text = pattern.sub(placeholder, text)
    return " ".join(text.split())


def mechanism(d: SavedDeviation) -> str:
    given = d.raw.get("mechanism")
    if isinstance(given, str) and given:
        return given
    return shape(d.difference or d.evidence)


@dataclass
class Change:
    kind: str  # new | gone | changed
    clause: str
    what: str  # the mechanism, or the scenario / lock-step problem
    old: SavedDeviation | None = None
    new: SavedDeviation | None = None
    details: list[str] = field(default_factory=list)  # for `changed`: "field: old -> new"

    def line(self) -> str:
        d = self.new or self.old
        head = f"{self.kind.upper():<8}{self.clause}: "
        if d is None:
            return head + self.what
        verdict = (f"explained by {d.house_rule}" + (" (declared)" if d.declared else "")) if d.house_rule else \
            "no house rule explains it"
        body = f"{d.title}: {d.difference} [{verdict}]"
        return head + body + "".join(f"\n          {x}" for x in self.details)


def _compared(d: SavedDeviation) -> dict[str, object]:
    """What may change in a deviation that keeps its key (the values in its difference aside: they
    follow the game that showed it; the counts of games and steps too: they follow --games)."""
    return {"house rule": d.house_rule or "none", "declared": d.declared,
            "also breaks": ", ".join(sorted(d.also)) or "none", "own failing scenarios": len(d.scenarios),
            "blocked scenarios": d.blocked}


def _changed(old: SavedDeviation, new: SavedDeviation, paired: bool = False) -> list[str]:
    """What changed, `field: old -> new`; `paired`: two deviations of one clause that differ in what differs."""
    a, b = _compared(old), _compared(new)
    if paired:
        a, b = {"difference": old.difference, **a}, {"difference": new.difference, **b}
    return [f"{k}: {a[k]} -> {b[k]}" for k in a if a[k] != b[k]]


def _errors(rep: Report) -> dict[str, str]:
    """Scenarios that crashed or broke the protocol (id → clause)."""
    return {r.id: r.clause for r in rep.scenario_results if r.outcome in ("error", "protocol")}


def diff(old: Report, new: Report) -> list[Change]:
    """The deviations new, gone or changed from `old` to `new`, and the new scenario and lock-step errors."""
    before = [(d.clause, mechanism(d), d) for d in old.deviations]
    after = [(d.clause, mechanism(d), d) for d in new.deviations]
    changes: list[Change] = []
    left_old = list(before)
    unmatched_new = []
    for clause, how, d in after:
        match = next((x for x in left_old if x[0] == clause and x[1] == how), None)
        if match is None:
            unmatched_new.append((clause, how, d))
            continue
        left_old.remove(match)
        details = _changed(match[2], d)
        if details:
            changes.append(Change(CHANGED, clause, how, match[2], d, details))
    for clause, how, d in unmatched_new:
        match = next((x for x in left_old if x[0] == clause), None)
        if match is None:
            changes.append(Change(NEW, clause, how, None, d))
        else:
            left_old.remove(match)
            changes.append(Change(CHANGED, clause, how, match[2], d, _changed(match[2], d, paired=True)))
    changes += [Change(GONE, clause, how, d, None) for clause, how, d in left_old]
    was, now = _errors(old), _errors(new)
    changes += [Change(NEW, now[sid], f"scenario {sid} now errors") for sid in now if sid not in was]
    changes += [Change(GONE, was[sid], f"scenario {sid} no longer errors") for sid in was if sid not in now]
    lock_old, lock_new = old.lockstep, new.lockstep
    if lock_new is not None and lock_new.errors and not (lock_old is not None and lock_old.errors):
        changes.append(Change(NEW, "lock-step", f"{lock_new.errors} engine error(s) in {lock_new.games} games"))
    changes += _stops(old, new)
    order = {NEW: 0, CHANGED: 1, GONE: 2}
    return sorted(changes, key=lambda c: order[c.kind])


def _stops(old: Report, new: Report) -> list[Change]:
    """A run that now stops (an engine error: hung, crashing, breaking the protocol...) is new; one
    that no longer stops is gone; another reason to stop is a change."""
    was, now = old.stopped, new.stopped
    if now is not None and was is None:
        return [Change(NEW, "run", f"the run now stops: {now.headline()}: {now.message}")]
    if was is not None and now is None:
        return [Change(GONE, "run", f"the run no longer stops (it stopped: {was.headline()})")]
    if was is not None and now is not None and was.kind != now.kind:
        return [Change(CHANGED, "run", f"the run stops for another reason: {now.headline()}: {now.message}",
                       details=[f"stop: {was.kind} -> {now.kind}"])]
    return []


def stop_warnings(old: Report, new: Report, names: tuple[str, str]) -> list[str]:
    """Which of the two runs stopped before its end: what it did not reach shows as gone (or not new)."""
    return [f"warning: {inert(name, strict=True)} is a run that stopped before its end ({rep.stopped.headline()}): "
            "what it did not reach is not compared" for name, rep in zip(names, (old, new)) if rep.stopped is not None]


def summary(changes: list[Change]) -> str:
    counts = {k: sum(c.kind == k for c in changes) for k in (NEW, GONE, CHANGED)}
    return ", ".join(f"{n} {k}" for k, n in counts.items())
