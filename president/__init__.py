"""President, CardVerse variant: rules-spec conformance and localization toolkit.

The public API, one import away (docs/api.md)::

    import president
    spec = president.load_spec()                       # the packaged CardVerse 1.1.0 spec
    rules = president.Ruleset.from_spec(spec)          # frozen, built once
    state = president.GameState.new(rules, players=4, seed=7)
    run = president.conform.run(["node", "engine.js"]) # the conformance run of an engine

Names are loaded on first use, so `import president` stays cheap.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._version import __version__

#: public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    "PresidentError": "president.errors", "IllegalAction": "president.errors", "SpecError": "president.errors",
    "CardError": "president.errors", "Problem": "president.errors",
    "Spec": "president.spec", "load_spec": "president.spec",
    "Card": "president.game.cards", "CardMask": "president.game.cards", "parse_cards": "president.game.cards",
    "card_list": "president.game.cards", "cards_text": "president.game.cards",
    "Ruleset": "president.game.ruleset", "Config": "president.game.ruleset",
    "GameState": "president.game.engine", "Observation": "president.game.engine", "Phase": "president.game.engine",
    "Action": "president.game.engine", "PASS": "president.game.engine", "action_text": "president.game.engine",
    "render_sheet": "president.i18n.render",
}

__all__ = [
    "__version__", "conform",
    "PresidentError", "IllegalAction", "SpecError", "CardError", "Problem", "Spec", "load_spec",
    "Card", "CardMask", "parse_cards", "card_list", "cards_text", "Ruleset", "Config",
    "GameState", "Observation", "Phase", "Action", "PASS", "action_text", "render_sheet",
]
assert set(__all__) == {"__version__", "conform", *_EXPORTS}

if TYPE_CHECKING:  # for type checkers and IDEs; at run time the names load on first use
    from . import conform
    from .errors import CardError, IllegalAction, PresidentError, Problem, SpecError
    from .game.cards import Card, CardMask, card_list, cards_text, parse_cards
    from .game.engine import PASS, Action, GameState, Observation, Phase, action_text
    from .game.ruleset import Config, Ruleset
    from .i18n.render import render_sheet
    from .spec import Spec, load_spec


def __getattr__(name: str) -> Any:
    import importlib

    if name == "conform":
        return importlib.import_module("president.conform")
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'president' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
