"""Print-ready PDF sheets (`president build --pdf`): six A4 PDFs with page numbers and embedded
fonts whose text is the .txt sheet's, and Arabic values that read left to right. Skips, with
the reason, without WeasyPrint, poppler-utils (pdftotext, pdfinfo, pdffonts) or the Noto fonts."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from president.i18n.catalogs import LANGS

from i18n_support import ROOT, copy_project
from pdf_text import compare, pdf_lines

try:
    import weasyprint  # noqa: F401
    WEASYPRINT = None
except (ImportError, OSError) as exc:
    WEASYPRINT = f"WeasyPrint cannot be loaded ({exc}): pip install '.[pdf]'"

TOOLS = [t for t in ("pdftotext", "pdfinfo", "pdffonts", "fc-list") if shutil.which(t) is None]


def _skip_reason() -> str | None:
    if WEASYPRINT:
        return WEASYPRINT
    if TOOLS:
        return f"{', '.join(TOOLS)} not installed (apt-get install poppler-utils fontconfig)"
    from president.i18n.fonts import missing_fonts
    for lang in LANGS:
        for m in missing_fonts(lang, (ROOT / "rules" / f"{lang}.txt").read_text(encoding="utf-8")):
            return str(m)
    return None


pytestmark = [pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason())), pytest.mark.slow]


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory) -> Path:
    """`president build --pdf --out DIR` on a copy of the project."""
    from president.cli.project import build
    root = copy_project(tmp_path_factory.mktemp("project"))
    out = root / "out"
    result = CliRunner().invoke(build, ["--pdf", "--out", str(out), "--root", str(root)])
    assert result.exit_code == 0, result.output
    return out


def test_six_a4_pdfs_with_page_numbers_and_embedded_fonts(pdfs):
    for lang in LANGS:
        pdf = pdfs / f"{lang}.pdf"
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
        assert "(A4)" in info, info
        pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
        fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        rows = fonts.splitlines()[2:]
        assert rows and all(row.split()[-5] == "yes" for row in rows), fonts  # the `emb` column
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        numbers = re.sub("[\u200e\u200f\u202a-\u202e\u2066-\u2069]", "", text)
        # "page / pages"; on a right-to-left page pdftotext gives it in visual order ("2/1" on page 1 of 2)
        pairs = [(int(a), int(b)) for a, b in re.findall(r"^\s*(\d+)\s*/\s*(\d+)\s*$", numbers, re.M)]
        found = {a for a, b in pairs if b == pages} | {b for a, b in pairs if a == pages and lang == "ar"}
        assert found == set(range(1, pages + 1)), (lang, pages, found)


def test_script_fonts_are_the_ones_embedded(pdfs):
    from president.i18n.catalogs import translator_for
    from president.i18n.context import card_forms
    from president.project.build import read_spec
    forms = card_forms(read_spec(ROOT / "spec" / "president.yaml"), {lang: translator_for(ROOT, lang) for lang in LANGS})
    expected = {"ar": "Noto-Naskh-Arabic", "hi": "Noto-Sans-Devanagari", "hy": "Noto-Sans-Armenian",
                "en": "Noto-Serif", "el": "Noto-Serif", "ru": "Noto-Serif"}
    for lang, font in expected.items():
        fonts = subprocess.run(["pdffonts", str(pdfs / f"{lang}.pdf")], capture_output=True, text=True).stdout
        assert font in fonts, (lang, fonts)
        assert ("Symbols2" in fonts) == ("♣" in forms[lang]), (lang, fonts)  # a page that writes 3♣ has the suit font


@pytest.mark.parametrize("lang", LANGS)
def test_pdf_text_is_the_txt_sheet(pdfs, lang):
    txt = (ROOT / "rules" / f"{lang}.txt").read_text(encoding="utf-8")
    assert compare(txt, pdf_lines(pdfs / f"{lang}.pdf")) == []


def _render(html: str, path: Path) -> Path:
    import weasyprint
    weasyprint.HTML(string=html).write_pdf(path)
    return path


def _item_of(txt: str, li_html: str) -> int:
    """Index, among the .txt sheet's items, of the list line an <li> holds."""
    import html
    from pdf_text import normalize, txt_items
    text = normalize(html.unescape(re.sub(r"<[^>]+>", "", li_html)))
    return [normalize(item) for item in txt_items(txt)].index(text)


def test_a_missing_or_wrong_sentence_is_caught(tmp_path):
    """Planted: the Hindi sheet without one rule line, the Arabic one with a line replaced by another."""
    hi_txt = (ROOT / "rules" / "hi.txt").read_text(encoding="utf-8")
    hi = (ROOT / "rules" / "hi.html").read_text(encoding="utf-8")
    items = re.findall(r"(<li id=\"[^\"]+\"[^>]*>)(.*?)(</li>\n)", hi)
    dropped = _render(hi.replace("".join(items[5]), "", 1), tmp_path / "hi.pdf")
    bad = compare(hi_txt, pdf_lines(dropped))
    assert _item_of(hi_txt, items[5][1]) in [b.item for b in bad], [str(b) for b in bad]
    ar_txt = (ROOT / "rules" / "ar.txt").read_text(encoding="utf-8")
    ar = (ROOT / "rules" / "ar.html").read_text(encoding="utf-8")
    lis = re.findall(r"(<li id=\"[^\"]+\"[^>]*>)(.*?)(</li>)", ar)
    wrong = ar.replace("".join(lis[3]), lis[3][0] + lis[8][1] + lis[3][2], 1)
    bad = compare(ar_txt, pdf_lines(_render(wrong, tmp_path / "ar.pdf")))
    assert [b.item for b in bad] == [_item_of(ar_txt, lis[3][1])], [str(b) for b in bad]


def test_arabic_values_read_left_to_right(pdfs):
    """On the Arabic page, 3♣ and the normal rank order 3 … 2 are laid out left to right."""
    pytest.importorskip("pdfminer")
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTChar, LTTextLine
    lines = []
    for page in extract_pages(str(pdfs / "ar.pdf")):
        stack = list(page)
        while stack:
            obj = stack.pop()
            if isinstance(obj, LTTextLine):
                lines.append(sorted((c.x0, c.get_text()) for c in obj if isinstance(c, LTChar)))
            elif hasattr(obj, "__iter__"):
                stack.extend(obj)
    shown = ["".join(t for _, t in line) for line in lines]  # left to right, as on the page
    assert any("3♣" in s for s in shown) and not any("♣3" in s for s in shown), shown
    assert any("3،4،5،6،7،8،9،10،V،D،R،A،2" in s for s in shown), shown
