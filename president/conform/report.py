"""Conformance reports: text summary, JSON, JUnit XML, Cucumber JSON, annotated rule sheet.

Scenario outcomes and lock-step games are counted apart. The deviations (one per distinct rule
difference, `verdict`) and the protocol notes (representation differences the rules leave open)
are reported apart from the failures. The rule sheet's lines are passed in (`SheetLines`, from
`president.i18n.render.render_lines`), so this module does not depend on the renderer.
"""
from __future__ import annotations

import html
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from xml.etree import ElementTree as ET

from ..spec import Spec
from ..textsafe import inert, xml_text
from .lockstep import LockstepResult
from .messages import share_messages
from .runner import Outcome, ScenarioResult, clause_outcomes, is_ai_result, totals
from .stopped import Stop, html_rows, junit_case
from .toolkit import ToolkitError
from .verdict import Deviation

MARK = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "protocol": "PROTOCOL", "skip": "SKIP", "none": "----",
        "blocked": "BLOCKED", "variant": "VARIANT", "toolkit": "TOOLKIT"}
#: Exit codes of a run: 0 conforming, 1 the engine fails (or the run had to stop), 2 usage error,
#: 3 the toolkit failed (not the engine): a toolkit error cost an item or a phase of the run.
EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_TOOLKIT = 0, 1, 2, 3
REQUEST_CHARS = 160
LINE = 160  # the longest line of the text report, Gherkin steps aside
SheetLines = list[tuple[tuple[str, ...], str]]
#: The JSON report's format (president/schemas/report.schema.json, read back by `saved.Report`):
#: raised when a key is removed or changes meaning, never when one is added.
REPORT_VERSION = 1


@dataclass
class Run:
    """Everything a report needs about one conformance run."""

    spec: Spec
    results: list[ScenarioResult]
    lock: LockstepResult | None
    hello: dict[str, Any] | None = None
    engine: str = ""
    deviations: list[Deviation] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)
    ai_run: bool = True
    fit: Any = None  # the fitted variant (`fit.Fit`), None when no trace was fitted
    faults: list[str] = field(default_factory=list)  # protocol faults (one line per kind)
    toolkit_errors: list[ToolkitError] = field(default_factory=list)  # the toolkit's own bugs (each cost one item)
    worker_errors: list[str] = field(default_factory=list)  # items a lost --jobs/--cluster worker took with it
    stopped: Stop | None = None  # why and where the run had to stop (None: it went to its end)

    @property
    def scenario_results(self) -> list[ScenarioResult]:
        return self.results

    @property
    def ok(self) -> bool:
        """The engine conforms: nothing failed, was blocked or errored, no fault, no toolkit error, no stop."""
        return not (self.failing or self.faults or self.toolkit_errors or self.stopped)

    @property
    def exit_code(self) -> int:
        """3 when the toolkit failed (the verdict is incomplete), else 1 when the engine fails or the run
        had to stop (an engine error: `stopped`), else 0."""
        if self.toolkit_errors:
            return EXIT_TOOLKIT
        return EXIT_FAIL if self.failing or self.faults or self.stopped else EXIT_OK

    def summary(self) -> str:
        """A short text: the first screen (root causes, fitted variant, totals) and any toolkit error."""
        return "\n".join(first_screen(self) + toolkit_lines(self))

    def to_json(self) -> dict[str, Any]:
        """The JSON report (`--json`); toolkit errors without their traces (see `ToolkitError.to_json`)."""
        return json_report(self)

    @property
    def rule_results(self) -> list[ScenarioResult]:
        return [r for r in self.results if not is_ai_result(r)]

    @property
    def ai_results(self) -> list[ScenarioResult]:
        return [r for r in self.results if is_ai_result(r)]

    def clauses(self) -> dict[str, dict[str, Any]]:
        """Per clause: its outcome (a deviation on it fails it even when its own scenarios pass)."""
        base = clause_outcomes(self.spec, self.results)
        out: dict[str, dict[str, Any]] = {}
        for cid, outcome in base.items():
            mine = [r for r in self.results if r.clause == cid]
            devs = [d for d in self.deviations if d.clause == cid or cid in d.also]
            if outcome not in (Outcome.ERROR, Outcome.PROTOCOL, Outcome.TOOLKIT):
                if any(not d.declared for d in devs):
                    outcome = Outcome.FAIL
                elif devs:
                    outcome = "variant"
            out[cid] = {"outcome": str(outcome), "passed": sum(r.outcome == Outcome.PASS for r in mine), "scenarios": len(mine),
                        "blocked_by": sorted({r.blocked_by for r in mine if r.blocked_by}),
                        "deviations": [d.house_rule or d.title for d in devs],
                        "reasons": sorted({x for r in mine for x in r.reasons})}
        return out

    @property
    def failing(self) -> bool:
        t = totals(self.results)
        # a divergent lock-step game is a failure unless the variant the engine declares explains it
        lock_bad = self.lock is not None and (self.lock.errors or (self.lock.failed and (
            not self.deviations or any(not d.declared for d in self.deviations))))
        return bool(t["failed"] or t["errors"] or t["blocked"] or lock_bad
                    or any(not d.declared for d in self.deviations))


def cut(text: str, limit: int = REQUEST_CHARS) -> str:
    return text if len(text) <= limit else text[:limit - 15] + f"... ({len(text)} chars)"


def _message_lines(message: str, indent: str) -> list[str]:
    """A message cut line by line (an engine's stderr tail keeps its last line), later lines indented."""
    lines = message.splitlines() or [""]
    return [cut(f"{indent}{lines[0]}", LINE)] + [cut(f"{indent}  {line}", LINE) for line in lines[1:]]


def _lock_line(lock: LockstepResult) -> str:
    rate = round(lock.steps_per_s, 1)  # as the JSON keeps it: a saved report prints the same line
    return (f"lock-step: {lock.games} games, {lock.steps} steps, {lock.failed} divergent, {lock.errors} errors, "
            f"{rate:,.0f} steps/s" + (f", {len(lock.unfinished)} not played to the end" if lock.unfinished
                                      else ""))


def _fit_lines(run: Run) -> list[str]:
    fitted = run.fit
    if fitted is None:
        return []
    if fitted.variant:
        out = [cut(f"fitted variant: {fitted.line}", LINE), cut(f"  declare it in hello: {_hello(fitted)}", LINE)]
    elif fitted.baseline:
        out = ["fitted variant: none (no option value of the spec explains a deviation without adding others)"]
    else:
        out = ["fitted variant: the spec's defaults (no divergence)"]
    guesses = getattr(fitted, "guesses", ())
    if guesses:
        out.append(cut(f"  a guess, not advice: {_label(guesses)} (the scenarios alone do not show it; "
                       "lock-step games would confirm or refute it)", LINE))
    for j in fitted.partly:
        out.append(cut(f"  partly explained by {_label(j.variant)}: removes {', '.join(j.clauses('removed'))}; "
                       f"adds {', '.join(j.clauses('added'))}", LINE))
    return out


_CLAUSE = re.compile(r"[a-z]+\.[a-z][a-z0-9-]*")


def stop_reason(why: str) -> str:
    """What stopped one lock-step game, without its numbers: `not followable at pass.final`, or the
    reason's first words."""
    last = why.rsplit(": ", 1)[-1].strip()
    if why.startswith("not followable") and _CLAUSE.fullmatch(last):
        return f"not followable at {last}"
    return re.sub(r"\d+", "N", why.split(": ")[0])[:60]


def followed_line(lock: Any) -> str:
    """One line: how many lock-step games were followed to the end, and what stopped the others."""
    stopped = Counter(stop_reason(why) for _, why in lock.unfinished)
    line = f"followed to the end: {lock.games - len(lock.unfinished)} of {lock.games} lock-step games"
    if stopped:
        line += "; stopped: " + ", ".join(f"{n} {reason}" for reason, n in stopped.most_common())
    return cut(line, LINE)


def _hello(fitted: Any) -> str:
    from .fit import hello_line
    return hello_line(fitted.variant)


def _label(variant: Any) -> str:
    from .fit import label
    return label(variant)


def _weight(d: Deviation) -> str:
    parts = [f"{d.games} game(s)"] if d.games else []
    parts += [f"blocks {d.blocked} scenario(s)"] if d.blocked else []
    parts += [f"{len(d.scenarios)} own scenario(s)"] if d.scenarios else []
    return ", ".join(parts) or f"{d.steps} step(s)"


def _how(d: Deviation, repeated: set[str]) -> str:
    """The mechanism (when its clause has several deviations) and the context of its cause."""
    context = getattr(d, "context", "")
    how = d.mechanism.text() if d.clause in repeated and d.mechanism is not None else ""
    how = f"{how}; {context}" if how and context else how or context
    return f" ({how})" if how else ""


def _verdict(d: Deviation) -> str:
    if d.house_rule:
        return f"explained by {d.house_rule}" + (" (declared)" if d.declared else "")
    return "partly explained" if d.partly else "no house rule explains it"


def root_cause_lines(run: Run) -> list[str]:
    """The first screen: one line per root cause, ranked by how much of the engine it accounts for
    (the divergent games and the scenarios it blocks or fails, after explaining the others away)."""
    out = []
    repeated = {d.clause for d in run.deviations if sum(o.clause == d.clause for o in run.deviations) > 1}
    for i, d in enumerate(run.deviations, 1):
        head = f"{i:>2}. {d.clause}{_how(d, repeated)} [{_weight(d)}; {_verdict(d)}]: "
        room = LINE - len(head)
        title = d.title if len(d.title) <= room else d.title[:max(room - 3, 0)] + "..."
        out.append(cut(head + title, LINE))
    return out


def deviation_lines(run: Run) -> list[str]:
    out = []
    for d in run.deviations:
        how = f" [{d.mechanism.text()}]" if d.mechanism is not None else ""
        context = getattr(d, "context", "")
        how += f" ({context})" if context else ""
        out.append(cut(f"DEVIATION {d.clause}{how}: {d.title}", LINE))
        if d.house_rule:
            what = f"explained by house rule {d.house_rule}" + (
                " (declared)" if d.declared else f"; declare it with {d.hello_options}")
        else:
            what = "no house rule explains it"
        out.append(cut(f"  {what}" + (f"; also breaks {', '.join(d.also)}" if d.also else ""), LINE))
        out += [cut(f"  partly explained: {p}", LINE) for p in d.partly]
        out.append(cut(f"  {d.difference}", LINE))
        counts = [f"{len(d.scenarios)} scenario(s) of its own"] if d.scenarios else []
        counts += [f"blocks {d.blocked} scenario(s)"] if d.blocked else []
        counts += [f"{d.games} lock-step game(s), {d.steps} divergent step(s)"] if d.games else [
            f"{d.steps} divergent step(s)"]
        out.append(f"  {', '.join(counts)}")
        out.append(cut(f"  evidence: {d.evidence}", LINE))
        if d.engine_error:
            out.append(cut(f"  engine said: {d.engine_error}", LINE))
        if d.gherkin:
            out.append("  minimal scenario:\n" + "\n".join("    " + line for line in d.gherkin.splitlines()))
    return out


def totals_line(run: Run) -> str:
    t = totals(run.rule_results)
    line = (f"{len(run.rule_results)} scenarios: {t['passed']} passed, {t['failed']} failed, {t['blocked']} blocked, "
            f"{t['errors']} errors, {t['skipped']} skipped"
            + (f", {t['toolkit_errors']} toolkit error(s)" if t["toolkit_errors"] else "")
            + f"; {len(run.deviations)} deviation(s), "
            f"{len(run.notes)} protocol note(s)")
    if run.ai_results:
        a = totals(run.ai_results)
        line += f"; AI: {a['passed']}/{len(run.ai_results)} passed"
    if run.lock is not None:  # on lines of their own: no line is longer than LINE
        line += "\n" + _lock_line(run.lock) + "\n" + followed_line(run.lock)
    return line


def first_screen(run: Run) -> list[str]:
    """The engine, its stop (if it stopped), one line per root cause (ranked by how much of the engine each accounts for), the
    fitted variant with its hello.options line, what is only partly explained, and the totals."""
    out = [cut(f"engine: {run.engine}", LINE)] if run.engine else []
    if run.stopped is not None:
        out += [cut(line, LINE) for line in run.stopped.text_lines()]
    return out + cause_lines(run) + totals_line(run).split("\n")


def cause_lines(run: Run) -> list[str]:
    """The root causes and the fitted variant (the first screen without the engine and the totals)."""
    out = []
    if run.deviations:
        out.append("root causes, by how much of the engine each accounts for (divergent games, scenarios):")
        out += root_cause_lines(run)
    return out + _fit_lines(run)


def toolkit_lines(run: Run, limit: int = 5) -> list[str]:
    """The toolkit's own errors: not the engine's fault, each cost one item (exit code 3)."""
    errors = run.toolkit_errors
    if not errors:
        return []
    out = [f"toolkit errors: {len(errors)} (the toolkit failed, not your engine; each cost one item; exit code 3)"]
    out += [cut(f"  TOOLKIT {e.line()}", LINE) for e in errors[:limit]]
    if len(errors) > limit:
        out.append(f"  ... and {len(errors) - limit} more (the JSON report keeps them all)")
    return out


def summary_text(run: Run, verbose: bool = False) -> str:
    """The report for engine authors: first the root causes and the fitted variant (one screen),
    then the details: deviations, failing scenarios, the clause table, skips, notes."""
    results, lock = run.results, run.lock
    out = first_screen(run) + toolkit_lines(run)
    line = totals_line(run)
    out += ["", "details:"] if (run.deviations or run.fit is not None and run.fit.partly) else []
    if run.deviations:
        out += deviation_lines(run) + [""]
    for r in results:
        if r.outcome in (Outcome.FAIL, Outcome.ERROR, Outcome.PROTOCOL):
            out.append(cut(f"{MARK[r.outcome]} {r.id}", LINE))
            out.append(cut(f"  at: {r.step}", LINE))
            out += _message_lines(r.message, "  ")
            if r.root is not None and r.outcome == Outcome.FAIL:
                out.append(cut(f"  root cause: {r.root.text()}", LINE))
            if r.details and verbose:
                out.append("\n".join("  " + line for line in r.details.splitlines()))
    blocked = Counter(r.blocked_by for r in results if r.outcome == Outcome.BLOCKED)
    for clause, n in blocked.most_common():
        out.append(f"BLOCKED {n} scenario(s) by {clause} (root cause above; not deviations of their own clauses)")
    for e in run.toolkit_errors:
        out.append(cut(f"TOOLKIT {e.line()}", LINE))
        frames = [line for line in e.traceback.strip().splitlines() if line.strip(" ^~")]  # no caret lines
        out += [cut("  " + line, LINE) for line in frames[-3:]]
    clauses = run.clauses()
    out += ["", "clause                              outcome  scenarios  engine reasons"]
    for cid, c in clauses.items():
        if not c["scenarios"] and not verbose and c["outcome"] not in ("fail", "variant"):
            continue
        why = [f"blocked by {', '.join(c['blocked_by'])}"] if c["outcome"] == Outcome.BLOCKED else []
        out.append(cut(f"{cid:<36}{MARK[c['outcome']]:<9}{c['passed']}/{c['scenarios']:<9}"
                       f"{', '.join(why + c['reasons'])}", LINE))
    for reason, n in Counter(r.message for r in results if r.outcome == Outcome.SKIP).most_common():
        out.append(cut(f"SKIP {n} scenario(s): {reason}", LINE))
    if not run.ai_run:
        out.append("AI suite not run: the engine declares no AI levels (hello.options.ai)")
    if run.notes:
        out += ["", "protocol notes (representation the rules leave open; not failures):"]
        out += [cut(f"  NOTE {n['note']} ({n['seen']}x), e.g. {n['example']}", LINE) for n in run.notes]
    if lock is not None and lock.divergences:
        out.append("")
        shown: set[str] = set()
        for d in lock.divergences:
            if d.clause in shown or len(shown) >= 5:
                continue
            shown.add(d.clause)
            out.append(cut(f"{'FAIL' if d.kind == 'fail' else 'ERROR'} lock-step game {d.game} (seed {d.seed}), "
                           f"request {d.index} {json.dumps(d.request)}", LINE))
            out += _message_lines(f"[{d.clause}] {d.message}", "  ")
            if d.engine_error:
                out.append(cut(f"  engine said: {d.engine_error}", LINE))
    out += ["", line]
    return inert("\n".join(out))  # engine and catalog texts shown, never obeyed


def spec_outline(spec: Spec) -> dict[str, Any]:
    """What a saved report keeps of its spec: the sections and their clauses, in order."""
    return {"game": spec.game, "variant": spec.variant, "version": spec.version,
            "sections": [{"id": s.id, "title": s.title,
                          "clauses": [{"id": c.id, "title": c.title} for c in spec.clauses_in(s.id)]}
                         for s in spec.sections]}


def _kept(divergences: list[Any], limit: int = 100) -> list[Any]:
    """The first `limit` divergences, and the first of every other clause (all the text report shows)."""
    kept = divergences[:limit]
    seen = {d.clause for d in kept}
    for d in divergences[limit:]:
        if d.clause not in seen:
            seen.add(d.clause)
            kept.append(d)
    return kept


def json_report(run: Run) -> dict[str, Any]:
    """The run as JSON; each long text quoted more than once is kept once, in `messages` (see
    `president.conform.messages`: a repeat is `{"$ref": "#/messages/N"}`)."""
    lock, hello = run.lock, run.hello
    return share_messages({
        "report_version": REPORT_VERSION,
        "spec_version": run.spec.version,
        "spec": spec_outline(run.spec),
        "command": run.engine,
        "engine": {k: hello.get(k) for k in ("name", "version", "protocol", "spec_version", "options")} if hello else None,
        "scenarios": totals(run.rule_results),
        "ai_scenarios": totals(run.ai_results) if run.ai_run else None,
        "lockstep": None if lock is None else {
            "games": lock.games, "steps": lock.steps, "divergent": lock.failed, "errors": lock.errors,
            "steps_per_s": round(lock.steps_per_s, 1), "requests": lock.requests, "seconds": round(lock.seconds, 3),
            "jobs": lock.jobs, "unfinished": [{"game": g, "why": why} for g, why in lock.unfinished],
            "resynced": [{"game": g, "why": why} for g, why in lock.resynced]},
        "steps_per_s": round(lock.steps_per_s, 1) if lock else None,
        "clauses": run.clauses(),
        "deviations": [d.as_dict() for d in run.deviations],
        "fit": run.fit.as_dict() if run.fit is not None else None,
        "protocol_notes": run.notes,
        "failing": run.failing,
        "ok": run.ok,
        "exit_code": run.exit_code,
        "stopped": run.stopped.as_dict() if run.stopped is not None else None,
        "protocol_faults": list(run.faults),
        "toolkit_errors": [{k: v for k, v in e.to_json().items() if k != "trace"} for e in run.toolkit_errors],
        "worker_errors": list(run.worker_errors),
        # the root cause and the engine's own words apart: those words are stored once (`messages`)
        "scenario_results": [{**r.as_dict(), "section": r.section, "name": r.name,
                              "root_cause": r.root.message if r.root else None,
                              "root_engine_error": r.root.engine_error if r.root else ""} for r in run.results],
        "divergences": [d.as_dict() for d in _kept(lock.divergences)] if lock else [],
    })


def _xml_safe(element: ET.Element) -> ET.Element:
    """Every text and attribute of `element` (and below) without what XML 1.0 forbids."""
    for node in element.iter():
        node.attrib = {k: xml_text(v) for k, v in node.attrib.items()}
        if node.text:
            node.text = xml_text(node.text)
    return element


def junit_xml(run: Run) -> str:
    results, lock = run.results, run.lock
    t = totals(results)
    lock_fail = 1 if lock is not None and lock.failed else 0
    lock_err = 1 if lock is not None and not lock.failed and lock.errors else 0
    suite = ET.Element("testsuite", name=f"president-conformance-{run.spec.version}",
                       tests=str(len(results) + (1 if lock else 0)),
                       failures=str(t["failed"] + t["blocked"] + lock_fail),
                       errors=str(t["errors"] + t["toolkit_errors"] + lock_err),
                       skipped=str(t["skipped"]),
                       time=f"{sum(r.seconds for r in results) + (lock.seconds if lock else 0):.3f}")
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=r.clause, name=r.id, time=f"{r.seconds:.4f}")
        if r.outcome in (Outcome.FAIL, Outcome.BLOCKED):
            msg = r.message if r.outcome == Outcome.FAIL else f"blocked by {r.blocked_by}: {r.message}"
            ET.SubElement(case, "failure", message=msg).text = f"at: {r.step}\n{r.details}"
        elif r.outcome in (Outcome.ERROR, Outcome.PROTOCOL):
            ET.SubElement(case, "error", message=r.message).text = f"at: {r.step}\n{r.details}"
        elif r.outcome == Outcome.TOOLKIT and r.toolkit_error is not None:
            ET.SubElement(case, "error", message=r.message, type="toolkit").text = r.toolkit_error.traceback
        elif r.outcome == Outcome.SKIP:
            ET.SubElement(case, "skipped", message=r.message)
    if lock is not None:
        case = ET.SubElement(suite, "testcase", classname="lockstep", name=f"lockstep/{lock.games}-games",
                             time=f"{lock.seconds:.3f}")
        if lock.divergences:
            first = lock.divergences[0]
            tag = "failure" if lock_fail else "error"
            ET.SubElement(case, tag, message=f"{lock.failed} divergent game(s), {lock.errors} error(s)").text = "\n".join(
                f"game {d.game} seed {d.seed} request {d.index} [{d.clause}] {d.message}" for d in lock.divergences[:50]
            ) or first.message
    if run.stopped is not None:
        junit_case(suite, run.stopped)
    return ET.tostring(_xml_safe(suite), encoding="unicode", xml_declaration=True) + "\n"


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
                    blocked = f"blocked by {r.blocked_by} (the root cause; not this clause): " if r.blocked_by else ""
                    result["error_message"] = f"{blocked}{r.message}\n{r.details}".strip()
                steps.append({"keyword": kind.capitalize() + " ", "name": text, "result": result})
            elements.append({"id": r.id, "name": r.name, "keyword": "Scenario", "type": "scenario",
                             "tags": [{"name": "@" + r.clause}], "steps": steps})
        features.append({"id": section.id, "uri": f"features/{section.id}.feature", "name": section.title,
                         "keyword": "Feature", "elements": elements})
    return features


def title_lines(spec: Spec) -> SheetLines:
    """The sheet as clause titles (when no rendered sheet is given)."""
    out: SheetLines = [((), f"{spec.game} — {spec.variant} {spec.version}")]
    for section in spec.sections:
        out.append(((), section.title))
        out += [((c.id,), c.title) for c in spec.clauses_in(section.id)]
    return out


def _outcome_text(clause: dict[str, Any]) -> str:
    outcome = clause.get("outcome", "none")
    if outcome == Outcome.BLOCKED and clause.get("blocked_by"):
        return f"blocked by {', '.join(clause['blocked_by'])}"
    return str(outcome)


def _mark(states: list[str]) -> str:
    for m in ("toolkit", "error", "protocol", "fail", "blocked", "variant", "pass"):
        if m in states:
            return "error" if m in ("protocol", "toolkit") else m
    return "untested"


def annotated_sheet_html(run: Run, lang: str, lines: SheetLines | None = None, direction: str = "ltr") -> str:
    """The rule sheet in `lang` (`lines`), each line marked from its clauses' outcomes, then every
    clause the sheet has no line for (the decisions), the deviations and the lock-step games."""
    spec = run.spec
    clauses = run.clauses()
    lines = lines if lines is not None else title_lines(spec)
    rows: list[str] = []
    on_sheet: set[str] = set()

    def row(rules: tuple[str, ...], text: str) -> str:
        states = [clauses.get(r, {}).get("outcome", "none") for r in rules]
        mark = _mark(states) if rules else ""
        title = "; ".join(f"{r}: {_outcome_text(clauses.get(r, {}))}" for r in rules)
        badge = f'<span class="mark">{mark}</span> ' if mark else ""
        rule_attr = f' data-rule="{html.escape(" ".join(rules))}"' if rules else ""
        return (f'<p class="{mark or "plain"}"{rule_attr} title="{html.escape(title)}">{badge}'
                f'<bdi>{html.escape(text)}</bdi></p>')

    for rules, text in lines:
        on_sheet.update(rules)
        rows.append(row(rules, text))
    rest = [c for c in spec.clauses if c.id not in on_sheet]
    if rest:
        rows.append('<h2 dir="ltr">Decisions and clauses without a line on the sheet</h2>')
        rows += [row((c.id,), f"{c.id} — {c.title}" + (" (decision)" if c.decision else "")) for c in rest]
    if run.fit is not None and (run.fit.variant or run.fit.partly):
        rows.append('<h2 dir="ltr">Fitted variant</h2>')
        rows += [f'<p dir="ltr">{html.escape(line.strip())}</p>' for line in _fit_lines(run)]
    if run.deviations:
        rows.append('<h2 dir="ltr">Deviations</h2><ul dir="ltr">')
        for d in run.deviations:
            rule = (f"explained by house rule <code>{html.escape(d.house_rule)}</code>"
                    if d.house_rule else "partly explained" if d.partly else "no house rule explains it")
            rows.append(f'<li class="{"variant" if d.declared else "fail"}" data-rule="{html.escape(d.clause)}">'
                        f"<b>{html.escape(d.clause)}</b>"
                        + (f" [{html.escape(d.mechanism.text())}]" if d.mechanism is not None else "")
                        + (f" ({html.escape(d.context)})" if getattr(d, "context", "") else "")
                        + f": {html.escape(d.title)}: {html.escape(d.difference)}"
                        f" — {rule}; blocks {d.blocked} scenario(s), {d.games} lock-step game(s), {d.steps} step(s)."
                        + (f"<pre>{html.escape(d.gherkin)}</pre>" if d.gherkin else "") + "</li>")
        rows.append("</ul>")
    t = totals(run.results)
    summary = (f"{t['passed']} passed, {t['failed']} failed, {t['blocked']} blocked, {t['errors']} errors, "
               f"{t['skipped']} skipped" + (f", {len(run.toolkit_errors)} toolkit error(s) (not the engine's fault)"
                                            if run.toolkit_errors else ""))
    if run.lock is not None:
        summary += "; " + _lock_line(run.lock) + "; " + followed_line(run.lock)
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}" dir="{direction}"><head><meta charset="utf-8">'
            f"<title>{html.escape(spec.game)} {spec.version} — conformance</title><style>"
            ".pass .mark{background:#2a2;color:#fff}.fail .mark,.error .mark{background:#c22;color:#fff}"
            ".blocked .mark,.variant .mark{background:#c80;color:#fff}"
            ".untested .mark{background:#999;color:#fff}.mark{padding:0 .3em;border-radius:3px;font:12px monospace}"
            "</style></head><body>\n"
            f'<p dir="ltr">{html.escape(summary)}</p>\n'
            + "\n".join((html_rows(run.stopped) if run.stopped is not None else []) + rows) + "\n</body></html>\n")
