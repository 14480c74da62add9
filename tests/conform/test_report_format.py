"""The JSON report as a format: report_version, its schema, and `Report.load` reading it back."""
from __future__ import annotations

import json

import jsonschema
import pytest
from report_support import report, saved

from president.conform.report import REPORT_VERSION
from president.conform.saved import SCHEMA_PATH, Report, ReportError, problems, variant_of
from president.spec import default_spec


def test_the_schema_is_a_schema():
    jsonschema.Draft202012Validator.check_schema(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", ["reference", "house"])
@pytest.mark.slow
def test_real_runs_follow_the_schema(name):
    data = saved(name).data()
    assert data["report_version"] == REPORT_VERSION
    assert problems(data) == []
    spec = default_spec()
    outline = [c["id"] for s in data["spec"]["sections"] for c in s["clauses"]]
    assert outline == [c.id for s in spec.sections for c in spec.clauses_in(s.id)]
    assert set(outline) == set(data["clauses"])


@pytest.mark.slow
def test_the_reader_gives_the_run():
    data = saved("house").data()
    report = Report.load(saved("house").path)
    assert report.engine_name == f"{data['engine']['name']} {data['engine']['version']}"
    assert report.command.endswith("pyres.py house")
    assert report.fitted_variant == data["fit"]["variant"] and report.fitted_variant  # pyres plays house rules
    assert [d.clause for d in report.root_causes] == [d["clause"] for d in data["deviations"]]
    assert [d.house_rule for d in report.deviations] == [d["house_rule"] for d in data["deviations"]]
    assert report.clause_outcomes == {cid: c["outcome"] for cid, c in data["clauses"].items()}
    assert not report.offers_ai and report.failing == data["failing"]
    assert [r.id for r in report.scenario_results] == [r["id"] for r in data["scenario_results"]]
    reference = Report.load(saved("reference").path)
    assert reference.deviations == [] and reference.fitted_variant == {} and reference.offers_ai
    assert set(reference.clause_outcomes.values()) <= {"pass", "none"}


@pytest.mark.parametrize("name", ["reference", "house", "mutant"])
@pytest.mark.slow
def test_show_prints_what_the_run_printed(name):
    run = saved(name)
    shown = report("show", run.path)
    assert shown.exit_code == 0, shown.stderr
    assert shown.stdout == run.stdout


@pytest.mark.slow
def test_a_message_table_is_read_through(tmp_path):
    """A report may store each engine text once (`messages`) and refer to it (`{"$ref": "#/messages/N"}`)."""
    def tabled(data):
        from president.conform.saved import expanded
        data.update(expanded(data))
        table: list[str] = []
        for r in data["scenario_results"]:
            for key in ("message", "details"):
                table.append(r[key])
                r[key] = {"$ref": f"#/messages/{len(table) - 1}"}
        for d in data["deviations"]:
            table.append(d["engine_error"])
            d["engine_error"] = {"$ref": f"#/messages/{len(table) - 1}"}
        data["messages"] = table

    path = saved("house").copy(tmp_path, "tabled.json", tabled)
    assert Report.load(path).text() == Report.load(saved("house").path).text()


@pytest.mark.slow
def test_added_keys_are_read(tmp_path):
    def more(data):
        data["toolkit_errors"] = [{"item": "game 3", "traceback": "..."}]
        data["deviations"][0]["mechanism"] = "act accepted"

    assert Report.load(saved("house").copy(tmp_path, "more.json", more)).deviations


def _drop(key):
    return lambda data: data.pop(key)


def _set(*path_value):
    *path, value = path_value

    def change(data):
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value
    return change


BROKEN = [
    ("report_version 2", _set("report_version", 2), "has report_version 2; this president reads version 1"),
    ("report_version text", _set("report_version", "1"), 'report_version "1" is not a version number'),
    ("no version", _drop("report_version"), "has no report_version"),
    ("no clauses", _drop("clauses"), "breaks the report schema at (top): 'clauses' is a required property"),
    ("negative count", _set("deviations", 0, "blocked", -1), "at deviations/0/blocked: -1 is less than"),
    ("unknown outcome", _set("scenario_results", 0, "outcome", "great"), "at scenario_results/0/outcome"),
    ("a table", lambda d: (d.clear(), d.update({"engines": [], "clauses": {}})), "is a clause x engine table"),
]


@pytest.mark.parametrize("what,change,problem", BROKEN, ids=[b[0] for b in BROKEN])
@pytest.mark.slow
def test_a_wrong_report_is_refused_naming_the_file(tmp_path, what, change, problem):
    path = saved("house").copy(tmp_path, "r.json", change)
    with pytest.raises(ReportError) as caught:
        Report.load(path)
    assert str(caught.value).startswith(f"{path}: ") and problem in str(caught.value)
    shown = report("show", path)
    assert shown.exit_code == 2 and shown.stdout == ""
    assert shown.stderr.strip().splitlines() == [f"Error: {caught.value}"]


@pytest.mark.parametrize("content,problem", [(None, "no such file"), (b"{\"report_version\": 1,", "is not JSON"),
                                             (b"[1, 2]", "a JSON object is expected, not list"),
                                             (b"\xff\xfe", "is not UTF-8")])
def test_a_file_that_is_no_report_is_refused(tmp_path, content, problem):
    path = tmp_path / "r.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ReportError, match=problem):
        Report.load(path)
    assert report("show", path).exit_code == 2


def test_a_fitted_label_reads_back():
    from president.conform.fit import label

    variant = (("equality", True), ("first_lead", "holder:3C"), ("jokers", 2), ("scoring", "president_only"))
    assert variant_of(label(variant)) == variant
