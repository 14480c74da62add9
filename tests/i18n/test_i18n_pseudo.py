"""Pseudo-locales as Android ships them: en-XA (accented, ~40% longer, bracketed) and ar-XB
(right to left), written by `president build --pseudo`; ar-XB shows what isolation protects."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from president.cli.project import build
from president.i18n.catalogs import PDF, RLM, RLO, pseudo_accented, pseudo_bidi
from president.i18n.render import render_pseudo
from president.project.build import read_spec

from i18n_support import ROOT, project  # noqa: F401 (fixture)


def test_en_xa_is_accented_bracketed_and_about_40_percent_longer():
    msgid = "Deal all cards as evenly as possible to %(min)s to %(max)s players."
    out = pseudo_accented(msgid)
    assert out.startswith("[Đéàĺ àĺĺ") and out.endswith("]") and "%(min)s" in out and "%(max)s" in out
    grow = (len(out) - len(msgid)) / len(msgid)
    assert 0.3 <= grow <= 0.6, grow


def test_ar_xb_forces_every_word_right_to_left():
    out = pseudo_bidi("The %(card)s is not required.")
    assert out.startswith(RLM) and out.endswith(RLM) and "%(card)s" in out
    assert f"{RLO}required.{PDF}" in out and f"{RLO}%(card)s" not in out


def _visual(html_line: str) -> str:
    bidi = pytest.importorskip("bidi")
    text = html_line.replace('<bdi dir="ltr">', "\u2066").replace("</bdi>", "\u2069")
    return re.sub("[\u200e\u200f\u202a-\u202e\u2066-\u2069]", "", bidi.get_display(text, base_dir="R"))


def _line(page: str, anchor: str) -> str:
    return re.search(rf'<li id="{anchor}"[^>]*>(.*?)</li>', page).group(1)


def test_ar_xb_exposes_the_isolation_bug_when_isolation_is_off():
    spec = read_spec(ROOT / "spec" / "president.yaml")
    order = ",".join(spec.deck.ranks)
    good = render_pseudo(spec)["ar-XB.html"]
    bad = render_pseudo(spec, isolation=False)["ar-XB.html"]
    assert 'dir="rtl"' in good and 'lang="ar-XB"' in good
    assert order in _visual(_line(good, "setup-3")) and "3♣" in _visual(_line(good, "setup-2"))
    assert order not in _visual(_line(bad, "setup-3")) and "♣3" in _visual(_line(bad, "setup-2"))


@pytest.mark.slow
def test_build_pseudo_writes_both_locales(project):  # noqa: F811
    result = CliRunner().invoke(build, ["--pseudo"])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (project / "pseudo").iterdir())
    assert names == [f"{lg}.{fmt}" for lg in ("ar-XB", "en-XA") for fmt in ("html", "md", "txt")]
    assert (project / "pseudo" / "en-XA.txt").read_text(encoding="utf-8").startswith("[Þŕéšîđéñţ")
