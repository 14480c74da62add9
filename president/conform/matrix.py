"""Several engines side by side: one table, clause × engine (after Bowtie's implementation report).

The live runs of `president conform --engine A --engine B` are read as their saved reports would
be, so the table is the one `president report table` builds from saved files (`table`: its cells,
text and page).
"""
from __future__ import annotations

from typing import Any

from . import table as _table
from .report import Run, json_report
from .saved import Report

CELLS = _table.CELLS


def matrix(runs: list[Run]) -> dict[str, Any]:
    """The table as JSON: the engines (fitted variant, root causes, counts), then clause → engine → cell."""
    return _table.build([Report(json_report(run)) for run in runs])


def matrix_text(table: dict[str, Any]) -> str:
    return _table.text(table)


def matrix_html(table: dict[str, Any]) -> str:
    return _table.html(table)
