"""Every table size: a rule scenario moved to a larger table, its own seats' expectations kept.

The spec's examples are written for a table of 3 (some 4, 5 or 6). An engine that plays other
sizes runs them at a size it declares, with the example's seats kept and added seats that cannot
change what the example shows. Three ways, tried in this order:

- **passing seats** (`pass`): the added seats sit after the example's seats, each holding one
  card the example never names, and pass whenever the turn reaches them on a trick. The seat
  numbers stay; the first lead stays seat 0's. It cannot carry an example whose deal ends (the
  added seats still hold cards) or where an added seat would have to lead.
- **seats out first** (`out`): the added seats sit before the example's seats; each plays its one
  card (each higher than the last) and goes out, the example's seats pass, and the example starts
  from there with its seat s at s + k. Finished first, the added seats take places 1..k, so place p
  of the example becomes p + k of n + k and scores n - p + 1 as before. It cannot carry a first
  lead (the first deal's lead has then been played: never for the setup section) nor a
  `first_lead` option.
- **seats out late** (`late`): as passing seats, with the best cards the example never names;
  where the example's deal ends, they play them and go out (the example's seats passing), taking
  the places before the example's last seat: the first out keeps place 1 (president_only scoring,
  the President's exchange), the places' points change.

A refused new game gets added seats holding unnamed cards (`hands`). In a later deal the added
seats get two unnamed cards each and, when an exchange waits for one of them, give back the
reference's first legal choice. A seeded deal (hand sizes follow the table size) and the AI
section are never moved.

The moved scenario states exactly the example's expectations on the example's seats (seat
numbers mapped); for the added seats, the expectations that list every seat (passed, finished,
scores, hand sizes) take the reference engine's values. It is built by running the reference
engine, and kept only if the reference passes it and refuses each tried action by the rule it
refuses it by at the example's own size: a size where the reference would show anything else on
the example's seats (a series whose exchange would hand an added seat's card to one of them...)
is no variant, and `why_not` says why.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..spec import Spec
from .model import Mismatch, Op, Scenario, ScenarioRun, card_key, requirements
from ..errors import PresidentError

#: Expectation ops that list every seat: the added seats' part is the reference's.
_ALL_SEATS = ("passed", "nobody-passed", "finished", "nobody-finished", "scores", "hand-sizes")
_ACTS = ("play", "pass", "give", "try-play", "try-pass", "try-give")


class NotMovable(PresidentError):
    """The scenario cannot be moved to that table size (the message says why)."""


@dataclass(frozen=True)
class Sized:
    """A scenario at `players` seats: `scenario` (None when it cannot be moved, `why_not`)."""

    players: int
    scenario: Scenario | None
    how: str = ""  # "native" | "pass" | "out" | "late" | "hands"
    why_not: str = ""  # one short reason (the last way tried)
    tried: tuple[str, ...] = ()  # each way's reason

    @property
    def short(self) -> str:
        return self.why_not if len(self.why_not) <= 90 else self.why_not[:87] + "..."


def native_players(sc: Scenario) -> int:
    return next(op.kwargs["players"] for op in sc.ops if op.key == "table")


def is_refused_start(sc: Scenario) -> bool:
    return any(op.key == "try-start" for op in sc.ops)


def movable_reason(sc: Scenario) -> str | None:
    """Why this scenario is never moved to another table size, or None."""
    keys = {op.key for op in sc.ops}
    if sc.section == "ai":
        return "AI scenarios run at their own table size"
    if "seed" in keys:
        return "a seeded deal's hand sizes follow the table size"
    return None


def _named_cards(sc: Scenario) -> set[str]:
    """Every card the scenario names anywhere (hands, plays, expectations, legal lists, options)."""
    out: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, str):
            for word in v.replace(":", " ").split():
                out.add(word)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)

    for op in sc.ops:
        walk([v for _k, v in op.args])
    return out


def _free_cards(spec: Spec, sc: Scenario) -> list[str]:
    """The deck's cards the scenario never names, weakest first (normal order)."""
    named = _named_cards(sc)
    return [r + s for r in spec.deck.ranks for s in spec.deck.suits if r + s not in named]


def _added_hands(spec: Spec, sc: Scenario, k: int, rising: bool) -> list[tuple[str, ...]]:
    """k one-card hands of free cards; with `rising`, of k different ranks, weakest first."""
    free = _free_cards(spec, sc)
    if rising:
        picked, ranks = [], set()
        for c in free:
            if c[:-1] not in ranks:
                picked.append(c)
                ranks.add(c[:-1])
        free = picked
    if len(free) < k:
        raise NotMovable("the example names too many cards to give the added seats one each")
    return [(c,) for c in free[:k]]


def _free_ranks(spec: Spec, sc: Scenario) -> set[str]:
    return {c[:-1] for c in _free_cards(spec, sc)}


class Native:
    """The scenario at its own size on the reference: where its deal ends, which rule refuses each try."""

    def __init__(self, rules: Any, sc: Scenario):
        from ..protocol.client import InProcessClient
        from ..protocol.server import Session

        run = ScenarioRun(InProcessClient(lambda: Session(rules)), spec=rules.spec)
        self.phases: dict[int, str] = {}
        self.rules: dict[int, str | None] = {}
        try:
            for i, op in enumerate(sc.ops):
                if op.key == "refused" and run.reply is not None and not run.reply.get("ok"):
                    self.rules[i] = run.reply.get("error", {}).get("rule")
                run.execute(op)
                if run.state is not None:
                    self.phases[i] = run.state["phase"]
        except Exception:  # noqa: BLE001 - what the reference shows up to a failing step is what we know
            pass

    def ended(self, i: int) -> bool:
        """Whether the deal had ended after op i at the example's own size."""
        return self.phases.get(i) in ("deal_over", "game_over")


def _state_list(state: dict[str, Any], key: str) -> list[Any]:
    if key in ("passed", "nobody-passed"):
        return sorted(state["passed"])
    if key in ("finished", "nobody-finished"):
        return list(state["finished"])
    if key == "scores":
        return list(state["scores"])
    return [len(h) for h in state["hands"]]  # hand-sizes


def _example_list(op: Op) -> list[Any]:
    a = op.kwargs
    if op.key in ("nobody-passed", "nobody-finished"):
        return []
    if op.key == "passed":
        return sorted(a["seats"])
    if op.key == "finished":
        return list(a["seats"])
    if op.key == "scores":
        return list(a["scores"])
    return list(a["sizes"])


def _all_seats_op(op: Op, full: list[Any]) -> Op:
    if op.key in ("passed", "nobody-passed"):
        return Op.of("passed", seats=full) if full else Op.of("nobody-passed")
    if op.key in ("finished", "nobody-finished"):
        return Op.of("finished", seats=full) if full else Op.of("nobody-finished")
    if op.key == "scores":
        return Op.of("scores", scores=full)
    return Op.of("hand-sizes", sizes=full)


class _Mover:
    """Replays a scenario on the reference at n seats, writing the moved ops as it goes."""

    def __init__(self, spec: Spec, rules: Any, sc: Scenario, n: int, how: str, native: "Native"):
        from ..protocol.client import InProcessClient
        from ..protocol.server import Session

        self.spec, self.sc, self.how = spec, sc, how
        self.n0 = native_players(sc)
        self.n = n
        self.k = n - self.n0
        self.shift = self.k if how == "out" else 0
        self.run = ScenarioRun(InProcessClient(lambda: Session(rules)), spec=rules.spec)
        self.ops: list[Op] = []
        self.native = native

    def seat(self, s: int) -> int:
        return s + self.shift

    def original(self, s: int) -> int | None:
        """The example's seat at table seat s, or None for an added seat."""
        s -= self.shift
        return s if 0 <= s < self.n0 else None

    def emit(self, op: Op) -> None:
        try:
            self.run.execute(op)
        except Mismatch as exc:
            raise NotMovable(exc.message) from None
        self.ops.append(op)

    def added_seats_pass(self) -> None:
        """The added seats pass while the turn is theirs in play, and give back the reference's
        first legal choice in an exchange (a later deal)."""
        for _ in range(4 * self.n):
            s = self.run.state
            if s is None or s["to_act"] is None or self.original(s["to_act"]) is not None:
                return
            if s["phase"] == "exchange":
                first = (self.run.client.request({"cmd": "legal"}).get("actions") or [{}])[0]
                self.emit(Op.of("give", seat=s["to_act"], cards=first.get("cards", [])))
                continue
            if s["phase"] != "play":
                return
            if s["trick"] is None:
                raise NotMovable("an added seat would have to lead")
            self.emit(Op.of("pass", seat=s["to_act"]))
        raise NotMovable("the added seats keep the turn")

    def postlude(self) -> None:
        """`late` way: where the example's deal ends, the added seats play their card and go out
        (taking the places before the example's last), the example's seats passing meanwhile."""
        for _ in range(4 * self.n):
            s = self.run.state
            if s is None or s["phase"] != "play":
                return
            seat = s["to_act"]
            if self.original(seat) is None:
                reply = self.run.client.request({"cmd": "legal"})
                card = self.added[seat - self.n0][0]
                if card in [" ".join(x.get("cards", ())) for x in reply.get("actions", [])]:
                    self.emit(Op.of("play", seat=seat, cards=[card]))
                    continue
            if s["trick"] is None:
                raise NotMovable(f"seat {seat} would have to lead after the example's deal ends")
            self.emit(Op.of("pass", seat=seat))
        raise NotMovable("the added seats do not go out")

    def prelude(self) -> None:
        """`out` way: the added seats play their one card each and go out; the example's seats pass."""
        for j, (card,) in enumerate(self.added):
            self.emit(Op.of("play", seat=j, cards=[card]))
        for s in range(self.n0):
            self.emit(Op.of("pass", seat=self.seat(s)))
        st = self.run.state or {}
        if st.get("to_act") != self.seat(0) or st.get("trick") is not None or st.get("passed"):
            raise NotMovable("the added seats do not hand seat 0 an empty trick")

    def move(self) -> list[Op]:
        hands_done = False
        for i, op in enumerate(self.sc.ops):
            a = op.kwargs
            if op.key == "table":
                self.emit(Op.of("table", players=self.n))
            elif op.key == "holds":
                if not hands_done:
                    self._holds()
                    hands_done = True
            elif op.key == "start":
                self.emit(op)
                if self.how == "out":
                    self.prelude()
            elif op.key in _ACTS:
                self.emit(Op.of(op.key, **{**a, "seat": self.seat(a["seat"])}))
                if self.how == "late" and self.native.ended(i) and (self.run.state or {}).get("phase") == "play":
                    self.postlude()
                elif not op.key.startswith("try-"):
                    self.added_seats_pass()
            elif op.key == "refused":
                reply = self.run.reply
                rule = reply.get("error", {}).get("rule") if reply and not reply.get("ok") else None
                want = self.native.rules.get(i, a["rule"])  # the reference's own rule at the example's size
                if rule != want:
                    raise NotMovable(f"the reference refuses by {rule!r}, not {want!r}" if reply and not reply.get("ok")
                                     else f"the reference accepts what {a['rule']} refuses")
                self.emit(op)
            elif op.key in _ALL_SEATS:
                self._all_seats(op)
            elif op.key in ("to-act", "hand", "hand-empty"):
                self.emit(Op.of(op.key, **{**a, "seat": self.seat(a["seat"])}))
            elif op.key == "trick":
                self.emit(Op.of("trick", cards=a["cards"], seat=self.seat(a["seat"])))
            elif op.key == "deal":  # a later deal: the added seats get two cards the example never names
                extra = [tuple(c for (c,) in self.added2[2 * j:2 * j + 2]) for j in range(self.k)]
                hands = list(a["hands"])
                self.emit(Op.of("deal", hands=(extra + hands) if self.how == "out" else (hands + extra)))
                self.added_seats_pass()
            elif op.key in ("ai", "ai-action", "seed"):
                raise NotMovable(f"a {op.key!r} step is not moved to another table size")
            else:  # options, deals, start refusals, phase, deal number, order, trick-empty, legal, nobody-to-act
                self.emit(op)
        return self.ops

    def _holds(self) -> None:
        hands = [op.kwargs["cards"] for op in self.sc.ops if op.key == "holds"]
        if self.how == "late":  # the best free cards, the first added seat the best: they can go out
            self.added = _added_hands(self.spec, self.sc, len(_free_ranks(self.spec, self.sc)), rising=True)[::-1]
            self.added = self.added[:self.k]
            if len(self.added) < self.k:
                raise NotMovable("the example names too many cards to give the added seats one each")
        else:
            self.added = _added_hands(self.spec, self.sc, self.k, rising=self.how == "out")
        self.added2 = _added_hands(self.spec, self.sc, 2 * self.k, rising=False)
        table = (self.added + hands) if self.how == "out" else (hands + self.added)
        for seat, cards in enumerate(table):
            self.emit(Op.of("holds", seat=seat, cards=cards))

    def _all_seats(self, op: Op) -> None:
        """Keep the example's list on its own seats; the added seats' part is the reference's."""
        state = self.run.state
        if state is None:
            raise NotMovable("no state to check")
        full = _state_list(state, op.key)
        want = _example_list(op)
        if op.key in ("passed", "nobody-passed", "finished", "nobody-finished"):
            mine = [self.original(s) for s in full if self.original(s) is not None]
        else:
            mine = [full[self.seat(s)] for s in range(self.n0)]
        if mine != want:
            raise NotMovable(f"{op.key} {mine} on the example's seats, where it says {want}")
        self.emit(_all_seats_op(op, full))


def move(spec: Spec, sc: Scenario, n: int, rules: Any = None) -> Sized:
    """The scenario at n players (n at least its own size): moved, or why not."""
    n0 = native_players(sc)
    if n == n0:
        return Sized(n, sc, "native")
    why = movable_reason(sc)
    if why is None and not spec.players.min <= n <= spec.players.max:
        why = f"{n} players is outside the spec's {spec.players.min}..{spec.players.max}"
    if why is None and not spec.players.min <= n0 <= spec.players.max:
        why = "its own table size is outside the spec's range (the refusal is what it tests)"
    if why is None and n < n0:
        why = f"an example for {n0} players is not moved to a smaller table"
    if why is not None:
        return Sized(n, None, why_not=why)
    if rules is None:
        from ..game.engine import Ruleset

        rules = Ruleset.from_spec(spec)
    card_key(spec)
    ways = ("hands",) if is_refused_start(sc) else ("pass", "out", "late")
    native = Native(rules, sc)
    reasons = []
    for how in ways:
        if how == "out" and any(op.key == "opt-first-lead" for op in sc.ops):
            reasons.append("out: the first lead is played before the example starts")
            continue
        if how == "out" and sc.section == "setup":
            reasons.append("out: a setup example starts at the first lead")
            continue
        try:
            ops = _Mover(spec, rules, sc, n, "pass" if how == "hands" else how, native).move()
        except NotMovable as exc:
            reasons.append(f"{how}: {exc}")
            continue
        requires = requirements(ops, spec)
        if ("players", n) not in requires:  # a refused start is moved to a table the engine plays
            requires = (("players", n),) + requires
        return Sized(n, replace(sc, id=f"{sc.id}@{n}p", name=f"{sc.name} @{n}p", ops=tuple(ops),
                                requires=requires), how)
    return Sized(n, None, why_not=reasons[-1].split(": ", 1)[-1], tried=tuple(reasons))


_CACHE: dict[int, tuple[Spec, Any, dict[tuple[tuple[Op, ...], int], Sized]]] = {}


def sized(spec: Spec, sc: Scenario, n: int, rules: Any = None) -> Sized:
    """`move`, remembered per spec, scenario (by its ops) and size; labelled as the asking scenario."""
    held = _CACHE.get(id(spec))
    if held is None or held[0] is not spec:
        if len(_CACHE) > 8:
            _CACHE.clear()
        if rules is None:
            from ..game.engine import Ruleset

            rules = Ruleset.from_spec(spec)
        held = _CACHE[id(spec)] = (spec, rules, {})
    key = (sc.ops, n)
    if key not in held[2]:
        held[2][key] = move(spec, sc, n, held[1])
    found = held[2][key]
    if found.scenario is not None and found.how != "native":
        found = replace(found, scenario=replace(found.scenario, id=f"{sc.id}@{n}p", name=f"{sc.name} @{n}p",
                                                section=sc.section, clause=sc.clause, line=sc.line))
    return found


def covered_sizes(spec: Spec, sc: Scenario, rules: Any = None) -> dict[int, Sized]:
    """For each table size of the spec: the scenario there (native or moved), or why not."""
    return {n: sized(spec, sc, n, rules) if n >= native_players(sc) else
            Sized(n, None, why_not=f"an example for {native_players(sc)} players is not moved to a smaller table")
            for n in range(spec.players.min, spec.players.max + 1)}
