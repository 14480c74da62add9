"""`president conform --engine A --engine B`: one clause x engine table (text, JSON, HTML)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from president.cli.main import main as cli
from president.conform.table import CELLS

ENGINES = Path(__file__).resolve().parent.parent / "engines"
REFERENCE = f"{sys.executable} -m president engine"
HOUSE = f"{sys.executable} {ENGINES / 'pyres.py'} house"


@pytest.mark.slow
def test_two_engines_side_by_side(tmp_path):
    out = CliRunner().invoke(cli, ["conform", "--engine", REFERENCE, "--engine", HOUSE, "-n", "4", "--shrink", "0",
                                   "-k", "lead.must-play", "-k", "flow.follow", "--json", str(tmp_path / "m.json"),
                                   "--html", str(tmp_path / "m.html")])
    assert out.exit_code == 1, out.output  # the house engine deviates
    table = json.loads((tmp_path / "m.json").read_text())
    assert [e["command"] for e in table["engines"]] == [REFERENCE, HOUSE]
    ref, house = (table["engines"][i] for i in (0, 1))
    assert not ref["failing"] and ref["deviations"] == 0 and house["failing"]
    cells = {cid: [c["status"] for c in row["engines"]] for cid, row in table["clauses"].items()}
    assert cells["flow.follow"][0] == "passed" and cells["lead.must-play"][0] == "passed"
    # the house engine's leader may pass: a deviation on lead.must-play, explained or not by its fit
    assert cells["lead.must-play"][1] in ("deviation", "house rule")
    assert cells["score.titles"] == ["not run", "not run"]  # no scenario of it selected, no deviation
    assert set(sum(cells.values(), [])) <= set(CELLS)
    assert cells["ai.easy"] == ["not run", "no AI"]  # the house engine offers no AI
    assert sum(ref["counts"].values()) == len(table["clauses"])
    page = (tmp_path / "m.html").read_text()  # a row per clause (tests/conform/test_report_table.py: the page)
    assert page.count('<th scope="row"') == len(table["clauses"]) and 'class="passed"' in page
    # the text: each engine's first screen, then the table
    assert out.output.count("engine: ") == 2 and "[1]" in out.output and "[2]" in out.output
    assert max(len(line) for line in out.output.splitlines()) <= 160


def test_one_engine_reports_keep_their_form(tmp_path):
    out = CliRunner().invoke(cli, ["conform", "--engine", REFERENCE, "--engine", HOUSE, "--junit",
                                   str(tmp_path / "r.xml")])
    assert out.exit_code == 2 and "--junit" in out.output and not (tmp_path / "r.xml").exists()
