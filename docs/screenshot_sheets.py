#!/usr/bin/env python3
"""Screenshot the six HTML rule sheets in headless Chromium, for people to look at.

    python docs/screenshot_sheets.py [--out docs/screenshots] [--langs ar,en] [--chromium PATH]

Writes <out>/<lang>.png (one per page in rules/). Needs Debian's `chromium` (or any
Chromium/Chrome on PATH); each run uses a fresh profile and no network. Before each page it asks
fontconfig (`fc-list`) for the page's fonts (president/i18n/fonts.py: the script's font, a font
with the suits ♣♦♥♠, and a font for every letter of the page): where one is missing it names the
Debian package to install (fonts-noto-core) and writes no screenshot of tofu boxes (exit 1).
docs/screenshots/ar.png is committed: the rank orders read 3 → 2 and 2 → 3 left to right,
and the card reads 3♣, inside the right-to-left Arabic text.
"""
from __future__ import annotations

import argparse
import html
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "ar", "el", "ru", "hy", "hi")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars")


def find_chromium(explicit: str | None) -> str | None:
    if explicit:
        return explicit
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def screenshot(chromium: str, page: Path, out: Path, size: str = "900,1900", timeout: float = 60) -> None:
    with tempfile.TemporaryDirectory(prefix="president-chromium-") as profile:
        cmd = [chromium, *FLAGS, f"--user-data-dir={profile}", f"--window-size={size}",
               f"--screenshot={out}", page.resolve().as_uri()]
        subprocess.run(cmd, check=True, timeout=timeout, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not out.is_file():
        raise RuntimeError(f"chromium wrote no screenshot for {page}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", type=Path, default=ROOT / "rules", help="folder of <lang>.html pages")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--langs", default=",".join(LANGS))
    ap.add_argument("--size", default="900,1900", help="window size WIDTH,HEIGHT")
    ap.add_argument("--chromium", default=None)
    args = ap.parse_args(argv)
    from president.i18n.fonts import have_fontconfig, missing_fonts
    if not have_fontconfig():
        print("screenshot_sheets: fontconfig's fc-list is not installed, so the fonts cannot be checked "
              "(apt-get install fontconfig)", file=sys.stderr)
        return 2
    status, pages = 0, []
    for lang in args.langs.split(","):
        page = args.rules / f"{lang}.html"
        if not page.is_file():
            print(f"screenshot_sheets: {page}: no such page (run `president build`)", file=sys.stderr)
            return 1
        missing = missing_fonts(lang, page_text(page))
        for m in missing:
            print(f"screenshot_sheets: {page}: {m}; no screenshot written", file=sys.stderr)
            status = 1
        if not missing:
            pages.append((lang, page))
    if not pages:
        return status
    chromium = find_chromium(args.chromium)
    if chromium is None:
        print("screenshot_sheets: no chromium on PATH (apt-get install chromium)", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for lang, page in pages:
        out = args.out / f"{lang}.png"
        screenshot(chromium, page, out, args.size)
        print(f"wrote {out}", file=sys.stderr)
    return status


def page_text(page: Path) -> str:
    """The visible text of an HTML page (what must not turn into tofu)."""
    body = page.read_text(encoding="utf-8").split("</head>")[-1]
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


if __name__ == "__main__":
    sys.exit(main())
