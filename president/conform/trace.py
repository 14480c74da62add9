"""Traces: what an engine was sent and what it answered, kept whole for the diagnosis.

A trace is one game as the engine played it: the `new_game` request (with its config, hands or
seed) and every later request, each with the engine's reply, in order. Scenarios and lock-step
games both keep theirs, so that a candidate variant (a set of option values) can be judged on all
of the engine's traces at once: replayed on the reference under that variant, does it remove
divergences and add none?
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Request = dict[str, Any]
Reply = Any  # a reply object, or None where the engine gave none (crash, timeout, not JSON)


@dataclass
class Trace:
    """One game of the engine: `source` is a scenario id or "game <n>"; `steps` are (request, reply)."""

    source: str
    steps: list[tuple[Request, Reply]] = field(default_factory=list)

    def add(self, request: Request, reply: Reply) -> None:
        self.steps.append((request, reply))

    @property
    def requests(self) -> list[Request]:
        return [req for req, _ in self.steps]

    @property
    def config(self) -> dict[str, Any]:
        """The `new_game` config of the trace ({} before the first new_game)."""
        for req, _ in self.steps:
            if req.get("cmd") == "new_game":
                return dict(req.get("config") or {})
        return {}

    def explicit_requests(self) -> list[Request]:
        """The requests with a seeded `new_game` replaced by one with the hands the engine dealt
        (a seed belongs to the engine: replayed on the reference, its own shuffle would deal others).
        A seeded later `deal` stays as it is: its cards before the exchange are not in any reply."""
        out = []
        for req, reply in self.steps:
            if (req.get("cmd") == "new_game" and "seed" in req and "hands" not in req and isinstance(reply, dict)
                    and reply.get("ok") and isinstance(reply.get("state"), dict)):
                req = {**{k: v for k, v in req.items() if k != "seed"}, "hands": reply["state"]["hands"]}
            out.append(req)
        return out

