"""The diagnosis of one run: one deviation per distinct rule difference, from scenarios and games.

A deviation is keyed by the clause the engine broke and what explains it (a house rule) or
describes it. Scenarios that fail on another clause's deviation count as `blocked` by it. A
deviation explained by a house rule the engine declares in `hello.options` is not a failure:
the engine is judged against its declared variant, and the scenarios it decides are skipped
with that reason.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..game.engine import Ruleset
from ..protocol.client import Client
from .diagnose import Evidence
from .houserules import HouseRule, describe, explain
from .lockstep import LockstepResult, replay_on_reference
from .runner import ScenarioResult


@dataclass
class Deviation:
    clause: str
    house_rule: HouseRule | None
    description: str
    evidence: str
    engine_error: str = ""
    blocked: int = 0
    scenarios: list[str] = field(default_factory=list)  # failing scenarios of the clause itself
    games: int = 0  # lock-step games where it showed
    steps: int = 0  # lock-step requests where it showed
    declared: bool = False
    gherkin: str | None = None
    samples: list[Evidence] = field(default_factory=list)
    also: list[str] = field(default_factory=list)  # other clauses the same behaviour broke
    shrink_seconds: float = 0.0
    confirmed: bool = False  # the minimal scenario, run against the engine, still fails there
    original_size: dict[str, int] | None = None  # seats, plays, cards of the game it was shrunk from
    minimal_size: dict[str, int] | None = None

    @property
    def key(self) -> tuple[str, str]:
        return self.clause, self.house_rule.label if self.house_rule else self.description

    def as_dict(self) -> dict[str, Any]:
        return {"clause": self.clause, "house_rule": self.house_rule.label if self.house_rule else None,
                "hello_options": self.house_rule.hello_line if self.house_rule else None,
                "description": self.house_rule.sentence if self.house_rule else self.description,
                "declared": self.declared, "evidence": self.evidence, "engine_error": self.engine_error,
                "blocked": self.blocked, "scenarios": self.scenarios, "games": self.games, "steps": self.steps,
                "also_breaks": self.also,
                "minimal_scenario": self.gherkin, "confirmed": self.confirmed, "original_size": self.original_size,
                "minimal_size": self.minimal_size, "shrink_seconds": round(self.shrink_seconds, 3)}


#: Options every new_game sets in its config: the engine chooses no variant of them by declaring.
CONFIG_OPTIONS = ("revolution", "deals")


def declares(options: dict[str, Any], rule: HouseRule | None) -> bool:
    """Does the engine declare this house rule in `hello.options` (its variant, judged as such)?"""
    if rule is None or rule.option not in options or rule.option in CONFIG_OPTIONS:
        return False
    value = options[rule.option]
    if isinstance(value, list):
        # an engine that also lists the spec default plays either on request: not its variant
        from ..spec import default_spec

        default = default_spec().option(rule.option).default
        plays_default = any(type(v) is type(default) and v == default for v in value)
        return rule.value in value and not plays_default
    return value == rule.value


def diagnose_run(results: list[ScenarioResult], lock: LockstepResult | None, options: dict[str, Any],
                 rules: Ruleset | None = None, engine: Client | None = None, shrink_budget: float = 8.0,
                 variant: dict[str, Any] | None = None) -> list[Deviation]:
    """Deviations of the run (scenario outcomes are updated for declared house rules); each is
    shrunk to a minimal scenario under `variant` (the variant the fit explains) and confirmed."""
    rules = rules or Ruleset.from_spec()
    ref_options = {o.name for o in rules.spec.options}
    found: dict[tuple[str, str], Deviation] = {}
    for r in results:
        if r.outcome not in ("fail", "blocked") or r.root is None or r.evidence is None:
            continue
        rule = explain(r.evidence, replay_on_reference(rules), ref_options)
        key = (r.root.clause, rule.label if rule else describe(r.evidence, {d.description for d in found.values()}))
        dev = found.get(key)
        if dev is None:
            dev = found[key] = Deviation(r.root.clause, rule, key[1] if rule is None else "", r.root.message,
                                         r.root.engine_error)
        if len(dev.samples) < 4:
            dev.samples.append(r.evidence)
        if r.outcome == "blocked":
            dev.blocked += 1
        else:
            dev.scenarios.append(r.id)
        if declares(options, rule):
            dev.declared = True
            r.outcome, r.message = "skip", f"judged against the declared house rule {rule.label}"
    if lock is not None:
        for key, ld in lock.deviations.items():
            dev = found.get(key)
            if dev is None:
                dev = found[key] = Deviation(ld.clause, ld.house_rule, ld.description, ld.first.message,
                                             ld.first.engine_error)
            dev.games += len(ld.games)
            dev.steps += ld.steps
            dev.samples += [d.evidence for d in ld.samples if d.evidence is not None]
            dev.declared = dev.declared or declares(options, ld.house_rule)
    found = _merge_same_behaviour(found)
    if engine is not None and shrink_budget > 0:
        for dev in found.values():
            shrink_deviation(dev, engine, rules, shrink_budget, variant)
    return sorted(found.values(), key=lambda d: (-d.blocked - len(d.scenarios) - d.games, d.clause))


def shrink_deviation(dev: Deviation, engine: Client, rules: Ruleset, budget: float = 8.0,
                     variant: dict[str, Any] | None = None) -> None:
    """The minimal scenario of a deviation (its samples tried in turn within `budget` seconds),
    run again against the engine: `confirmed` when it still shows the deviation there."""
    from ..scenarios.model import Scenario
    from .shrink import confirm, gherkin_of, minimal_scenario, shrink, shrink_seeded, size_of

    t0 = time.perf_counter()
    for ev in sorted(dev.samples, key=lambda e: len(e.requests)):  # the shortest games first
        left = budget - (time.perf_counter() - t0)
        if left <= 0:
            break
        seeded = shrink_seeded(ev, engine, rules, variant)
        if seeded is not None:  # a seeded deal: the smallest table where the engine's own deal shows it
            small, ops = seeded
            title = dev.house_rule.sentence if dev.house_rule else (dev.description or dev.evidence)
            scenario = Scenario(f"{dev.clause}/minimal", dev.clause, dev.clause.split(".")[0], title, tuple(ops))
            dev.confirmed = confirm(scenario, engine)
            dev.original_size, dev.minimal_size = size_of(ev.requests), size_of(small)
            dev.gherkin = (f"  # the engine differs: {dev.evidence}\n  @{dev.clause}"
                           + (" @confirmed" if dev.confirmed else "") + "\n" + gherkin_of(scenario))
            break
        small = shrink(ev, engine, rules, budget_s=left, variant=variant)
        if small:
            title = dev.house_rule.sentence if dev.house_rule else (dev.description or dev.evidence)
            found_under = {**(ev.variant or {}), **(variant or {})} or None
            scenario = minimal_scenario(small, engine, rules, dev.clause, title, found_under)
            dev.confirmed = confirm(scenario, engine)
            dev.original_size, dev.minimal_size = size_of(ev.requests), size_of(small)
            dev.gherkin = (f"  # the engine differs: {dev.evidence}\n  @{dev.clause}"
                           + (" @confirmed" if dev.confirmed else "") + "\n" + gherkin_of(scenario))
            break
    dev.shrink_seconds = time.perf_counter() - t0


def _merge_same_behaviour(found: dict[tuple[str, str], Deviation]) -> dict[tuple[str, str], Deviation]:
    """One deviation per behaviour: the same house rule or description seen on several clauses is
    kept on the clause where it showed most, the others listed in `also`."""
    by_what: dict[str, list[Deviation]] = {}
    for (clause, what), dev in found.items():
        by_what.setdefault(what or clause, []).append(dev)
    out = {}
    for what, devs in by_what.items():
        devs.sort(key=lambda d: -(d.blocked + len(d.scenarios) + d.games))
        main = devs[0]
        for other in devs[1:]:
            main.also.append(other.clause)
            main.blocked += other.blocked
            main.scenarios += other.scenarios
            main.games += other.games
            main.steps += other.steps
            main.declared = main.declared or other.declared
            main.samples += other.samples
        out[main.key] = main
    return out


def protocol_notes(results: list[ScenarioResult], lock: LockstepResult | None) -> list[dict[str, Any]]:
    """Representation differences where the rules are silent: kind, times seen, an example."""
    notes: dict[str, list[Any]] = {}
    from .diagnose import note_kind

    for r in results:
        for n in r.notes:
            seen = notes.setdefault(note_kind(n), [0, n])
            seen[0] += 1
    if lock is not None:
        for kind, (count, example) in lock.notes.items():
            seen = notes.setdefault(kind, [0, example])
            seen[0] += count
    return [{"note": k, "seen": v[0], "example": v[1]} for k, v in sorted(notes.items())]
