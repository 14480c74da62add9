"""A saved conformance report read back: `Report.load("r.json")` (`president conform --json`).

A saved report is input anyone may hand over, and is checked before anything is read from it: a
regular file (a FIFO or a device is refused unread) of at most MAX_REPORT_BYTES, JSON nested at most
MAX_DEPTH levels and holding at most MAX_VALUES values (time and memory stay bounded), an object with a `report_version` this toolkit reads (`report.REPORT_VERSION`),
references that name a text of its messages table, the schema
(president/schemas/report.schema.json), and counts that agree with the results they count. Any of
these failing raises `ReportError`, naming the file and what is wrong, in one line. Every text it
holds is made inert (`textsafe.inert`): a control or bidi character is shown as an escape. The accessors give
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
from ..textsafe import inert
from .report import REPORT_VERSION, Run, summary_text

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schemas" / "report.schema.json"
MESSAGES = "messages"  # the top-level table of texts an integer message field refers to
#: The largest report file read (a 200-game run of a noisy engine writes well under 2 MB).
MAX_REPORT_BYTES = 16 * 1024 * 1024
#: The deepest nesting a report may have (a real one nests 6 levels; an engine's hello options a few more).
MAX_DEPTH = 64
#: The most values (texts, numbers, objects, lists) a report may hold: a real one holds a few
#: thousand, and the schema check takes about 50 µs a value.
MAX_VALUES = 200_000
#: The longest text of a report shown (the run cuts an engine's texts to 2,000 characters).
MAX_TEXT = 20_000


class ReportError(PresidentError):
    """A saved report that cannot be read: the file, and what is wrong with it."""

    def __init__(self, path: str | Path, problem: str):
        self.path, self.problem = str(path), problem
        super().__init__(f"{inert(str(path), strict=True)}: {problem}")


@lru_cache(maxsize=1)
def validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _cut(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def expanded(data: Any) -> Any:
    """`data` with each `{"$ref": "#/messages/N"}` replaced by its text from the report's
    `messages` table (`president.conform.messages`): the form the schema describes. ValueError
    (`messages.BadReference`) for a reference that names no text."""
    from .messages import expand

    if not isinstance(data, dict) or MESSAGES not in data:
        return data
    return expand(data)


def shape_problem(data: Any, depth_limit: int = MAX_DEPTH, values_limit: int = MAX_VALUES) -> str | None:
    """What makes `data` too big to be a report: nested deeper than `depth_limit` levels (and where),
    or more than `values_limit` values in all; None when it is neither. Walks without recursion."""
    stack: list[tuple[Any, int, tuple[str, ...]]] = [(data, 0, ())]
    count = 1
    while stack:
        value, depth, where = stack.pop()
        if not isinstance(value, (dict, list)):
            continue
        count += len(value)  # counted before they are looked at: the walk holds no more than the limit
        if count > values_limit:
            return f"holds more than {values_limit:,} values"
        if depth >= depth_limit:
            shown = "/".join(_cut(inert(part, strict=True), 40) for part in where[:6])
            return f"nests deeper than {depth_limit} levels (at {shown}{'/...' if len(where) > 6 else ''})"
        items = value.items() if isinstance(value, dict) else enumerate(value)
        stack.extend((item, depth + 1, (*where[:7], str(key))) for key, item in items)
    return None


def made_inert(data: Any) -> Any:
    """`data` with every text (keys too) made inert: a control or bidi character shown as an escape,
    cut to MAX_TEXT characters. A text referred to many times stays one string (made inert once)."""
    from ..textsafe import cut

    done: dict[str, str] = {}

    def text(value: str) -> str:
        if value not in done:
            done[value] = inert(cut(value, MAX_TEXT), lines=True)
        return done[value]

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return text(value)
        if isinstance(value, dict):
            return {text(k): walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value
    return walk(data)


#: A scenario outcome -> the key of the totals (`runner.totals`) that counts it.
_TOTAL_OF = {"pass": "passed", "fail": "failed", "error": "errors", "protocol": "errors", "skip": "skipped",
             "blocked": "blocked", "toolkit": "toolkit_errors"}
_COUNTED = {"passed": "passed", "failed": "failed", "errors": "errored", "skipped": "were skipped",
            "blocked": "were blocked", "toolkit_errors": "met a toolkit error"}


def disagreements(data: dict[str, Any]) -> list[str]:
    """How the counts of a schema-valid report disagree with what they count, one line each:
    the totals and each clause's numbers against its scenario results, the lock-step numbers
    against its games, `failing` against the failures."""
    results = data["scenario_results"]
    out = []
    for key, ai in (("scenarios", False), ("ai_scenarios", True)):
        saved = data[key]
        if saved is None:
            continue
        mine = [r for r in results if (r["section"] == "ai") == ai]
        counted = {name: 0 for name in _TOTAL_OF.values()}
        for r in mine:
            counted[_TOTAL_OF[r["outcome"]]] += 1
        out += [f"{key}.{name} is {saved[name]}, but {n} of the {len(mine)} scenario results "
                f"{'of the AI' if ai else 'of the rules'} {_COUNTED[name]}"
                for name, n in counted.items() if name in saved and saved[name] != n]
    by_clause: dict[str, list[str]] = {}
    for r in results:
        by_clause.setdefault(r["clause"], []).append(r["outcome"])
    for cid, c in data["clauses"].items():
        mine = by_clause.get(cid, [])
        if c["scenarios"] != len(mine) or c["passed"] != mine.count("pass"):
            out.append(f"clauses/{_cut(cid, 60)} counts {c['passed']} passed of {c['scenarios']} scenarios, but the "
                       f"scenario results hold {mine.count('pass')} passed of {len(mine)}")
    lock = data["lockstep"]
    if lock is not None:
        for name, n in (("divergent", lock["divergent"]), ("errors", lock["errors"]),
                        ("unfinished", len(lock["unfinished"]))):
            if n > lock["games"]:
                out.append(f"lockstep.{name} is {n}, more than its {lock['games']} games")
    failed = [f"{key}.{name}" for key in ("scenarios", "ai_scenarios") if data[key] is not None
              for name in ("failed", "errors", "blocked") if data[key].get(name)]
    if not data["failing"] and (failed or any(not d["declared"] for d in data["deviations"])):
        why = f"{failed[0]} is {data[failed[0].split('.')[0]][failed[0].split('.')[1]]}" if failed \
            else "a deviation is not a declared house rule"
        out.append(f"failing is false, but {why}")
    return out


def problems(data: Any) -> list[str]:
    """How `data` breaks the report schema, one line per problem (empty when it conforms); texts
    stored once in the `messages` table are read through their references first."""
    try:
        data = expanded(data)
    except ValueError as exc:
        return [f"at messages: {_cut(str(exc))}"]
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
    shape = shape_problem(data)
    if shape is not None:
        raise ReportError(path, f"{shape}: not a conformance report")
    try:
        data = expanded(data)
    except ValueError as exc:
        raise ReportError(path, f"has a message reference that cannot be followed: {_cut(str(exc))}") from None
    found = problems(data)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise ReportError(path, f"breaks the report schema {found[0]}{more}")
    found = disagreements(data)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise ReportError(path, f"has counts that disagree: {found[0]}{more}")
    return cast(dict[str, Any], made_inert(data))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_json(path: str | Path) -> Any:
    """The JSON document of the file at `path`, read within bounds: a regular file of at most
    MAX_REPORT_BYTES (a FIFO, a device or a folder refused at once, unread), UTF-8, strict JSON
    (no NaN or Infinity, no number of thousands of digits); ReportError otherwise."""
    from ..resources import SpecialFile, read_regular

    try:
        raw = read_regular(Path(path), MAX_REPORT_BYTES)
    except FileNotFoundError:
        raise ReportError(path, "no such file") from None
    except IsADirectoryError:
        raise ReportError(path, "is a folder, not a report file") from None
    except SpecialFile as exc:
        what = str(exc.strerror)
        if what.startswith("over the limit"):
            raise ReportError(path, f"is larger than {MAX_REPORT_BYTES:,} bytes, the limit of a report: "
                                    "not a conformance report") from None
        raise ReportError(path, f"is {what}" if what.startswith("a ") else f"is not a regular file ({what})") from None
    except OSError as exc:
        raise ReportError(path, f"cannot be read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReportError(path, f"is not UTF-8 text (byte {exc.start})") from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ReportError(path, f"is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise ReportError(path, "is nested too deeply to be a report") from None
    except ValueError as exc:  # NaN or Infinity, or an integer of more than 4,300 digits
        raise ReportError(path, f"is not strict JSON: {_cut(str(exc), 80)}") from None


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
        table = self.data.get(MESSAGES)
        self._messages = table if isinstance(table, list) else []

    @classmethod
    def load(cls, path: str | Path) -> "Report":
        """The report saved at `path`; ReportError (one line) for anything that is not one."""
        return cls(read_json(path), path)

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
    def stopped(self) -> Any:
        """Why and where the run had to stop (`stopped.Stop`), None when it went to its end (or was
        saved before reports kept it)."""
        from .stopped import Stop

        saved = self.data.get("stopped")
        return Stop.from_dict(saved) if isinstance(saved, dict) else None

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
                        saved_failing=self.failing, stopped=self.stopped)

    def text(self, verbose: bool = False) -> str:
        """The text report, as `president conform` printed it (in English)."""
        return summary_text(self.run(), verbose)
