"""`president report table`: the clause x engine table and its page, built from saved runs."""
from __future__ import annotations

import json
from html import escape
from html.parser import HTMLParser

import pytest

from report_support import report, saved

from president.conform.saved import Report
from president.conform.table import CELLS, LEGEND

pytestmark = pytest.mark.slow


class Page(HTMLParser):
    """The page's ids, links, open/closed sections (`details`) and text."""

    def __init__(self, text: str):
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.details: dict[str, bool] = {}
        self.tags: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("href", "").startswith("#"):
            self.links.append(a["href"][1:])
        if tag == "details":
            self.details[a["id"]] = "open" in a


def _table(tmp_path, *names):
    out = report("table", *(saved(n).path for n in names), "--html", tmp_path / "t.html", "--json", tmp_path / "t.json")
    assert out.exit_code == 0, out.output
    return out, json.loads((tmp_path / "t.json").read_text()), (tmp_path / "t.html").read_text()


def test_the_table_from_saved_runs(tmp_path):
    out, table, _ = _table(tmp_path, "reference", "house")
    reports = [Report.load(saved(n).path) for n in ("reference", "house")]
    assert [e["name"] for e in table["engines"]] == [r.engine_name for r in reports]
    sections = [(s["id"], s["clauses"]) for s in table["sections"]]
    assert sections == [(sid, [c for c, _ in clauses]) for sid, _, clauses in reports[0].sections]
    assert list(table["clauses"]) == [c for _, clauses in sections for c in clauses]
    for cid, row in table["clauses"].items():
        assert {c["status"] for c in row["engines"]} <= set(CELLS)
        for rep, c in zip(reports, row["engines"]):
            named = [d for d in rep.deviations if d.clause == cid or cid in d.also]
            outcome = rep.clause_outcomes[cid]
            if outcome == "blocked" and not named:  # blocked, naming its root cause: never a deviation
                assert c["status"] == "blocked" and c["blocked_by"] == rep.clause(cid)["blocked_by"]
            if c["status"] == "passed":
                assert outcome == "pass" and not named
    assert any(c["status"] == "blocked" for row in table["clauses"].values() for c in row["engines"])
    for line in out.stdout.splitlines()[:3]:
        assert line.startswith(("engines:", "  ["))


def test_the_page(tmp_path):
    _, table, page = _table(tmp_path, "reference", "house")
    parsed = Page(page)
    assert "<title>" in page and "<h1>" in page
    assert parsed.ids >= {"engines", "legend", "table", "evidence"}
    assert page.index('id="engines"') < page.index('id="legend"') < page.index('id="table"')
    assert all(f">{k}</td>" in page for k in LEGEND) and set(LEGEND) == set(CELLS)
    assert parsed.links and all(link in parsed.ids for link in parsed.links)  # every cell finds its evidence
    house = table["engines"][1]
    for d in house["root_causes"]:  # the root causes open the page, each linking to its deviation
        assert page.index(f'href="#{d["anchor"]}"') < page.index('id="legend"')
        assert d["anchor"] in parsed.ids
    shrunk = [d for d in Report.load(saved("house").path).deviations if d.gherkin]
    for d in shrunk:  # the minimal scenario sits with its deviation
        assert escape(d.gherkin) in page
    for row in table["clauses"].values():
        for c in row["engines"]:
            if c["status"] in ("deviation", "house rule", "blocked") and c.get("evidence"):
                assert c["evidence"] in parsed.ids
    # the reference offers AI, the house engine none: the AI section stays open without its column
    assert parsed.details["section-ai"] is True
    ai_rows = page[page.index('id="section-ai"'):page.index("</details>", page.index('id="section-ai"'))]
    head = ai_rows.split("<thead>")[1].split("</thead>")[0]
    assert "[1]" in head and "[2]" not in head and "no AI offered" in ai_rows


def test_the_ai_clauses_fold_away_for_an_engine_without_ai(tmp_path):
    _, table, page = _table(tmp_path, "house")
    parsed = Page(page)
    assert parsed.details.pop("section-ai") is False and all(parsed.details.values())
    assert {c["engines"][0]["status"] for cid, c in table["clauses"].items() if c["section"] == "ai"} == {"no AI"}


def test_engine_text_is_escaped(tmp_path):
    hostile = '<script>alert(1)</script>"&'

    def plant(data):
        data["engine"]["name"] = hostile
        data["command"] = hostile
        for d in data["deviations"]:
            d["difference"] = d["evidence"] = d["engine_error"] = hostile
            d["minimal_scenario"] = hostile
        for r in data["scenario_results"]:
            r["message"] = hostile

    path = saved("house").copy(tmp_path, "hostile.json", plant)
    out = report("table", path, "--html", tmp_path / "h.html")
    assert out.exit_code == 0, out.output
    page = (tmp_path / "h.html").read_text()
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;" in page
    assert Page(page).tags.count("script") == 0


def test_runs_of_two_specs_are_refused(tmp_path):
    other = saved("reference").copy(tmp_path, "other.json", lambda d: d.update(spec_version="9.9.9"))
    out = report("table", saved("house").path, other)
    assert out.exit_code == 2 and str(other) in out.stderr and "9.9.9" in out.stderr
