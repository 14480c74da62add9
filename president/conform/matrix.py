"""Several engines side by side: one table, clause × engine (after Bowtie's implementation report).

Each cell is one of: `passed` (its scenarios ran and passed, no deviation names it), `deviation`
(a deviation nothing explains names it, or a scenario of it failed, was blocked or errored),
`house rule` (every deviation naming it is explained by the engine's fitted variant; the cell
gives the option values) or `not run` (no scenario of it ran and no deviation names it).
"""
from __future__ import annotations

import html
from typing import Any

from .report import Run

CELLS = ("passed", "deviation", "house rule", "not run")


def cell(run: Run, clause: str, outcome: str) -> dict[str, Any]:
    devs = [d for d in run.deviations if d.clause == clause or clause in d.also]
    if any(not d.house_rule for d in devs):
        return {"status": "deviation", "detail": "; ".join(d.difference for d in devs if not d.house_rule)[:300]}
    if devs:
        return {"status": "house rule", "detail": ", ".join(sorted({d.house_rule for d in devs if d.house_rule})),
                "declared": all(d.declared for d in devs)}
    if outcome in ("fail", "error", "protocol", "blocked"):
        return {"status": "deviation", "detail": outcome}
    if outcome == "pass":
        return {"status": "passed", "detail": ""}
    return {"status": "not run", "detail": ""}


def _name(run: Run) -> str:
    hello = run.hello or {}
    name = hello.get("name") or run.engine
    return f"{name} {hello.get('version') or ''}".strip()


def matrix(runs: list[Run]) -> dict[str, Any]:
    """The table as JSON: engines (with their fitted variant and counts), then clause → engine → cell."""
    spec = runs[0].spec
    per_run = [run.clauses() for run in runs]
    rows = {}
    for c in spec.clauses:
        rows[c.id] = {"title": c.title, "engines": [cell(run, c.id, per[c.id]["outcome"])
                                                   for run, per in zip(runs, per_run)]}
    engines = []
    for i, run in enumerate(runs):
        counts = {k: sum(r["engines"][i]["status"] == k for r in rows.values()) for k in CELLS}
        engines.append({"command": run.engine, "name": _name(run),
                        "fitted_variant": run.fit.as_dict() if run.fit is not None else None,
                        "deviations": len(run.deviations), "failing": run.failing, "counts": counts})
    return {"spec_version": spec.version, "engines": engines, "clauses": rows}


def matrix_text(table: dict[str, Any]) -> str:
    engines = table["engines"]
    short = {"passed": "pass", "deviation": "DEV", "house rule": "rule", "not run": "-"}
    out = ["engines:"] + [f"  [{i + 1}] {e['name']}: {e['command']}"[:160] for i, e in enumerate(engines)]
    out.append(f"{'clause':<34}" + "".join(f"[{i + 1}]".ljust(7) for i in range(len(engines))))
    for cid, row in table["clauses"].items():
        out.append(f"{cid:<34}" + "".join(short[c["status"]].ljust(7) for c in row["engines"]))
    out.append("")
    for i, e in enumerate(engines):
        fitted = (e["fitted_variant"] or {}).get("line") or "no fitted variant"
        counts = ", ".join(f"{n} {k}" for k, n in e["counts"].items())
        out.append(f"[{i + 1}] {counts}; {fitted}"[:160])
    return "\n".join(out)


def matrix_html(table: dict[str, Any]) -> str:
    engines = table["engines"]
    head = "".join(f"<th title=\"{html.escape(e['command'])}\">{html.escape(e['name'])}</th>" for e in engines)
    rows = []
    for cid, row in table["clauses"].items():
        cells = []
        for c in row["engines"]:
            cls = c["status"].replace(" ", "-")
            text = c["status"] + (f": {c['detail']}" if c["status"] == "house rule" else "")
            cells.append(f'<td class="{cls}" title="{html.escape(c["detail"])}">{html.escape(text)}</td>')
        rows.append(f'<tr><th scope="row" title="{html.escape(row["title"])}">{html.escape(cid)}</th>'
                    + "".join(cells) + "</tr>")
    foot = "".join(f"<td>{html.escape((e['fitted_variant'] or {}).get('line') or 'no fitted variant')}<br>"
                   + ", ".join(f"{n} {k}" for k, n in e["counts"].items()) + "</td>" for e in engines)
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>President {html.escape(table['spec_version'])}: engines side by side</title><style>"
            "table{border-collapse:collapse;font:13px sans-serif}td,th{border:1px solid #ccc;padding:2px 6px}"
            ".passed{background:#cfc}.deviation{background:#f99}.house-rule{background:#fd8}.not-run{color:#999}"
            "</style></head><body>\n<table>\n"
            f"<thead><tr><th>clause</th>{head}</tr></thead>\n<tbody>\n" + "\n".join(rows)
            + f"\n</tbody>\n<tfoot><tr><th>fitted variant</th>{foot}</tr></tfoot>\n</table>\n</body></html>\n")
