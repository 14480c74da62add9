"""The wording checks of `president check` (president/i18n/lint.py, Weblate's checks as the model):
each catches its defect, planted in a copy of the project, at the file and line of the entry; the
project itself passes them. The defects planted are the ones issue 20 found in the catalogs."""
from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog

from president.i18n import lint
from president.i18n.catalogs import po_path
from president.i18n.termbase import load_termbase, term_hits
from president.project.build import Project
from president.project.check import CheckContext, run_checks
from president.project.lint_check import (check_bidi_controls, check_cross_domain, check_option_words,
                                          check_same_plurals, check_sentence_end)
from president.project.terms_check import check_terms

from i18n_support import ROOT, copy_project, plant

LINT = [check_same_plurals, check_cross_domain, check_sentence_end, check_bidi_controls, check_option_words, check_terms]
RUN = "The first player lays down a combination of %(min)s to %(max)s cards of the same rank, or a run."


@pytest.fixture
def root(tmp_path):
    return copy_project(tmp_path / "copy")


def reported(root, check, file_end, span, *words):
    """The problems of `check` in the file, inside the planted entry, naming every word."""
    problems = run_checks(Project.resolve(root), [check])
    hits = [p for p in problems if p.file.endswith(file_end) and span[0] <= (p.line or 0) <= span[1]
            and all(w in p.message for w in words)]
    assert hits, "\n".join(map(str, problems)) or "no problems"
    return hits


@pytest.mark.slow
def test_the_project_passes_the_wording_checks():
    problems = run_checks(Project.resolve(ROOT), LINT)
    assert not problems, "\n".join(map(str, problems))


@pytest.mark.slow
def test_identical_plural_forms_are_caught_unless_marked(root):
    # the Arabic row of issue 20: six identical forms ("أوراق" for 1, 2, 11 and 100 cards alike)
    ar = "يضع اللاعب الأول تشكيلة من %(min)s إلى %(max)s أوراق من الرتبة نفسها، أو سلسلة."
    span = plant(po_path(root, "ar", "rules"), RUN, [ar] * 6, flags="python-format")
    [p] = reported(root, check_same_plurals, "locales/ar/LC_MESSAGES/rules.po", span, "all 6 plural forms are identical")
    assert "ignore-same-plurals" in p.hint
    # el and ru: the same forms are right after a range; the entries say so with the flag
    path = po_path(root, "el", "rules")
    assert re.search(r"^#, (python-format, ignore-same-plurals|ignore-same-plurals, python-format)$",
                     path.read_text(encoding="utf-8"), re.M)  # gettext's order, or Babel's
    el = "Ο πρώτος παίκτης παίζει έναν συνδυασμό από %(min)s έως %(max)s φύλλα ίδιου βαθμού ή μια σειρά."
    span = plant(path, RUN, [el, el], flags="python-format")  # the flag removed: reported
    reported(root, check_same_plurals, "locales/el/LC_MESSAGES/rules.po", span, "all 2 plural forms")


def test_one_sentence_translated_two_ways_is_caught(root):
    span = plant(po_path(root, "ru", "steps"), "The cards of a play must have the same rank",
                 "Карты одного хода должны быть одного достоинства", ctx="clause")
    [p] = reported(root, check_cross_domain, "locales/ru/LC_MESSAGES/steps.po", span, "translated otherwise")
    assert "locales/ru/LC_MESSAGES/rules.po:" in p.message and "Карты выкладки должны иметь одинаковый ранг" in p.message


@pytest.mark.slow
def test_a_concept_without_its_published_term_is_caught_through_inflections(root):
    # an avoided word, inflected: "պաս է ասում" (hy: a pass is "պաս տալ")
    span = plant(po_path(root, "hy", "steps"), "seat {seat:d} passes", "{seat:d} նստատեղը պաս է ասում", ctx="pass")
    reported(root, check_terms, "locales/hy/LC_MESSAGES/steps.po", span, "names 'pass' with 'պաս է աս'")
    # no published term at all: el "χέρι" (hand) for a deal
    span = plant(po_path(root, "el", "rules"), "In each deal only the first out scores one point.",
                 "Σε κάθε χέρι μόνο ο πρώτος που βγαίνει κερδίζει έναν βαθμό.")
    reported(root, check_terms, "locales/el/LC_MESSAGES/rules.po", span, "names 'deal' without the published term 'διανομή'")


def test_terms_match_their_inflections():
    tb = load_termbase(ROOT)
    for lang, msgid, text in (("el", "the deal is over", "η διανομή τελείωσε"), ("el", "two deals", "δύο διανομές"),
                              ("ru", "after 3 deals", "после 3 раундов"), ("hy", "the trick", "վերցման"),
                              ("ar", "after two deals", "بعد جولتين"), ("hi", "a quad", "चौके"),
                              ("hy", "with revolution on", "հեղափոխության ժամանակ")):
        assert not term_hits(tb, lang, msgid, text, published=False), (lang, text)
    assert term_hits(tb, "hi", "the cards of a play", "एक चाल के पत्ते", published=False)  # avoid: पत्ता
    assert term_hits(tb, "hy", "a quad", "կարե", published=False)
    assert not term_hits(tb, "hi", "a run never reverses the order", "सीक्वेंस कभी क्रम नहीं उलटता", published=False)
    assert term_hits(tb, "hi", "sequences are on", "क्रम चालू", published=False)  # क्रम is the rank order


@pytest.mark.slow
def test_sentence_end_against_the_published_convention(root):
    # hi ends sentences with "।" (the published sheet); a new translation ending with "." is caught
    span = plant(po_path(root, "hi", "rules"), "No points are scored.", "कोई अंक नहीं दिए जाते.")
    [p] = reported(root, check_sentence_end, "locales/hi/LC_MESSAGES/rules.po", span, "ends with '.'", "'।'")
    # and a step phrase (no sentence mark in English) that gains one
    span = plant(po_path(root, "hy", "steps"), "the trick is empty", "վերցումը դատարկ է։", ctx="trick-empty")
    reported(root, check_sentence_end, "locales/hy/LC_MESSAGES/steps.po", span, "the source has no sentence mark")


@pytest.mark.slow
def test_bidi_overrides_and_unbalanced_isolates_are_caught(root):
    span = plant(po_path(root, "ru", "rules"), "No points are scored.", "Очки не \u202eначисляются.")
    # an override is a control character no catalog may hold: refused as the catalog is read (issue 32)
    problems = run_checks(Project.resolve(root))
    assert [p for p in problems if p.file.endswith("locales/ru/LC_MESSAGES/rules.po")
            and span[0] <= (p.line or 0) <= span[1] and "\\u202e" in p.message], "\n".join(map(str, problems))
    span = plant(po_path(root, "ar", "steps"), "the trick is {cards:Cards} played by seat {seat:d}",
                 "الأكلة هي \u2066{cards:Cards} لعبها المقعد {seat:d}", ctx="trick")
    reported(root, check_bidi_controls, "locales/ar/LC_MESSAGES/steps.po", span, "never closed")
    span = plant(po_path(root, "el", "rules"), "No points are scored.", "Δεν δίνονται \u2066βαθμοί\u2069.")
    reported(root, check_bidi_controls, "locales/el/LC_MESSAGES/rules.po", span, "in a left-to-right language")


def test_lint_bidi_unit():
    assert lint.bidi_controls("\u2066(C < D)\u2069", rtl=True) == []
    assert lint.bidi_controls("x\u2069", rtl=True)[0].startswith("stray U+2069")
    assert any("U+202A" in w for w in lint.bidi_controls("\u202ax\u202c", rtl=True))


@pytest.mark.slow
def test_shared_on_off_word_without_a_frame_is_caught(root):
    # the features row of issue 20: "равенство выключена" (one word for every option)
    span = plant(po_path(root, "ru", "steps"), "equality is {equality:OnOff}", "равенство {equality:OnOff}",
                 ctx="opt-equality")
    reported(root, check_option_words, "locales/ru/LC_MESSAGES/steps.po", span, "{equality:OnOff} is one word shared")
    plant(po_path(root, "ru", "steps"), "equality is {equality:OnOff}", "равенство {equality:OnOff}",
          ctx="opt-equality", flags="python-brace-format, ignore-option-word")
    assert not [p for p in run_checks(Project.resolve(root), [check_option_words]) if "equality:OnOff" in p.message]


def test_option_word_message_without_a_msgctxt_per_option_is_caught(root, monkeypatch):
    # the locked-variant rows of issue 20 ("المساواة: يُلعب", "η εξίσωση ... ανενεργό"): one message
    # for every option cannot agree with each word; the templates must give each option its msgctxt
    template = Catalog(locale="en")
    template.add("%(variant)s remains unavailable.", locations=[("president/templates/sheet.j2", 232)])
    template.add("%(variant)s is always played.", locations=[("president/templates/sheet.j2", 231)],
                 context="option equality")
    monkeypatch.setattr(CheckContext, "template", lambda self: template)
    problems = run_checks(Project.resolve(root), [check_option_words])
    assert [(p.file, p.line) for p in problems] == [("president/templates/sheet.j2", 232)], problems
    assert "without a msgctxt naming the option" in problems[0].message


@pytest.mark.parametrize("locked,phrase,wrong", [(True, "بعد جولتين", "بعد جولتان"), (False, "وهو جولتان", "وهو جولتين")])
@pytest.mark.slow
def test_each_deals_sentence_has_its_own_phrase(root, locked, phrase, wrong):
    """ar: 'after two deals' is genitive (بعد جولتين), 'it is two deals by default' nominative (جولتان)."""
    from president.i18n.render import render_lines
    from president.project.build import read_spec

    from i18n_support import edit_spec

    spec = read_spec(edit_spec(root, lambda d: d["options"]["deals"].update(default=2, locked=locked)))
    text = "\n".join(t for _, t in render_lines(spec, "ar", root))
    assert phrase in text and wrong not in text


@pytest.mark.slow
def test_cards_render_without_a_second_article(root):
    """hy renders a card in words with its article (3 խաչը): the sentence adds none ("3 խաչը-ը")."""
    from president.i18n.render import render_lines
    from president.project.build import read_spec

    from i18n_support import edit_spec

    spec = read_spec(edit_spec(root, lambda d: d["options"]["first_lead"].update(default="holder:3C")))
    lines = {lang: "\n".join(t for _, t in render_lines(spec, lang, root)) for lang in ("hy", "el", "hi", "ru")}
    assert "որն ունի 3 խաչը," in lines["hy"] and "-ը," not in lines["hy"]
    assert "το 3 σπαθί" in lines["el"] and "चिड़ी का 3" in lines["hi"] and "3♣" in lines["ru"]
