"""The engine protocol's messages as types (docs/protocol.md; JSON Schemas in president/schemas/protocol/).

These are the shapes a well-behaved engine sends and the client sends; a reply read from an engine
is only *checked* against them (`wire.reply_problems`) before code relies on a field, so code that
reads replies keeps `Reply` (any JSON object) until then.
"""
from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict, Union

#: A card as the protocol writes it: rank symbol then suit letter ("10H"), or a joker ("X1").
CardText: TypeAlias = str
Phase: TypeAlias = Literal["exchange", "play", "deal_over", "game_over"]


class Action(TypedDict):
    """`{"type": "play", "cards": [...]}`, `{"type": "pass"}` or `{"type": "give", "cards": [...]}`."""

    type: Literal["play", "pass", "give"]
    cards: NotRequired[list[CardText]]


class Trick(TypedDict):
    cards: list[CardText]
    by: int


class State(TypedDict):
    """STATE, field by field as docs/protocol.md describes it."""

    phase: Phase
    deal: int
    to_act: int | None
    order: Literal["normal", "reversed"]
    trick: Trick | None
    passed: list[int]
    hands: list[list[CardText]]
    finished: list[int]
    scores: list[int]


class ErrorInfo(TypedDict):
    code: str
    rule: str | None
    message: str


class HelloReply(TypedDict):
    ok: Literal[True]
    protocol: int
    name: str
    version: str
    variant: str
    spec_version: str
    options: dict[str, Any]


class StateReply(TypedDict):
    ok: Literal[True]
    state: State


class LegalReply(TypedDict):
    ok: Literal[True]
    player: int | None
    actions: list[Action]


class AiReply(TypedDict):
    ok: Literal[True]
    player: int
    action: Action


class ErrorReply(TypedDict):
    ok: Literal[False]
    error: ErrorInfo


class Config(TypedDict, total=False):
    """`new_game.config`: `players`, then any table option of the spec (defaults: the spec's)."""

    players: int
    revolution: bool
    deals: int
    equality: bool
    sequences: bool
    jokers: int
    first_lead: str
    leader_may_pass: bool
    scoring: str


class NewGame(TypedDict):
    cmd: Literal["new_game"]
    config: Config
    hands: NotRequired[list[list[CardText]]]
    seed: NotRequired[int]
    position: NotRequired[dict[str, Any]]


class Act(TypedDict):
    cmd: Literal["act"]
    player: int
    action: Action


class Deal(TypedDict):
    cmd: Literal["deal"]
    hands: NotRequired[list[list[CardText]]]


class Simple(TypedDict):
    """`hello`, `legal`, `state`, `quit`."""

    cmd: Literal["hello", "legal", "state", "quit"]


class AiRequest(TypedDict):
    cmd: Literal["ai"]
    player: int
    level: str
    seed: NotRequired[int]


Request: TypeAlias = Union[NewGame, Act, Deal, Simple, AiRequest]
#: What an engine answered, before it is checked: any JSON object (see `wire.reply_problems`).
Reply: TypeAlias = dict[str, Any]
#: A checked reply.
GoodReply: TypeAlias = Union[HelloReply, StateReply, LegalReply, AiReply, ErrorReply]

__all__ = ["Act", "Action", "AiReply", "AiRequest", "CardText", "Config", "Deal", "ErrorInfo", "ErrorReply",
           "GoodReply", "HelloReply", "LegalReply", "NewGame", "Phase", "Reply", "Request", "Simple", "State",
           "StateReply", "Trick"]
