#!/usr/bin/env python3
"""Screenshot the six HTML rule sheets in headless Chromium, for people to look at.

    python docs/screenshot_sheets.py [--out docs/screenshots] [--langs ar,en] [--chromium PATH]

Writes <out>/<lang>.png (one per page in rules/). Needs Debian's `chromium` (or any
Chromium/Chrome on PATH); each run uses a fresh profile and no network.
docs/screenshots/ar.png is committed: the rank orders read 3 → 2 and 2 → 3 left to right,
and the card reads 3♣, inside the right-to-left Arabic text.
"""
from __future__ import annotations

import argparse
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
    chromium = find_chromium(args.chromium)
    if chromium is None:
        print("screenshot_sheets: no chromium on PATH (apt-get install chromium)", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for lang in args.langs.split(","):
        page = args.rules / f"{lang}.html"
        if not page.is_file():
            print(f"screenshot_sheets: {page}: no such page (run `president build`)", file=sys.stderr)
            return 1
        out = args.out / f"{lang}.png"
        screenshot(chromium, page, out, args.size)
        print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
