"""How the fit compares an engine's replies with the reference's, fast: what the rules see of a
reply (`view`, comparable with ==), the caches one trace's replays share (`TraceCache`: the
engine's replies canonicalised once, its legal lists as card masks), and the comparison of one
replay (`Views`: a finding computed once per answer at one step, a legal list compared with the
reference's legal actions without building the reference's reply)."""
from __future__ import annotations

from typing import Any, Sequence

from ..game.cards import CARD_NAMES
from ..game.engine import GameState, Phase
from ..protocol.client import ProtocolViolation
from ..scenarios.model import LATITUDE, STATE_FIELDS, action_notation
from .diagnose import Finding
from .replay import compare_rules
from .trace import Actions, notations

_ORDER = {name: i for i, name in enumerate(CARD_NAMES)}
_BIT = {name: 1 << i for i, name in enumerate(CARD_NAMES)}
UNSEEN = object()  # a reply not canonicalised yet


def _sorted(cards: Any) -> list[str]:
    return sorted(cards, key=lambda c: _ORDER.get(c, 1000))


def _engine_view(state: dict[str, Any]) -> dict[str, Any]:
    """`diagnose.rule_view` of an engine's STATE, with cards in deck order (what the reference writes)."""
    loose = LATITUDE.get(state.get("phase", ""), frozenset())
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
                loose = LATITUDE.get(state.get("phase", ""), frozenset())
                return ("state", {k: state.get(k) for k in STATE_FIELDS if k not in loose})
            return ("state", _engine_view(state))
        if "actions" in reply:
            actions = reply["actions"]
            if isinstance(actions, Actions):  # the set is made once for every reply listing it
                return ("legal", reply.get("player"), actions.derive("set", lambda a: frozenset(notations(a))))
            notes = (" ".join(a["cards"]) if a.get("type") == "play" else action_notation(a)
                     for a in actions) if reference else (action_notation(a) for a in actions)
            return ("legal", reply.get("player"), frozenset(notes))
    except (ProtocolViolation, KeyError, TypeError, AttributeError):  # a malformed reply: never equal
        return ("malformed", id(reply))
    return (True,)


class TraceCache:
    """What every replay of one trace reuses: the engine's replies canonicalised (`views`) and its
    legal lists as card masks (`legal`), each computed the first time a replay needs it."""

    def __init__(self, steps: int):
        self.views: list[Any] = [UNSEEN] * steps
        self.legal: dict[int, Any] = {}


class Views:
    """The fit's comparison of one trace's replies (with its `TraceCache`); the finding of one
    answer at one step is computed once (`memo`)."""

    def __init__(self, number: int, cache: TraceCache, memo: dict[Any, Finding | None] | None):
        self.number, self.views, self.legal, self.memo, self.index = number, cache.views, cache.legal, memo, 0
        self.seen = 0  # the last answer compared that differs from the engine's (`seen_key`)

    def __call__(self, req: dict[str, Any], expected: dict[str, Any], actual: Any, before: dict[str, Any] | None,
                 refusal: Any) -> Finding | None:
        if actual == expected:
            return None
        i = self.index
        seen = view(expected, reference=True)
        if self.views[i] is UNSEEN:
            self.views[i] = view(actual)
        if self.views[i] == seen:
            return None
        self.seen = hash(repr(seen))
        key = (self.number, i, self.seen)  # the same answer at the same step: the same finding
        if self.memo is not None and key in self.memo:
            return self.memo[key]
        finding = compare_rules(req, expected, actual, before, refusal)
        if self.memo is not None:
            self.memo[key] = finding
        return finding

    def legal_same(self, actual: Any, game: GameState) -> bool:
        """Is the engine's reply to `legal` at this step the reference's at `game` (same seat, same
        set of actions)? The engine's list is read once for every replay (`legal_masks`)."""
        split = self.legal.get(self.index, UNSEEN)
        if split is UNSEEN:  # (the kinds listed: give or not, the card masks, how many)
            masks = legal_masks(actual)
            split = self.legal[self.index] = None if masks is None else (
                frozenset(g for g, _ in masks), frozenset(m for _, m in masks), len(masks))
        if split is None or actual.get("player") != game.to_act:
            return False
        gives, plain, count = split
        mine = game.legal_actions() if game.phase in (Phase.PLAY, Phase.EXCHANGE) else []
        return len(mine) == count and gives <= {game.phase == Phase.EXCHANGE} and plain == frozenset(mine)


def seen_key(expected: Any) -> int:
    """What the memo of `Views` knows the reference's answer by: a hash of its view (`view`)."""
    return hash(repr(view(expected, reference=True)))


def legal_masks(reply: Any) -> frozenset[tuple[bool, int]] | None:
    """An engine's `legal` list as (give, card mask) pairs (a pass is the empty play), or None when
    it cannot be read that way or lists an action twice (then compared in full)."""
    if not isinstance(reply, dict) or not reply.get("ok"):
        return None
    actions = reply.get("actions")
    if isinstance(actions, Actions):  # made once for every reply listing it
        return actions.derive("masks", _masks)
    return _masks(actions) if isinstance(actions, list) else None


def _masks(actions: Sequence[Any]) -> frozenset[tuple[bool, int]] | None:
    out = set()
    bit = _BIT
    try:
        for a in actions:
            kind = a.get("type")
            if kind == "pass":
                out.add((False, 0))
            elif kind in ("play", "give") and a.get("cards"):
                cards = a["cards"]
                mask = 0
                for c in cards:
                    mask |= bit[c]
                if mask.bit_count() != len(cards):
                    return None
                out.add((kind == "give", mask))
            else:
                return None
    except (KeyError, TypeError, AttributeError):  # a card name the deck does not know, a malformed action
        return None
    return frozenset(out) if len(out) == len(actions) else None
