"""Conformance of any engine: scenarios (`runner`), random lock-step games (`lockstep`), root causes
(`diagnose`, `fit` of the variant, `verdict`) over the engine's `trace`s, minimal scenarios (`shrink`), reports (`report`, `localized`).

The library entry point is `run` (`api`): `run = president.conform.run(["node", "engine.js"]);
assert run.ok, run.summary()`."""
from .api import NoScenario, Run, run
from .runner import Outcome
from .toolkit import ToolkitError

__all__ = ["NoScenario", "Outcome", "Run", "ToolkitError", "run"]
