"""The project's own jobs: `build` renders the sheets and features from the spec, `check` verifies
the spec, catalogs, scenarios and generated files."""
from __future__ import annotations

# The checks beyond check.py's own register themselves in check.CHECKS when imported.
from . import lint_check, option_check, scenarios_check, sizes_check, steps_check, terms_check  # noqa: F401
from .build import Project, build_project
from .check import CHECKS, run_checks

__all__ = ["CHECKS", "Project", "build_project", "run_checks"]
