"""Saved reports are input (issue 32): `president report show/table/diff` read files anyone can hand
them. A reference to itself or in a circle, to a missing or huge index, deeply nested JSON, a file of
gigabytes, a FIFO or /dev/zero, a report of a future report_version, a schema-valid report whose
counts disagree: each is one line and exit 2, in bounded time and memory, never a traceback and never
a hang. Control and bidi characters in stored engine text are shown as escapes (text and HTML).
Run in-process through the command line (click's runner), each under an alarm: a hang fails the test."""
from __future__ import annotations

import copy
import json
import os
import re
import resource
import signal
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest
from click.testing import CliRunner, Result

from president.cli.main import main
from president.conform.saved import MAX_DEPTH, MAX_REPORT_BYTES, MAX_VALUES

ROOT = Path(__file__).resolve().parents[2]
MUTANT = f"{sys.executable} {ROOT / 'tests' / 'mutants' / 'mutant.py'} ties-allowed"
#: What must never reach a terminal raw from a saved report: C0 but tab and newline, DEL, C1, the bidi
#: embeddings, overrides and isolates, the line and paragraph separators, the BOM.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
HOSTILE = ("ESC\x1b[2J\x1b]0;owned\x07 RLO\u202eevil\u202c LRI\u2066x\u2069 FSI\u2068 C1\x9b NEL\x85 LS\u2028"
           " BOM\ufeff CR\rX BEL\x07 NUL\x00 ALM\u061c")


@contextmanager
def deadline(seconds: int = 20) -> Iterator[None]:
    """The block must end within `seconds` (SIGALRM raises in it otherwise): a hang fails, not blocks."""
    def fire(signum: int, frame: Any) -> None:
        raise TimeoutError(f"still running after {seconds} s")
    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def report(*args: Any) -> Result:
    with deadline():
        return CliRunner().invoke(main, ["report", *map(str, args)])


def refused(result: Result, *words: str) -> str:
    """Exit 2 and one line, `Error: FILE: ...` holding `words`, no traceback; the line."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert not isinstance(result.exception, (TimeoutError, MemoryError, RecursionError)), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert all(w in lines[0] for w in words), lines[0]
    assert len(lines[0]) < 500
    return lines[0]


# --- a file that is not a report: refused before anything is read ---------------------------------

@pytest.mark.parametrize("command", ["show", "table", "diff"])
def test_a_fifo_is_refused_at_once_never_read(tmp_path, command):
    fifo = tmp_path / "r.json"
    os.mkfifo(fifo)
    args = [fifo, fifo] if command == "diff" else [fifo]
    refused(report(command, *args), "r.json", "FIFO", "not a regular file")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_is_refused_at_once_never_read(device):
    if not Path(device).exists():
        pytest.skip(f"no {device} here")
    refused(report("show", device), device, "character device")


def test_a_folder_is_refused(tmp_path):
    refused(report("show", tmp_path), "folder")


@pytest.mark.parametrize("size", [MAX_REPORT_BYTES + 1, 3 * 2**30])
def test_a_huge_file_is_refused_without_being_read(tmp_path, size):
    """A sparse file of gigabytes (truncate): refused after reading at most the limit."""
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.write(b'{"report_version": 1, "x": "')
        fh.truncate(size)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    line = refused(report("show", big), "big.json", f"{MAX_REPORT_BYTES:,} bytes")
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 4 * MAX_REPORT_BYTES / 2**20, (grown_mb, line)


@pytest.mark.parametrize("text, said", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),                             # past the parser's limit
    ('{"report_version": 1, "x": ' + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "}", "deeper than"),
    ('{"report_version": 1, "steps_per_s": NaN}', "not strict JSON"),
    ('{"report_version": 1, "x": 1e999999, "y": Infinity}', "not strict JSON"),
    ('{"report_version": 1, "x": ' + "7" * 5000 + "}", "not strict JSON"),           # int of 5,000 digits
    ('{"report_version": 1, "x": "\\ud800"', "not JSON"),                             # cut short
    ('{"report_version": 1, "x": [' + "0," * (MAX_VALUES + 10) + "0]}", f"more than {MAX_VALUES:,} values"),
    ('{"report_version": 1, "x": [' + "[" * 50 + "]" * 50 + ","  + "{},"* MAX_VALUES + "1]}", "more than"),
    ("\ufeff{}", "not JSON"),
])
def test_json_that_no_report_is_made_of_is_one_line(tmp_path, text, said):
    path = tmp_path / "odd.json"
    path.write_text(text, encoding="utf-8")
    refused(report("show", path), "odd.json", said)


def test_bytes_that_are_not_utf8_are_one_line(tmp_path):
    path = tmp_path / "latin.json"
    path.write_bytes(b'{"report_version": 1, "x": "\xe9"}')
    refused(report("show", path), "latin.json", "not UTF-8")


@pytest.mark.parametrize("version, said", [(2, "upgrade president"), (10**6, "upgrade president"),
                                           (0, "not a version number"), ("1", "not a version number"),
                                           (True, "not a version number"), (1.5, "not a version number")])
def test_a_report_of_another_version_is_one_line(tmp_path, version, said):
    path = tmp_path / "v.json"
    path.write_text(json.dumps({"report_version": version}), encoding="utf-8")
    refused(report("show", path), "v.json", said)


def test_a_file_name_with_control_characters_is_shown_inert(tmp_path):
    path = tmp_path / "a\x1b[2Jb.json"
    path.write_text("{}", encoding="utf-8")
    line = refused(report("show", path), r"a\x1b[2Jb.json")
    assert "\x1b" not in line


# --- a real report, changed as a hostile hand would change it ------------------------------------

@pytest.fixture(scope="module")
def real() -> dict[str, Any]:
    """A saved report of a mutant engine: one deviation, scenario results, lock-step games."""
    import president.conform

    run = president.conform.run(MUTANT, games=1, patterns=["play.strictly-higher", "flow.*"], shrink=0)
    data = run.to_json()
    assert data["deviations"] and data["scenario_results"]
    return json.loads(json.dumps(data))


def _saved(folder: Path, name: str, data: dict[str, Any]) -> Path:
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _with_ref(real: dict[str, Any], ref: str, table: list[Any]) -> dict[str, Any]:
    data = copy.deepcopy(real)
    data["messages"] = table
    data["deviations"][0]["evidence"] = {"$ref": ref}
    return data


@pytest.mark.slow
def test_the_real_report_reads(real, tmp_path):
    """What the refusals below are measured against: the unchanged report shows, tables and diffs."""
    path = _saved(tmp_path, "r.json", real)
    for args in (("show", path), ("table", path), ("diff", path, path)):
        out = report(*args)
        assert out.exit_code == 0, (args, out.output)


@pytest.mark.slow
@pytest.mark.parametrize("ref, table, said", [
    ("#/messages/0", [{"$ref": "#/messages/0"}], "messages/0 is another reference"),   # itself
    ("#/messages/0", [{"$ref": "#/messages/1"}, {"$ref": "#/messages/0"}], "another reference"),  # a circle
    ("#/messages/1", ["x", ["nested", {"$ref": "#/messages/1"}]], "messages/1 is list"),
    ("#/messages/3", ["only one"], "past the end of the messages table (1 entries)"),   # missing
    ("#/messages/" + "9" * 5000, ["x"], "is not a reference to a message"),             # huge
    ("#/messages/4294967296", ["x"], "is not a reference to a message"),
    ("#/messages/-1", ["x"], "is not a reference to a message"),                         # from the end
    ("#/messages/\u0661", ["x", "y"], "is not a reference to a message"),               # an Arabic digit
    ("#/messages/1_0", ["x"] * 11, "is not a reference to a message"),                  # int() takes it
    ("#/messages/ 1", ["x"] * 2, "is not a reference to a message"),
    ("#/messages/01", ["x"] * 2, "is not a reference to a message"),
    ("#/messages/0", {"0": "x"}, "not a list"),
])
def test_a_reference_that_names_no_text_is_one_line(real, tmp_path, ref, table, said):
    path = _saved(tmp_path, "ref.json", _with_ref(real, ref, table))
    for args in (("show", path), ("table", path), ("diff", path, path)):
        line = refused(report(*args), "ref.json", "message reference", said)
        assert not RAW.search(line)


@pytest.mark.slow
def test_a_reference_is_followed_once_and_shown(real, tmp_path):
    path = _saved(tmp_path, "ok.json", _with_ref(real, "#/messages/1", ["first", "the engine's own words"]))
    out = report("show", path, "-v")
    assert out.exit_code == 0 and "the engine's own words" in out.output


def _counts(field: str):
    def change(data: dict[str, Any]) -> None:
        if field == "scenarios":
            data["scenarios"]["passed"] += 1_000_000
        elif field == "errors":
            data["scenarios"]["errors"] = 7
        elif field == "clause":
            cid = next(iter(c for c, v in data["clauses"].items() if v["scenarios"]))
            data["clauses"][cid]["passed"] = data["clauses"][cid]["scenarios"] + 3
        elif field == "clause-none":
            cid = next(iter(c for c, v in data["clauses"].items() if not v["scenarios"]))
            data["clauses"][cid]["scenarios"] = 5
        elif field == "lockstep":
            data["lockstep"]["divergent"] = data["lockstep"]["games"] + 1
        elif field == "failing":
            data["failing"] = False
    return change


@pytest.mark.slow
@pytest.mark.parametrize("field, said", [
    ("scenarios", "scenarios.passed is"), ("errors", "scenarios.errors is 7, but"),
    ("clause", "passed of"), ("clause-none", "of 5 scenarios, but the scenario results hold 0 passed of 0"),
    ("lockstep", "lockstep.divergent is"), ("failing", "failing is false, but"),
])
def test_counts_that_disagree_say_what_disagrees(real, tmp_path, field, said):
    data = copy.deepcopy(real)
    _counts(field)(data)
    path = _saved(tmp_path, "counts.json", data)
    for args in (("show", path), ("table", path), ("diff", path, path)):
        refused(report(*args), "counts.json", "counts that disagree", said)


def _plant(data: dict[str, Any], text: str) -> None:
    """`text` in every place a saved report keeps an engine's words or a name."""
    data["engine"]["name"] = text
    data["command"] = text
    data["protocol_faults"] = [text]
    dev = data["deviations"][0]
    dev.update(difference=text, evidence=text, engine_error=text, house_rule=text)
    for r in data["scenario_results"]:
        r.update(message=text, details=text, step=text)
        r["notes"] = [text]
    for d in data["divergences"]:
        d.update(message=text, engine_error=text)
    for c in data["clauses"].values():
        c["reasons"] = [text] if c["reasons"] else []


@pytest.mark.slow
@pytest.mark.parametrize("shared", [False, True], ids=["inline", "in the messages table"])
def test_control_and_bidi_characters_are_shown_inert(real, tmp_path, shared):
    data = copy.deepcopy(real)
    if shared:
        data["messages"] = ["padding", HOSTILE]
        _plant(data, {"$ref": "#/messages/1"})  # type: ignore[arg-type]
        data["command"] = data["engine"]["name"] = HOSTILE
        data["deviations"][0]["house_rule"] = HOSTILE
    else:
        _plant(data, HOSTILE)
    path = _saved(tmp_path, "ctl.json", data)
    clean = _saved(tmp_path, "clean.json", real)
    html, table_json = tmp_path / "t.html", tmp_path / "t.json"
    runs = [report("show", "-v", path), report("table", path, clean, "--html", html, "--json", table_json),
            report("diff", clean, path), report("diff", path, clean)]
    for out in runs:
        assert out.exit_code in (0, 1), out.output
        assert not RAW.search(out.stdout + out.stderr), RAW.findall(out.stdout + out.stderr)
    shown = runs[0].stdout + runs[0].stderr
    assert r"\x1b[2J" in shown and r"\u202e" in shown and r"\u2066" in shown and r"\x9b" in shown
    page = html.read_text(encoding="utf-8")
    assert not RAW.search(page) and r"\u202e" in page
    tabled = table_json.read_text(encoding="utf-8")
    assert not RAW.search(tabled) and not RAW.search(json.dumps(json.loads(tabled), ensure_ascii=False))
    assert r"\u202e" in json.dumps(json.loads(tabled), ensure_ascii=False)  # the escape kept as text
    assert r"\x1b" in runs[2].stdout + runs[2].stderr


@pytest.mark.slow
def test_many_references_to_one_long_text_read_in_bounded_time_and_memory(real, tmp_path):
    """References multiply nothing: a report of as many references to one long hostile text as it
    may hold reads quickly, and the text is escaped and kept once."""
    data = copy.deepcopy(real)
    data["messages"] = [HOSTILE * 40]
    data["scenario_results"][0]["notes"] = [{"$ref": "#/messages/0"}] * (MAX_VALUES // 2 - 10_000)
    path = _saved(tmp_path, "many.json", data)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out = report("show", path)  # under the deadline
    assert out.exit_code == 0, out.output
    assert not RAW.search(out.output)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 500, grown_mb


@pytest.mark.slow
def test_a_file_of_millions_of_values_is_refused_in_bounded_memory(tmp_path):
    path = tmp_path / "zeros.json"
    path.write_text('{"report_version": 1, "x": [' + "0," * (MAX_REPORT_BYTES // 2 - 100) + "0]}", encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    refused(report("show", path), "zeros.json", f"more than {MAX_VALUES:,} values")
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 500, grown_mb
