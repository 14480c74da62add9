"""Several engines side by side: one table, clause × engine (after Bowtie's implementation report).

Each cell is one of: `passed` (its scenarios ran and passed, no deviation names it), `deviation`
(a deviation nothing explains names it, or a scenario of it failed on its own clause), `house rule`
(every deviation naming it is explained by the engine's fitted variant; the cell gives the option
values), `blocked` (no deviation names it, but some of its scenarios were stopped by another
clause's deviation before they reached their own step: the cell names that root cause; a blocked
scenario is never a deviation of its own clause), `error` (a scenario of it errored: the engine
crashed, timed out or broke the protocol), `toolkit error` (the toolkit failed in one of its
scenarios: no verdict) or `not run` (no scenario of it ran and no deviation names it).
"""
from __future__ import annotations

import html
from typing import Any

from .report import Run
from .runner import Outcome

CELLS = ("passed", "deviation", "house rule", "blocked", "error", "toolkit error", "not run")


def cell(run: Run, clause: str, outcome: str, blocked_by: list[str] | None = None) -> dict[str, Any]:
    """The cell of `clause` for one run: `outcome` and `blocked_by` are the clause's (`Run.clauses`)."""
    devs = [d for d in run.deviations if d.clause == clause or clause in d.also]
    if outcome == Outcome.TOOLKIT:
        return {"status": "toolkit error", "detail": "the toolkit failed in a scenario of this clause"}
    if any(not d.house_rule for d in devs):
        return {"status": "deviation", "detail": "; ".join(d.difference for d in devs if not d.house_rule)[:300]}
    if devs:
        return {"status": "house rule", "detail": ", ".join(sorted({d.house_rule for d in devs if d.house_rule})),
                "declared": all(d.declared for d in devs)}
    if outcome in (Outcome.ERROR, Outcome.PROTOCOL):
        return {"status": "error", "detail": outcome}
    if outcome == Outcome.FAIL:
        return {"status": "deviation", "detail": outcome}
    if outcome == Outcome.BLOCKED:
        return {"status": "blocked", "detail": f"blocked by {', '.join(blocked_by or [])}".strip(),
                "blocked_by": list(blocked_by or [])}
    if outcome == Outcome.PASS:
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
        rows[c.id] = {"title": c.title, "engines": [cell(run, c.id, per[c.id]["outcome"], per[c.id]["blocked_by"])
                                                   for run, per in zip(runs, per_run)]}
    engines = []
    for i, run in enumerate(runs):
        counts = {k: sum(r["engines"][i]["status"] == k for r in rows.values()) for k in CELLS}
        engines.append({"command": run.engine, "name": _name(run),
                        "fitted_variant": run.fit.as_dict() if run.fit is not None else None,
                        "deviations": len(run.deviations), "failing": run.failing, "counts": counts,
                        "toolkit_errors": len(run.toolkit_errors)})
    return {"spec_version": spec.version, "engines": engines, "clauses": rows}


def matrix_text(table: dict[str, Any]) -> str:
    engines = table["engines"]
    short = {"passed": "pass", "deviation": "DEV", "house rule": "rule", "blocked": "blk", "error": "ERR",
             "toolkit error": "TOOL", "not run": "-"}
    out = ["engines:"] + [f"  [{i + 1}] {e['name']}: {e['command']}"[:160] for i, e in enumerate(engines)]
    out.append(f"{'clause':<34}" + "".join(f"[{i + 1}]".ljust(7) for i in range(len(engines))))
    for cid, row in table["clauses"].items():
        out.append(f"{cid:<34}" + "".join(short[c["status"]].ljust(7) for c in row["engines"]))
    out.append("")
    out.append("DEV deviation, rule house rule, blk blocked by another clause's deviation (see below), ERR engine error, "
               "TOOL toolkit error, - not run")
    blocked = [(i, cid, c["detail"]) for cid, row in table["clauses"].items() for i, c in enumerate(row["engines"])
               if c["status"] == "blocked"]
    for i, cid, detail in blocked:
        out.append(f"  [{i + 1}] {cid}: {detail}"[:160])
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
            text = c["status"] + (f": {c['detail']}" if c["status"] == "house rule" else
                                  f" ({c['detail']})" if c["status"] == "blocked" else "")
            cells.append(f'<td class="{cls}" title="{html.escape(c["detail"])}">{html.escape(text)}</td>')
        rows.append(f'<tr><th scope="row" title="{html.escape(row["title"])}">{html.escape(cid)}</th>'
                    + "".join(cells) + "</tr>")
    foot = "".join(f"<td>{html.escape((e['fitted_variant'] or {}).get('line') or 'no fitted variant')}<br>"
                   + ", ".join(f"{n} {k}" for k, n in e["counts"].items()) + "</td>" for e in engines)
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>President {html.escape(table['spec_version'])}: engines side by side</title><style>"
            "table{border-collapse:collapse;font:13px sans-serif}td,th{border:1px solid #ccc;padding:2px 6px}"
            ".passed{background:#cfc}.deviation{background:#f99}.house-rule{background:#fd8}.not-run{color:#999}"
            ".blocked{background:#eee}.error,.toolkit-error{background:#fcc;font-style:italic}"
            "</style></head><body>\n<table>\n"
            f"<thead><tr><th>clause</th>{head}</tr></thead>\n<tbody>\n" + "\n".join(rows)
            + f"\n</tbody>\n<tfoot><tr><th>fitted variant</th>{foot}</tr></tfoot>\n</table>\n</body></html>\n")
