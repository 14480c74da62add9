"""Conformance of any engine: scenarios (`runner`), random lock-step games (`lockstep`), root causes
(`diagnose`, `fit` of the variant, `verdict`) over the engine's `trace`s, minimal scenarios (`shrink`), reports (`report`, `localized`).

The library entry point is `run` (`api`): `run = president.conform.run(["node", "engine.js"]);
assert run.ok, run.summary()`. The names below are loaded on first use, so importing one module of
the package does not load them all."""
from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {"run": "api", "Run": "api", "NoScenario": "api", "Outcome": "runner", "ToolkitError": "toolkit"}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
