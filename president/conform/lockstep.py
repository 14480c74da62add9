"""Lock-step validation: random games played on the reference engine and the engine under test.

For each game the reference (in-process) plays a random trajectory first; the requests are then
pipelined to the engine under test in one go (legal + act per step, the occasional illegal
attempt, `deal` between deals), and every reply is compared: the legal set, the refusal or
acceptance, and the STATE after each request. The first divergence of a game is reported.
Deals are often rich in quads (whole ranks dealt together) so revolutions happen a lot.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..spec import Spec
from .client import Client, InProcessClient, ProtocolViolation
from ..scenarios.model import (action_notation, canonical_state, card_key, check_state_shape, state_diff,
                        state_text)


@dataclass
class Divergence:
    game: int
    seed: int
    index: int  # request number within the game
    request: dict[str, Any]
    message: str
    details: str = ""
    kind: str = "fail"  # fail | error

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "index": self.index, "request": self.request,
                "message": self.message, "details": self.details, "kind": self.kind}


@dataclass
class LockstepResult:
    games: int = 0
    steps: int = 0  # actions compared (legal + act)
    requests: int = 0
    seconds: float = 0.0
    divergences: list[Divergence] = field(default_factory=list)

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    @property
    def failed(self) -> int:
        return sum(d.kind == "fail" for d in self.divergences)

    @property
    def errors(self) -> int:
        return sum(d.kind == "error" for d in self.divergences)


def deck(spec: Spec) -> list[str]:
    return [r + s for r in spec.deck.ranks for s in spec.deck.suits]


def random_hands(rng: random.Random, spec: Spec, players: int) -> list[list[str]]:
    """Hands for one deal: a plain shuffle, a deal rich in quads, or a short partial deal."""
    cards = deck(spec)
    style = rng.random()
    hands: list[list[str]] = [[] for _ in range(players)]
    if style < 0.45:  # quads: whole ranks go to one player, a few broken up
        ranks = [cards[i:i + len(spec.deck.suits)] for i in range(0, len(cards), len(spec.deck.suits))]
        rng.shuffle(ranks)
        for i, group in enumerate(ranks):
            if rng.random() < 0.75:
                hands[i % players].extend(group)
            else:
                for c in group:
                    hands[rng.randrange(players)].append(c)
    else:
        rng.shuffle(cards)
        if style > 0.85:  # a short deal from part of the deck
            cards = cards[:rng.randint(players * 3, len(cards) // 2)]
        for i, c in enumerate(cards):
            hands[i % players].append(c)
    for seat, hand in enumerate(hands):  # every seat needs at least 3 cards (2 may be given away)
        while len(hand) < 3:
            donor = max(hands, key=len)
            if len(donor) <= 3:
                break
            hand.append(donor.pop())
    key = card_key(spec)
    return [sorted(h, key=key) for h in hands]


def _illegal_attempt(rng: random.Random, state: dict[str, Any], legal: set[str]) -> dict[str, Any] | None:
    seat = state["to_act"]
    if seat is None:
        return None
    hand = state["hands"][seat]
    if state["phase"] == "exchange":
        cards = rng.sample(hand, min(len(hand), rng.choice((1, 3))))
        action = {"type": "give", "cards": cards}
    elif rng.random() < 0.2:
        return {"cmd": "act", "player": (seat + 1) % len(state["hands"]), "action": {"type": "pass"}}
    else:
        cards = rng.sample(hand, min(len(hand), rng.randint(1, 4)))
        action = {"type": "play", "cards": cards}
        if not state["trick"] and rng.random() < 0.3:
            action = {"type": "pass"}
    if action_notation(action) in legal:
        return None
    return {"cmd": "act", "player": seat, "action": action}


def plan_game(spec: Spec, ref: Client, rng: random.Random, max_steps: int = 2000) -> list[tuple[dict, dict]]:
    """Play one random game on the reference; return (request, reference reply) pairs."""
    players = rng.randint(spec.players.min, spec.players.max)
    config = {"players": players, "revolution": rng.random() < 0.75, "deals": rng.choice((1, 1, 2, 3))}
    out: list[tuple[dict, dict]] = []

    def send(req: dict[str, Any]) -> dict[str, Any]:
        reply = ref.request(req)
        out.append((req, reply))
        return reply

    reply = send({"cmd": "new_game", "config": config, "hands": random_hands(rng, spec, players)})
    state = reply["state"]
    for _ in range(max_steps):
        if state["phase"] == "game_over":
            break
        if state["phase"] == "deal_over":
            state = send({"cmd": "deal", "hands": random_hands(rng, spec, players)})["state"]
            continue
        legal = send({"cmd": "legal"})
        actions = legal["actions"]
        if rng.random() < 0.08:
            bad = _illegal_attempt(rng, state, {action_notation(a) for a in actions})
            if bad is not None:
                send(bad)
        choice = rng.choice(actions)
        state = send({"cmd": "act", "player": legal["player"], "action": choice})["state"]
    return out


def compare(req: dict[str, Any], expected: dict[str, Any], actual: dict[str, Any]) -> tuple[str, str] | None:
    """(message, details) when the engine's reply diverges from the reference's, else None."""
    if not isinstance(actual.get("ok"), bool):
        raise ProtocolViolation(f"reply lacks a boolean ok: {actual!r}")
    cmd = req["cmd"]
    if expected["ok"] != actual["ok"]:
        if expected["ok"]:
            err = actual.get("error") or {}
            return (f"{cmd} refused ({err.get('code')}, rule {err.get('rule')}), the reference accepts it", "")
        return (f"{cmd} accepted, the reference refuses it ({expected['error'].get('rule')})", "")
    if not expected["ok"]:
        return None
    if cmd == "legal":
        if actual.get("player") != expected["player"]:
            return (f"legal is for seat {actual.get('player')!r}, expected seat {expected['player']}", "")
        if not isinstance(actual.get("actions"), list):
            raise ProtocolViolation(f"legal reply lacks actions: {actual!r}")
        exp = {action_notation(a) for a in expected["actions"]}
        got_list = [action_notation(a) for a in actual["actions"]]
        got = set(got_list)
        if exp != got or len(got_list) != len(got):
            dup = sorted({a for a in got_list if got_list.count(a) > 1})
            return ("legal actions differ",
                    f"  missing: {sorted(exp - got)}\n  extra:   {sorted(got - exp)}"
                    + (f"\n  listed twice: {dup}" if dup else ""))
        return None
    exp_state = canonical_state(expected["state"])
    act_state = canonical_state(check_state_shape(actual.get("state")))
    if exp_state != act_state:
        return ("state differs after " + cmd, state_diff(exp_state, act_state))
    return None


def run_lockstep(spec: Spec, client: Client, games: int = 200, seed: int = 0,
                 reference: Callable[[], Client] | None = None, max_divergences: int = 20,
                 progress: Callable[[int], None] | None = None) -> LockstepResult:
    ref = (reference or InProcessClient)()
    result = LockstepResult()
    card_key(spec)
    t0 = time.perf_counter()
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        rng = random.Random(game_seed)
        plan = plan_game(spec, ref, rng)
        requests = [req for req, _ in plan]
        result.games += 1
        try:
            replies = client.pipeline(requests)
        except ProtocolViolation as exc:
            at = min(exc.index, len(requests) - 1)
            result.divergences.append(Divergence(g, game_seed, at, requests[at], f"{type(exc).__name__}: {exc}",
                                                 kind="error"))
            if hasattr(client, "restart"):
                client.restart()
            continue
        result.requests += len(requests)
        prev_state: dict[str, Any] | None = None
        for i, ((req, expected), actual) in enumerate(zip(plan, replies)):
            try:
                diff = compare(req, expected, actual)
            except ProtocolViolation as exc:
                result.divergences.append(Divergence(g, game_seed, i, req, str(exc), kind="error"))
                break
            if diff is not None:
                before = "state before:\n" + state_text(canonical_state(prev_state)) if prev_state else ""
                result.divergences.append(Divergence(g, game_seed, i, req, diff[0],
                                                     "\n".join(x for x in (diff[1], before) if x)))
                break
            if req["cmd"] == "act" and expected["ok"]:
                result.steps += 1
            if expected.get("ok") and "state" in expected:
                prev_state = expected["state"]
        if progress:
            progress(g + 1)
        if len(result.divergences) >= max_divergences:
            break
    result.seconds = time.perf_counter() - t0
    return result
