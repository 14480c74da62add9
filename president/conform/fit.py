"""Fit the engine's variant: which option values make the reference play every trace as the engine did.

A candidate variant is a set of option values the spec defines (`spec.options`: every value of
every option, `first_lead` over each of the 52 `holder:<card>`), alone or in pairs. Every trace
the engine produced (scenarios and lock-step games, `trace.Trace`) is replayed on the reference
under the candidate; at a divergence the reference adopts the engine's position (its STATE, or
its unchanged state after a refusal) and the replay goes on, so one trace counts each of its
divergences. A candidate **explains** divergences when it removes some and adds none, over all
traces; it **partly explains** them when it removes some and adds others.

Speed: the baseline replay (the traces' own configs) is done once and cached with the reference
position before each divergence. A candidate is first tried at those divergent steps only, from
the cached positions (a step costs about 30 µs); only a candidate that removes a divergence there,
and is not outdone by another value of its own option, is replayed in full (about 1 s for 200
games). Pairs are formed only from candidates whose full replay removed something, and replayed in
full only when the pair removes a divergent step that neither removes alone.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..game.cards import CARD_NAMES, parse_cards
from ..game.engine import GameState, Ruleset
from ..game.position import PositionError, game_from_state
from ..protocol.server import Session
from ..scenarios.model import LATITUDE, STATE_FIELDS, action_notation, canonical_state, card_key, notation_action
from ..spec import HOLDER_PATTERN, Spec
from .deals import declares_spec_shuffle, is_seeded
from .diagnose import Finding, check_seeded, diverge, rule_view
from .trace import Trace

Variant = tuple[tuple[str, Any], ...]  # sorted (option, value) pairs
Key = tuple[int, int, str]  # (trace number, step number, clause)

#: Options every new_game already sets (its table), never a house rule the engine chooses.
TABLE_OPTIONS = ("deals",)
#: Divergent steps (per clause) a candidate is first tried at.
SAMPLES_PER_CLAUSE = 8
#: Candidates replayed in full, at most (singles, then pairs).
MAX_FULL_REPLAYS = 10


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
class Divergent:
    """One divergent step of one trace under some variant."""

    key: Key
    finding: Finding
    request: dict[str, Any]
    before: GameState | None  # the reference position before the step (for one-step trials)
    config: dict[str, Any]  # the trace's new_game config
    expected: dict[str, Any] = field(default_factory=dict)  # the reference's reply


@dataclass
class Judgement:
    """A candidate variant over all traces: the divergences it removes and those it adds."""

    variant: Variant
    removed: list[Divergent] = field(default_factory=list)
    added: list[Divergent] = field(default_factory=list)

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

    @property
    def line(self) -> str:
        return f"your engine plays {label(self.variant)}" if self.variant else ""

    def as_dict(self) -> dict[str, Any]:
        return {"variant": {k: v for k, v in self.variant}, "line": self.line or None,
                "hello_options": hello_line(self.variant) if self.variant else None,
                "explained_steps": len(self.explained), "divergent_steps": len(self.baseline),
                "partly_explained": [{"variant": label(j.variant), "removes": j.clauses("removed"),
                                      "adds": j.clauses("added")} for j in self.partly],
                "full_replays": self.full_replays, "seconds": round(self.seconds, 3),
                "cpu_seconds": round(self.cpu_seconds, 3)}


_DEFAULTS: dict[str, Any] = {}


def _config(base: dict[str, Any], variant: Variant) -> dict[str, Any]:
    """The table's config under the variant: a candidate value replaces an option the new_game
    leaves out or sets to the spec default, never a value the request chose (a scenario testing
    that value, a declared variant)."""
    if not _DEFAULTS:
        from ..spec import default_spec
        _DEFAULTS.update({o.name: o.default for o in default_spec().options})
    cfg = dict(base)
    for k, v in variant:
        if k not in cfg or (type(cfg[k]) is type(_DEFAULTS.get(k)) and cfg[k] == _DEFAULTS.get(k)):
            cfg[k] = v
    return cfg


def _refusal(game: GameState | None):
    if game is None:
        return None

    def why(text: str) -> str:
        action = notation_action(text)
        err = game.check(game.to_act, parse_cards(action.get("cards", [])), give=action["type"] == "give")
        return err.rule if err is not None else ""
    return why


_ORDER = {name: i for i, name in enumerate(CARD_NAMES)}
_UNSEEN = object()  # a reply not canonicalised yet


def _seen(views: list[list[Any]], d: "Divergent", actual: Any) -> Any:
    t, i = d.key[0], d.key[1]
    if views[t][i] is _UNSEEN:
        views[t][i] = view(actual)
    return views[t][i]


def _sorted(cards: Any) -> list[str]:
    return sorted(cards, key=lambda c: _ORDER.get(c, 1000))


def _engine_view(state: dict[str, Any]) -> dict[str, Any]:
    """`diagnose.rule_view` of an engine's STATE, with cards in deck order (what the reference writes)."""
    loose = LATITUDE.get(state.get("phase"), frozenset())
    out = {k: state.get(k) for k in STATE_FIELDS if k not in loose}
    if "hands" in out:
        out["hands"] = [_sorted(h) for h in state["hands"]]
    if "trick" in out and isinstance(state.get("trick"), dict):
        out["trick"] = {"cards": _sorted(state["trick"]["cards"]), "by": state["trick"].get("by")}
    if "passed" in out and isinstance(state.get("passed"), list):
        out["passed"] = sorted(state["passed"])
    return out


def view(reply: Any, reference: bool = False) -> Any:
    """What the rules see of a reply (acceptance, the rule view of STATE, the legal set), comparable
    with ==. The reference writes canonical card lists already, so its view skips the sorting."""
    if not isinstance(reply, dict):
        return None
    if not reply.get("ok"):
        return (reply.get("ok"),)
    state = reply.get("state")
    try:
        if isinstance(state, dict):
            if reference:
                loose = LATITUDE.get(state.get("phase"), frozenset())
                return ("state", {k: state.get(k) for k in STATE_FIELDS if k not in loose})
            return ("state", _engine_view(state))
        if "actions" in reply:
            notes = (" ".join(a["cards"]) if a.get("type") == "play" else action_notation(a)
                     for a in reply["actions"]) if reference else (action_notation(a) for a in reply["actions"])
            return ("legal", reply.get("player"), frozenset(notes))
    except Exception:  # noqa: BLE001 - a malformed reply: never equal to the reference's
        return ("malformed", id(reply))
    return (True,)


def replay(trace: Trace, number: int, rules: Ruleset, variant: Variant = (),
           views: list[Any] | None = None, memo: dict[Any, Finding | None] | None = None,
           spec_shuffle: bool = False) -> list[Divergent]:
    """The divergences of one trace replayed on the reference under `variant`; after each, the
    reference takes up the engine's position. A variant the reference refuses for this table (a
    holder card nobody holds) leaves the trace under its own config."""
    out: list[Divergent] = []
    views = views if views is not None else [_UNSEEN] * len(trace.steps)
    ref = Session(rules)
    before: dict[str, Any] | None = None
    config: dict[str, Any] = {}
    for i, (req, actual) in enumerate(trace.steps):
        if not isinstance(actual, dict) or not isinstance(actual.get("ok"), bool):
            break  # no reply: the protocol's business
        cmd = req.get("cmd")
        if is_seeded(req) and not spec_shuffle:  # the engine's own shuffle: compared by its observables
            sent = req
            if cmd == "new_game":
                config = dict(req.get("config") or {})
                try:
                    _table(rules, _config(config, variant))
                    config = _config(config, variant)
                    sent = dict(req, config=config)
                except Exception:  # noqa: BLE001 - the reference refuses the variant here: the table's own
                    pass
            snapshot = ref.game.copy() if ref.game is not None else None
            try:
                finding, expected, adopted = check_seeded(sent, ref, actual, before, rules)
            except Exception:  # noqa: BLE001 - a malformed reply is the protocol's business
                break
            if finding is None:
                if adopted is not None:
                    ref, before = adopted, expected["state"]
                continue
            if finding.kind == "protocol":
                break
            out.append(Divergent((number, i, finding.clause), finding, req, snapshot, config, expected))
            if not _adopt(ref, rules, config, actual):
                break
            before = ref.game.to_wire() if ref.game is not None else before
            continue
        if cmd == "new_game":
            config = dict(req.get("config") or {})
            if variant:
                trial = dict(req, config=_config(config, variant))
                expected = ref.handle(trial)
                if not expected.get("ok"):
                    expected = ref.handle(req)
                else:
                    config = trial["config"]
            else:
                expected = ref.handle(req)
            snapshot = None
        else:  # an act or a deal changes the reference in place: keep the position before it
            snapshot = (ref.game.copy() if cmd in ("act", "deal") else ref.game) if ref.game is not None else None
            expected = ref.handle(req)
        seen = view(expected, reference=True)
        if actual == expected:
            if expected.get("ok") and "state" in expected:
                before = expected["state"]
            continue
        if views[i] is _UNSEEN:  # the engine's reply, canonicalised once for every replay
            views[i] = view(actual)
        if views[i] == seen:
            if expected.get("ok") and "state" in expected:
                before = expected["state"]
            continue
        memo_key = (number, i, repr(seen))  # the same answer at the same step: the same finding
        if memo is not None and memo_key in memo:
            finding = memo[memo_key]
        else:
            try:
                finding = diverge(req, expected, actual, before, _refusal(snapshot) if cmd == "legal" else None)
            except Exception:  # noqa: BLE001 - a malformed reply is the protocol's business
                break
            if memo is not None:
                memo[memo_key] = finding
        if finding is None:
            if expected.get("ok") and "state" in expected:
                before = expected["state"]
            continue
        if finding.kind == "protocol":
            break
        out.append(Divergent((number, i, finding.clause), finding, req,
                             snapshot.copy() if snapshot is not None and cmd == "legal" else snapshot, config,
                             expected))
        if actual.get("ok") and isinstance(actual.get("state"), dict):
            if not _adopt(ref, rules, config, actual):
                break  # a position the reference cannot take up: the rest of the trace is not compared
            before = ref.game.to_wire() if ref.game is not None else before
        elif not actual.get("ok") and expected.get("ok"):
            ref.game = snapshot  # the engine refused: its state is unchanged
    return out


def _adopt(ref: Session, rules: Ruleset, config: dict[str, Any], actual: dict[str, Any]) -> bool:
    """The reference takes up the engine's position (False when it cannot, or the engine refused)."""
    if not actual.get("ok") or not isinstance(actual.get("state"), dict):
        return False
    try:
        last = ref.game.last_ranking if ref.game is not None else []
        ref.game = game_from_state(rules, _table(rules, config), canonical_state(actual["state"]), last)
        return True
    except Exception:  # noqa: BLE001 - PositionError, or a STATE the reference cannot read
        return False


_TABLES: dict[tuple[int, str], Any] = {}


def _table(rules: Ruleset, config: dict[str, Any]) -> Any:
    key = (id(rules), repr(sorted(config.items())))
    if key not in _TABLES:
        if len(_TABLES) > 4096:
            _TABLES.clear()
        _TABLES[key] = rules.config(**config)
    return _TABLES[key]


def replay_all(traces: list[Trace], rules: Ruleset, variant: Variant = (),
               views: list[list[Any]] | None = None, memo: dict[Any, Finding | None] | None = None,
               spec_shuffle: bool = False) -> dict[Key, Divergent]:
    out: dict[Key, Divergent] = {}
    for n, trace in enumerate(traces):
        for d in replay(trace, n, rules, variant, views[n] if views is not None else None, memo, spec_shuffle):
            out[d.key] = d
    return out


def one_step(d: Divergent, actual: dict[str, Any], rules: Ruleset, variant: Variant, seen: Any = None) -> bool:
    """Does the reference under `variant`, from the cached position, answer this step as the engine did?"""
    req = d.request
    cfg = _config(d.config, variant)
    try:
        config = _table(rules, cfg)
    except Exception:  # noqa: BLE001 - the reference refuses this table under the variant
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
            game.must = 1 << holder
        elif holder is None:
            game.must = 0
        s.game = game
        expected = s.handle(req)
    if actual == expected or (seen if seen is not None else view(actual)) == view(expected, reference=True):
        return True
    before = d.before.to_wire() if d.before is not None else None
    try:
        return diverge(req, expected, actual, before, _refusal(game) if req.get("cmd") == "legal" else None) is None
    except Exception:  # noqa: BLE001
        return False


def _sample(baseline: list[Divergent]) -> list[Divergent]:
    per: dict[str, list[Divergent]] = {}
    for d in baseline:
        per.setdefault(d.finding.clause, []).append(d)
    out: list[Divergent] = []
    for items in per.values():
        step = max(1, len(items) // SAMPLES_PER_CLAUSE)
        out += items[::step][:SAMPLES_PER_CLAUSE]
    return out


def fit(traces: list[Trace], rules: Ruleset, declared: dict[str, Any] | None = None,
        extra: Iterable[Variant] = (), clean: set[int] | frozenset[int] = frozenset()) -> Fit:
    """Fit the variant that best explains the engine's traces (see the module docstring).

    `clean`: traces already compared under their own config without a divergence (lock-step games
    and scenarios that showed none): the baseline does not replay them again (a candidate does)."""
    t0, cpu0 = time.perf_counter(), time.process_time()
    spec = rules.spec
    card_key(spec)  # the canonical card order diagnose compares by
    views: list[list[Any]] = [[_UNSEEN] * len(t.steps) for t in traces]  # filled as replays need them
    memo: dict[Any, Finding | None] = {}
    shuffle = declares_spec_shuffle(declared)
    base: dict[Key, Divergent] = {}
    for n, trace in enumerate(traces):
        if n not in clean:
            for d in replay(trace, n, rules, (), views[n], memo, shuffle):
                base[d.key] = d
    baseline = list(base.values())
    declared_variant: Variant = tuple(sorted(
        (k, v[0] if isinstance(v, list) and len(v) == 1 else v) for k, v in (declared or {}).items()
        if k in {o.name for o in spec.options} and k not in TABLE_OPTIONS + ("revolution",)
        and not (isinstance(v, list) and len(v) != 1)))
    result = Fit((), baseline, set(), [], [], declared=declared_variant)
    if not baseline:
        result.seconds, result.cpu_seconds = time.perf_counter() - t0, time.process_time() - cpu0
        return result
    actual = {d.key: traces[d.key[0]].steps[d.key[1]][1] for d in baseline}
    sample = _sample(baseline)
    pool = list(dict.fromkeys([*candidates(spec), *extra, *((p,) for p in declared_variant)]))
    hits: dict[Variant, frozenset[Key]] = {}
    for cand in pool:
        got = frozenset(d.key for d in sample if one_step(d, actual[d.key], rules, cand, _seen(views, d, actual[d.key])))
        if got:
            hits[cand] = got
    # a value outdone by another value of its own option (a subset of its steps) is not replayed in full
    keep = [c for c in hits if not any(o != c and o[0][0] == c[0][0] and hits[c] < hits[o] for o in hits)]
    keep.sort(key=lambda c: -len(hits[c]))
    judged: list[Judgement] = []
    for cand in keep[:MAX_FULL_REPLAYS]:
        judged.append(_judge(traces, rules, base, cand, views, memo, shuffle))
    result.full_replays = len(judged)
    # pairs: only of candidates whose full replay removed something, where together they remove a
    # divergent step that neither removes alone, or where one of them also adds divergences
    useful = [j for j in judged if j.removed]
    for a_i, a in enumerate(useful):
        for b in useful[a_i + 1:]:
            if a.variant[0][0] == b.variant[0][0] or result.full_replays >= 2 * MAX_FULL_REPLAYS:
                continue
            pair = tuple(sorted(a.variant + b.variant))
            alone = {d.key for d in a.removed} | {d.key for d in b.removed}
            new = [d for d in sample if d.key not in alone and one_step(d, actual[d.key], rules, pair, _seen(views, d, actual[d.key]))]
            if new or a.partly or b.partly:  # a step only the pair removes, or one may undo the other's additions
                judged.append(_judge(traces, rules, base, pair, views, memo, shuffle))
                result.full_replays += 1
    result.judged = judged
    # the fitted variant: the explaining candidates, the best value of each option, confirmed together
    chosen: dict[str, Any] = {}
    for j in sorted((j for j in judged if j.explains), key=lambda j: -len(j.removed)):
        if all(k not in chosen or chosen[k] == v for k, v in j.variant):
            chosen.update(j.variant)
    variant: Variant = tuple(sorted(chosen.items()))
    while variant:
        together = _judge(traces, rules, base, variant, views, memo, shuffle)
        result.full_replays += 1
        if not together.added:
            result.explained = {d.key for d in together.removed}
            break
        weakest = min(variant, key=lambda kv: max((len(j.removed) for j in judged if kv in j.variant), default=0))
        variant = tuple(kv for kv in variant if kv != weakest)
    result.variant = variant
    partly = [j for j in judged if j.partly and not set(j.variant) <= set(variant)]
    singles = {j.variant[0] for j in partly if len(j.variant) == 1}
    # a pair holding a value that is itself only partly explained says nothing more
    result.partly = [j for j in partly if len(j.variant) == 1 or not set(j.variant) & singles]
    result.seconds, result.cpu_seconds = time.perf_counter() - t0, time.process_time() - cpu0
    return result


def _judge(traces: list[Trace], rules: Ruleset, base: dict[Key, Divergent], variant: Variant,
           views: list[list[Any]], memo: dict[Any, Finding | None], shuffle: bool = False) -> Judgement:
    under = replay_all(traces, rules, variant, views, memo, shuffle)
    return Judgement(variant, removed=[d for k, d in base.items() if k not in under],
                     added=[d for k, d in under.items() if k not in base])
