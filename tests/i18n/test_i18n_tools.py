"""Catalogs under the translators' own tools: review marks survive `pybabel update` and
`msgmerge -U` (as they do Poedit and Weblate, which merge the same way), and `msgfmt --check`
accepts every catalog and template. Skips cleanly when a tool is absent."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from president.i18n.catalogs import CATALOG_LANGS, load_catalog, po_path, pot_path
from president.i18n.steps_catalog import is_unreviewed

from i18n_support import copy_project

DOMAINS = ("rules", "steps")


def marks(root: Path) -> dict[tuple[str, str], int]:
    """Review marks per (domain, lang), as `president i18n stats` counts them."""
    return {(d, lang): sum(1 for m in load_catalog(po_path(root, lang, d), lang) if m.id and is_unreviewed(m))
            for d in DOMAINS for lang in CATALOG_LANGS}


def _pybabel() -> list[str] | None:
    try:
        import babel.messages.frontend  # noqa: F401
    except ImportError:
        return None
    return [sys.executable, "-m", "babel.messages.frontend"]


def test_marks_survive_pybabel_update(tmp_path):
    cmd = _pybabel()
    if cmd is None:
        pytest.skip("Babel's command line is not importable")
    root = copy_project(tmp_path)
    before = marks(root)
    assert before[("steps", "ru")] > 0 and before[("rules", "ar")] > 0
    for domain in DOMAINS:
        subprocess.run([*cmd, "-q", "update", "-i", str(pot_path(root, domain)), "-d", str(root / "locales"),
                        "-D", domain], check=True, capture_output=True)
    assert marks(root) == before


@pytest.mark.skipif(shutil.which("msgmerge") is None, reason="gettext's msgmerge is not installed")
def test_marks_survive_msgmerge(tmp_path):
    root = copy_project(tmp_path)
    before = marks(root)
    for domain in DOMAINS:
        for lang in CATALOG_LANGS:
            subprocess.run(["msgmerge", "-q", "-U", "--backup=off", str(po_path(root, lang, domain)),
                            str(pot_path(root, domain))], check=True, capture_output=True)
    assert marks(root) == before


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed")
def test_msgfmt_check_is_clean(tmp_path):
    from i18n_support import ROOT
    files = [pot_path(ROOT, d) for d in DOMAINS] + [po_path(ROOT, lang, d) for d in DOMAINS for lang in CATALOG_LANGS]
    for f in files:
        done = subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "out.mo"), str(f)],
                              capture_output=True, text=True)
        assert done.returncode == 0 and not done.stderr.strip(), f"{f}: {done.stderr}"
