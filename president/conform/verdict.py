"""The diagnosis of one run: one deviation per root cause, from every trace the engine produced.

The variant is fitted first (`fit`): the option values under which the reference plays the
engine's traces as the engine did. Every divergent step of the baseline replay is then grouped by
the clause it breaks and by its mechanism (`records.Mechanism`: the kind of request, the action
type, and what differs), one deviation per group, each with its own samples, minimal scenario and
confirmation; the groups whose divergences one fitted option value removes are one root cause (the
other clauses are listed in `also`). A deviation's text is its clause's own title (in the
report language) and a structured difference: what the engine did, and what the clause requires.
Scenarios that fail on another clause's deviation count as `blocked` by it. A deviation explained
by option values the engine declares in `hello.options` is not a failure: the engine is judged
against its declared variant, and the scenarios it decides are skipped with that reason.
"""
from __future__ import annotations

import time
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..game.engine import Ruleset
from ..protocol.client import Client
from .diagnose import Evidence
from .causes import causes_of
from .credible import scenario_only
from .baseline import Divergent, game_requests
from .fit import Fit, Variant, fit, hello_line, label
from .lockstep import LockstepResult
from .records import Mechanism, mechanism
from .runner import Outcome, ScenarioResult
from .toolkit import Deadline, guard
from .trace import Chain, Trace

#: Samples per deviation (replayable evidence), drawn from its first `SAMPLE_POOL` whole steps.
SAMPLES, SAMPLE_POOL = 4, 32

LINE = 160  # the longest line of the report, Gherkin steps aside


@dataclass
class Deviation:
    """One root cause: a clause and a mechanism (what differs), with what explains it and where it showed."""

    clause: str
    title: str  # the clause's own text (in the report language)
    difference: str  # what the engine did, against what the reference does under the clause
    evidence: str
    engine_error: str = ""
    blocked: int = 0
    scenarios: list[str] = field(default_factory=list)  # failing scenarios of the clause itself
    games: int = 0  # lock-step games where it showed
    steps: int = 0  # divergent steps, over all traces
    variant: Variant = ()  # the fitted option values that explain it (empty: nothing explains it)
    partly: list[str] = field(default_factory=list)  # candidates that remove some of it and add others
    declared: bool = False
    gherkin: str | None = None
    samples: list[Evidence] = field(default_factory=list)
    also: list[str] = field(default_factory=list)  # other clauses of the same root cause
    shrink_seconds: float = 0.0
    game_ids: set[int] = field(default_factory=set)
    confirmed: bool = False  # the minimal scenario, run against the engine, still fails there
    original_size: dict[str, int] | None = None  # seats, plays, cards of the game it was shrunk from
    minimal_size: dict[str, int] | None = None
    mechanism: Mechanism | None = None  # what differs: one mechanism, one deviation
    context: str = ""  # what sets this cause apart from another of the same mechanism ("": the only one)

    @property
    def house_rule(self) -> str | None:
        """The option values that explain it, as `equality=true` (None when nothing explains it)."""
        return label(self.variant) if self.variant else None

    @property
    def hello_options(self) -> str | None:
        return hello_line(self.variant) if self.variant else None

    @property
    def description(self) -> str:
        return f"{self.title}: {self.difference}" if self.difference else self.title

    @property
    def weight(self) -> tuple[int, int]:
        """How much of the engine it accounts for: its divergent games and the scenarios it blocks or
        fails (after the other causes were explained away), then its divergent steps."""
        return self.games + self.blocked + len(self.scenarios), self.steps

    def as_dict(self) -> dict[str, Any]:
        return {"clause": self.clause, "title": self.title, "difference": self.difference,
                "house_rule": self.house_rule, "hello_options": self.hello_options,
                "description": self.description, "partly_explained": self.partly,
                "declared": self.declared, "evidence": self.evidence, "engine_error": self.engine_error,
                "blocked": self.blocked, "scenarios": self.scenarios, "games": self.games, "steps": self.steps,
                "also_breaks": self.also,
                "minimal_scenario": self.gherkin, "confirmed": self.confirmed, "original_size": self.original_size,
                "minimal_size": self.minimal_size, "shrink_seconds": round(self.shrink_seconds, 3),
                "mechanism": self.mechanism.as_dict() if self.mechanism is not None else None,
                "context": self.context or None}


#: Options every new_game sets in its config: the engine chooses no variant of them by declaring.
CONFIG_OPTIONS = ("revolution", "deals")


def declares(options: dict[str, Any], option: str, value: Any, spec: Any = None) -> bool:
    """Does the engine declare option=value in `hello.options` as its variant (not beside the
    default of `spec`, the packaged spec's when None)?"""
    if option not in options or option in CONFIG_OPTIONS:
        return False
    listed = options[option]
    if isinstance(listed, list):
        if spec is None:
            from ..resources import packaged_root
            from ..spec import load_spec
            spec = load_spec(packaged_root() / "spec" / "president.yaml")
        default = spec.option(option).default
        plays_default = any(type(v) is type(default) and v == default for v in listed)
        return value in listed and not plays_default
    return listed == value


def _card_text(cards: Any) -> str:
    return " ".join(cards) if isinstance(cards, list) else str(cards)


def _show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, dict) and "cards" in value:
        return f"{' '.join(value['cards'])} by seat {value.get('by')}"
    if isinstance(value, list) and value and all(isinstance(h, list) for h in value):
        return "[" + " | ".join(" ".join(h) for h in value) + "]"
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def difference(d: Divergent, actual: Any, expected: Any, field: str = "") -> str:
    """What the engine did at the divergent step, against what the reference does (one line);
    `field`: the STATE field that decides the clause (the mechanism's), shown first."""
    from ..game.cards import card_list
    from ..scenarios.model import action_notation
    from .diagnose import RULE_FIELDS, rule_view

    req, clause = d.request, d.finding.clause
    cmd = req.get("cmd")
    trick = d.before.trick if d.before is not None else 0
    on = f" on {' '.join(card_list(trick))}" if trick else " on an empty trick"
    action = req.get("action") or {}
    what = ("pass" if action.get("type") == "pass" else
            f"{action.get('type', 'act')} {_card_text(action.get('cards'))}") if cmd == "act" else cmd
    actual = actual if isinstance(actual, dict) else {}
    expected = expected or {}
    try:
        if cmd == "act" and actual.get("ok") and not expected.get("ok"):
            return f"engine accepted {what}{on} from seat {req.get('player')}; the reference refuses it ({clause})"
        if cmd == "act" and expected.get("ok") and not actual.get("ok"):
            return f"engine refused {what}{on} from seat {req.get('player')}; the reference accepts it ({clause})"
        if cmd == "legal":
            if actual.get("player") != expected.get("player"):
                return f"engine has seat {actual.get('player')} to act; the reference seat {expected.get('player')}"
            exp = {action_notation(a) for a in expected.get("actions", [])}
            got = {action_notation(a) for a in actual.get("actions", [])}
            extra, missing = sorted(got - exp), sorted(exp - got)
            if extra:
                more = f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""
                return f"engine lists {extra[0]}{more} as legal{on}; the reference refuses it ({clause})"
            return f"engine leaves out {missing[0]}{on}; the reference allows it ({clause})"
        if "state" in actual and "state" in expected:
            e, a = rule_view(expected["state"]), rule_view(actual["state"])
            order = (field, *RULE_FIELDS) if field in RULE_FIELDS else RULE_FIELDS
            name = next((k for k in order if k in e and e.get(k) != a.get(k)), None)
            if name is not None:
                after = f"after {what} from seat {req.get('player')}" if cmd == "act" else f"after {cmd}"
                return f"{after}: engine has {name} {_show(a.get(name))}; the reference {_show(e.get(name))} ({clause})"
    except Exception:  # noqa: BLE001 - a malformed reply: the finding's own words
        pass
    return d.finding.message


def _title(spec_clause: Any, translate: Callable[[Any], str]) -> str:
    return translate(spec_clause) if spec_clause is not None else ""


def traces_of(results: list[ScenarioResult], lock: LockstepResult | None) -> tuple[Sequence[Trace], int]:
    """Every trace of the run (scenarios first, then the games as spooled: read when needed) and how
    many of them are scenarios."""
    scen = [r.trace for r in results if r.trace is not None and r.trace.steps]
    return Chain(scen, lock.traces if lock is not None else []), len(scen)


def _clean(results: list[ScenarioResult], lock: LockstepResult | None, n_scen: int) -> set[int]:
    """The traces (numbered as `traces_of`) already compared without any divergence."""
    scen = [r for r in results if r.trace is not None and r.trace.steps]
    out = {i for i, r in enumerate(scen) if r.outcome == Outcome.PASS and r.root is None}
    if lock is not None:
        diverged = lock.diverged_games
        out |= {n_scen + g for g in range(len(lock.traces)) if g not in diverged}
    return out


def diagnose_fit(results: list[ScenarioResult], lock: LockstepResult | None, options: dict[str, Any],
                 rules: Ruleset | None = None, engine: Client | None = None, shrink_budget: float = 8.0,
                 translate: Callable[[Any], str] = lambda c: c.title) -> tuple[list[Deviation], Fit]:
    rules = rules or Ruleset.from_spec()
    spec = rules.spec
    traces, n_scen = traces_of(results, lock)
    deadline = Deadline.of(engine)  # the run's --budget, checked at every reference step
    fitted = fit(traces, rules, options, clean=_clean(results, lock, n_scen), deadline=deadline, fixed=n_scen,
                 given=lock.baseline if lock is not None else None)
    if len(traces) == n_scen:  # the scenarios alone: advise only what whole scenarios show
        scenario_only(fitted)
    clauses = {c.id: c for c in spec.clauses}
    by_symptom: dict[tuple[str, Mechanism], list[Divergent]] = {}
    for d in fitted.baseline:  # the baseline gave each its mechanism
        mech = d.mechanism if d.mechanism is not None else mechanism(
            d.request, d.expected, d.actual, d.before.to_wire() if d.before is not None else None)
        by_symptom.setdefault((d.finding.clause, mech), []).append(d)
    # one symptom may hide several causes: each is explained away in turn and the rest looked at again
    groups: dict[tuple[str, Mechanism, int], tuple[list[Divergent], str]] = {}
    for (clause, mech), divs in by_symptom.items():
        by = tuple(kv for kv in fitted.variant if _removes(fitted, kv, clause)) or fitted.variant
        for i, cause in enumerate(causes_of(divs, fitted.explained, mech.differs, label(by))):
            groups[(clause, mech, i)] = (cause.divs, cause.context)
    first_of_trace: set[tuple[int, int, str]] = set()
    seen_traces: set[int] = set()
    one_sided: dict[int, list[int]] = {}  # per trace, the steps of acts only one side accepts
    for d in sorted(fitted.baseline, key=lambda d: d.key[:2]):
        if d.key[0] not in seen_traces:
            seen_traces.add(d.key[0])
            first_of_trace.add(d.key)
        if d.mechanism is not None and d.mechanism.differs in ("accepted", "refused") \
                and d.request.get("cmd") in ("act", None):
            one_sided.setdefault(d.key[0], []).append(d.key[1])
    found: dict[tuple[str, Mechanism, int], Deviation] = {}
    dev: Deviation | None
    for (clause, mech, part), (divs, context) in groups.items():
        if clause == "protocol":
            continue
        first = next((d for d in divs if d.whole), divs[0])  # the baseline keeps a group's first steps whole
        dev = Deviation(clause, _title(clauses.get(clause), translate),
                        difference(first, first.actual, first.expected, mech.differs), first.finding.message,
                        first.finding.engine_error, mechanism=mech, context=context)
        _explain(dev, divs, fitted, options, spec)
        dev.steps = len(divs)
        dev.game_ids = {d.key[0] for d in divs if d.key[0] >= n_scen}
        dev.games = len(dev.game_ids)
        # samples: the group's first divergences of a trace first (they replay from new_game as they
        # are), else later ones (the shrinker adopts the engine's earlier differences on the way)
        dev.samples += _samples(divs, traces, first_of_trace, clause, one_sided)
        found[(clause, mech, part)] = dev
    for r in results:  # scenarios of the clause itself, and those another clause blocks
        if r.outcome not in (Outcome.FAIL, Outcome.BLOCKED) or r.root is None:
            continue
        dev = _deviation_of(found, r.root.clause, r.evidence)
        if dev is None:
            continue
        if r.outcome == Outcome.BLOCKED:
            dev.blocked += 1
        else:
            dev.scenarios.append(r.id)
        if dev.declared:
            r.outcome, r.message = Outcome.SKIP, f"judged against the declared house rule {dev.house_rule}"
    if lock is not None:  # lock-step's own samples: replayable by the shrinker (earlier differences adopted)
        for (clause, mech), ld in lock.deviations.items():
            parts = [k for k in found if k[:2] == (clause, mech)]
            if len(parts) > 1:
                continue  # a symptom of several causes: each keeps the samples of its own steps
            dev = found[parts[0]] if parts else _deviation_of(found, clause, None)
            if dev is not None:
                dev.samples += [d.evidence for d in ld.samples if d.evidence is not None]
    merged = _merge_root_causes(found)
    if engine is not None and shrink_budget > 0:
        for dev in merged:  # a toolkit bug in one shrink costs that minimal scenario, not the run
            sent = [(r, None) for r in dev.samples[0].requests] if dev.samples else []  # its requests (replies unkept)
            with guard("shrink", dev.clause, fitted.toolkit_errors, trace=sent):
                shrink_deviation(dev, engine, rules, shrink_budget, dict(fitted.variant))
    return sorted(merged, key=lambda d: (tuple(-w for w in d.weight), d.clause)), fitted


def shrink_deviation(dev: Deviation, engine: Client, rules: Ruleset, budget: float = 8.0,
                     variant: dict[str, Any] | None = None) -> None:
    """The minimal scenario of a deviation (its samples tried in turn within `budget` seconds),
    run again against the engine: `confirmed` when it still shows the deviation there."""
    from ..scenarios.model import Scenario
    from .shrink import confirm, gherkin_of, minimal_scenario, shrink, shrink_seeded, size_of

    t0 = time.perf_counter()
    small: list[dict[str, Any]] | None
    mech = dev.mechanism
    for ev in sorted(map(_explicit, dev.samples), key=lambda e: len(e.requests)):  # the shortest games first
        left = budget - (time.perf_counter() - t0)
        if left <= 0:
            break
        seeded = shrink_seeded(ev, engine, rules, variant)
        if seeded is not None:  # a seeded deal: the smallest table where the engine's own deal shows it
            small, ops = seeded
            title = dev.title or dev.description or dev.evidence
            scenario = Scenario(f"{dev.clause}/minimal", dev.clause, dev.clause.split(".")[0], title, tuple(ops))
            dev.confirmed = confirm(scenario, engine, mech=mech)
            dev.original_size, dev.minimal_size = size_of(ev.requests), size_of(small)
            dev.gherkin = (f"  # the engine differs: {dev.evidence}\n  @{dev.clause}"
                           + (" @confirmed" if dev.confirmed else "") + "\n" + gherkin_of(scenario))
            break
        small = shrink(ev, engine, rules, budget_s=left, variant=variant, mech=mech)
        if small:
            found_under = {**(getattr(ev, "variant", None) or {}), **(variant or {})} or None
            scenario = minimal_scenario(small, engine, rules, ev.clause, dev.title or dev.evidence, found_under,
                                        mech.differs if mech is not None else "")
            dev.confirmed = confirm(scenario, engine, mech=mech)
            dev.original_size, dev.minimal_size = size_of(ev.requests), size_of(small)
            dev.gherkin = (f"  # the engine differs: {_cut(dev.evidence, LINE - 24)}\n  @{ev.clause}"
                           + (" @confirmed" if dev.confirmed else "") + "\n" + gherkin_of(scenario))
            break
    dev.shrink_seconds = time.perf_counter() - t0


#: Clauses a seeded deal itself breaks (its cards or hand sizes): shrunk as a seeded deal.
DEALING = ("setup.players", "setup.dealing", "exchange.best")


def _explicit(ev: Evidence) -> Evidence:
    """A seeded first deal whose cards are right but whose consequence differs (who leads): the same
    deal with the engine's hands given, so the minimal scenario shows that consequence."""
    reqs = ev.requests
    state = ev.actual.get("state") if isinstance(ev.actual, dict) else None
    if ev.clause in DEALING or len(reqs) != 1 or reqs[0].get("cmd") != "new_game" or "seed" not in reqs[0] \
            or not isinstance(state, dict) or not isinstance(state.get("hands"), list):
        return ev
    first = {k: v for k, v in reqs[0].items() if k != "seed"}
    first["hands"] = [list(h) for h in state["hands"]]
    return Evidence([first], ev.expected, ev.actual, ev.before, ev.clause, ev.variant)


def _explain(dev: Deviation, divs: list[Divergent], fitted: Fit, options: dict[str, Any], spec: Any) -> None:
    """What of the fitted variant explains this cause's divergent steps (`causes_of` keeps the
    steps it explains apart from those it leaves), or partly explains them."""
    clause = dev.clause
    explained = [d for d in divs if d.key in fitted.explained]
    if explained and len(explained) == len(divs):
        dev.variant = tuple(kv for kv in fitted.variant if _removes(fitted, kv, clause)) or fitted.variant
    keys = {d.key for d in divs}
    for j in fitted.partly:
        if any(r.key in keys for r in j.removed):
            dev.partly.append(f"{label(j.variant)} removes {', '.join(j.clauses('removed'))} "
                              f"but adds {', '.join(j.clauses('added'))}")
    dev.declared = bool(dev.variant) and all(declares(options, k, v, spec) for k, v in dev.variant)


def _deviation_of(found: dict[tuple[str, Mechanism, int], Deviation], clause: str,
                  evidence: Evidence | None) -> Deviation | None:
    """The deviation a scenario's root cause (or a lock-step sample) belongs to: its clause and
    mechanism (of its causes, the one that showed most), else the clause's deviation that showed most."""
    if evidence is not None and evidence.requests:
        mech = mechanism(evidence.requests[-1], evidence.expected, evidence.actual, evidence.before)
        same = [d for k, d in found.items() if k[:2] == (clause, mech)]
        if same:
            return max(same, key=lambda d: (d.steps, d.games))
    mine = [d for k, d in found.items() if k[0] == clause]
    return max(mine, key=lambda d: (d.steps, d.games), default=None)


def _removes(fitted: Fit, kv: tuple[str, Any], clause: str) -> bool:
    """Does the fitted value `kv` remove divergent steps of `clause`: by its own replay when it had
    one (a pair it was judged in says nothing of which of its two values removed them: one rule
    would hide behind the other), else by an explaining candidate holding it."""
    own = [j for j in fitted.judged if j.variant == (kv,)]
    if own:
        return any(r.finding.clause == clause for j in own for r in j.removed)
    return any(kv in j.variant and j.explains and any(r.finding.clause == clause for r in j.removed)
               for j in fitted.judged)


def _samples(divs: list[Divergent], traces: Sequence[Trace], first_of_trace: set[tuple[int, int, str]],
             clause: str, one_sided: dict[int, list[int]] | None = None) -> list[Evidence]:
    """Up to `SAMPLES` replayable samples of a cause, from the steps the baseline kept whole: the
    group's first divergences of a trace first (they replay from new_game as they are), else later
    ones (the shrinker adopts the engine's earlier differences on the way), those after the fewest
    acts only one side accepted first (`one_sided`, per trace: the shrinker cannot replay a game
    through those). Each trace is read once."""
    sided = one_sided or {}

    def before(d: Divergent) -> int:
        return bisect_left(sided.get(d.key[0], ()), d.key[1])

    read: dict[int, Trace] = {}

    def trace(n: int) -> Trace:
        if n not in read:
            read[n] = traces[n]
        return read[n]

    whole = sorted((d for d in divs if d.whole), key=lambda d: (d.key not in first_of_trace, before(d) > 0))[:SAMPLE_POOL]
    picked = sorted(whole, key=lambda d: (d.key not in first_of_trace, before(d) > 0,
                                          not _replayable(trace(d.key[0]), d), before(d)))[:SAMPLES]
    return [Evidence(game_requests(trace(d.key[0]), d.key[1], clause not in DEALING), d.expected, d.actual,
                     d.before.to_wire() if d.before is not None else None, clause) for d in picked]


def _replayable(trace: Trace, d: Divergent) -> bool:
    """Can the shrinker replay this step's game: no seeded later deal before it?"""
    return not any(r.get("cmd") == "deal" and "hands" not in r for r in game_requests(trace, d.key[1]))


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _merge_root_causes(found: dict[tuple[str, Mechanism, int], Deviation]) -> list[Deviation]:
    """One deviation per root cause: the groups one option value explains are one deviation, kept
    on the clause where it showed most, the other clauses listed in `also`; a group nothing
    explains is a root cause of its own (one mechanism, one deviation)."""
    groups: dict[Any, list[Deviation]] = {}
    for key, dev in found.items():
        groups.setdefault(dev.variant or key, []).append(dev)
    out = []
    for devs in groups.values():
        devs.sort(key=lambda d: tuple(-w for w in d.weight))
        main = devs[0]
        for other in devs[1:]:
            if other.clause != main.clause and other.clause not in main.also:
                main.also.append(other.clause)
            main.blocked += other.blocked
            main.scenarios += other.scenarios
            main.game_ids |= other.game_ids
            main.games = len(main.game_ids)
            main.steps += other.steps
            main.samples += other.samples
            main.partly += [p for p in other.partly if p not in main.partly]
        out.append(main)
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
