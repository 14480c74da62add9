"""Fit the engine's variant: which option values make the reference play every trace as the engine did.

A candidate variant is a set of option values the spec defines (`spec.options`: every value of
every option, `first_lead` over each of the 52 `holder:<card>`), alone or in pairs. Every trace
the engine produced (scenarios and lock-step games, `trace.Trace`) is replayed on the reference
under the candidate; at a divergence the reference adopts the engine's position (its STATE, or
its unchanged state after a refusal) and the replay goes on, so one trace counts each of its
divergences. A candidate **explains** divergences when it removes some and adds none, over all
traces; it **partly explains** them when it removes some and adds others.

Every replay goes through the one replay loop (`replay.Replayer`): a STATE the rules cannot reach
is waited out there as in lock-step (not compared until the reference can hold one). A toolkit error in one replay or one trial is recorded
(`Fit.toolkit_errors`, kind "fit") and costs that trace under that candidate only; the run's
deadline (`--budget`) is checked at every reference step.

Speed and memory: the baseline (the divergences under the traces' own configs, `baseline.Baseline`)
comes from lock-step for the games it played in this process (it compared them on the reference as
they were played); the other traces are replayed for it once, one trace at a time (a spooled trace
is read back, replayed and dropped): every divergent step is counted with its mechanism, the first
`KEEP_WHOLE` of each clause and mechanism keep the reference position before them and both
replies, and the first `EVIDENCE` become evidence. A candidate is first tried at
those divergent steps only (a sample per clause), from the cached positions; of each option only
the values that remove the most sampled steps are replayed in full, and none whose sampled steps a
candidate already judged explains. A full replay covers a bounded sample: the scenarios' divergent
traces, games chosen round-robin over the clauses of the sampled steps within `JUDGED_STEPS`, and
clean traces within `CLEAN_STEPS` (`CLEAN_SAMPLE`); only those stay in memory, with their caches
(the engine's replies canonicalised once, and its legal lists as card masks, compared with the
reference's legal actions without building the reference's reply). The fitted variant is confirmed
on every trace, so what it explains is exact: a trace not kept is replayed under it, and under its
own config as well only where the variant adds a divergent step (`_Fitter.judge`, quick); a partial explanation's counts are the sample's.
Pairs are formed only from candidates whose full replay removed something, and replayed only when
the pair removes a divergent step that neither removes alone.
"""
from __future__ import annotations

import sys
import time
from array import array
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from ..errors import IllegalAction
from ..game.cards import CARD_NAMES
from ..game.engine import Ruleset
from ..protocol.server import Session
from ..scenarios.model import card_key
from ..spec import HOLDER_PATTERN, Spec
from .credible import dealt_sizes, ruled_out, worth_showing
from .baseline import EVIDENCE, KEEP_SPREAD, KEEP_WHOLE, Baseline, Divergent, Key, join_evidence  # noqa: F401
from .causes import places_of
from .deals import declares_spec_shuffle
from .diagnose import Evidence, Finding
from .records import Mechanism
from .replay import Replayer, compare_rules, refusal_rule
from .toolkit import NO_DEADLINE, Deadline, ToolkitError, guard
from .trace import Trace
from .views import TraceCache, Views, legal_masks, view  # noqa: F401 - legal_masks, view: this module's API too

Variant = tuple[tuple[str, Any], ...]  # sorted (option, value) pairs

#: Options every new_game already sets (its table), never a house rule the engine chooses.
TABLE_OPTIONS = ("deals",)
#: Divergent steps (per clause) a candidate is first tried at.
SAMPLES_PER_CLAUSE = 24
#: Candidates replayed in full, at most (singles, then pairs).
MAX_FULL_REPLAYS = 10
#: Values of one option replayed in full, at most (those removing the most sampled steps).
VALUES_PER_OPTION = 2
#: Traces without a divergence a candidate is judged on besides the divergent ones (the fitted
#: variant is confirmed on every trace).
CLEAN_SAMPLE = 24
#: Divergent traces a candidate is judged on, at most, besides the scenarios' (`fixed`): chosen
#: round-robin over the clauses of the sampled steps, so that every clause is judged.
JUDGED_TRACES = 40
#: Steps of the divergent games a candidate is judged on, at most (one game per clause at least),
#: and of the clean games.
JUDGED_STEPS = 2500
CLEAN_STEPS = 1000
#: The fitted variant's confirmation replays a trace not kept under the variant only, with the
#: baseline's own naming of its divergent steps, and again from its own config where it adds a step.
QUICK_CONFIRM = True
#: A reach past every step: a trace compared whole.
WHOLE_TRACE = sys.maxsize


def label(variant: Variant) -> str:
    return ", ".join(f"{k}={_json(v)}" for k, v in variant)


def hello_line(variant: Variant) -> str:
    return '"options": {' + ", ".join(f'"{k}": [{_json(v)}]' for k, v in variant) + "}"


def _json(v: Any) -> str:
    return "true" if v is True else "false" if v is False else f'"{v}"' if isinstance(v, str) else str(v)


def candidates(spec: Spec) -> list[Variant]:
    """Every option value the spec defines, each as a one-value variant (holder:<card> over the deck)."""
    out: list[Variant] = []
    for opt in spec.options:
        if opt.name in TABLE_OPTIONS:
            continue
        for v in opt.values:
            if v.value == HOLDER_PATTERN:
                out += [((opt.name, f"holder:{card}"),) for card in CARD_NAMES[:52]]
            elif v.value != opt.default:
                out.append(((opt.name, v.value),))
    return out


@dataclass
class Judgement:
    """A candidate variant over all traces: the divergences it removes and those it adds."""

    variant: Variant
    removed: list[Divergent] = field(default_factory=list)
    added: list[Divergent] = field(default_factory=list)
    compared: dict[str, int] = field(default_factory=dict)  # the baseline's steps per clause both replays reached

    @property
    def explains(self) -> bool:
        return bool(self.removed) and not self.added

    @property
    def partly(self) -> bool:
        return bool(self.removed) and bool(self.added)

    def clauses(self, which: str) -> list[str]:
        items = self.removed if which == "removed" else self.added
        counts: dict[str, int] = {}
        for d in items:
            counts[d.finding.clause] = counts.get(d.finding.clause, 0) + 1
        return [f"{c} ({n})" for c, n in sorted(counts.items(), key=lambda x: -x[1])]


@dataclass
class Fit:
    """The fitted variant and what it explains; `baseline` are the divergences under the traces' own configs."""

    variant: Variant
    baseline: list[Divergent]
    explained: set[Key]
    partly: list[Judgement]
    judged: list[Judgement]
    full_replays: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    declared: Variant = ()
    guesses: Variant = ()  # values the scenarios alone suggest but do not show (`credible.scenario_only`)
    toolkit_errors: list[ToolkitError] = field(default_factory=list)  # replays (and shrinks) the toolkit failed on
    #: per (clause, mechanism) of the baseline: its first divergences as evidence, replayable from new_game
    evidence: dict[tuple[str, Mechanism], list[Evidence]] = field(default_factory=dict)
    judged_traces: int = 0  # the traces a candidate was judged on (the fitted variant is confirmed on all)

    @property
    def line(self) -> str:
        return f"your engine plays {label(self.variant)}" if self.variant else ""

    def as_dict(self) -> dict[str, Any]:
        return {"variant": {k: v for k, v in self.variant}, "line": self.line or None,
                "hello_options": hello_line(self.variant) if self.variant else None,
                "explained_steps": len(self.explained), "divergent_steps": len(self.baseline),
                "partly_explained": [{"variant": label(j.variant), "removes": j.clauses("removed"),
                                      "adds": j.clauses("added")} for j in self.partly],
                "guesses": label(self.guesses) or None,
                "full_replays": self.full_replays, "judged_traces": self.judged_traces,
                "seconds": round(self.seconds, 3),
                "toolkit_errors": [e.to_json() for e in self.toolkit_errors],
                "cpu_seconds": round(self.cpu_seconds, 3)}


def _config(base: dict[str, Any], variant: Variant, defaults: dict[str, Any]) -> dict[str, Any]:
    """The table's config under the variant: a candidate value replaces an option the new_game
    leaves out or sets to the spec default (`defaults`), never a value the request chose (a
    scenario testing that value, a declared variant)."""
    cfg = dict(base)
    for k, v in variant:
        if k not in cfg or (type(cfg[k]) is type(defaults.get(k)) and cfg[k] == defaults.get(k)):
            cfg[k] = v
    return cfg


def configure(rules: Ruleset, variant: Variant) -> Callable[[dict[str, Any]], dict[str, Any]] | None:
    """The new_game config under `variant` (`_config`, with the defaults of the rules' own spec)."""
    if not variant:
        return None
    defaults = {o.name: o.default for o in rules.spec.options}
    return lambda config: _config(config, variant, defaults)


def replay(trace: Trace, number: int, rules: Ruleset, variant: Variant = (),
           cache: TraceCache | None = None, memo: dict[Any, Finding | None] | None = None,
           spec_shuffle: bool = False, deadline: Deadline = NO_DEADLINE) -> tuple[list[Divergent], int]:
    """The divergences of one trace replayed on the reference under `variant` (`replay.Replayer`:
    after each, the reference takes up the engine's position). A variant the reference refuses for
    this table (a holder card nobody holds) leaves the trace under its own config. A STATE the
    reference cannot hold is waited out (`Replayer`: not compared until it can hold one). The replay
    ends at a malformed reply (the protocol's business): returns the divergences and the last step
    compared (its reach)."""
    out: list[Divergent] = []
    cmp = Views(number, cache if cache is not None else TraceCache(len(trace.steps)), memo)
    rep = Replayer(rules, configure(rules, variant), cmp, spec_shuffle, deadline, cmp.legal_same)
    i = -1
    config: dict[str, Any] = {}
    for i, (req, actual) in enumerate(trace.steps):
        cmp.index, cmp.seen = i, 0
        step = rep.step(req, actual)
        if step.finding is not None:
            if step.finding.kind == "protocol":
                break
            position = step.position.copy() if step.position is not None and req.get("cmd") == "legal" \
                else step.position
            if config != rep.config:
                config = dict(rep.config)  # one copy while the table stays the same
            out.append(Divergent((number, i, step.finding.clause), step.finding, req, position, config,
                                 step.expected, actual, seen=cmp.seen))
        if rep.stopped is not None:
            break  # a new game refused, a table the reference cannot play: nothing more to compare
    return out, i


def one_step(d: Divergent, actual: dict[str, Any], rules: Ruleset, variant: Variant, seen: Any = None,
             tables: dict[str, Any] | None = None) -> bool:
    """Does the reference under `variant`, from the cached position, answer this step as the engine
    did? `tables`: the configs already built, by their options (owned by the caller's fit)."""
    req = d.request
    cfg = _config(d.config, variant, {o.name: o.default for o in rules.spec.options})
    key = repr(sorted(cfg.items()))
    tables = tables if tables is not None else {}
    if key not in tables:
        try:
            tables[key] = rules.config(**cfg)
        except IllegalAction:  # the reference refuses this table under the variant
            tables[key] = None
    config = tables[key]
    if config is None:
        return False
    s = Session(rules)
    if req.get("cmd") == "new_game":
        expected = s.handle(dict(req, config=cfg))
        game = None
    else:
        if d.before is None:
            return False
        game = d.before.copy()
        game.config, game._legal = config, None
        holder = config.holder
        if game.deal == 1 and holder is not None and not any(dl == 1 and a for dl, _s, a in game.history):
            game.must = 1 << holder if game.to_act is not None and game.hands[game.to_act] >> holder & 1 else 0
        elif holder is None:
            game.must = 0
        s.game = game
        expected = s.handle(req)
    if actual == expected or (seen if seen is not None else view(actual)) == view(expected, reference=True):
        return True
    before = d.before.to_wire() if d.before is not None else None
    refusal = refusal_rule(game) if req.get("cmd") == "legal" else None
    finding = compare_rules(req, expected, actual, before, refusal)
    return finding is None


def _sample(baseline: list[Divergent]) -> list[Divergent]:
    """Up to `SAMPLES_PER_CLAUSE` divergent steps per clause, spread over its whole steps."""
    per: dict[str, list[Divergent]] = {}
    for d in baseline:
        if d.whole:
            per.setdefault(d.finding.clause, []).append(d)
    out: list[Divergent] = []
    for items in per.values():
        step = max(1, len(items) // SAMPLES_PER_CLAUSE)
        out += items[::step][:SAMPLES_PER_CLAUSE]
    return out


class _Fitter:
    """One fit's replays: the traces, the caches of those judged, the configs built, the toolkit
    errors met. A trace is read when a replay needs it (`Sequence[Trace]`: a spool reads it back):
    only the traces candidates are judged on stay in memory, with their caches."""

    def __init__(self, traces: Sequence[Trace], rules: Ruleset, shuffle: bool, deadline: Deadline,
                 errors: list[ToolkitError]):
        self.traces, self.rules, self.shuffle, self.deadline, self.errors = traces, rules, shuffle, deadline, errors
        self.kept: dict[int, Trace] = {}  # the traces candidates are judged on
        self.caches: dict[int, TraceCache] = {}
        self.memo: dict[Any, Finding | None] = {}
        self.tables: dict[str, Any] = {}
        self.views: dict[Key, Any] = {}
        self.replays = 0
        self.reach = array("q", [-1]) * len(traces)  # how far the baseline replay compared each trace (-1: not)

    def keep(self, numbers: Iterable[int]) -> None:
        """Hold these traces (and their caches) in memory for the replays to come."""
        self.kept = {n: self.kept.get(n) or self.traces[n] for n in numbers}
        self.caches = {n: self.caches.get(n) or TraceCache(len(t.steps)) for n, t in self.kept.items()}

    def _one(self, n: int, variant: Variant, named: bool = True,
             memo: dict[Any, Finding | None] | None = None) -> tuple[Trace | None, list[Divergent], int]:
        """One trace replayed under `variant`: the trace, its divergences, its reach (-1 when the
        toolkit failed on it: recorded in `toolkit_errors`, kind fit). `named`: a trace not kept is
        replayed under its own config first, so that the same answer at the same step is named as
        the baseline named it (`Views.memo`); else `memo` says how the baseline named its divergent steps."""
        trace = self.kept.get(n)
        kept = trace is not None
        if trace is None:
            trace = self.traces[n]
        with guard("fit", f"{label(variant) or 'baseline'} on trace {n} ({trace.source})", self.errors, trace=trace):
            if kept:
                cache, memo = self.caches.get(n), self.memo
            else:
                cache, memo = TraceCache(len(trace.steps)), {} if named or memo is None else memo
            if variant and not kept and named:
                replay(trace, n, self.rules, (), cache, memo, self.shuffle, self.deadline)
            divs, reach = replay(trace, n, self.rules, variant, cache, memo, self.shuffle, self.deadline)
            return trace, divs, reach
        return trace, [], -1

    def baseline(self, numbers: Iterable[int]) -> Baseline:
        """The divergences of these traces under their own configs, one trace at a time (`Baseline`:
        the first of each clause and mechanism stay whole and become evidence)."""
        out = Baseline(places_of)
        for n in numbers:
            trace, divs, self.reach[n] = self._one(n, ())
            out.add(n, trace, divs, self.reach[n])
        self.replays += 1
        return out

    def seen(self, d: Divergent) -> Any:
        if d.key not in self.views:
            self.views[d.key] = view(d.actual)
        return self.views[d.key]

    def one_step(self, d: Divergent, variant: Variant) -> bool:
        self.deadline.check()
        with guard("fit", f"{label(variant)} at step {d.key[1]} of trace {d.key[0]}", self.errors,
                   trace=lambda: self.traces[d.key[0]]):
            return one_step(d, d.actual, self.rules, variant, self.seen(d), self.tables)
        return False

    def judge(self, base: dict[int, list[Divergent]], variant: Variant, numbers: Iterable[int],
              quick: bool = False) -> Judgement:
        """What `variant` removes and adds over these traces (`base`: the baseline's divergences by
        trace), step by step where both replays compared: a step past where one of them could
        follow the engine is neither removed nor added. The steps it adds keep their key and finding.
        `quick`: a trace not kept is replayed under the variant alone, the baseline's steps named as
        the baseline named them (by the reference's answer there, `Divergent.seen`), and again after
        its own config (`_one`, named) only where the variant adds a step: the memo of the baseline
        replay would name an answer the baseline did not find divergent."""
        out = Judgement(variant)
        for n in numbers:
            mine = base.get(n, ())
            if quick and QUICK_CONFIRM and n not in self.kept:
                named: dict[Any, Finding | None] = {(n, d.key[1], d.seen): d.finding for d in mine}  # as the baseline named its steps
                _, divs, reach = self._one(n, variant, named=False, memo=named)
                if self._added(n, mine, divs):  # a memo of its steps alone may name an added step otherwise
                    _, divs, reach = self._one(n, variant)
            else:
                _, divs, reach = self._one(n, variant)
            under = {d.key for d in divs}
            for d in mine:  # the baseline's steps this replay reached: compared, and removed where gone
                if d.key[1] <= reach:
                    out.compared[d.key[2]] = out.compared.get(d.key[2], 0) + 1
                    if d.key not in under:
                        out.removed.append(d)
            for d in self._added(n, mine, divs):
                d.lighten()
                out.added.append(d)
        self.replays += 1
        return out

    def _added(self, n: int, mine: Sequence[Divergent], divs: list[Divergent]) -> list[Divergent]:
        """The divergent steps a replay of trace `n` (`divs`) adds to the baseline's (`mine`), where
        the baseline compared."""
        known = {d.key for d in mine}
        return [d for d in divs if d.key not in known and d.key[1] <= self.reach[n]]


def _judged_traces(sample: list[Divergent], divergent: list[int], fixed: int, length: Sequence[int]) -> list[int]:
    """The divergent traces candidates are judged on: the scenarios' (below `fixed`), then games
    round-robin over the clauses of the sampled steps (the shortest of each clause's first), while
    they hold at most `JUDGED_STEPS` steps (`length`) and number at most `JUDGED_TRACES`: one game
    per clause at least. A longer engine's games are fewer, so the fit's cost does not grow with them."""
    out = dict.fromkeys(n for n in divergent if n < fixed)
    per: dict[str, list[int]] = {}
    for d in sample:
        if d.key[0] >= fixed:
            per.setdefault(d.key[2], []).append(d.key[0])
    queues = [sorted(dict.fromkeys(v), key=lambda n: (max(0, length[n]), n)) for v in per.values()]
    picked: dict[int, None] = {}
    steps, first = 0, True
    while any(queues) and len(picked) < JUDGED_TRACES:
        for q in queues:
            while q and q[0] in picked:
                q.pop(0)
            if not q or len(picked) >= JUDGED_TRACES:
                continue
            if not first and steps + max(0, length[q[0]]) > JUDGED_STEPS:
                q.clear()  # this clause's shortest game left does not fit: it has its first
                continue
            steps += max(0, length[q[0]])
            picked[q.pop(0)] = None
        first = False
    return [*out, *sorted(picked)]


def fit(traces: Sequence[Trace], rules: Ruleset, declared: dict[str, Any] | None = None,
        extra: Iterable[Variant] = (), clean: set[int] | frozenset[int] = frozenset(),
        deadline: Deadline = NO_DEADLINE, errors: list[ToolkitError] | None = None, fixed: int = 0,
        given: Baseline | None = None) -> Fit:
    """Fit the variant that best explains the engine's traces (see the module docstring).

    `clean`: traces already compared under their own config without a divergence (lock-step games
    and scenarios that showed none): the baseline does not replay them again, and a candidate is
    judged on the divergent traces (the scenarios' below `fixed`, and at most `JUDGED_TRACES`
    others) and a sample of the clean ones (`CLEAN_SAMPLE`); the fitted variant is confirmed on
    every trace. `errors`: where a toolkit error in one replay is recorded. `given`: the baseline
    lock-step already found for the games (numbered from 0, the traces from `fixed` on: `Baseline`),
    so that only the traces it lacks are replayed for it."""
    t0, cpu0 = time.perf_counter(), time.process_time()
    spec = rules.spec
    card_key(spec)  # the canonical card order diagnose compares by
    errors = errors if errors is not None else []
    f = _Fitter(traces, rules, declares_spec_shuffle(declared), deadline, errors)
    known = {fixed + g for g in given.reach} if given is not None else set()
    replayed = f.baseline(n for n in range(len(traces)) if n not in clean and n not in known)
    parts = [replayed]
    if given is not None:
        for g, reach in given.reach.items():
            f.reach[fixed + g] = reach
        parts.append(given)
    for n in clean:
        f.reach[n] = WHOLE_TRACE  # compared whole under their own config
    base = dict(replayed.steps())
    if given is not None:
        base.update(given.steps(fixed))
    baseline = [d for _, d in sorted(base.items(), key=lambda kv: kv[0][:2])]  # in trace and step order
    declared_variant: Variant = tuple(sorted(
        (k, v[0] if isinstance(v, list) and len(v) == 1 else v) for k, v in (declared or {}).items()
        if k in {o.name for o in spec.options} and k not in TABLE_OPTIONS + ("revolution",)
        and not (isinstance(v, list) and len(v) != 1)))
    result = Fit((), baseline, set(), [], [], declared=declared_variant, toolkit_errors=errors)
    result.evidence = join_evidence(*parts)  # the scenarios' first
    if not baseline:
        result.seconds, result.cpu_seconds = time.perf_counter() - t0, time.process_time() - cpu0
        return result
    by_trace: dict[int, list[Divergent]] = {}
    for d in baseline:
        by_trace.setdefault(d.key[0], []).append(d)
    divergent = sorted(by_trace)
    others = [n for n in range(len(traces)) if n not in by_trace]
    sample = _sample(baseline)
    some = _judged_traces(sample, divergent, fixed, f.reach)
    f.keep(some + others[::max(1, -(-len(others) // CLEAN_SAMPLE))])  # the traces a candidate is judged on
    steps = 0
    for n, t in list(f.kept.items()):  # the clean ones: the scenarios', and games within `CLEAN_STEPS`
        if n in by_trace:
            continue
        if n < fixed or steps + len(t.steps) <= CLEAN_STEPS:
            some.append(n)
            steps += len(t.steps) if n >= fixed else 0
    f.keep(some)
    for n in some:  # the baseline's findings first: a candidate's same answer at a step is named the same way
        if n in by_trace:
            f._one(n, ())
    result.judged_traces = len(some)
    judged_on = set(some)  # a sampled step elsewhere is in no judgement: never "removed by neither alone"
    pool = list(dict.fromkeys([*candidates(spec), *extra, *((p,) for p in declared_variant)]))
    dealt = dealt_sizes(traces)  # a value the engine's hello or its own deck rules out explains nothing
    pool = [c for c in pool if not ruled_out(c, declared, rules, dealt)]
    hits: dict[Variant, frozenset[Key]] = {}
    for cand in pool:
        got = frozenset(d.key for d in sample if f.one_step(d, cand))
        if got:
            hits[cand] = got
    keep = _best_values(hits)
    judged: list[Judgement] = []
    covered: set[Key] = set()  # steps a candidate already judged explains
    for cand in keep[:MAX_FULL_REPLAYS]:
        if hits[cand] <= covered:
            continue  # it can remove no sampled step that an explaining candidate does not already
        judged.append(f.judge(by_trace, cand, some))
        if judged[-1].explains:
            covered |= {d.key for d in judged[-1].removed}
    # pairs: only of candidates whose full replay removed something, where together they remove a
    # divergent step that neither removes alone, or where one of them also adds divergences
    useful = [j for j in judged if j.removed]
    for a_i, a in enumerate(useful):
        for b in useful[a_i + 1:]:
            if a.variant[0][0] == b.variant[0][0] or f.replays > 2 * MAX_FULL_REPLAYS:
                continue
            pair = tuple(sorted(a.variant + b.variant))
            alone = {d.key for d in a.removed} | {d.key for d in b.removed}
            new = [d for d in sample if d.key[0] in judged_on and d.key not in alone and f.one_step(d, pair)]
            if new or a.partly or b.partly:  # a step only the pair removes, or one may undo the other's additions
                judged.append(f.judge(by_trace, pair, some))
    result.judged = judged
    # the fitted variant: the explaining candidates, the best value of each option, confirmed together
    # on the judged traces, then on every trace
    chosen: dict[str, Any] = {}
    for j in sorted((j for j in judged if j.explains), key=lambda j: -len(j.removed)):
        if all(k not in chosen or chosen[k] == v for k, v in j.variant):
            chosen.update(j.variant)
    variant: Variant = tuple(sorted(chosen.items()))
    everywhere = [n for n in range(len(traces)) if n not in set(some)]
    while variant:
        together = f.judge(by_trace, variant, some)
        if not together.added and everywhere:
            rest = f.judge(by_trace, variant, everywhere, quick=True)
            together.removed += rest.removed
            together.added += rest.added
        if not together.added:
            result.explained = {d.key for d in together.removed}
            break
        weakest = min(variant, key=lambda kv: max((len(j.removed) for j in judged if kv in j.variant), default=0))
        variant = tuple(kv for kv in variant if kv != weakest)
    result.variant = variant
    result.full_replays = f.replays - 1
    partly = [j for j in judged if j.partly and not set(j.variant) <= set(variant)]
    singles = {j.variant[0] for j in partly if len(j.variant) == 1}
    # a pair holding a value that is itself only partly explained says nothing more
    # weighed against the baseline's steps the candidate's replay reached, as its removed steps are
    result.partly = [j for j in partly if (len(j.variant) == 1 or not set(j.variant) & singles)
                     and worth_showing(j, j.compared)]  # never one adding more than it removes
    f.kept, f.caches, f.memo = {}, {}, {}
    result.seconds, result.cpu_seconds = time.perf_counter() - t0, time.process_time() - cpu0
    return result


def _best_values(hits: dict[Variant, frozenset[Key]]) -> list[Variant]:
    """The candidates worth a full replay, most sampled steps removed first: of each option, the
    values that remove the most sampled steps (at most `VALUES_PER_OPTION`), and none whose steps
    another value of its own option removes with more."""
    per: dict[str, list[Variant]] = {}
    for c in hits:
        per.setdefault(c[0][0], []).append(c)
    keep: list[Variant] = []
    for values in per.values():
        values.sort(key=lambda c: -len(hits[c]))
        best = len(hits[values[0]])
        keep += [c for c in values if len(hits[c]) == best and not any(
            o != c and hits[c] < hits[o] for o in values)][:VALUES_PER_OPTION]
    keep.sort(key=lambda c: -len(hits[c]))
    return keep
