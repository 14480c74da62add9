"""House-rule explanations: which known house rule makes the reference do what the engine did.

For a deviation, each house rule bearing on its clause is tried. An option the reference engine
plays (every option of `spec.options`: it accepts them in `new_game.config`) is confirmed only by
replaying the evidence on the reference with `config[X] = v` (plus the house rules already
explained earlier in the same game): X=v explains the deviation when the reference then replies
as the engine did. Only for an option the reference cannot play does the rule's own reading of the
evidence decide. The protocol option names are those of docs/protocol.md (`hello.options`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..scenarios.model import action_notation, canonical_state
from .diagnose import Evidence, rule_view

RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "V", "D", "R", "A", "2")


def _rank(card: str) -> int:
    return RANKS.index(card[:-1])


@dataclass(frozen=True)
class HouseRule:
    option: str
    value: Any
    clauses: tuple[str, ...]
    reads: Callable[[Evidence], bool]
    sentence: str

    @property
    def label(self) -> str:
        return f"{self.option}={_json(self.value)}"

    @property
    def hello_line(self) -> str:
        return f'"options": {{"{self.option}": [{_json(self.value)}]}}'


def _never(ev: Evidence) -> bool:
    return False


def _json(v: Any) -> str:
    return "true" if v is True else "false" if v is False else f'"{v}"' if isinstance(v, str) else str(v)


def _new_hands(ev: Evidence) -> list[list[str]]:
    return ev.requests[0].get("hands") or []


def _first_lead_holder(ev: Evidence) -> bool:
    hands = _new_hands(ev)
    holder = next((s for s, h in enumerate(hands) if "3C" in h), 0)
    if ev.requests[-1].get("cmd") == "new_game":
        return ev.actual.get("ok") and (ev.actual.get("state") or {}).get("to_act") == holder
    return ev.requests[-1].get("player") == holder or ev.actual.get("player") == holder


def _plays(ev: Evidence) -> list[list[str]]:
    """The plays the engine made (accepted) or listed where the reference refuses them."""
    req = ev.requests[-1]
    if req.get("cmd") == "act" and ev.actual.get("ok") and (req.get("action") or {}).get("type") == "play":
        return [req["action"].get("cards") or []]
    if req.get("cmd") == "legal" and ev.actual.get("ok"):
        exp = {action_notation(a) for a in ev.expected.get("actions", [])}
        extra = sorted((action_notation(a), a) for a in ev.actual.get("actions", []) if action_notation(a) not in exp)
        return [extra[0][1].get("cards") or []] if extra and extra[0][1].get("type") == "play" else []
    return []


def _equal_rank(ev: Evidence) -> bool:
    trick = (ev.before or {}).get("trick")
    plays = _plays(ev)
    return bool(trick and plays) and all(p and _rank(p[0]) == _rank(trick["cards"][0]) for p in plays)


def _equal_without_skip(ev: Evidence) -> bool:
    """An equal rank followed, but the next seat was not skipped (the spec's equality skips it)."""
    req, trick = ev.requests[-1], (ev.before or {}).get("trick")
    cards = (req.get("action") or {}).get("cards") or []
    if req.get("cmd") == "act" and trick and cards and _rank(cards[0]) == _rank(trick["cards"][0]):
        return True
    return _equal_rank(ev)


def _lone_three_spades(ev: Evidence) -> bool:
    trick = (ev.before or {}).get("trick")
    plays = _plays(ev)
    return bool(trick and plays) and len(trick["cards"]) == 1 and all(p == ["3S"] for p in plays)


def _leader_passes(ev: Evidence) -> bool:
    req = ev.requests[-1]
    if (ev.before or {}).get("trick") is not None:
        return False
    if req.get("cmd") == "act":
        return ev.actual.get("ok") and (req.get("action") or {}).get("type") == "pass"
    return req.get("cmd") == "legal" and any(a.get("type") == "pass" for a in ev.actual.get("actions", []))


def _president_only(ev: Evidence) -> bool:
    exp, act = (ev.expected.get("state") or {}), (ev.actual.get("state") or {})
    before = ev.before or {}
    if not act.get("finished") or exp.get("phase") not in ("deal_over", "game_over"):
        return False
    old = before.get("scores") or [0] * len(act.get("scores") or [])
    gained = [a - b for a, b in zip(act.get("scores") or [], old)]
    president = exp["finished"][0]
    return gained == [1 if s == president else 0 for s in range(len(gained))]


def _states(ev: Evidence) -> tuple[dict[str, Any], dict[str, Any]]:
    exp, act = ev.expected.get("state"), ev.actual.get("state")
    return (canonical_state(exp) if exp else {}), (canonical_state(act) if act else {})


def _pass_not_final(ev: Evidence) -> bool:
    exp, act = _states(ev)
    if ev.requests[-1].get("cmd") == "act" and not ev.expected.get("ok") and ev.actual.get("ok"):
        return (ev.expected.get("error") or {}).get("rule") == "pass.final"
    if ev.clause == "trick.end":  # the trick goes on: a seat that passed before acts again
        return exp.get("trick") is None and act.get("trick") is not None and act.get("to_act") in (
            (ev.before or {}).get("passed") or [])
    return (ev.clause == "pass.final" and set(act.get("passed") or []) < set(exp.get("passed") or [])
            and act.get("trick") == exp.get("trick"))


def _going_out_clears(ev: Evidence) -> bool:
    req, (exp, act) = ev.requests[-1], _states(ev)
    seat = req.get("player")
    return (req.get("cmd") == "act" and act.get("trick") is None and exp.get("trick") is not None
            and isinstance(seat, int) and not (act.get("hands") or [[1]] * (seat + 1))[seat])


def _eights_stop(ev: Evidence) -> bool:
    req, (exp, act) = ev.requests[-1], _states(ev)
    cards = (req.get("action") or {}).get("cards") or []
    return (req.get("cmd") == "act" and bool(cards) and cards[0][:-1] == "8" and act.get("trick") is None
            and exp.get("trick") is not None)


def _quad_keeps_order(ev: Evidence) -> bool:
    req, (exp, act) = ev.requests[-1], _states(ev)
    cards = (req.get("action") or {}).get("cards") or []
    return (req.get("cmd") == "act" and len(cards) == 4 and bool(act) and bool(ev.before)
            and act.get("order") == ev.before.get("order") != exp.get("order"))


HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule("first_lead", "holder:3C", ("setup.first-lead", "turn.order", "flow.lead"), _first_lead_holder,
              "the holder of the 3 of clubs leads the first deal"),
    HouseRule("equality", True, ("play.strictly-higher",), _equal_rank, "a play of the same rank may follow"),
    HouseRule("leader_may_pass", True, ("lead.must-play",), _leader_passes, "the leader of an empty trick may pass"),
    HouseRule("scoring", "president_only", ("score.points",), _president_only, "only the President scores (1 point)"),
    HouseRule("scoring", "none", ("score.points",), _never, "no points are scored"),
    HouseRule("sequences", True, ("play.same-rank", "setup.no-jokers-sequences"), _never,
              "a run of consecutive ranks may be played"),
    HouseRule("jokers", 1, ("setup.no-jokers-sequences", "play.same-rank", "play.strictly-higher"), _never,
              "the deck has one joker"),
    HouseRule("jokers", 2, ("setup.no-jokers-sequences", "play.same-rank", "play.strictly-higher"), _never,
              "the deck has two jokers"),
    HouseRule("revolution", False, ("revolution.quad-reverses", "revolution.again", "revolution.no-clear"),
              _quad_keeps_order, "no revolution: a quad does not reverse the order"),
)

#: Engine behaviours that no house-rule option of the spec describes (named, never explained).
KNOWN_UNOPTIONED: tuple[tuple[str, Callable[[Evidence], bool]], ...] = (
    ("eights stop the trick: whoever plays 8s takes it at once", _eights_stop),
    ("a lone 3 of spades beats any single", _lone_three_spades),
    ("a play of the same rank may follow, without skipping the next seat (equality=true skips it)",
     _equal_without_skip),
    ("a pass is not final: a seat that passed plays again after a new play", _pass_not_final),
    ("going out clears the trick at once", _going_out_clears),
)


def describe(ev: Evidence, seen: set[str] | frozenset[str] = frozenset()) -> str:
    """A plain description of an unexplained behaviour, when one of the known ones fits (one
    already `seen` on this engine first: a going-out play of 8s fits two of them)."""
    fits = [text for text, reads in KNOWN_UNOPTIONED if reads(ev)]
    fits += [f"looks like house rule {r.label} ({r.sentence}), but replaying on the reference with it "
             "does not reproduce the engine" for r in HOUSE_RULES if ev.clause in r.clauses and r.reads(ev)]
    return next((t for t in fits if t in seen), fits[0] if fits else "")


def explain(ev: Evidence, replay: Callable[[list[dict[str, Any]]], dict[str, Any] | None],
            reference_options: set[str], already: dict[str, Any] | None = None) -> HouseRule | None:
    """The house rule that explains the evidence, or None.

    `replay(requests)` runs requests on a fresh reference and returns its reply to the last one
    (None when the reference refuses the variant's config). `already`: the options of the house
    rules explained earlier in the same game, kept in the replay's config."""
    for rule in HOUSE_RULES:
        if ev.clause not in rule.clauses:
            continue
        if rule.option in reference_options:
            # with the rules already explained in this game, else alone (the reference refuses e.g.
            # first_lead="holder:3C" on a deal where nobody holds 3C)
            for base in ([already, {}] if already else [{}]):
                reply = _variant_reply(ev, rule, replay, base)
                if reply is not None and _same(reply, ev.actual):
                    return rule
        elif rule.reads(ev):
            return rule
    return None


def _variant_reply(ev: Evidence, rule: HouseRule, replay: Callable[[list[dict[str, Any]]], dict[str, Any] | None],
                   already: dict[str, Any]) -> dict[str, Any] | None:
    first = dict(ev.requests[0]) if ev.requests else {}
    if first.get("cmd") != "new_game":
        return None
    first["config"] = {**(first.get("config") or {}), **already, rule.option: rule.value}
    return replay([first] + ev.requests[1:])


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a.get("ok") != b.get("ok"):
        return False
    if "state" in a and "state" in b:
        return rule_view(a["state"]) == rule_view(b["state"])
    if "actions" in a and "actions" in b:
        return {action_notation(x) for x in a["actions"]} == {action_notation(x) for x in b["actions"]}
    return True
