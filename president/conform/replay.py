"""The replay loop: the reference follows an engine request by request (one loop for the toolkit).

For each request the engine answered, `Replayer.step` plays it on the reference, compares the two
replies (by the rules, `diagnose.diverge`, or the caller's own comparison), names the reference's
refusal rule for an extra legal action, and at a divergence follows the engine:

- the engine accepted and shows its STATE: the reference **adopts** it (`game_from_state`, the
  validator of `new_game.position` extended with every invariant of a reachable state), keeping
  its own count of deals and restoring the first-lead obligation (`option.first-lead.holder`)
  while no card of the first deal was played;
- the engine refused: its state is unchanged, so the reference goes back to its position before;
- a query (`legal`, `state`) changes nothing.

A STATE the rules cannot reach is a deviation of the clause whose invariant it breaks: the
divergence that led to it is named after that clause (`Unfollowable.clause`), never after the field
where the symptom shows. The reference then follows the engine as far as a consistent reading allows:

- passes that are not final (a seat asked again after passing, listed in `passed`): the reference
  holds the STATE with that seat's earlier pass no longer counted (`position.counted_passes`);
- any other such STATE (a finished seat to act...): the step carries the `Unfollowable` and the
  reference is *lost*: the next replies are not compared (`Step.skipped`) until the engine shows a
  STATE the reference can hold, which it adopts (`Step.adopted`), and the replay goes on from there.

A new game the engine refuses, or a table the reference cannot play, ends the game's replay
(`stopped`). A seeded deal
belongs to the engine: compared by its observables (`diagnose.check_seeded`) unless the engine
declares the spec's shuffle; the reference then goes on with the engine's hands.

Lock-step (`games`), the fit (`fit`), the root cause of a scenario (`root_cause`, below) and the
shrinker (`shrink`) all replay through this loop. `deadline` (`toolkit.Deadline`) is checked at
every step, so `--budget` stops a replay within one reference step.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from ..errors import IllegalAction
from ..game.cards import parse_cards
from ..game.engine import GameState, Phase, Ruleset
from ..game.position import Unfollowable, counted_passes, game_from_state
from ..protocol.client import ProtocolViolation
from ..protocol.server import Session
from ..scenarios.model import canonical_state, notation_action
from .deals import is_seeded
from .diagnose import Evidence, Finding, check_seeded, diverge, rule_view
from .toolkit import NO_DEADLINE, Deadline
from .trace import compact

Refusal = Callable[[str], str]
#: (request, the reference's reply, the engine's reply, the reference's STATE before, refusal rule) -> finding
Compare = Callable[[dict[str, Any], dict[str, Any], Any, "dict[str, Any] | None", "Refusal | None"], "Finding | None"]


def refusal_rule(game: GameState | None) -> Refusal:
    """Why the reference at `game` refuses an action (in `legal` notation): its own check there."""
    def why(text: str) -> str:
        if game is None:
            return "turn.order"
        action = notation_action(text)
        err = game.check(game.to_act, parse_cards(action.get("cards", [])), give=action["type"] == "give")
        return (err.rule or "") if err is not None else ""
    return why


def compare_rules(req: dict[str, Any], expected: dict[str, Any], actual: Any, before: dict[str, Any] | None,
                  refusal: Refusal | None) -> Finding | None:
    """The rule divergence of one reply (`diagnose.diverge`); a reply the rules cannot read is a
    protocol finding."""
    if actual == expected:
        return None
    if not isinstance(actual, dict) or not isinstance(actual.get("ok"), bool):
        return Finding("protocol", f"reply to {req.get('cmd')} lacks a boolean ok: {actual!r}"[:200], kind="protocol")
    try:
        return diverge(req, expected, actual, before, refusal)
    except (ProtocolViolation, KeyError, TypeError, AttributeError) as exc:
        return Finding("protocol", f"malformed reply to {req.get('cmd')}: {type(exc).__name__}: {exc}"[:200],
                       kind="protocol")


def override(variant: dict[str, Any] | None) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A new_game config under `variant`: its values replace the config's."""
    return lambda config: {**config, **(variant or {})}


@dataclass
class Step:
    """One request replayed: the replies, the finding (None: they agree by the rules), the reference
    position before it (`position`; a copy for an act or a deal) and its STATE (`before`); `held`:
    the invariant the engine's STATE breaks (the finding is named after its clause), `stop` when
    the reference cannot hold that STATE (it is lost until the engine shows one it can), `skipped`
    for a reply not compared while the reference is lost."""

    request: dict[str, Any]
    expected: dict[str, Any]
    actual: Any
    finding: Finding | None
    position: GameState | None
    before: dict[str, Any] | None
    adopted: bool = False
    stop: Unfollowable | None = None
    seeded: bool = False  # compared by its observables (a deal the engine made from its seed)
    held: Unfollowable | None = None
    skipped: bool = False


#: The reference's reply where a `quick` comparison found the engine's legal set equal (not built).
QUICK: dict[str, Any] = {"ok": True}


class Replayer:
    """The reference following one engine game, request by request (see the module docstring).

    `configure` maps a new_game config to the one the reference plays (a variant); a table the
    reference refuses under it is played under the request's own config. `compare` compares two
    replies (default: by the rules). `quick(reply, game)`: True when the engine's reply to `legal`
    is the reference's at `game` (a cheaper test than building and comparing the reply)."""

    def __init__(self, rules: Ruleset, configure: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
                 compare: Compare = compare_rules, spec_shuffle: bool = False, deadline: Deadline = NO_DEADLINE,
                 quick: Callable[[Any, GameState], bool] | None = None):
        self.rules, self.configure, self.compare, self.quick = rules, configure, compare, quick
        self.spec_shuffle, self.deadline = spec_shuffle, deadline
        self.ref = Session(rules)
        self.before: dict[str, Any] | None = None  # the reference's STATE before the next request
        self.config: dict[str, Any] = {}  # the new_game config the reference plays
        self.last_ranking: list[int] = []  # the ranking of the last deal over
        self.dealt = 0  # cards in the hands when the game started
        self.stopped: Unfollowable | None = None  # the game cannot go on (a new game refused...)
        self.lost: Unfollowable | None = None  # the engine's last STATE, which the reference cannot hold
        self.lost_deals = 0  # deals the engine accepted while the reference was lost
        self.held: Unfollowable | None = None  # what the last adoption read differently (counted_passes)

    # --- one request ----------------------------------------------------------------------
    def request(self, req: dict[str, Any]) -> dict[str, Any]:
        """The request as the reference plays it (a new_game under the variant)."""
        if req.get("cmd") != "new_game" or self.configure is None or not isinstance(req.get("config"), dict):
            return req
        return {**req, "config": self.configure(dict(req["config"]))}

    def step(self, req: dict[str, Any], actual: Any) -> Step:
        """Play `req` on the reference, compare with the engine's reply `actual`, follow the engine."""
        self.deadline.check()
        if self.stopped is not None:
            raise self.stopped
        cmd = req.get("cmd")
        if self.lost is not None:
            if cmd != "new_game":
                return self._wait(req, actual)
            self.lost = None
        game = self.ref.game
        if is_seeded(req) and (not self.spec_shuffle or (cmd == "deal" and (game is None or game.rng is None))):
            return self._seeded(req, actual)
        if cmd == "legal" and game is not None and self.quick is not None and self.quick(actual, game):
            return Step(req, QUICK, actual, None, game, self.before)  # the same legal set: nothing changes
        position = None if cmd == "new_game" else game.copy() if game is not None and cmd in ("act", "deal") else game
        before = self.before
        expected = self._handle(req)
        refusal = refusal_rule(position) if cmd == "legal" and position is not None else None
        finding = self.compare(req, expected, _as_held(actual), before, refusal)
        step = Step(req, expected, actual, finding, position, before)
        if finding is None:
            self._agreed(expected)
        elif finding.kind != "protocol":
            self._follow(step)
        return step

    def _handle(self, req: dict[str, Any]) -> dict[str, Any]:
        sent = self.request(req)
        if sent is not req:
            game = self.ref.game
            expected = self.ref.handle(sent)
            if expected.get("ok"):
                self.config = sent["config"]
                return expected
            self.ref.game = game  # the reference refuses the variant at this table: the table's own config
        expected = self.ref.handle(req)
        if req.get("cmd") == "new_game" and isinstance(req.get("config"), dict):
            self.config = dict(req["config"])
        return expected

    def _agreed(self, expected: dict[str, Any]) -> None:
        if expected.get("ok") and "state" in expected:
            self.before = expected["state"]
            game = self.ref.game
            if game is not None:
                if game.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
                    self.last_ranking = list(game.finished)
                if game.deal == 1 and not game.history and game.phase == Phase.PLAY:
                    self.dealt = sum(h.bit_count() for h in game.hands)

    def _follow(self, step: Step) -> None:
        """After a divergence: the reference takes up the engine's position."""
        req, actual, expected = step.request, step.actual, step.expected
        if actual.get("ok") and isinstance(actual.get("state"), dict):
            try:
                self.adopt(actual["state"], step.position, accepted=req.get("cmd"))
                step.adopted = True
                step.held = self.held
            except Unfollowable as exc:
                step.held = step.stop = self.lost = exc
                self.lost_deals = 0
            if step.held is not None and step.finding is not None and step.held.clause != "protocol":
                # the divergence that led to a STATE the spec cannot hold breaks that STATE's invariant
                step.finding = replace(step.finding, clause=step.held.clause,
                                       message=f"{step.finding.message}; the engine's STATE: {step.held.message}")
        elif not actual.get("ok") and expected.get("ok") and req.get("cmd") in ("act", "deal"):
            self.ref.game = step.position  # the engine refused: its state is unchanged
            if step.position is not None:
                self.before = step.position.to_wire()
        elif not actual.get("ok") and req.get("cmd") == "new_game":
            step.stop = self.stopped = Unfollowable(step.finding.clause if step.finding else "setup.players",
                                                    "the engine refused the new game")
        if step.stop is None and self.ref.game is None and req.get("cmd") == "new_game":
            step.stop = self.stopped = Unfollowable("setup.players", "the reference cannot play this table")

    def _wait(self, req: dict[str, Any], actual: Any) -> Step:
        """A reply while the reference is lost: not compared; a STATE it can hold is adopted."""
        position = self.ref.game
        step = Step(req, actual if isinstance(actual, dict) else {"ok": False}, actual, None, position,
                    self.before, skipped=True)
        if not isinstance(actual, dict) or not actual.get("ok") or not isinstance(actual.get("state"), dict):
            return step
        if req.get("cmd") == "deal":
            self.lost_deals += 1
        try:
            self.adopt(actual["state"], position, later=self.lost_deals)
        except Unfollowable:
            return step
        self.lost, self.lost_deals = None, 0
        step.adopted = True
        return step

    def adopt(self, state: dict[str, Any], position: GameState | None = None, accepted: Any = None,
              later: int = 0) -> GameState:
        """Set the reference at the engine's STATE (raises `Unfollowable` for a STATE the rules cannot
        reach). `position`: the reference before the request the engine `accepted` (its command):
        the reference keeps its own count of deals (`later`: deals dealt since `position`). Passes
        that are not final are read as the spec can hold them (`counted_passes`; `held` says so)."""
        self.held = None
        if accepted == "new_game":
            position = None  # a new game: nothing of the reference's last one carries over
        elif position is None:
            position = self.ref.game
        try:
            config = position.config if position is not None else self.rules.config(**self.config)
        except IllegalAction as exc:
            raise Unfollowable(exc.rule or "setup.players", f"the reference cannot play this table: {exc.message}") \
                from None
        deal = None
        if position is not None:
            deal = position.deal + later + (1 if accepted == "deal" else 0)
        elif accepted == "new_game":
            deal = 1
        try:
            canon = canonical_state(state)
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise Unfollowable("protocol", f"STATE cannot be read: {type(exc).__name__}: {exc}") from None
        if canon.get("phase") in ("deal_over", "game_over") and isinstance(canon.get("finished"), list):
            ranking = list(canon["finished"])
        elif position is not None and position.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
            ranking = list(position.finished)
        else:
            ranking = self.last_ranking
        try:
            game = game_from_state(self.rules, config, canon, ranking, deal)
        except Unfollowable as exc:
            counted = counted_passes(canon) if exc.clause == "pass.final" else None
            if counted is None:
                raise
            game = game_from_state(self.rules, config, counted, ranking, deal)
            self.held = exc
        if accepted == "new_game":
            self.dealt = sum(h.bit_count() for h in game.hands)
        holder = config.holder
        if holder is not None and game.deal == 1 and game.phase == Phase.PLAY and game.trick == 0 \
                and sum(h.bit_count() for h in game.hands) == self.dealt and game.to_act is not None \
                and game.hands[game.to_act] >> holder & 1:
            game.must = 1 << holder  # option.first-lead.holder: the first play is still due
        if game.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
            self.last_ranking = list(game.finished)
        self.ref.game = game
        self.before = game.to_wire()
        return game

    def _seeded(self, req: dict[str, Any], actual: Any) -> Step:
        """A deal the engine made from its seed, compared by its observables."""
        position = self.ref.game
        before = self.before
        sent = self.request(req)
        if not isinstance(actual, dict) or not isinstance(actual.get("ok"), bool):
            finding: Finding | None = Finding("protocol",
                                              f"reply to {req.get('cmd')} lacks a boolean ok: {actual!r}"[:200],
                                              kind="protocol")
            return Step(req, {"ok": True}, actual, finding, position, before, seeded=True)
        try:
            finding, expected, adopted = check_seeded(sent, self.ref, actual, before, self.rules, self.last_ranking)
        except (ProtocolViolation, KeyError, TypeError, AttributeError) as exc:
            finding = Finding("protocol", f"malformed reply to {req.get('cmd')}: {type(exc).__name__}: {exc}"[:200],
                              kind="protocol")
            return Step(req, {"ok": True}, actual, finding, position, before, seeded=True)
        if req.get("cmd") == "new_game" and isinstance(sent.get("config"), dict):
            self.config = dict(sent["config"])
        step = Step(req, expected, actual, finding, position, before, seeded=True)
        if finding is not None:
            if finding.kind != "protocol":
                self._follow(step)
            return step
        if adopted is None:
            if actual.get("ok"):  # a deal the reference cannot deal itself: it takes up the engine's
                self._follow(step)
            return step
        self.ref = adopted
        if req.get("cmd") == "new_game" and adopted.game is not None:
            self.dealt = sum(h.bit_count() for h in adopted.game.hands)
        self._agreed(expected)
        return step


def _as_held(actual: Any) -> Any:
    """The engine's reply compared with the passes of its STATE as the spec holds them: a seat that
    played the trick, or went out, since it passed is not counted (its pass was not final; the seat
    asked again, where that showed first, is compared as shown)."""
    state = actual.get("state") if isinstance(actual, dict) and actual.get("ok") else None
    counted = counted_passes(state, asked=False) if isinstance(state, dict) else None
    return actual if counted is None else {**actual, "state": counted}


__all__ = ["Replayer", "Step", "Unfollowable", "compare_rules", "override", "refusal_rule"]


def root_cause(sent: list[tuple[dict[str, Any], Any]], rules: Any = None,
               spec_shuffle: bool = False) -> tuple[Finding, Evidence] | None:
    """Replay what an engine was sent on the reference (`Replayer`): the first rule
    divergence of its replies. A seeded deal is compared by its observables (`deals`), unless the
    engine declares the spec's shuffle (`spec_shuffle`); the reference then goes on with the
    engine's hands. A malformed reply is the protocol's business, not a rule's (None)."""
    from ..game.position import reference_rules

    rep = Replayer(rules or reference_rules(), spec_shuffle=spec_shuffle)
    for upto, (req, actual) in enumerate(sent):
        step = rep.step(req, actual)
        if step.finding is not None:
            if step.finding.kind == "protocol":
                return None
            return step.finding, Evidence([r for r, _ in sent[:upto + 1]], step.expected, compact(actual),
                                          rule_view(step.before) if step.before else None, step.finding.clause)
    return None
