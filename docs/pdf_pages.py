#!/usr/bin/env python3
"""Render the house-rule sheet (every option on) to PDF and to PNG pages, for people to look at.

    python docs/pdf_pages.py [--out docs/pdf] [--langs ru,hy,el,ar]

Copies spec/ and locales/ to a temporary project, sets every table option of the spec to a
house-rule value (equality, sequences, two jokers, first lead holder:3C, the leader may pass,
president-only scoring, three deals), runs `president build --pdf` there (WeasyPrint, the Noto
fonts) and turns each page into `<out>/<lang>-house-<n>.png` with poppler's `pdftoppm -r 80`.
The Arabic sheet gives its first page only (its footer). Needs `pip install '.[pdf]'` and Debian's
poppler-utils and fonts-noto-core.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOUSE = {"equality": "true", "sequences": "true", "jokers": "2", "first_lead": "holder:3C",
         "leader_may_pass": "true", "scoring": "president_only"}


def house_spec(text: str) -> str:
    """The spec with each option of HOUSE defaulting to its house-rule value, and three deals."""
    for name, value in HOUSE.items():
        block = re.search(rf"(?ms)^  {name}:\n(.*?)(?=^  \S)", text)
        if block is None:
            raise SystemExit(f"spec/president.yaml: no option {name!r} to set")
        body = re.sub(r"(?m)^(    default: ).*$", rf"\g<1>{value}", block.group(1), count=1)
        text = text[:block.start(1)] + body + text[block.end(1):]
    return re.sub(r"(?m)^(  deals: \{type: int, default: )1,", r"\g<1>3,", text, count=1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "pdf")
    parser.add_argument("--langs", default="ru,hy,el,ar")
    args = parser.parse_args()
    if shutil.which("pdftoppm") is None:
        print("pdftoppm is missing: apt-get install poppler-utils", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "house"
        for folder in ("spec", "locales", "rules", "features"):
            shutil.copytree(ROOT / folder, project / folder)
        spec = project / "spec" / "president.yaml"
        spec.write_text(house_spec(spec.read_text(encoding="utf-8")), encoding="utf-8")
        subprocess.run([sys.executable, "-m", "president", "build", "--pdf", "--out", str(project / "out")],
                       cwd=project, check=True)
        args.out.mkdir(parents=True, exist_ok=True)
        for lang in args.langs.split(","):
            for old in args.out.glob(f"{lang}-house-*.png"):
                old.unlink()
            last = ["-l", "1"] if lang == "ar" else []
            subprocess.run(["pdftoppm", "-png", "-r", "80", *last, str(project / "out" / f"{lang}.pdf"),
                            str(args.out / f"{lang}-house")], check=True)
            print(*sorted(p.name for p in args.out.glob(f"{lang}-house-*.png")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
