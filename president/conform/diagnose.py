"""Rules, not representation: what a divergence means and which clause it breaks.

docs/protocol.md (STATE) says which STATE fields are rule observables in which phase; the other
fields are latitude: an engine may show them as it likes, and a difference there is a
*protocol note*, never a failure. A rule divergence is named by the clause the engine broke:

- the engine accepts (or lists as legal) what the reference refuses: the reference's refusal rule;
- the engine refuses (or leaves out of `legal`) what the reference allows: the clause allowing it;
- after an accepted request the rule view of STATE differs: the clause on first lead, turn
  order, trick end, next leader, revolution, finishing or scoring that decides that field.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..game.cards import card_list
from ..game.engine import Ruleset
from ..game.position import PositionError, game_from_state
from ..protocol.server import Session
from ..scenarios.model import LATITUDE, action_notation, canonical_state, sort_cards
from .deals import round_robin
from .trace import notations, plain

RULE_FIELDS = ("phase", "deal", "to_act", "order", "trick", "passed", "hands", "finished", "scores")


def latitude(phase: Any, name: str) -> bool:
    return name in LATITUDE.get(phase, frozenset())


def rule_view(state: dict[str, Any]) -> dict[str, Any]:
    """The canonical STATE with the fields its phase leaves to the engine dropped."""
    loose = LATITUDE.get(state.get("phase", ""), frozenset())
    return {k: v for k, v in canonical_state(state).items() if k not in loose}


def representation_notes(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """One note per latitude field shown differently (phase, field): not failures."""
    exp, act = canonical_state(expected), canonical_state(actual)
    phase = exp.get("phase", "")
    out = [f"{phase}: {k} shown as {_short(act.get(k))} where the reference shows {_short(exp.get(k))}"
           for k in sorted(LATITUDE.get(phase, ())) if exp.get(k) != act.get(k)]
    extra = sorted(set(actual) - set(RULE_FIELDS))
    if extra:
        out.append(f"STATE carries extra keys {', '.join(extra)} (allowed, ignored)")
    return out


def note_kind(note: str) -> str:
    """The stable part of a note (without the values), to count notes of one kind."""
    return note.split(" shown as ")[0] if " shown as " in note else note


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass
class Evidence:
    """A divergent request with what came before it (this game's requests from new_game)."""

    requests: list[dict[str, Any]]  # requests[-1] is the divergent one
    expected: dict[str, Any]  # the reference's reply
    actual: dict[str, Any]  # the engine's reply
    before: dict[str, Any] | None  # the rule STATE before it (reference)
    clause: str
    variant: dict[str, Any] | None = None  # options the reference played besides the config (house rules it followed)


@dataclass
class Finding:
    """A rule divergence: the clause broken, what happened, and the engine's own words."""

    clause: str
    message: str
    engine_error: str = ""  # the engine's own error (code/rule: message) when it refused
    kind: str = "fail"  # fail | protocol

    def text(self) -> str:
        return self.message + (f" (engine: {self.engine_error})" if self.engine_error else "")


def engine_error(reply: dict[str, Any]) -> str:
    err = reply.get("error") if isinstance(reply, dict) else None
    if not isinstance(err, dict):
        return ""
    return f"{err.get('code')}/{err.get('rule')}: {err.get('message')}"


#: The clauses a refused deal can break, by what its request holds (an engine's own reason among them is taken).
DEAL_CLAUSES = ("setup.players", "setup.dealing", "setup.partial-hands", "setup.first-lead", "option.first-lead.holder")
#: The cards of the smallest deck a table plays (the spec's 52, no joker).
SMALLEST_DECK = 52


def allowing_clause(before: dict[str, Any] | None, req: dict[str, Any], refused_by: str = "") -> str:
    """The clause that allows a request the reference accepts; `refused_by`: the rule the engine
    named when it refused it (taken for a deal when it is a clause a deal's hands can break)."""
    cmd = req.get("cmd")
    if cmd in ("new_game", "deal"):
        return deal_clause(req, refused_by)
    action = req.get("action") or {}
    if before is None:
        return "turn.order"
    if action.get("type") == "give":
        return "exchange.order"
    if before.get("to_act") != req.get("player"):
        return "turn.order"
    if action.get("type") == "pass":
        return "flow.follow"
    return "flow.follow" if before.get("trick") else "flow.lead"


def deal_clause(req: dict[str, Any], refused_by: str = "") -> str:
    """The clause a refused `new_game` or `deal` breaks, from what the request holds: hands that do
    not cover the deck (setup.partial-hands) or the table (setup.players); the engine's own reason
    when it names one of these clauses (a first-lead card nobody holds: setup.first-lead). Only a
    plain next deal refused is game.end (the series goes on)."""
    if refused_by in DEAL_CLAUSES:
        return refused_by
    hands = req.get("hands")
    if isinstance(hands, list):
        dealt = sum(len(h) for h in hands if isinstance(h, list))
        return "setup.partial-hands" if dealt < SMALLEST_DECK else "setup.players"
    return "setup.players" if req.get("cmd") == "new_game" else "game.end"


def _asked_again(before: dict[str, Any] | None, req: dict[str, Any], e: dict[str, Any], a: dict[str, Any]) -> bool:
    """The engine's trick goes on with a seat to act that has passed in it (pass.final)."""
    if a.get("trick") is None or a.get("to_act") is None:
        return False
    passes = set((before or {}).get("passed") or []) | set(e.get("passed") or [])
    if req.get("cmd") == "act" and (req.get("action") or {}).get("type") == "pass":
        passes.add(req.get("player"))
    return a.get("to_act") in passes


def state_clause(before: dict[str, Any] | None, req: dict[str, Any], exp: dict[str, Any],
                 act: dict[str, Any]) -> tuple[str, str]:
    """(clause, field) deciding the first rule field where two accepted STATEs differ."""
    e, a = rule_view(exp), rule_view(act)
    fields = [k for k in RULE_FIELDS if k in e and e.get(k) != a.get(k)]
    if not fields:
        return "", ""
    cmd = req.get("cmd")
    last_play = (req.get("action") or {}).get("cards") or []
    # a play that reverses the order: a quad, or whatever size the spec's revolution takes (one side flipped)
    reversing = len(last_play) == 4 or (before is not None and cmd == "act" and any(
        s.get("order") not in (None, before.get("order")) for s in (e, a)))
    by = (before or {}).get("trick", {}) or {}
    if cmd == "new_game":
        return ("setup.first-lead" if "to_act" in fields else "setup.partial-hands"), fields[0]
    if cmd == "deal" or (before or {}).get("phase") == "exchange":
        if cmd == "deal" and fields[0] == "phase":  # an exchange where the reference has none, or none at all
            return "exchange.scum", "phase"
        if "hands" in fields:
            return (_deal_exchange(before, e, a) if cmd == "deal" else "exchange.order"), "hands"
        return "exchange.order", fields[0]
    for f in ("phase", "finished"):
        if f in fields:
            return ("deal.end" if e.get("phase") in ("deal_over", "game_over") or a.get("phase") != "play"
                    else "flow.out"), f
    if "scores" in fields:
        return "score.points", "scores"
    if "hands" in fields and e.get("phase") in ("deal_over", "game_over"):
        return "deal.end", "hands"  # the cards the last player keeps when the deal ends
    if "order" in fields:
        return ("revolution.quad-reverses" if reversing else "revolution.order"), "order"
    if "hands" in fields:
        return "play.own-cards", "hands"
    if _asked_again(before, req, e, a):
        return "pass.final", "to_act"
    if (e.get("trick") is None) != (a.get("trick") is None):
        seat = req.get("player")
        out = isinstance(seat, int) and seat < len(e.get("hands") or []) and not e["hands"][seat]
        return ("revolution.no-clear" if reversing and not out else "trick.end"), "trick"
    if "passed" in fields:
        return "pass.final", "passed"
    if "to_act" in fields:
        if e.get("trick") is None:  # the trick ended: its winner is the last player (this request's, for a play)
            played = cmd == "act" and (req.get("action") or {}).get("type") == "play"
            winner = req.get("player") if played else by.get("by") if isinstance(by, dict) else None
            hands = e.get("hands") or []
            if winner is not None and winner < len(hands) and not hands[winner]:
                return "lead.next-active", "to_act"
            return "flow.trick-won", "to_act"
        return "turn.order", "to_act"
    return "flow.follow", fields[0]


def _deal_exchange(before: dict[str, Any] | None, e: dict[str, Any], a: dict[str, Any]) -> str:
    """The exchange clause of a later deal whose hands differ: the vice places' swap when only the
    second and the second-to-last of the previous ranking hold other cards, else the best cards."""
    ranking = list((before or {}).get("finished") or [])
    differ = {s for s, (x, y) in enumerate(zip(e.get("hands") or [], a.get("hands") or [])) if x != y}
    if len(ranking) >= 4 and differ and differ <= {ranking[1], ranking[-2]}:
        return "exchange.vice"
    return "exchange.best"


def diverge(req: dict[str, Any], expected: dict[str, Any], actual: dict[str, Any],
            before: dict[str, Any] | None, refusal_rule: Any = None) -> Finding | None:
    """The rule divergence of one reply from the reference's, or None (representation aside).

    `refusal_rule(action_notation) -> clause` names why the reference refuses an extra legal
    action (the reference's own check at that point)."""
    cmd = req.get("cmd")
    if expected["ok"] != actual["ok"]:
        if expected["ok"]:
            refused_by = (actual.get("error") or {}).get("rule") if isinstance(actual.get("error"), dict) else ""
            return Finding(allowing_clause(before, req, str(refused_by or "")),
                           f"{cmd} {_what(req)} refused, the reference accepts it", engine_error(actual))
        rule = (expected.get("error") or {}).get("rule") or "protocol"
        return Finding(rule, f"{cmd} {_what(req)} accepted, the reference refuses it by {rule}")
    if not expected["ok"]:
        return None
    if cmd == "legal":
        if actual.get("player") != expected.get("player"):
            clause = state_clause(before, req, dict(before or {}, to_act=expected.get("player")),
                                  dict(before or {}, to_act=actual.get("player")))[0] if before else "turn.order"
            return Finding(clause or "turn.order", f"legal is for seat {actual.get('player')!r}, "
                           f"the reference's seat to act is {expected.get('player')!r}")
        exp = {action_notation(x) for x in expected["actions"]}
        got = notations(actual["actions"])  # read once for a long list a trace keeps (`trace.Actions`)
        extra, missing = sorted(set(got) - exp), sorted(exp - set(got))
        if extra:
            clause = refusal_rule(extra[0]) if refusal_rule else "flow.follow"
            return Finding(clause or "flow.follow", f"legal lists {extra[0]!r}, which the reference refuses by {clause}"
                           + (f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""))
        if missing:
            act = {"cmd": "act", "player": expected.get("player"), "action": _action_of(missing[0])}
            return Finding(allowing_clause(before, act), f"legal leaves out {missing[0]!r}, which the reference allows")
        if len(got) != len(set(got)):
            return Finding("protocol", "legal lists an action twice", kind="protocol")
        return None
    if cmd not in ("new_game", "deal", "act"):
        return None
    clause, name = state_clause(before, req, expected["state"], actual["state"])
    if not clause:
        return None
    e, a = canonical_state(expected["state"]), canonical_state(actual["state"])
    return Finding(clause, f"after {cmd} {_what(req)}: {name} is {a.get(name)!r}, the reference has {e.get(name)!r}")


def _what(req: dict[str, Any]) -> str:
    if req.get("cmd") == "act":
        action = req.get("action") or {}
        try:
            text = action_notation(action)
        except Exception:  # noqa: BLE001 - a malformed action is shown raw
            text = repr(action)
        return f"seat {req.get('player')} {'plays ' if action.get('type') == 'play' else ''}{text}"
    if req.get("cmd") == "new_game":
        return f"({req.get('config')})"
    return ""


def _action_of(text: str) -> dict[str, Any]:
    if text == "pass":
        return {"type": "pass"}
    if text.startswith("give "):
        return {"type": "give", "cards": text[5:].split()}
    return {"type": "play", "cards": list(sort_cards(text.split()))}


class SchemaSampler:
    """Validates replies against the shipped schemas (`wire.reply_problems`): the first reply of
    each kind (command, ok, phase, keys) in a run, so a conforming engine pays ~15 ms once per
    kind and a malformed one is caught as soon as its replies change shape."""

    def __init__(self) -> None:
        self.seen: set[tuple[Any, ...]] = set()

    def __call__(self, cmd: str, reply: Any) -> list[str]:
        from ..protocol import wire

        if cmd not in wire.REPLY_FOR:
            return []
        if not isinstance(reply, dict):
            return wire.reply_problems(cmd, reply)
        state = reply.get("state")
        kind = (cmd, reply.get("ok"), tuple(sorted(reply)),
                tuple(sorted(state)) + (state.get("phase"),) if isinstance(state, dict) else None)
        if kind in self.seen:
            return []
        self.seen.add(kind)
        return wire.reply_problems(cmd, plain(reply))  # a long legal list kept compactly, read back


def check_seeded(req: dict[str, Any], ref: Session, actual: Any, before: dict[str, Any] | None,
                 rules: Ruleset, last_ranking: list[int] | None = None
                 ) -> tuple[Finding | None, dict[str, Any], Session | None]:
    """Compare the engine's reply to a seeded deal by its observables.

    `ref` is the reference before the request (left unchanged); `actual` a reply with a boolean
    `ok` (its shape already checked). Returns the finding (None when the
    deal is right), the reference's reply to compare with (the engine's hands put in), and the
    reference that adopted the engine's deal (None when the engine refused or the reference did)."""
    if req.get("cmd") == "new_game":
        own = Session(rules)
        first = own.handle(req)  # the config as the reference reads it (or its refusal)
        if not first.get("ok"):
            return diverge(req, first, actual, before), first, None
        config = own.game.config  # type: ignore[union-attr]
    elif ref.game is None:
        first = Session(rules).handle(req)
        return diverge(req, first, actual, before), first, None
    else:
        config = ref.game.config
    deck = config.deck
    canon_req = {k: v for k, v in req.items() if k != "seed"}
    canon_req["hands"] = round_robin(card_list(deck), config.players)
    canon = Session(rules)
    canon.game = ref.game.copy() if ref.game is not None and req.get("cmd") == "deal" else None
    expected = canon.handle(canon_req)
    if not expected.get("ok"):
        return diverge(req, expected, actual, before), expected, None
    if not actual.get("ok"):
        return diverge(req, expected, actual, before), expected, None
    state = actual["state"]
    hands = state.get("hands") or []
    got = Counter(c for h in hands for c in h)
    want = Counter(card_list(deck))
    if got != want:
        extra = sorted(set(got) - set(want)) + sorted(c for c, n in got.items() if n > 1)
        missing = sorted(set(want) - set(got))
        what = (f"{extra[0]!r} is dealt twice or is not in the deck" if extra
                else f"{missing[0]!r} is not dealt" if missing else "the hands are not the deck")
        return Finding("setup.players", f"after the seeded {req.get('cmd')}: {what} ({sum(got.values())} cards "
                       f"dealt, the deck has {sum(want.values())})"), expected, None
    sizes = [len(h) for h in hands]
    want_sizes = [len(h) for h in expected["state"]["hands"]]
    if sizes != want_sizes:
        # the deck is all dealt: sizes that differ are a deal from another seat, unless the
        # exchange that follows a later deal moved other card counts than the reference's
        dealt = [len(h) for h in canon_req["hands"]]
        moved = [w - d for w, d in zip(want_sizes, dealt)]  # the reference's exchange, per seat
        undone = [s - m for s, m in zip(sizes, moved)]
        if sorted(undone) == sorted(dealt):
            clause = "setup.dealing"
        else:
            clause = "exchange.best" if req.get("cmd") == "deal" else "setup.players"
        return Finding(clause, f"after the seeded {req.get('cmd')}: hand sizes are {sizes}, the reference deals "
                       f"{want_sizes}"), expected, None
    # the engine's own hands: what follows from them is compared like any reply
    adopted = Session(rules)
    if req.get("cmd") == "new_game":
        expected = adopted.handle(dict(canon_req, hands=[list(h) for h in hands]))
    else:
        expected = {**expected, "state": {**expected["state"], "hands": [list(h) for h in hands]}}
        try:
            ranking = last_ranking if last_ranking is not None else ref.game.last_ranking  # type: ignore[union-attr]
            deal = ref.game.deal + 1 if ref.game is not None else None  # the reference keeps its count of deals
            adopted.game = game_from_state(rules, config, canonical_state(state), ranking, deal)
        except (PositionError, KeyError, TypeError, ValueError):
            adopted = None  # type: ignore[assignment]
    return diverge(req, expected, actual, before), expected, adopted
