"""Fonts: each page names its script's font first and a font with the suits; the screenshot
script asks fontconfig for them and, where one is missing, names the Debian package instead of
writing a screenshot of tofu boxes."""
from __future__ import annotations

import importlib.util
import re
import shutil

import pytest

from president.i18n import fonts
from president.i18n.fonts import font_stack, missing_fonts

from i18n_support import ROOT

FIRST = {"ar": "Noto Naskh Arabic", "hi": "Noto Sans Devanagari", "hy": "Noto Sans Armenian",
         "en": "Noto Serif", "el": "Noto Serif", "ru": "Noto Serif"}


def _body_fonts(lang: str) -> list[str]:
    page = (ROOT / "rules" / f"{lang}.html").read_text(encoding="utf-8")
    stack = re.search(r"body \{[^}]*font: [^ ]+ ([^;]+);", page).group(1)
    return [f.strip().strip('"') for f in stack.split(",")]


@pytest.mark.parametrize("lang", sorted(FIRST))
def test_each_page_puts_its_script_font_first_and_has_the_suits(lang):
    stack = _body_fonts(lang)
    assert stack == font_stack(lang)
    assert stack[0] == FIRST[lang]
    latin = "Noto Sans" if lang in ("hi", "hy") else "Noto Serif"
    assert stack.index("Noto Sans Symbols 2") > stack.index(latin)  # digits and Latin letters come first


def _dejavu_only():
    """A machine with only DejaVu Sans: Latin, Greek, Cyrillic, Armenian, Arabic, the suits; no Devanagari."""
    ranges = ((0x20, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF), (0x530, 0x58F), (0x600, 0x6FF), (0x2000, 0x206F),
              (0x2660, 0x2667))
    return ((frozenset({"DejaVu Sans"}), ranges),)


def test_missing_fonts_are_named_with_their_package(monkeypatch):
    monkeypatch.setattr(fonts, "_fonts", _dejavu_only)
    text = (ROOT / "rules" / "hi.txt").read_text(encoding="utf-8")
    missing = missing_fonts("hi", text)
    assert missing and missing[0].family == "Noto Sans Devanagari"
    assert "apt-get install fonts-noto-core" in str(missing[0])
    # the script font present but no font for the letters: still refused
    monkeypatch.setattr(fonts, "_fonts", lambda: ((frozenset({"Noto Sans Devanagari", "DejaVu Sans"}),
                                                   ((0x20, 0x24F), (0x2660, 0x2667))),))
    missing = missing_fonts("hi", text)
    assert missing and "U+09" in missing[0].family and missing[0].package == "fonts-noto-core"


def test_screenshot_script_writes_no_tofu(monkeypatch, tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("screenshot_sheets", ROOT / "docs" / "screenshot_sheets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(fonts, "_fonts", _dejavu_only)
    monkeypatch.setattr(fonts, "have_fontconfig", lambda: True)
    code = module.main(["--out", str(tmp_path), "--langs", "hi", "--chromium", "/nonexistent/chromium"])
    assert code == 1
    err = capsys.readouterr().err
    assert "Noto Sans Devanagari" in err and "apt-get install fonts-noto-core" in err
    assert not list(tmp_path.glob("*.png"))


@pytest.mark.skipif(shutil.which("fc-list") is None, reason="fontconfig is not installed")
def test_this_machine_has_the_fonts_or_says_which_package():
    for lang in FIRST:
        text = (ROOT / "rules" / f"{lang}.txt").read_text(encoding="utf-8")
        for m in missing_fonts(lang, text):
            assert m.package in ("fonts-noto-core", "fonts-dejavu-core")
            pytest.skip(str(m))
