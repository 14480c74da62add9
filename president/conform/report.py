"""Conformance reports: text summary per clause, JSON, JUnit XML, Cucumber JSON, annotated sheet."""
from __future__ import annotations

import html
import json
from typing import Any
from xml.etree import ElementTree as ET

from ..spec import Spec
from .lockstep import LockstepResult
from .runner import ScenarioResult, clause_outcomes, totals

MARK = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "skip": "SKIP", "none": "----"}


def summary_text(spec: Spec, results: list[ScenarioResult], lock: LockstepResult | None, engine: str = "",
                 verbose: bool = False) -> str:
    out = []
    if engine:
        out.append(f"engine: {engine}")
    for r in results:
        if r.outcome in ("fail", "error"):
            out.append(f"{MARK[r.outcome]} {r.id}\n  at: {r.step}\n  {r.message}")
            if r.details:
                out.append("\n".join("  " + line for line in r.details.splitlines()))
    by_clause = clause_outcomes(spec, results)
    out.append("")
    out.append("clause                              outcome  scenarios  engine reasons")
    for cid, outcome in by_clause.items():
        mine = [r for r in results if r.clause == cid]
        if not mine and not verbose:
            continue
        ok = sum(r.outcome == "pass" for r in mine)
        reasons = sorted({x for r in mine for x in r.reasons})
        out.append(f"{cid:<36}{MARK[outcome]:<9}{ok}/{len(mine):<9}{', '.join(reasons)}")
    for r in results:
        if r.outcome == "skip":
            out.append(f"SKIP {r.id}: {r.message}")
    if lock is not None and lock.divergences:
        out.append("")
        for d in lock.divergences[:5]:
            out.append(f"{'FAIL' if d.kind == 'fail' else 'ERROR'} lock-step game {d.game} (seed {d.seed}), "
                       f"request {d.index} {json.dumps(d.request)}\n  {d.message}")
            if d.details:
                out.append("\n".join("  " + line for line in d.details.splitlines()))
    t = totals(results)
    line = (f"{len(results)} scenarios: {t['passed']} passed, {t['failed']} failed, {t['errors']} errors, "
            f"{t['skipped']} skipped")
    if lock is not None:
        line += (f"; lock-step: {lock.games} games, {lock.steps} steps, {lock.failed} divergent, "
                 f"{lock.errors} errors, {lock.steps_per_s:,.0f} steps/s")
    out += ["", line]
    return "\n".join(out)


def json_report(spec: Spec, results: list[ScenarioResult], lock: LockstepResult | None,
                hello: dict[str, Any] | None = None) -> dict[str, Any]:
    t = totals(results)
    out: dict[str, Any] = dict(t)
    if lock is not None:
        out["failed"] += lock.failed
        out["errors"] += lock.errors
    out.update({
        "spec_version": spec.version,
        "engine": {k: hello.get(k) for k in ("name", "version", "protocol", "spec_version", "options")} if hello else None,
        "clauses": clause_outcomes(spec, results),
        "scenarios": [r.as_dict() for r in results],
        "steps_per_s": round(lock.steps_per_s, 1) if lock else None,
        "lockstep": None if lock is None else {
            "games": lock.games, "steps": lock.steps, "requests": lock.requests, "seconds": round(lock.seconds, 3),
            "divergences": [d.as_dict() for d in lock.divergences]},
    })
    return out


def junit_xml(spec: Spec, results: list[ScenarioResult], lock: LockstepResult | None) -> str:
    t = totals(results)
    suite = ET.Element("testsuite", name=f"president-conformance-{spec.version}",
                       tests=str(len(results) + (1 if lock else 0)), failures=str(t["failed"]),
                       errors=str(t["errors"]), skipped=str(t["skipped"]),
                       time=f"{sum(r.seconds for r in results) + (lock.seconds if lock else 0):.3f}")
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=r.clause, name=r.id, time=f"{r.seconds:.4f}")
        if r.outcome == "fail":
            ET.SubElement(case, "failure", message=r.message).text = f"at: {r.step}\n{r.details}"
        elif r.outcome == "error":
            ET.SubElement(case, "error", message=r.message).text = f"at: {r.step}\n{r.details}"
        elif r.outcome == "skip":
            ET.SubElement(case, "skipped", message=r.message)
    if lock is not None:
        case = ET.SubElement(suite, "testcase", classname="lockstep", name=f"lockstep/{lock.games}-games",
                             time=f"{lock.seconds:.3f}")
        for d in lock.divergences:
            tag = "failure" if d.kind == "fail" else "error"
            ET.SubElement(case, tag, message=d.message).text = f"game {d.game} seed {d.seed} request {d.index}\n{d.details}"
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"


def cucumber_json(spec: Spec, results: list[ScenarioResult]) -> list[dict[str, Any]]:
    """Cucumber's JSON report format: one feature per section, one element per scenario."""
    features = []
    for section in spec.sections:
        mine = [r for r in results if r.section == section.id]
        if not mine:
            continue
        elements = []
        for r in mine:
            steps = []
            for kind, text, status in r.steps:
                result: dict[str, Any] = {"status": status, "duration": 0}
                if status == "failed":
                    result["error_message"] = f"{r.message}\n{r.details}".strip()
                steps.append({"keyword": kind.capitalize() + " ", "name": text, "result": result})
            elements.append({"id": r.id, "name": r.name, "keyword": "Scenario", "type": "scenario",
                             "tags": [{"name": "@" + r.clause}], "steps": steps})
        features.append({"id": section.id, "uri": f"features/{section.id}.feature", "name": section.title,
                         "keyword": "Feature", "elements": elements})
    return features


def sheet_lines(spec: Spec, lang: str) -> list[tuple[tuple[str, ...], str]]:
    """(clause ids, text) per line of the rule sheet in `lang`; clause titles if it cannot be rendered."""
    try:
        from ..i18n.render import render_lines
    except ImportError:
        render_lines = None
    if render_lines is not None:
        try:
            return render_lines(spec, lang)
        except Exception:  # noqa: BLE001 - missing catalog: fall back to the clause titles
            pass
    out: list[tuple[tuple[str, ...], str]] = [((), f"{spec.game} — {spec.variant} {spec.version}")]
    for section in spec.sections:
        out.append(((), section.title))
        out += [((c.id,), c.title) for c in spec.clauses_in(section.id)]
    return out


def annotated_sheet_html(spec: Spec, results: list[ScenarioResult], lang: str) -> str:
    """The rule sheet in `lang`, each line marked from its clauses' outcomes (fail > error > pass)."""
    outcomes = clause_outcomes(spec, results)
    rows = []
    for rules, text in sheet_lines(spec, lang):
        states = [outcomes.get(r, "none") for r in rules]
        if not rules:
            mark = ""
        elif "error" in states:
            mark = "error"
        elif "fail" in states:
            mark = "fail"
        elif "pass" in states:
            mark = "pass"
        else:
            mark = "untested"
        title = "; ".join(f"{r}: {outcomes.get(r, 'none')}" for r in rules)
        badge = f'<span class="mark">{mark}</span> ' if mark else ""
        rule_attr = f' data-rule="{html.escape(" ".join(rules))}"' if rules else ""
        rows.append(f'<p class="{mark or "plain"}"{rule_attr} title="{html.escape(title)}">{badge}'
                    f'<bdi>{html.escape(text)}</bdi></p>')
    t = totals(results)
    try:
        from ..i18n.render import text_direction

        direction = text_direction(lang)
    except ImportError:  # pragma: no cover - Babel is a runtime dependency
        direction = "ltr"
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}" dir="{direction}"><head><meta charset="utf-8">'
            f"<title>{html.escape(spec.game)} {spec.version} — conformance</title><style>"
            ".pass .mark{background:#2a2;color:#fff}.fail .mark,.error .mark{background:#c22;color:#fff}"
            ".untested .mark{background:#999;color:#fff}.mark{padding:0 .3em;border-radius:3px;font:12px monospace}"
            "</style></head><body>\n"
            f"<p>{t['passed']} passed, {t['failed']} failed, {t['errors']} errors, {t['skipped']} skipped</p>\n"
            + "\n".join(rows) + "\n</body></html>\n")
