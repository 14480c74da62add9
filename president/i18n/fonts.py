"""The fonts of the HTML and PDF sheets: one stack per script, and a fontconfig check that
they are installed (so that a screenshot or a PDF is never made of tofu boxes).

Each page names its script's font first (Noto Naskh Arabic, Noto Sans Devanagari, Noto Sans
Armenian; Noto Serif for Latin, Greek and Cyrillic), then a Latin face of the same style for
card ranks, digits and option names, then a font with the suit symbols ♣♦♥♠ (Noto Sans
Symbols 2; DejaVu Sans as the last resort, which most systems have).
"""
from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache

#: The script's own font, and the Latin face that matches its style.
SCRIPT_FONTS: dict[str, tuple[str, str, str]] = {
    # script: (script font, Latin font, generic family)
    "Arab": ("Noto Naskh Arabic", "Noto Serif", "serif"),
    "Deva": ("Noto Sans Devanagari", "Noto Sans", "sans-serif"),
    "Armn": ("Noto Sans Armenian", "Noto Sans", "sans-serif"),
    "Latn": ("Noto Serif", "Noto Serif", "serif"),
    "Grek": ("Noto Serif", "Noto Serif", "serif"),
    "Cyrl": ("Noto Serif", "Noto Serif", "serif"),
}
SYMBOL_FONTS = ("Noto Sans Symbols 2", "DejaVu Sans")
SUITS = "♣♦♥♠"
#: The Debian package of each font.
PACKAGES = {"Noto Naskh Arabic": "fonts-noto-core", "Noto Sans Devanagari": "fonts-noto-core",
            "Noto Sans Armenian": "fonts-noto-core", "Noto Serif": "fonts-noto-core", "Noto Sans": "fonts-noto-core",
            "Noto Sans Symbols 2": "fonts-noto-core", "DejaVu Sans": "fonts-dejavu-core"}


def script_of(lang: str) -> str:
    """The script a language is written in (CLDR likely subtags: ar -> Arab)."""
    from babel.core import get_global
    likely = get_global("likely_subtags").get(lang.split("-")[0].replace("-", "_"), "")
    parts = likely.split("_")
    return parts[1] if len(parts) > 1 else "Latn"


def font_stack(lang: str) -> list[str]:
    """The font families of a page in `lang`, in order, generic family last."""
    script_font, latin, generic = SCRIPT_FONTS.get(script_of(lang), SCRIPT_FONTS["Latn"])
    return list(dict.fromkeys([script_font, latin, *SYMBOL_FONTS, generic]))


def css_stack(lang: str) -> str:
    return ", ".join(f'"{f}"' if " " in f or f[0].isupper() else f for f in font_stack(lang))


@dataclass(frozen=True)
class MissingFont:
    lang: str
    family: str
    package: str

    def __str__(self) -> str:
        return (f"{self.lang}: the font {self.family!r} is not installed "
                f"(Debian: apt-get install {self.package})")


@lru_cache(maxsize=1)
def _fonts() -> tuple[tuple[frozenset[str], tuple[tuple[int, int], ...]], ...]:
    """(family names, code point ranges) of every font fontconfig knows (one fc-list call)."""
    done = subprocess.run(["fc-list", "--format", "%{family}\t%{charset}\n"], capture_output=True, text=True,
                          timeout=60)
    fonts = []
    for line in done.stdout.splitlines():
        family, _, charset = line.partition("\t")
        ranges = []
        for part in charset.split():
            first, _, last = part.partition("-")
            ranges.append((int(first, 16), int(last or first, 16)))
        fonts.append((frozenset(f.strip() for f in family.split(",")), tuple(ranges)))
    return tuple(fonts)


def _installed(family: str) -> bool:
    return any(family in names for names, _ in _fonts())


def _covered(ch: str) -> bool:
    cp = ord(ch)
    return any(first <= cp <= last for _, ranges in _fonts() for first, last in ranges)


def have_fontconfig() -> bool:
    return shutil.which("fc-list") is not None


def missing_fonts(lang: str, text: str = "") -> list[MissingFont]:
    """What a page in `lang` lacks: its script font and a suit font (asked of fontconfig), and,
    for every letter of `text`, some installed font that has it. Empty when all is there."""
    script_font = font_stack(lang)[0]
    missing = []
    if not _installed(script_font):
        missing.append(MissingFont(lang, script_font, PACKAGES.get(script_font, "fonts-noto-core")))
    if not any(_installed(f) for f in SYMBOL_FONTS):
        missing.append(MissingFont(lang, SYMBOL_FONTS[0], PACKAGES[SYMBOL_FONTS[0]]))
    if not missing:
        for ch in sorted({c for c in text if ord(c) > 0x7F and c.isprintable() and not c.isspace()}):
            if not _covered(ch):
                missing.append(MissingFont(lang, f"a font with U+{ord(ch):04X} {ch}", "fonts-noto-core"))
                break
    return missing
