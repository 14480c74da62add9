"""Context for translators: clause ids and placeholder notes in rules.pot, references in steps.pot."""
from __future__ import annotations

import re

from president.i18n.catalogs import load_catalog, message_key, pot_path
from president.i18n.context import PLACEHOLDER_NOTES, clause_map
from president.i18n.render import TEMPLATES_DIR
from president.project.build import read_spec

from i18n_support import ROOT


def test_every_sheet_line_message_names_its_clauses():
    spec = read_spec(ROOT / "spec" / "president.yaml")
    mapping = clause_map(spec, TEMPLATES_DIR / "sheet.j2")
    assert mapping[(None, "Normal rank order: %(order)s.")] == {"setup.rank-order"}
    assert mapping[(None, "Easy: plays the lowest legal combination.")] == {"ai.easy"}
    assert "exchange.vice" in mapping[(None, "The vice-ranks also exchange %(cards)s.")]
    pot = load_catalog(pot_path(ROOT), "en")
    for msg in pot:
        ids = mapping.get(message_key(msg))
        if msg.id and ids:
            assert f"rule clauses: {', '.join(sorted(ids))}" in " ".join(msg.auto_comments), msg.id
    assert sum(1 for m in pot if any(c.startswith("rule clauses:") for c in m.auto_comments)) >= 45


def test_every_placeholder_is_described():
    pot = load_catalog(pot_path(ROOT), "en")
    text = pot_path(ROOT).read_text(encoding="utf-8")
    for msg in pot:
        ids = msg.id if isinstance(msg.id, (list, tuple)) else (msg.id,)
        for name in set(re.findall(r"%\(([a-z_]+)\)[sd]", " ".join(ids))):
            assert name in PLACEHOLDER_NOTES, name
            assert f"%({name})s: " in " ".join(msg.auto_comments), (msg.id, name)
    assert "grammatical" in text  # %(deals)s says in which case its phrase goes


def test_steps_messages_have_references():
    pot = load_catalog(pot_path(ROOT, "steps"), "en")
    msgs = [m for m in pot if m.id]
    assert msgs and all(m.locations for m in msgs)
    spec = read_spec(ROOT / "spec" / "president.yaml")
    lines = (ROOT / "spec" / "president.yaml").read_text(encoding="utf-8").splitlines()
    for m in msgs:
        if m.context == "scenario":
            f, n = m.locations[0]
            assert f == "spec/president.yaml" and m.id in lines[n - 1], (m.id, n)
    assert spec.clauses


def test_pot_headers_are_complete():
    for domain in ("rules", "steps"):
        head = pot_path(ROOT, domain).read_text(encoding="utf-8").split("\n\n")[0]
        assert '"Language: en\\n"' in head and '"Language-Team: en <' in head
