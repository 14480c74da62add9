"""Issue 31, T9 and T10: what `check --spec` names, and the first-lead card the loader accepts.

- T9: with a spec given elsewhere (`--spec other.yaml`), a clause title the catalogs lack is
  reported at the line of *that* file, named as that file (the templates reference the spec as
  spec/president.yaml wherever it is).
- T10: `first_lead: holder:<card>` names a card of the deck; `holder:1C` (no such card) and
  `holder:X1` (a joker) are refused by the spec loader with file, line and what to write.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from president.errors import SpecError
from president.project.build import Project
from president.project.check import run_checks
from president.project.steps_check import check_steps_catalogs
from president.spec import parse_spec

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec" / "president.yaml"
OLD = "A shuffled deck is dealt one card at a time from seat 0, so lower seats get the extra cards"
NEW = "A shuffled deck is dealt card by card from seat 0"


def test_a_title_of_a_spec_elsewhere_is_reported_in_that_file(tmp_path: Path) -> None:
    """Planted: a spec laid out otherwise (yaml.safe_dump: about three times the lines) with one
    clause title changed; every report of the new title names tmp/other.yaml at its clause's line."""
    data = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    next(c for c in data["clauses"] if c["id"] == "setup.dealing")["title"] = NEW
    other = tmp_path / "other.yaml"
    other.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    lines = other.read_text(encoding="utf-8").split("\n")
    clause_line = next(n for n, line in enumerate(lines, 1) if line.strip() == "- id: setup.dealing")
    found = run_checks(Project.resolve(ROOT, spec=other), [check_steps_catalogs])
    about = [p for p in found if NEW in p.message]
    assert len(about) == 5, [str(p) for p in found]  # one per translated language
    for p in about:
        assert f"(used at {other}:{clause_line})" in p.message, str(p)
        assert "spec/president.yaml" not in p.message
    # the project's own spec keeps its project-relative name
    own = run_checks(Project.resolve(ROOT), [check_steps_catalogs])
    assert not [p for p in own if OLD in p.message or NEW in p.message]


def _with_first_lead(default: str) -> str:
    text = SPEC.read_text(encoding="utf-8")
    assert "    default: seat0\n" in text
    return text.replace("    default: seat0\n", f'    default: "{default}"\n', 1)


@pytest.mark.parametrize("value,what", [("holder:1C", "'1C' is not a card of the deck"),
                                        ("holder:X1", "X1 is a joker"),
                                        ("holder:3Z", "'3Z' is not a card of the deck")])
def test_a_first_lead_card_outside_the_deck_is_refused(value: str, what: str) -> None:
    text = _with_first_lead(value)
    line = text.split("\n").index(f'    default: "{value}"') + 1
    with pytest.raises(SpecError) as err:
        parse_spec(text, "planted.yaml")
    [problem] = [p for p in err.value.problems if "holder" in p.message]
    assert (problem.file, problem.line) == ("planted.yaml", line)
    assert what in problem.message and value in problem.message
    assert "holder:3C" in problem.hint and "suit" not in problem.message.replace("suits", "")


def test_a_first_lead_card_of_the_deck_loads_and_an_example_is_checked_too() -> None:
    assert parse_spec(_with_first_lead("holder:10D"), "ok.yaml").option("first_lead").default == "holder:10D"
    text = SPEC.read_text(encoding="utf-8").replace('first_lead: "holder:3C"', 'first_lead: "holder:1C"', 1)
    with pytest.raises(SpecError) as err:
        parse_spec(text, "example.yaml")
    [problem] = [p for p in err.value.problems if "holder" in p.message]
    assert problem.line == text.split("\n").index('        first_lead: "holder:1C"') + 1
