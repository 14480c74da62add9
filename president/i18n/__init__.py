"""Localization: rule sheets rendered from the spec through gettext catalogs, the catalogs' tools,
and the translated scenarios (`features`, `steps_catalog`)."""
from __future__ import annotations

from .catalogs import CATALOG_LANGS, LANGS, BuildError
from .render import render_all, render_blocks, render_lines, render_sheet

__all__ = ["CATALOG_LANGS", "LANGS", "BuildError", "render_all", "render_blocks", "render_lines", "render_sheet"]
