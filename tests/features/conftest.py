"""pytest-bdd step definitions of the conformance features, registered from the one step table.

Every phrase of `president.scenarios.steps.STEP_TEMPLATES` becomes a step (given/when/then) whose parsed
arguments build the same `Op` the conformance runner executes; the `world` fixture runs it
against `engine_client` (each test module chooses the engine: in-process or subprocess).
"""
from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from pytest_bdd import given, parsers, then, when

from president.protocol.client import InProcessClient
from president.scenarios.model import Mismatch, Op, ScenarioRun
from president.spec import default_spec
from president.scenarios.steps import GIVEN, PARSE_TYPES, STEP_TEMPLATES, THEN, WHEN, texts as step_texts

FEATURES_DIR = Path(__file__).resolve().parents[2] / "features"
_DECORATORS = {GIVEN: given, WHEN: when, THEN: then}


def pytest_configure(config: pytest.Config) -> None:
    spec = default_spec()
    for tag in [c.id for c in spec.clauses] + [s.id for s in spec.sections]:
        config.addinivalue_line("markers", f"{tag}: scenarios of spec clause or section {tag}")


class World(ScenarioRun):
    def run(self, op: Op) -> None:
        if op.key == "ai" and getattr(self, "_no_ai", False):
            pytest.skip("the engine has no AI")
        try:
            self.execute(op)
        except Mismatch as exc:
            pytest.fail(f"{op.text}: {exc}", pytrace=False)


@pytest.fixture
def engine_client():
    return InProcessClient()


@pytest.fixture
def world(engine_client) -> World:
    return World(engine_client)


def _step_function(key: str, fields: tuple[str, ...]):
    def step(world: World, **values):
        world.run(Op.of(key, **values))

    params = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in ("world", *fields)]
    step.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    step.__name__ = f"step_{key.replace('-', '_')}"
    return step


for _tpl in STEP_TEMPLATES:
    if _tpl.kind in _DECORATORS:
        for _text in step_texts(_tpl):  # a counted phrase has a singular and a plural
            _DECORATORS[_tpl.kind](parsers.parse(_text, extra_types=PARSE_TYPES))(
                _step_function(_tpl.key, _tpl.fields))
