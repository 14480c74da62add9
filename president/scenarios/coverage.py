"""Clause coverage: every testable clause has a scenario, every scenario names a known clause."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..errors import Problem
from ..spec import Spec

#: Sections whose every testable clause must carry examples.
REQUIRED_SECTIONS = ("setup", "flow", "obligations", "score", "end", "special", "ai")
_TAG = re.compile(r"(?<!\S)@([a-z]+(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+)\b")


def coverage_problems(spec: Spec, features_dir: Path | None = None) -> list[Problem]:
    """Clauses without a scenario (those `pending` on another owner are left out) and feature
    tags naming no clause of the spec."""
    where = spec.path or "spec/president.yaml"
    problems = []
    for c in spec.clauses:
        if c.section in REQUIRED_SECTIONS and c.testable and not c.examples and not c.pending:
            problems.append(Problem(where, c.line, f"clauses.{c.id}", f"clause {c.id} has no scenario",
                                    "add an example under it (see docs/conformance.md)"))
    known = set(spec.clause_ids)
    if features_dir is not None and features_dir.is_dir():
        for path in sorted(features_dir.glob("**/*.feature")):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if line.lstrip().startswith("#"):
                    continue
                for tag in _TAG.findall(line):
                    if tag not in known:
                        problems.append(Problem(str(path), n, "", f"scenario tagged with unknown clause @{tag}",
                                                "tag scenarios with clause ids of spec/president.yaml"))
    return problems


def pending_clauses(spec: Spec) -> list[tuple[str, str]]:
    """(clause id, owner) of clauses whose examples are still to come."""
    return [(c.id, c.pending) for c in spec.clauses if c.pending and not c.examples]


def check_coverage(ctx: Any) -> list[Problem]:
    """`president check`: clause coverage of the spec's scenarios (hook for the check list)."""
    if ctx.spec is None:
        return []
    return coverage_problems(ctx.spec, ctx.project.features_dir)
