"""The clause × engine table built from saved reports (after Bowtie's implementation report).

`build(reports)` gives the table as JSON, `text(table)` as text, `html(table)` as one page: a title,
each engine's root causes and fitted variant, a legend, the table grouped by spec section (each
cell linking to its evidence further down the same page: the deviation and its minimal scenario,
or the failing scenario), then the evidence. The AI section folds away when an engine offers no
AI. Every text that came from an engine is escaped.

A cell is one of `CELLS`: `passed` (its scenarios ran and passed, no deviation names it),
`deviation` (a deviation nothing explains names it, or a scenario of it failed), `house rule`
(every deviation naming it is explained by the engine's fitted variant), `blocked` (its scenarios
were stopped by another clause's deviation, which the cell names: not a deviation of its own),
`error` (a scenario of it crashed or broke the protocol), `toolkit error` (the toolkit failed in a
scenario of it: no verdict on the engine), `no AI` (an AI clause, and the engine
offers no AI) or `not run` (no scenario of it ran and no deviation names it).
"""
from __future__ import annotations

import html as _html
from typing import Any

from .saved import Report, ReportError, SavedDeviation

CELLS = ("passed", "deviation", "house rule", "blocked", "error", "toolkit error", "no AI", "not run")
LEGEND = {
    "passed": "its scenarios ran and passed, and no deviation names it",
    "deviation": "a deviation that no option value of the spec explains names it, or a scenario of it failed",
    "house rule": "every deviation naming it is explained by the engine's fitted variant (the option values shown)",
    "blocked": "its scenarios were stopped by another clause's deviation (named): not a deviation of its own",
    "error": "a scenario of it crashed, timed out or broke the protocol",
    "toolkit error": "the toolkit failed in a scenario of it (not the engine's fault): no verdict",
    "no AI": "an AI clause, and the engine offers no AI (hello.options.ai)",
    "not run": "no scenario of it ran (none selected, or skipped) and no deviation names it",
}
SHORT = {"passed": "pass", "deviation": "DEV", "house rule": "rule", "blocked": "blk", "error": "ERR", "toolkit error": "TOOL",
         "no AI": "noAI", "not run": "-"}
FAILURES = 100  # failing scenarios listed per engine, at most
AI_SECTION = "ai"


def _verdict(d: SavedDeviation) -> str:
    if d.house_rule:
        return f"explained by {d.house_rule}" + (" (declared)" if d.declared else "")
    return "partly explained" if d.partly else "no house rule explains it"


def _names(d: SavedDeviation, clause: str) -> bool:
    return d.clause == clause or clause in d.also


def _cell(rep: Report, number: int, clause: str, section: str, devs: list[SavedDeviation],
          failures: dict[str, str]) -> dict[str, Any]:
    """One engine's cell for one clause, with the anchor of its evidence on the page."""
    mine = [(j, d) for j, d in enumerate(devs, 1) if _names(d, clause)]
    c = rep.clause(clause)
    if any(not d.house_rule for _, d in mine):
        j, _ = next((j, d) for j, d in mine if not d.house_rule)
        return {"status": "deviation", "detail": "; ".join(d.difference for _, d in mine if not d.house_rule)[:300],
                "evidence": f"e{number}-d{j}"}
    if mine:
        return {"status": "house rule", "detail": ", ".join(sorted({d.house_rule or "" for _, d in mine})),
                "declared": all(d.declared for _, d in mine), "evidence": f"e{number}-d{mine[0][0]}"}
    outcome = c["outcome"]
    if outcome == "toolkit":
        return {"status": "toolkit error", "detail": "the toolkit failed in a scenario of this clause"}
    if outcome in ("error", "protocol"):
        return {"status": "error", "detail": outcome, "evidence": failures.get(clause)}
    if outcome == "fail":
        return {"status": "deviation", "detail": "a scenario of it failed", "evidence": failures.get(clause)}
    if outcome == "blocked":
        roots = list(c["blocked_by"])
        anchor = next((f"e{number}-d{j}" for j, d in enumerate(devs, 1) for r in roots if _names(d, r)), None)
        return {"status": "blocked", "detail": "blocked by " + ", ".join(roots), "blocked_by": roots,
                "evidence": anchor}
    if outcome == "pass":
        return {"status": "passed", "detail": ""}
    if section == AI_SECTION and not rep.offers_ai:
        return {"status": "no AI", "detail": "the engine offers no AI"}
    return {"status": "not run", "detail": ""}


def _engine(rep: Report, number: int) -> tuple[dict[str, Any], dict[str, str]]:
    """The engine's head of the page (root causes, fitted variant, totals) and its evidence."""
    devs = rep.deviations
    failures: dict[str, str] = {}
    failing: list[dict[str, Any]] = []
    for r in rep.scenario_results:
        if r.outcome in ("fail", "error", "protocol") and len(failing) < FAILURES:
            anchor = f"e{number}-s{len(failing) + 1}"
            failures.setdefault(r.clause, anchor)
            failing.append({"anchor": anchor, "id": r.id, "clause": r.clause, "outcome": r.outcome, "step": r.step,
                            "message": r.message[:2000], "root_cause": r.root.text() if r.root else None})
    lock = rep.lockstep
    head = {
        "command": rep.command, "name": rep.engine_name, "file": rep.path,
        "fitted_variant": rep.data["fit"], "fitted_line": rep.fitted_line, "offers_ai": rep.offers_ai,
        "deviations": len(devs), "failing": rep.failing,
        "scenarios": rep.data["scenarios"],
        "lockstep": None if lock is None else {"games": lock.games, "divergent": lock.failed, "errors": lock.errors},
        "root_causes": [{"anchor": f"e{number}-d{j}", "clause": d.clause, "also": d.also, "title": d.title,
                         "difference": d.difference, "verdict": _verdict(d), "partly": d.partly,
                         "hello_options": d.hello_options,
                         "blocked": d.blocked, "scenarios": d.scenarios, "games": d.games, "steps": d.steps,
                         "evidence": d.evidence, "engine_error": d.engine_error,
                         "minimal_scenario": d.gherkin, "confirmed": d.confirmed}
                        for j, d in enumerate(devs, 1)],
        "failures": failing,
        "more_failures": sum(r.outcome in ("fail", "error", "protocol") for r in rep.scenario_results) - len(failing),
    }
    return head, failures


def build(reports: list[Report]) -> dict[str, Any]:
    """The table as JSON: the spec's sections, the engines (root causes, fitted variant, counts,
    evidence), then clause → its title, section and one cell per engine."""
    if not reports:
        raise ValueError("a table needs at least one report")
    first = reports[0]
    for rep in reports[1:]:
        if rep.spec_version != first.spec_version:
            raise ReportError(rep.path, f"is a run of spec {rep.spec_version}, {first.path} of spec "
                                        f"{first.spec_version}: a table compares runs of one spec")
    engines: list[dict[str, Any]] = []
    rows: dict[str, dict[str, Any]] = {}
    heads = [_engine(rep, i) for i, rep in enumerate(reports, 1)]
    devs = [rep.deviations for rep in reports]
    for sid, _title, clauses in first.sections:
        for cid, ctitle in clauses:
            rows[cid] = {"title": ctitle, "section": sid,
                         "engines": [_cell(rep, i, cid, sid, devs[i - 1], heads[i - 1][1])
                                     for i, rep in enumerate(reports, 1)]}
    for i, (head, _) in enumerate(heads):
        head["counts"] = {k: sum(r["engines"][i]["status"] == k for r in rows.values()) for k in CELLS}
        engines.append(head)
    sections = [{"id": sid, "title": title, "clauses": [cid for cid, _ in clauses]}
                for sid, title, clauses in first.sections]
    return {"spec_version": first.spec_version, "game": first.data["spec"]["game"],
            "variant": first.data["spec"]["variant"], "engines": engines, "sections": sections, "clauses": rows}


def text(table: dict[str, Any]) -> str:
    """The table in text: the engines, one line per clause (a column per engine), the counts."""
    engines = table["engines"]
    out = ["engines:"] + [f"  [{i + 1}] {e['name']}: {e['command']}"[:160] for i, e in enumerate(engines)]
    out.append(f"{'clause':<34}" + "".join(f"[{i + 1}]".ljust(7) for i in range(len(engines))))
    for cid, row in table["clauses"].items():
        notes = "; ".join(f"[{i + 1}] {c['detail']}" for i, c in enumerate(row["engines"]) if c["status"] == "blocked")
        line = f"{cid:<34}" + "".join(SHORT[c["status"]].ljust(7) for c in row["engines"])
        out.append((line + notes).rstrip()[:160])
    out.append("")
    out.append("  ".join(f"{v} {k}" for k, v in SHORT.items()))
    for i, e in enumerate(engines):
        counts = ", ".join(f"{n} {k}" for k, n in e["counts"].items() if n)
        out.append(f"[{i + 1}] {counts}; {e['fitted_line']}"[:160])
    return "\n".join(out)


# --- the page ---------------------------------------------------------------------------------------

def esc(value: Any) -> str:
    return _html.escape("" if value is None else str(value), quote=True)


STYLE = ("body{font:14px/1.4 sans-serif;max-width:80em;margin:1em auto;padding:0 1em}"
         "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
         ".passed{background:#cfc}.deviation{background:#f99}.house-rule{background:#fd8}.blocked{background:#ddf}"
         ".error{background:#f6c}.no-ai,.not-run{color:#888}td a{color:inherit}"
         "pre{background:#f6f6f6;padding:.5em;overflow:auto}summary{font-weight:bold;cursor:pointer;margin:.5em 0}"
         "article{border-left:3px solid #ccc;padding-left:.8em;margin:1em 0}:target{background:#ffd}")


def _status(s: str) -> str:
    return s.replace(" ", "-").lower()


def _head_html(i: int, e: dict[str, Any]) -> list[str]:
    t = e["scenarios"]
    out = [f'<article id="e{i}"><h3>[{i}] {esc(e["name"])}</h3>',
           f"<p>command: <code>{esc(e['command'])}</code>"
           + (f" (report <code>{esc(e['file'])}</code>)" if e["file"] else "") + "</p>",
           f"<p>fitted variant: {esc(e['fitted_line'])}"
           + (f"; declare it in hello: <code>{esc((e['fitted_variant'] or {}).get('hello_options'))}</code>"
              if (e["fitted_variant"] or {}).get("hello_options") else "") + "</p>",
           f"<p>scenarios: {t['passed']} passed, {t['failed']} failed, {t['blocked']} blocked, {t['errors']} errors, "
           f"{t['skipped']} skipped" + ("" if e["lockstep"] is None else
                                        f"; lock-step: {e['lockstep']['games']} games, {e['lockstep']['divergent']} "
                                        f"divergent, {e['lockstep']['errors']} errors") + "</p>"]
    if not e["offers_ai"]:
        out.append("<p>offers no AI (hello.options.ai): the AI clauses are folded away for it below.</p>")
    if e["root_causes"]:
        out.append("<p>root causes, by blocked scenarios and divergent games:</p><ol>")
        out += [f'<li><a href="#{d["anchor"]}">{esc(d["clause"])}</a> [{esc(d["verdict"])}; blocks {d["blocked"]} '
                f'scenario(s), {d["games"]} game(s)]: {esc(d["title"])}</li>' for d in e["root_causes"]]
        out.append("</ol>")
    else:
        out.append("<p>no deviation.</p>")
    return out + ["</article>"]


def _evidence_html(i: int, e: dict[str, Any]) -> list[str]:
    out = [f"<h3>[{i}] {esc(e['name'])}</h3>"]
    for d in e["root_causes"]:
        also = f"; also breaks {esc(', '.join(d['also']))}" if d["also"] else ""
        out.append(f'<article id="{d["anchor"]}"><h4>deviation {esc(d["clause"])}: {esc(d["title"])}</h4>'
                   f"<p>{esc(d['difference'])}</p><p>{esc(d['verdict'])}{also}"
                   + (f"; declare it with <code>{esc(d['hello_options'])}</code>" if d["hello_options"] else "")
                   + "</p>" + "".join(f"<p>partly explained: {esc(x)}</p>" for x in d["partly"])
                   + f"<p>blocks {d['blocked']} scenario(s), {d['games']} lock-step game(s), "
                   f"{d['steps']} divergent step(s); its own failing scenarios: "
                   f"{esc(', '.join(d['scenarios']) or 'none')}</p>"
                   f"<p>evidence: {esc(d['evidence'])}</p>"
                   + (f"<p>engine said: {esc(d['engine_error'])}</p>" if d["engine_error"] else "")
                   + (f"<p>minimal scenario{' (confirmed on the engine)' if d['confirmed'] else ''}:</p>"
                      f"<pre>{esc(d['minimal_scenario'])}</pre>" if d["minimal_scenario"] else
                      "<p>no minimal scenario (not shrunk)</p>") + "</article>")
    for f in e["failures"]:
        out.append(f'<article id="{f["anchor"]}"><h4>{esc(f["outcome"].upper())} {esc(f["id"])}</h4>'
                   f"<p>at: {esc(f['step'])}</p><pre>{esc(f['message'])}</pre>"
                   + (f"<p>root cause: {esc(f['root_cause'])}</p>" if f["root_cause"] else "") + "</article>")
    if not e["root_causes"] and not e["failures"]:
        out.append("<p>nothing to show: no deviation, no failing scenario.</p>")
    if e["more_failures"] > 0:
        out.append(f"<p>and {e['more_failures']} more failing scenario(s): see the engine's report.</p>")
    return out


def _row(cid: str, row: dict[str, Any], columns: list[int]) -> str:
    cells = []
    for c in (row["engines"][i] for i in columns):
        label = c["detail"] if c["status"] == "blocked" else (
            c["status"] + (f": {c['detail']}" if c["status"] == "house rule" else ""))
        inner = f'<a href="#{esc(c["evidence"])}">{esc(label)}</a>' if c.get("evidence") else esc(label)
        cells.append(f'<td class="{_status(c["status"])}" title="{esc(c["detail"])}">{inner}</td>')
    return f'<tr><th scope="row" title="{esc(row["title"])}">{esc(cid)}</th>' + "".join(cells) + "</tr>"


def html(table: dict[str, Any]) -> str:
    """The page: title, each engine's root causes and fitted variant, legend, the table by section, evidence."""
    engines = table["engines"]
    title = f"{table['game']} ({table['variant']} {table['spec_version']}): {len(engines)} engine(s), clause by clause"
    out = [f"<h1>{esc(title)}</h1>", '<section id="engines"><h2>Engines</h2>']
    for i, e in enumerate(engines, 1):
        out += _head_html(i, e)
    out += ["</section>", '<section id="legend"><h2>Legend</h2><table>']
    out += [f'<tr><td class="{_status(k)}">{esc(k)}</td><td>{esc(v)}</td></tr>' for k, v in LEGEND.items()]
    out += [("</table><p>A cell links to its evidence below: the deviation and its minimal scenario, "
             "or the failing scenario.</p></section>"), '<section id="table"><h2>Clause × engine</h2>']
    everyone = list(range(len(engines)))
    with_ai = [i for i in everyone if engines[i]["offers_ai"]]
    for s in table["sections"]:
        if not s["clauses"]:
            continue
        # the AI clauses: folded away for the engines that offer no AI (all of them closed when none does)
        columns = (with_ai or everyone) if s["id"] == AI_SECTION else everyone
        folded = s["id"] == AI_SECTION and not with_ai
        left_out = [f"[{i + 1}]" for i in everyone if i not in columns]
        note = (" (no engine offers AI)" if folded else
                f" (not shown for {', '.join(left_out)}: no AI offered)" if left_out else "")
        head = "".join(f'<th title="{esc(engines[i]["command"])}">[{i + 1}] {esc(engines[i]["name"])}</th>'
                       for i in columns)
        out.append(f'<details id="section-{esc(s["id"])}"{"" if folded else " open"}>'
                   f"<summary>{esc(s['title'])} ({len(s['clauses'])} clauses){note}</summary>")
        out.append(f"<table><thead><tr><th>clause</th>{head}</tr></thead><tbody>")
        out += [_row(cid, table["clauses"][cid], columns) for cid in s["clauses"]]
        out.append("</tbody></table></details>")
    out += ["</section>", '<section id="evidence"><h2>Evidence</h2>']
    for i, e in enumerate(engines, 1):
        out += _evidence_html(i, e)
    out.append("</section>")
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>\n" + "\n".join(out) + "\n</body></html>\n")
