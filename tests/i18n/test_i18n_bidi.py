"""Bidi-correct sheets: the Unicode Bidirectional Algorithm (UAX #9, python-bidi) run over every
rendered Arabic line shows the rank orders and card codes the right way round; without the
isolation marks it does not (so the test would catch their loss)."""
from __future__ import annotations

import html
import re

import pytest

from president.i18n.catalogs import LRI, PDI, isolate, translator_for
from president.i18n.render import build_sheet, layout, render_sheet
from president.project.build import read_spec

from i18n_support import ROOT, SEEDS

bidi = pytest.importorskip("bidi")


@pytest.fixture(scope="module")
def spec():
    return read_spec(ROOT / "spec" / "president.yaml")


def visual(line: str) -> str:
    """The line as displayed in a right-to-left paragraph, left to right, marks removed."""
    shown = bidi.get_display(line, base_dir="R")
    return re.sub("[\u2066-\u2069]", "", shown)


def expected_runs(spec) -> list[str]:
    """What must read left to right on screen: both rank orders and the lowest card."""
    tr = translator_for(ROOT, "ar")
    sep = tr.pgettext("separator in a rank order", ",")
    ranks = list(spec.deck.ranks)
    card = tr.pgettext("card", "%(rank)s%(suit)s", rank=ranks[0],
                       suit=tr.pgettext("suit", {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[spec.deck.suits[0]]))
    return [sep.join(ranks), sep.join(reversed(ranks)), card]


def _html_lines(page: str) -> list[str]:
    """Text of every <li>/<p>/<h*> with <bdi dir="ltr"> turned back into LRI ... PDI."""
    out = []
    for m in re.finditer(r"<(li|p|h1|h2)\b[^>]*>(.*?)</\1>", page, re.S):
        inner = m.group(2).replace('<bdi dir="ltr">', LRI).replace("</bdi>", PDI)
        out.append(html.unescape(re.sub(r"<[^>]+>", "", inner)))
    return out


def _md_lines(page: str) -> list[str]:
    """Markdown lines as a code host shows them: <span dir="ltr"> is an isolate (LRI ... PDI), escapes undone."""
    out = []
    for ln in page.splitlines():
        if ln and not ln.startswith("<"):
            ln = re.sub(r"^(\d+\. |- |#+ )", "", ln).replace('<span dir="ltr">', LRI).replace("</span>", PDI)
            out.append(re.sub(r"\\(.)", r"\1", ln))
    return out


def test_markdown_sheets_hold_no_hidden_bidi_controls():
    """Code hosts and editors warn about invisible bidi controls (U+202A..U+202E, U+2066..U+2069):
    the Markdown sheets isolate with <span dir="ltr"> instead, and only the right-to-left ones."""
    for page in sorted((ROOT / "rules").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        assert not re.search("[\u202a-\u202e\u2066-\u2069]", text), page.name
        assert ('<span dir="ltr">' in text) == (page.stem == "ar"), page.name


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_arabic_runs_read_left_to_right(spec, fmt):
    page = render_sheet(spec, "ar", fmt, ROOT)
    lines = _html_lines(page) if fmt == "html" else _md_lines(page)
    runs = expected_runs(spec)
    shown = [visual(ln) for ln in lines]
    for run in runs:
        holders = [ln for ln in lines if run in re.sub("[\u2066-\u2069]", "", ln)]
        assert holders, f"no line states {run!r}"
        for ln in holders:
            assert run in visual(ln), f"{run!r} is reordered on screen: {visual(ln)!r}"
    # the normal order never shows as the revolution one and the card never as ♣3
    normal, revolution, card = runs
    assert sum(normal in s for s in shown) == 1 and sum(revolution in s for s in shown) == 1
    assert not any(card[::-1] in s for s in shown)


def test_without_isolation_the_runs_are_mirrored(spec):
    """The same check fails when the marks are dropped: the test can see the bug."""
    sheet = build_sheet(spec, translator_for(ROOT, "ar"))
    page = layout(sheet, spec, "ar", "html", isolation=False)
    assert "<bdi" not in page.split("</style>")[1]
    shown = [visual(ln) for ln in _html_lines(page)]
    normal, _, card = expected_runs(spec)
    assert not any(normal in s for s in shown)
    assert any(card[::-1] in s for s in shown)


def test_every_page_declares_language_and_direction(spec):
    for lang, direction in (("en", "ltr"), ("ar", "rtl"), ("hi", "ltr")):
        html_page = render_sheet(spec, lang, "html", ROOT)
        md_page = render_sheet(spec, lang, "md", ROOT)
        assert f'<html lang="{lang}" dir="{direction}">' in html_page
        assert md_page.startswith(f'<div lang="{lang}" dir="{direction}">\n\n')


def test_no_fake_italics(spec):
    page = render_sheet(spec, "en", "html", ROOT)
    rule = re.search(r"^(:lang\(.*)\{ font-style: normal; \}$", page, re.M)
    assert rule and {"ar", "hy", "hi"} == set(re.findall(r":lang\((\w+)\)", rule.group(1)))
    for lang in ("ar", "hy", "hi"):
        assert "\n*" not in render_sheet(spec, lang, "md", ROOT)
    assert "\n*" in render_sheet(spec, "el", "md", ROOT)


def test_plain_text_stays_published_and_has_no_marks(spec):
    for lang in ("ar", "hi"):
        txt = render_sheet(spec, lang, "txt", ROOT)
        assert LRI not in txt and PDI not in txt
        assert txt.encode("utf-8") == (SEEDS / f"{lang}.txt").read_bytes()


def test_isolate_is_idempotent():
    assert isolate(isolate("3♣")) == isolate("3♣") == f"{LRI}3♣{PDI}"
