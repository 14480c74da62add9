"""Context for translators: clause ids and placeholder notes in rules.pot, references in steps.pot."""
from __future__ import annotations

import re

import pytest

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
    # a scenario title is referenced at its example's `name:` line (the msgid is the name, or the
    # frame of a name that counts spec numbers: president/spectext.py)
    frames = {(ex.line, (ex.name_text.frame if ex.name_text else ex.name)) for c in spec.clauses for ex in c.examples}
    for m in msgs:
        if m.context == "scenario":
            f, n = m.locations[0]
            assert f == "spec/president.yaml" and "name:" in lines[n - 1] and (n, m.id) in frames, (m.id, n)
    assert spec.clauses


def test_pot_headers_are_complete():
    for domain in ("rules", "steps"):
        head = pot_path(ROOT, domain).read_text(encoding="utf-8").split("\n\n")[0]
        assert '"Language: en\\n"' in head and '"Language-Team: en <' in head


@pytest.mark.slow
def test_card_note_says_how_each_language_writes_a_card(tmp_path):
    """The %(card)s note is made from the catalogs: a language whose msgctxt 'card'/'suit'
    translations write words is listed under words, with its own rendering."""
    import shutil
    from president.i18n.catalogs import translator_for
    from president.i18n.context import card_forms, card_note
    from president.i18n.extract import extract_template
    from i18n_support import copy_project
    spec = read_spec(ROOT / "spec" / "president.yaml")
    forms = card_forms(spec, {lang: translator_for(ROOT, lang) for lang in ("ar", "el", "ru", "hy", "hi")})
    for lang, form in forms.items():
        assert "3" in form
        words = any(ch.isalpha() for ch in form)
        cat = load_catalog(ROOT / "locales" / lang / "LC_MESSAGES" / "rules.po", lang)
        assert words == (cat.get("♣", "suit").string != "♣"), lang
    note = card_note(forms)
    assert "a code in ar (3♣)" in note and "words in" in note
    pot = load_catalog(pot_path(ROOT), "en")
    card_msgs = [m for m in pot if m.id and "%(card)s" in str(m.id)]
    assert card_msgs and all(f"%(card)s: {note}" in " ".join(m.auto_comments) for m in card_msgs)
    # a catalog that starts writing the suit in words moves to the words list
    root = copy_project(tmp_path / "p")
    po = root / "locales" / "ru" / "LC_MESSAGES" / "rules.po"
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace('msgctxt "suit"\nmsgid "♣"\nmsgstr "♣"', 'msgctxt "suit"\nmsgid "♣"\nmsgstr "трефы"'),
                  encoding="utf-8")
    notes = [" ".join(m.auto_comments) for m in extract_template(root, root / "spec" / "president.yaml")
             if m.id and "%(card)s" in str(m.id)]
    assert notes and "ru (3трефы)" in notes[0] and "code in ar (3♣) and" in notes[0]
    shutil.rmtree(root)
