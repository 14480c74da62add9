"""`president report diff`: deviations new, gone or changed between two runs of one engine (a CI gate)."""
from __future__ import annotations

import re

import pytest

from report_support import report, saved

from president.conform.diff import shape
from president.conform.saved import Report


def _new_clauses(output: str) -> set[str]:
    return set(re.findall(r"^NEW\s+(\S+):", output, re.M))


@pytest.mark.slow
def test_a_planted_regression_is_caught():
    """The reference, then a mutant of it: every deviation of the mutant is new, and the gate fails."""
    out = report("diff", saved("reference").path, saved("mutant").path)
    mutant = Report.load(saved("mutant").path)
    assert mutant.deviations and out.exit_code == 1, out.output
    assert _new_clauses(out.stdout) == {d.clause for d in mutant.deviations}
    assert out.stdout.splitlines()[-1] == f"{len(mutant.deviations)} new, 0 gone, 0 changed"


@pytest.mark.slow
def test_a_fixed_deviation_is_gone():
    out = report("diff", saved("mutant").path, saved("reference").path)
    assert out.exit_code == 0 and re.search(r"^GONE\s", out.stdout, re.M) and not _new_clauses(out.stdout)


@pytest.mark.slow
def test_the_same_run_changes_nothing():
    out = report("diff", saved("house").path, saved("house").path)
    assert out.exit_code == 0 and out.stdout.splitlines()[-1] == "no deviation new, gone or changed"


@pytest.mark.slow
def test_deviations_are_matched_by_clause_and_mechanism_not_by_place(tmp_path):
    """Another seed shows the same differences with other cards and in another order: nothing changed."""
    def reseeded(data):
        data["deviations"].reverse()
        for d in data["deviations"]:
            d["difference"] = re.sub(r"\b\d+\b", lambda m: str(int(m.group()) + 1), d["difference"])
            d["difference"] = re.sub(r"\b([3-9])([CDHS])\b", r"\1S", d["difference"])
    new = saved("house").copy(tmp_path, "reseeded.json", reseeded)
    out = report("diff", saved("house").path, new)
    assert out.exit_code == 0, out.output
    assert not re.search(r"^(NEW|GONE)\s", out.stdout, re.M)


@pytest.mark.slow
def test_a_changed_verdict_is_listed(tmp_path):
    old = Report.load(saved("house").path)
    explained = next(d for d in old.deviations if d.house_rule)

    def unexplained(data):
        for d in data["deviations"]:
            if d["clause"] == explained.clause:
                d["house_rule"] = d["hello_options"] = None
    new = saved("house").copy(tmp_path, "new.json", unexplained)
    out = report("diff", saved("house").path, new)
    assert out.exit_code == 0, out.output
    assert re.search(rf"^CHANGED\s+{re.escape(explained.clause)}:", out.stdout, re.M)
    assert f"house rule: {explained.house_rule} -> none" in out.stdout


@pytest.mark.slow
def test_a_new_scenario_error_fails_the_gate(tmp_path):
    def crashed(data):
        first = next(r for r in data["scenario_results"] if r["outcome"] == "pass")
        first.update(outcome="error", message="engine exited")
        totals = data["ai_scenarios" if first["section"] == "ai" else "scenarios"]  # counts that agree
        totals["passed"] -= 1
        totals["errors"] += 1
        data["clauses"][first["clause"]]["passed"] -= 1
        data["failing"] = True
    new = saved("reference").copy(tmp_path, "crash.json", crashed)
    out = report("diff", saved("reference").path, new)
    assert out.exit_code == 1 and "now errors" in out.stdout


@pytest.mark.slow
def test_bad_input_exits_2(tmp_path):
    (tmp_path / "x.json").write_text("{}")
    out = report("diff", saved("reference").path, tmp_path / "x.json")
    assert out.exit_code == 2 and "x.json: has no report_version" in out.stderr
    assert report("diff", saved("reference").path, tmp_path / "none.json").exit_code == 2


def test_shape_keeps_what_differs_and_drops_the_values():
    a = "after play 6C from seat 2: engine has scores [1, 0, 0]; the reference [3, 1, 2] (score.points)"
    b = "after play 10H 10S from seat 0: engine has scores [0, 0, 4]; the reference [2, 2, 1] (score.points)"
    assert shape(a) == shape(b) == ("after play <card> from seat N: engine has scores [...]; "
                                    "the reference [...] (score.points)")
    assert shape("engine accepted pass on 5C from seat 1") != shape("engine refused pass on 5C from seat 1")


@pytest.mark.slow
def test_another_mechanism_under_a_known_clause(tmp_path):
    """A second way of breaking a clause that already deviates is new; one that replaces it is a change."""
    old = Report.load(saved("house").path)
    first = old.deviations[0]
    other = "engine refused pass on an empty trick from seat 1; the reference accepts it"

    def added(data):
        data["deviations"].append({**data["deviations"][0], "difference": other})

    def replaced(data):
        data["deviations"][0]["difference"] = other

    out = report("diff", saved("house").path, saved("house").copy(tmp_path, "added.json", added))
    assert out.exit_code == 1 and _new_clauses(out.stdout) == {first.clause}
    out = report("diff", saved("house").path, saved("house").copy(tmp_path, "replaced.json", replaced))
    assert out.exit_code == 0 and re.search(rf"^CHANGED\s+{re.escape(first.clause)}:", out.stdout, re.M)
    assert f"difference: {first.difference} -> {other}" in out.stdout
