"""Rendering: the five published sheets byte for byte, English, HTML, lines, pseudo-locale."""
from __future__ import annotations

import re

import pytest

from president.i18n.catalogs import PSEUDO_CLOSE, PSEUDO_LANG, PSEUDO_OPEN, Translator
from president.i18n.render import build_sheet, layout, render_lines, render_sheet
from president.spec import load_spec

from i18n_support import ALL_LANGS, PUBLISHED, ROOT, SEEDS


@pytest.fixture(scope="module")
def spec():
    return load_spec(ROOT / "spec" / "president.yaml")


@pytest.mark.parametrize("lang", PUBLISHED)
def test_published_sheets_byte_for_byte(spec, lang):
    fresh = render_sheet(spec, lang, "txt", ROOT).encode("utf-8")
    assert fresh == (SEEDS / f"{lang}.txt").read_bytes()


def test_english_is_the_source(spec):
    text = render_sheet(spec, "en", "txt", ROOT)
    assert text.startswith("President\n\nVariant played: CardVerse variant · revolution on by default")
    assert "Version 1.1.0" in text and "3 to 6 players" in text and "the 3♣ is not required" in text
    assert "2,A,R,D,V,10,9,8,7,6,5,4,3" in text
    assert not text.endswith("\n")


@pytest.mark.parametrize("lang,direction", [("ar", "rtl"), ("en", "ltr"), ("el", "ltr"), ("ru", "ltr"),
                                            ("hy", "ltr"), ("hi", "ltr")])
def test_html_lang_dir_and_rule_ids(spec, lang, direction):
    html = render_sheet(spec, lang, "html", ROOT)
    assert f'<html lang="{lang}" dir="{direction}">' in html
    assert '<meta charset="utf-8">' in html
    ids = set(spec.clause_ids)
    items = re.findall(r"<li([^>]*)>", html)
    assert items and all("data-rule=" in attrs for attrs in items)
    used = {r for attrs in items for r in re.search(r'data-rule="([^"]*)"', attrs).group(1).split()}
    assert used <= ids
    anchors = re.findall(r' id="([^"]+)"', html)
    assert len(anchors) == len(set(anchors)), "anchors must be unique"


def test_html_escapes_translations(spec):
    tr = Translator("el", None)
    evil = "<script>alert(1)</script> & <b>bold</b>"
    tr.messages = None
    orig = tr.gettext
    tr.gettext = lambda msgid, **kw: evil if msgid.startswith("A pass stays") else orig(msgid, **kw)
    html = layout(build_sheet(spec, tr), spec, "el", "html")
    assert "<script>" not in html and "<b>bold</b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in html
    md = layout(build_sheet(spec, tr), spec, "el", "md")
    assert r"\<b\>bold\<" in md


def test_markdown_structure(spec):
    md = render_sheet(spec, "ru", "md", ROOT)
    assert md.startswith('<div lang="ru" dir="ltr">\n\n# Президент\n') and md.endswith("\n\n</div>\n")
    assert "\n# Президент\n" in md and "\n## Расклад\n\n1. " in md and md.endswith("\n")


def test_render_lines_carry_clause_ids(spec):
    lines = render_lines(spec, "ru", ROOT)
    by_text = {text: rules for rules, text in lines}
    assert by_text["Пас остается окончательным до сброса взятки."] == ("pass.final",)
    quad = next(rules for rules, text in lines if text.startswith("Разыгранное каре"))
    assert quad == ("revolution.quad-reverses", "revolution.no-clear", "revolution.again")
    assert lines[0] == ((), "Президент")
    txt = render_sheet(spec, "ru", "txt", ROOT)
    for _, text in lines:
        assert text in txt
    # every clause id used is declared in the spec
    assert {r for rules, _ in lines for r in rules} <= set(spec.clause_ids)


def test_pseudo_locale_leaves_nothing_untranslated(spec):
    tr = Translator(PSEUDO_LANG, None, pseudo=True)
    text = layout(build_sheet(spec, tr), spec, PSEUDO_LANG, "txt")
    # strip bracketed (translated) spans, innermost first; nothing with letters may remain
    while True:
        stripped = re.sub(f"{PSEUDO_OPEN}[^{PSEUDO_OPEN}{PSEUDO_CLOSE}]*{PSEUDO_CLOSE}", "", text)
        if stripped == text:
            break
        text = stripped
    assert not re.search(r"[^\W\d_]", text), f"untranslated text: {text!r}"


@pytest.mark.slow
def test_rendering_is_reproducible(spec):
    for lang in ALL_LANGS:
        for fmt in ("txt", "md", "html"):
            a, b = render_sheet(spec, lang, fmt, ROOT), render_sheet(spec, lang, fmt, ROOT)
            assert a == b
            assert not re.search(r"\b20\d\d-\d\d-\d\d", a)
