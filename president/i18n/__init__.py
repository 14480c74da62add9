"""Localization: rule sheets rendered from the spec through gettext catalogs.

Public entry points (plain functions; the CLI in president/cmd_i18n.py is a thin layer):

- `render_sheet(spec, lang, fmt="txt", root=None) -> str` - one sheet (txt, md or html).
- `render_lines(spec, lang, root=None) -> list[(clause_ids, text)]` - every line of the
  sheet with the spec clause ids it states (for annotating reports).
- `render_all(spec, root) -> {"rules/<lang>.<fmt>": text}`.

`president build` and `president check` (Project, build_project, run_checks) live in
`president.project`.
"""
from __future__ import annotations

from .catalogs import CATALOG_LANGS, LANGS, BuildError
from .render import render_all, render_blocks, render_lines, render_sheet

__all__ = ["CATALOG_LANGS", "LANGS", "BuildError", "render_all", "render_blocks", "render_lines", "render_sheet"]
