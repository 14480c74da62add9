"""The termbase (locales/termbase.yaml) comes from the published sheets, and check enforces it."""
from __future__ import annotations

import re

import pytest

from president.i18n.catalogs import CATALOG_LANGS, po_path
from president.i18n.termbase import load_termbase, term_hits, word_search
from president.project.build import Project
from president.project.check import run_checks
from president.project.terms_check import check_terms

from i18n_support import ROOT, SEEDS, copy_project


@pytest.fixture(scope="module")
def tb():
    return load_termbase(ROOT)


def test_every_term_is_the_published_sheets_word(tb):
    sheets = {lang: (SEEDS / f"{lang}.txt").read_text(encoding="utf-8").casefold() for lang in CATALOG_LANGS}
    for (concept, lang), term in tb.terms.items():
        if term.reviewed:  # a suit no published sheet names: the review that confirmed it is given
            assert (concept, lang) in {(c, lg) for c, lg in tb.terms if c in ("diamonds", "hearts", "spades")}
            continue
        assert term.term.casefold() in sheets[lang], f"{concept}/{lang}: {term.term!r} is not in the published sheet"
        others = [t.term for (c, lg), t in tb.terms.items() if lg == lang and c != concept]
        if term.avoid is not None and not any(word_search(term.avoid, o, lang) for o in others):  # ru: место is "place"
            assert not word_search(term.avoid, sheets[lang], lang), f"{concept}/{lang}: the sheet itself uses an avoided word"
    for concept in ("deal", "trick", "pass", "seat", "place", "quad", "president", "vice-president",
                    "vice-scum", "scum", "easy", "medium", "hard", "revolution"):
        assert all((concept, lang) in tb.terms for lang in CATALOG_LANGS), concept
    # issue 26: the sheets' words for a play and the current order
    assert {("play", lg) for lg in ("ru", "hy", "hi")} | {("current-order", lg) for lg in ("ru", "hy")} <= set(tb.terms)


def test_seat_and_place_differ_where_the_sheet_does(tb):
    for lang in ("ru", "hy"):
        assert tb.terms[("seat", lang)].term != tb.terms[("place", lang)].term


def test_hits(tb):
    assert term_hits(tb, "ar", "the deal is over", "انتهت التوزيعة", published=False)
    assert not term_hits(tb, "ar", "the deal is over", "انتهت الجولة", published=False)
    # a word of the published sheet other than its term: accepted in the published text only
    assert not term_hits(tb, "ru", "the deal is over", "раздача окончена", published=True)
    assert term_hits(tb, "ru", "the deal is over", "раздача окончена", published=False)
    # but "a series of several deals" is the twin sentence's phrase, which the sheet says with раздач (issue 31)
    assert not term_hits(tb, "ru", "a series of several deals", "в серии из нескольких раздач", published=False)
    assert term_hits(tb, "ru", "a series of several deals", "в серии из нескольких раундов", published=False)
    # место is "place" in Russian: wrong for a seat, right when the msgid names a place too
    assert term_hits(tb, "ru", "seat {seat:d} passes", "место {seat:d} пасует", published=False)
    assert not term_hits(tb, "ru", "place p of n players, seat 0", "место p из n, игрок 0", published=False)
    assert term_hits(tb, "hy", "seat {seat:d} passes", "{seat:d} նստատեղը պաս է ասում", published=False)
    assert not term_hits(tb, "hy", "seat {seat:d} passes", "{seat:d} նստատեղը պաս է տալիս", published=False)
    # T2 of issue 26: whole words in their inflections, not prefixes (տեղափոխվել "to move",
    # տեղի ունենալ "to happen" are not տեղ "place")
    seat = "seat {seat:d} is to act"
    assert term_hits(tb, "hy", seat, "թիվ {seat:d} տեղը անցնում է", published=False)
    assert term_hits(tb, "hy", seat, "թիվ {seat:d} տեղում", published=False)
    assert not term_hits(tb, "hy", seat, "թիվ {seat:d} նստատեղը տեղափոխվում է", published=False)
    assert not term_hits(tb, "hy", seat, "թիվ {seat:d} նստատեղի հետ տեղի է ունենում", published=False)
    # the published words for a play and for the current order
    play = "The cards of a play must have the same rank."
    assert term_hits(tb, "ru", play, "Карты хода должны иметь одинаковый ранг.", published=False)
    assert not term_hits(tb, "ru", play, "Карты выкладки должны иметь одинаковый ранг.", published=False)
    assert term_hits(tb, "hi", play, "एक चाल के कार्डों का रैंक समान होना चाहिए।", published=False)
    assert not term_hits(tb, "hi", play, "एक संयोजन में कार्डों का रैंक समान होना चाहिए।", published=False)
    order = "higher in the current order"
    assert term_hits(tb, "hy", order, "ընթացիկ կարգում ավելի բարձր", published=False)
    assert not term_hits(tb, "hy", order, "գործող աստիճանակարգում ավելի բարձր", published=False)
    assert term_hits(tb, "ru", order, "выше в текущем порядке", published=False)
    assert not term_hits(tb, "ru", order, "выше в текущей иерархии", published=False)


@pytest.mark.slow
def test_check_reports_a_planted_term_once_with_file_and_line(tmp_path):
    root = copy_project(tmp_path)
    path = po_path(root, "hi", "steps")
    text = path.read_text(encoding="utf-8")
    planted = text.replace("msgstr \"राउंड समाप्त हो गया है\"", "msgstr \"डील समाप्त हो गई है\"", 1)
    assert planted != text
    path.write_text(planted, encoding="utf-8")
    line = planted.splitlines().index("msgstr \"डील समाप्त हो गई है\"") + 1
    problems = [p for p in run_checks(Project.resolve(root)) if "names 'deal'" in p.message]
    assert len(problems) == 1
    p = problems[0]
    assert p.file.endswith("locales/hi/LC_MESSAGES/steps.po") and abs(p.line - line) <= 3
    assert "'राउंड'" in p.message and "termbase.yaml" in p.hint


def test_the_project_follows_its_termbase():
    problems = [p for p in run_checks(Project.resolve(ROOT), [check_terms])]
    assert not problems, "\n".join(map(str, problems))
    # and the steps catalogs now say what the sheets say
    for lang, word in (("ar", "الجولة"), ("ru", "раунд"), ("el", "διανομή"), ("hy", "խաղափուլ"), ("hi", "राउंड")):
        text = po_path(ROOT, lang, "steps").read_text(encoding="utf-8")
        assert re.search(re.escape(word), text), (lang, word)
