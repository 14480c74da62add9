"""Run the spec's AI examples (steps with `ai:` and `expect.ai_action`) against these AIs directly,
on the reference engine. The conformance runner does the same through the engine protocol."""
from __future__ import annotations

import random
from typing import Iterator

from ..game.cards import parse_cards
from ..game.engine import PASS, GameState, Phase, action_text
from ..spec import Example, Spec, default_spec
from .base import choose


def ai_examples(spec: Spec | None = None) -> Iterator[tuple[str, Example]]:
    """(clause id, example) of every example that has an `ai` step."""
    for clause in (spec or default_spec()).clauses:
        for ex in clause.examples:
            if any(step.kind == "ai" for step in ex.steps):
                yield clause.id, ex


def run_example(ex: Example, seed: int = 0) -> list[tuple[str, str, str]]:
    """Play the example; return (level, expected, actual) for each `ai` step with an expected action."""
    hands = [parse_cards(list(h)) for h in ex.hands] if ex.hands else None
    game = GameState.new(players=ex.players, revolution=ex.revolution, deals=ex.deals, hands=hands, seed=ex.seed)
    out = []
    for step in ex.steps:
        if step.kind == "play":
            game.act(step.seat, parse_cards(list(step.cards)))  # type: ignore[arg-type]
        elif step.kind == "pass":
            game.act(step.seat, PASS)  # type: ignore[arg-type]
        elif step.kind == "give":
            game.act(step.seat, parse_cards(list(step.cards)), give=True)  # type: ignore[arg-type]
        elif step.kind == "deal":
            game.start_next_deal([parse_cards(list(h)) for h in step.hands])
        elif step.kind == "ai":
            action = choose(step.ai, game.observation(step.seat), random.Random(seed))  # type: ignore[arg-type]
            expected = (step.expect.as_dict() if step.expect else {}).get("ai_action")
            if expected is not None:
                text = action_text(action, give=game.phase == Phase.EXCHANGE)
                actual = text[5:] if text.startswith("play ") else text
                out.append((step.ai or "", expected, actual))
    return out
