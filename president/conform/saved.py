"""A saved conformance report read back: `Report.load("r.json")` (`president conform --json`).

The file is checked before anything is read from it: a JSON object, a `report_version` this
toolkit reads (`report.REPORT_VERSION`), and the schema (president/schemas/report.schema.json).
Any of these failing raises `ReportError`, naming the file and what is wrong. The accessors give
the engine, the fitted variant, the root causes (deviations), the clause outcomes and the scenario
results; `text()` prints the run's text report again, through the same renderer as the run.

A text an engine wrote may be stored once in the report's `messages` table and referred to by its
index; the accessors give the text itself.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

import jsonschema

from ..errors import PresidentError
from .report import REPORT_VERSION, Run, summary_text

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schemas" / "report.schema.json"
MESSAGES = "messages"  # the top-level table of texts an integer message field refers to


class ReportError(PresidentError):
    """A saved report that cannot be read: the file, and what is wrong with it."""

    def __init__(self, path: str | Path, problem: str):
        self.path, self.problem = str(path), problem
        super().__init__(f"{path}: {problem}")


@lru_cache(maxsize=1)
def validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _cut(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def expanded(data: Any) -> Any:
    """`data` with each `{"$ref": "#/messages/N"}` replaced by its text from the report's
    `messages` table (`president.conform.messages`): the form the schema describes."""
    from .messages import expand

    if not isinstance(data, dict) or not isinstance(data.get(MESSAGES), list):
        return data
    try:
        return expand(data)
    except (IndexError, ValueError, TypeError) as exc:
        raise ValueError(f"a message reference points outside the messages table ({exc})") from None


def problems(data: Any) -> list[str]:
    """How `data` breaks the report schema, one line per problem (empty when it conforms); texts
    stored once in the `messages` table are read through their references first."""
    try:
        data = expanded(data)
    except ValueError as exc:
        return [f"at messages: {exc}"]
    errors = sorted(validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    return [f"at {'/'.join(map(str, e.absolute_path)) or '(top)'}: {_cut(e.message)}" for e in errors]


def check(data: Any, path: str | Path) -> dict[str, Any]:
    """`data` as a report of a version this toolkit reads, else ReportError (which names `path`)."""
    if not isinstance(data, dict):
        raise ReportError(path, f"is not a conformance report: a JSON object is expected, not {type(data).__name__}")
    if "report_version" not in data:
        if "engines" in data and "clauses" in data:
            raise ReportError(path, "is a clause x engine table, not one engine's report "
                                    "(give the saved reports of single conformance runs)")
        raise ReportError(path, "has no report_version: not a saved conformance report, or one written "
                                "before reports were versioned (run president conform again)")
    version = data["report_version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ReportError(path, f"report_version {_cut(json.dumps(version), 40)} is not a version number")
    if version != REPORT_VERSION:
        newer = "a newer president wrote it: upgrade president" if version > REPORT_VERSION else "run conform again"
        raise ReportError(path, f"has report_version {version}; this president reads version {REPORT_VERSION} "
                                f"({newer})")
    found = problems(data)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise ReportError(path, f"breaks the report schema {found[0]}{more}")
    return expanded(data)


# --- the run's parts, as the text renderer reads them ---------------------------------------------

@dataclass
class SavedFinding:
    clause: str
    said: str
    engine_error: str = ""

    def text(self) -> str:
        """As `diagnose.Finding.text`: the divergence, then the engine's own words."""
        return self.said + (f" (engine: {self.engine_error})" if self.engine_error else "")


@dataclass
class SavedResult:
    """One scenario's outcome (as `runner.ScenarioResult`)."""

    id: str
    clause: str
    section: str
    name: str
    outcome: str
    message: str = ""
    details: str = ""
    step: str = ""
    reasons: list[str] = field(default_factory=list)
    blocked_by: str = ""
    root: SavedFinding | None = None
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class SavedDeviation:
    """One root cause (as `verdict.Deviation`); `raw` is its saved object."""

    clause: str
    title: str
    difference: str
    evidence: str
    engine_error: str
    house_rule: str | None
    hello_options: str | None
    declared: bool
    partly: list[str]
    blocked: int
    scenarios: list[str]
    games: int
    steps: int
    also: list[str]
    gherkin: str | None
    confirmed: bool
    raw: dict[str, Any] = field(repr=False, default_factory=dict)

    @property
    def description(self) -> str:
        return f"{self.title}: {self.difference}" if self.difference else self.title

    @property
    def context(self) -> str:
        """What sets this cause apart from another of the same mechanism ("" when it is the only one)."""
        return str(self.raw.get("context") or "")

    @property
    def mechanism(self) -> Any:
        """What differs (`records.Mechanism`), as the run saved it; None in a report without one."""
        from .records import Mechanism

        saved = self.raw.get("mechanism")
        return Mechanism(**saved) if isinstance(saved, dict) else None


@dataclass
class SavedDivergence:
    game: int
    seed: int
    index: int
    request: dict[str, Any]
    clause: str
    message: str
    engine_error: str
    kind: str


@dataclass
class SavedLock:
    """The lock-step games (as `records.LockstepResult`)."""

    games: int
    steps: int
    failed: int
    errors: int
    steps_per_s: float
    unfinished: list[tuple[int, str]]
    divergences: list[SavedDivergence]


@dataclass
class SavedJudgement:
    variant: tuple[tuple[str, Any], ...]
    removes: list[str]
    adds: list[str]

    def clauses(self, which: str) -> list[str]:
        return self.removes if which == "removed" else self.adds


@dataclass
class SavedFit:
    """The fitted variant (as `fit.Fit`): `baseline` says whether any step diverged."""

    variant: tuple[tuple[str, Any], ...]
    line: str
    baseline: bool
    partly: list[SavedJudgement]
    guesses: tuple[tuple[str, Any], ...] = ()


_PAIR = re.compile(r'\s*([\w.-]+)=("(?:[^"\\]|\\.)*"|[^,]+)\s*(?:,|$)')


def variant_of(label: str) -> tuple[tuple[str, Any], ...]:
    """`equality=true, first_lead="holder:3C"` (`fit.label`) back to its option values."""
    out = []
    for name, value in _PAIR.findall(label):
        try:
            out.append((name, json.loads(value)))
        except ValueError:
            out.append((name, value.strip()))
    return tuple(out)


@dataclass
class SavedRun(Run):
    """A `report.Run` rebuilt from a saved report: the text renderer reads it as it reads a live run."""

    saved_clauses: dict[str, dict[str, Any]] = field(default_factory=dict)
    saved_failing: bool = False

    def clauses(self) -> dict[str, dict[str, Any]]:
        return self.saved_clauses

    @property
    def failing(self) -> bool:
        return self.saved_failing


# --- the report -----------------------------------------------------------------------------------

class Report:
    """One saved `president conform --json` report, checked, with typed accessors."""

    def __init__(self, data: dict[str, Any], path: str | Path = ""):
        """`data` checked as a report; `path` the file it was read from ("" for a run not saved)."""
        self.data = check(data, path or "the report")
        self.path = str(path)
        table = data.get(MESSAGES)
        self._messages = table if isinstance(table, list) else []

    @classmethod
    def load(cls, path: str | Path) -> "Report":
        try:
            text = Path(path).read_bytes().decode("utf-8")
        except FileNotFoundError:
            raise ReportError(path, "no such file") from None
        except IsADirectoryError:
            raise ReportError(path, "is a folder, not a report file") from None
        except OSError as exc:
            raise ReportError(path, f"cannot be read: {exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise ReportError(path, f"is not UTF-8 text (byte {exc.start})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ReportError(path, f"is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
        except RecursionError:
            raise ReportError(path, "is nested too deeply to be a report") from None
        return cls(data, path)

    def text_of(self, value: Any) -> str:
        """A saved text: itself, or the entry of the messages table an integer refers to."""
        if isinstance(value, int) and not isinstance(value, bool):
            if 0 <= value < len(self._messages) and isinstance(self._messages[value], str):
                return self._messages[value]
            return f"<message {value} missing from the report>"
        return "" if value is None else str(value)

    # -- who and what ran
    @property
    def command(self) -> str:
        return self.data["command"]

    @property
    def engine(self) -> dict[str, Any]:
        return self.data["engine"] or {}

    @property
    def engine_name(self) -> str:
        """The engine's name and version from its hello (its command when it gave none)."""
        name = self.text_of(self.engine.get("name")) or self.command
        version = self.text_of(self.engine.get("version"))
        return f"{name} {version}".strip()

    @property
    def spec_version(self) -> str:
        return self.data["spec_version"]

    @property
    def sections(self) -> list[tuple[str, str, list[tuple[str, str]]]]:
        """(section id, title, [(clause id, clause title)]) in the spec's order."""
        return [(s["id"], s["title"], [(c["id"], c["title"]) for c in s["clauses"]])
                for s in self.data["spec"]["sections"]]

    @property
    def offers_ai(self) -> bool:
        """The engine declared AI levels, and the AI suite ran."""
        return self.data["ai_scenarios"] is not None

    @property
    def failing(self) -> bool:
        return bool(self.data["failing"])

    # -- the verdict
    @property
    def fitted_variant(self) -> dict[str, Any]:
        """The option values the engine was fitted to play ({} when it plays the spec's defaults)."""
        return dict((self.data["fit"] or {}).get("variant") or {})

    @property
    def fitted_line(self) -> str:
        fit = self.data["fit"]
        if fit is None:
            return "no fitted variant (no lock-step game)"
        if fit.get("line"):
            return fit["line"]
        return "no option value explains a deviation" if fit.get("divergent_steps") else "plays the spec's defaults"

    @property
    def deviations(self) -> list[SavedDeviation]:
        """The root causes, ranked as the run ranked them."""
        return [self._deviation(d) for d in self.data["deviations"]]

    root_causes = deviations

    def _deviation(self, d: dict[str, Any]) -> SavedDeviation:
        t = self.text_of
        return SavedDeviation(
            clause=d["clause"], title=d["title"], difference=t(d["difference"]), evidence=t(d["evidence"]),
            engine_error=t(d["engine_error"]), house_rule=d["house_rule"], hello_options=d["hello_options"],
            declared=d["declared"], partly=list(d["partly_explained"]), blocked=d["blocked"],
            scenarios=list(d["scenarios"]), games=d["games"], steps=d["steps"], also=list(d["also_breaks"]),
            gherkin=t(d["minimal_scenario"]) if d["minimal_scenario"] is not None else None,
            confirmed=d["confirmed"], raw=d)

    @property
    def clause_outcomes(self) -> dict[str, str]:
        """Clause id → pass, fail, blocked, error, protocol, skip, variant or none (no scenario ran)."""
        return {cid: c["outcome"] for cid, c in self.data["clauses"].items()}

    def clause(self, cid: str) -> dict[str, Any]:
        return self.data["clauses"].get(cid) or {"outcome": "none", "passed": 0, "scenarios": 0, "blocked_by": [],
                                                 "deviations": [], "reasons": []}

    @property
    def scenario_results(self) -> list[SavedResult]:
        t = self.text_of
        return [SavedResult(id=r["id"], clause=r["clause"], section=r["section"], name=r["name"],
                            outcome=r["outcome"], message=t(r["message"]), details=t(r["details"]), step=t(r["step"]),
                            reasons=[t(x) for x in r["reasons"]], blocked_by=r["blocked_by"] or "",
                            root=SavedFinding(r["root_clause"] or "", t(r["root_cause"]), t(r.get("root_engine_error")))
                            if r["root_clause"] else None,
                            notes=[t(x) for x in r["notes"]], seconds=r["seconds"])
                for r in self.data["scenario_results"]]

    @property
    def lockstep(self) -> SavedLock | None:
        lock = self.data["lockstep"]
        if lock is None:
            return None
        t = self.text_of
        divs = [SavedDivergence(d["game"], d["seed"], d["index"], d["request"], d["clause"], t(d["message"]),
                                t(d["engine_error"]), d["kind"]) for d in self.data["divergences"]]
        return SavedLock(lock["games"], lock["steps"], lock["divergent"], lock["errors"], lock["steps_per_s"],
                         [(u["game"], t(u["why"])) for u in lock["unfinished"]], divs)

    @property
    def fit(self) -> SavedFit | None:
        fit = self.data["fit"]
        if fit is None:
            return None
        partly = [SavedJudgement(variant_of(j["variant"]), list(j["removes"]), list(j["adds"]))
                  for j in fit["partly_explained"]]
        return SavedFit(tuple(fit["variant"].items()), fit["line"] or "", bool(fit["divergent_steps"]), partly,
                        variant_of(fit.get("guesses") or ""))

    @property
    def protocol_faults(self) -> list[str]:
        return [self.text_of(f) for f in self.data.get("protocol_faults") or []]

    # -- the text report
    def run(self) -> Run:
        """The saved run as the text renderer reads a live one (`report.summary_text`)."""
        notes = [{**n, "example": self.text_of(n["example"])} for n in self.data["protocol_notes"]]
        return SavedRun(spec=cast(Any, None), results=cast(Any, self.scenario_results), lock=cast(Any, self.lockstep),
                        hello=self.data["engine"], engine=self.command, deviations=cast(Any, self.deviations),
                        notes=notes, ai_run=self.offers_ai, fit=self.fit,
                        saved_clauses={cid: {**c, "reasons": [self.text_of(x) for x in c["reasons"]]}
                                       for cid, c in self.data["clauses"].items()},
                        saved_failing=self.failing)

    def text(self, verbose: bool = False) -> str:
        """The text report, as `president conform` printed it (in English)."""
        return summary_text(self.run(), verbose)
