"""Localization: rule sheets rendered from the spec through gettext catalogs.

Public entry points (plain functions; the CLI in president/cmd_i18n.py is a thin layer):

- `render_sheet(spec, lang, fmt="txt", root=None) -> str` - one sheet (txt, md or html).
- `render_lines(spec, lang, root=None) -> list[(clause_ids, text)]` - every line of the
  sheet with the spec clause ids it states (for annotating reports).
- `render_all(spec, root) -> {"rules/<lang>.<fmt>": text}`.
- `Project.resolve(root=None, spec=None, out=None)`, `build_project(project)`,
  `generated_files(project)` - what `president build` writes.
- `run_checks(project) -> list[Problem]`, `register_check(fn)` - `president check`.
"""
from __future__ import annotations

from .build import Project, build_project, generated_files
from .catalogs import CATALOG_LANGS, LANGS, BuildError
from .check import register_check, run_checks
from .render import render_all, render_blocks, render_lines, render_sheet

__all__ = ["CATALOG_LANGS", "LANGS", "BuildError", "Project", "build_project", "generated_files", "register_check",
           "render_all", "render_blocks", "render_lines", "render_sheet", "run_checks"]
