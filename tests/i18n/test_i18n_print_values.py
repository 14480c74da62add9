"""Print keeps every number with its noun and every version with its label (issue 31, P1/P2).

`%(num)d` values (the number of deals) are isolated like `%(num)s` ones, so the HTML (and the PDF
made from it) binds them to their noun with a no-break space; a version string is bound to the
word before it (hi `संस्करण 1.1.0`). The .txt sheets are unchanged (tests/seeds compares them
with the published ones).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from president.i18n.catalogs import LANGS, LRI, PDI, Translator
from president.i18n.linebreak import NBSP, keep_values_whole
from president.i18n.render import render_sheet
from president.spec import default_spec, parse_spec

ROOT = Path(__file__).resolve().parents[2]
#: an isolated number, then a plain space: the number may end a printed line without its noun
_LOOSE_NUMBER = re.compile(r'<(bdi|span)\b[^>]*>\d+</\1> ')
#: a number outside any value element, then a space (not isolated, so not bound)
_BARE_NUMBER = re.compile(r"(?<![\w.\-–/])\d+ (?=\w)")


def _deals_spec(deals: int, locked: bool):
    data = yaml.safe_load((ROOT / "spec" / "president.yaml").read_text(encoding="utf-8"))
    for clause in data["clauses"]:
        clause.pop("examples", None)
    data["options"]["deals"].update(default=deals, locked=locked)
    return parse_spec(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "deals.yaml")


def _text_nodes(html: str) -> str:
    body = html.split("<body", 1)[-1]
    body = re.sub(r"<(bdi|span)\b[^>]*>.*?</\1>", "", body)  # the values themselves
    return re.sub(r"<[^>]+>", "\n", body)


def test_a_d_placeholder_is_isolated_like_an_s_one() -> None:
    tr = Translator("ru", {("number of deals", "%(num)d deal"): ("%(num)d раунд", "%(num)d раунда", "%(num)d раундов")},
                    plural=lambda n: 2 if n % 10 >= 5 or n % 10 == 0 else (0 if n % 10 == 1 else 1))
    assert tr.npgettext("number of deals", "%(num)d deal", "%(num)d deals", 5) == f"{LRI}5{PDI} раундов"
    assert Translator("en", None).ngettext("%(n)d%% of %(num)d", "%(n)d%% of %(num)d", 2, n=3) == f"{LRI}3{PDI}% of {LRI}2{PDI}"


@pytest.mark.parametrize("deals,locked", [(5, False), (21, True), (102, False)])
def test_the_deals_count_keeps_its_noun_in_print(deals: int, locked: bool) -> None:
    spec = _deals_spec(deals, locked)
    for lang in LANGS:
        html = render_sheet(spec, lang, "html")
        assert not _LOOSE_NUMBER.search(html), (lang, _LOOSE_NUMBER.search(html))
        bound = re.search(rf'>{deals}</(?:bdi|span)>{NBSP}\w', html)
        assert bound, (lang, deals)
        assert not _BARE_NUMBER.search(_text_nodes(html)), (lang, _BARE_NUMBER.search(_text_nodes(html)))
        assert NBSP not in render_sheet(spec, lang, "txt")


def test_the_version_keeps_its_label_in_print() -> None:
    spec = default_spec()
    for lang in LANGS:
        html = render_sheet(spec, lang, "html")
        assert re.search(rf'\w{NBSP}<(bdi|span)\b[^>]*>{re.escape(spec.version)}</\1>', html), lang
    assert keep_values_whole('संस्करण <span class="value">1.1.0</span>', "hi") == \
        f'संस्करण{NBSP}<span class="value">1.1.0</span>'
    # a value that is no version keeps its space before it (cards, settings: whole, not bound)
    assert keep_values_whole('का <span class="value">3♣</span>', "hi") == 'का <span class="value">3♣</span>'
