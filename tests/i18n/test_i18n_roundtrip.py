"""Round trips: a spec edit and its revert leave the catalogs exactly as they were (obsolete
entries kept as #~ and reused, no msgid rewritten in place), and every problem on the way is
reported once, with its file and line, with advice that is still true."""
from __future__ import annotations

from collections import Counter

import pytest
from click.testing import CliRunner

from president.cli.i18n import i18n
from president.i18n.catalogs import CATALOG_LANGS, load_catalog, po_path
from president.project.build import Project
from president.project.check import run_checks

from i18n_support import project  # noqa: F401 (fixture)

pytestmark = pytest.mark.slow

OLD_EXCHANGE = "- {giver: -1, receiver: 1, cards: 2, min_players: 3}"
NEW_EXCHANGE = "- {giver: -1, receiver: 1, cards: 3, min_players: 3}"
OLD_NAME, NEW_NAME = "name: six players may sit", "name: six players can sit"


def _update() -> None:
    result = CliRunner().invoke(i18n, ["update"])
    assert result.exit_code == 0, result.output


def _catalogs(root):
    return {p: p.read_bytes() for p in sorted((root / "locales").rglob("*.po*"))}


def _problems(root):
    problems = run_checks(Project.resolve(root))
    keys = Counter((p.file, p.line, p.message) for p in problems)
    assert all(n == 1 for n in keys.values()), "reported twice: " + str([k for k, n in keys.items() if n > 1])
    return problems


def test_edit_and_revert_leave_the_catalogs_as_they_were(project):
    spec = project / "spec" / "president.yaml"
    original_spec = spec.read_text(encoding="utf-8")
    assert OLD_EXCHANGE in original_spec and OLD_NAME in original_spec
    before = _catalogs(project)
    spec.write_text(original_spec.replace(OLD_EXCHANGE, NEW_EXCHANGE).replace(OLD_NAME, NEW_NAME), encoding="utf-8")

    # before the update: one problem per changed message, at the old message's line
    problems = [p for p in _problems(project) if p.file.endswith(".po")]
    assert problems and all(p.line for p in problems)
    assert all("no translation for" not in p.message for p in problems)
    changed = [p for p in problems if "is no longer used" in p.message]
    # the scenario title only: the exchange count changes no msgid (the clause and scenario titles
    # count it through plural messages, the rules catalogs carry its phrase for every count)
    assert len(changed) == len(CATALOG_LANGS) and all("six players" in p.message for p in changed)
    assert not [p for p in problems if p.file.endswith("rules.po")]
    assert all("president i18n update" in p.hint for p in changed)

    _update()
    for lang in CATALOG_LANGS:
        assert po_path(project, lang).read_bytes() == before[po_path(project, lang)]  # nothing to translate
        steps = load_catalog(po_path(project, lang, "steps"), lang)
        assert "six players may sit" in {m.id for m in steps.obsolete.values()}
    # after it: the advice was followed, so it is not given again; what is left is the review
    problems = [p for p in _problems(project) if p.file.endswith(".po")]
    assert problems and all(p.line for p in problems)
    assert all("fuzzy translation" in p.message for p in problems), [str(p) for p in problems]
    assert not any("i18n update" in p.hint for p in problems)

    spec.write_text(original_spec, encoding="utf-8")
    _update()
    assert _catalogs(project) == before
    assert not [p for p in _problems(project) if p.file.endswith(".po")]
