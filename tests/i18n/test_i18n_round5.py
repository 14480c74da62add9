"""Issue 31: one wording per term in the sheets and the steps, the Hindi inner stop, the number-words hint.

Each check catches its class when planted into a copy of the catalogs, and the fixed catalogs pass."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Message

from president.i18n.catalogs import CATALOG_LANGS, load_catalog, po_path
from president.i18n.lint import inner_stops
from president.i18n.termbase import load_termbase, term_hits
from president.project.build import Project
from president.project.check import run_checks
from president.project.lint_check import check_sentence_end
from president.project.steps_check import check_steps_catalogs
from president.project.terms_check import check_terms

from i18n_support import ROOT, copy_project, plant

#: per language, (domain, msgctxt, msgid, the published word, a word the sheet does not use for it):
#: a step phrase, a scenario title and a clause title in each language.
PLANTS = {
    "ar": [("steps", "opt-equality", "equality is {equality:OnOff}", "المساواة", "التساوي"),
           ("steps", "scenario", "a run is not a combination", "السلسلة", "المتتالية"),
           ("steps", "clause", "If the player who must lead has finished, the lead passes to the next active player",
            "المبادرة", "البداية")],
    "el": [("steps", "opt-sequences", "sequences are {sequences:OnOff}", "σειρές", "κλίμακες"),
           ("steps", "scenario", "the holder's first play must contain the card", "ο πρώτος συνδυασμός",
            "το πρώτο παίξιμο"),
           ("steps", "clause", "The option revolution=false disables reversals; equality, jokers and sequences "
            "stay absent", "εξίσωση", "ισότητα")],
    "ru": [("steps", "scenario", "only the first out scores", "первый закончивший", "первый вышедший"),
           ("steps", "clause", "The option revolution=false disables reversals; equality, jokers and sequences "
            "stay absent", "Параметр", "Опция"),
           ("rules", None, "%(from_players)s, in a series of several deals, the last automatically gives %(best)s "
            "to the President, who chooses %(back)s.", "раздач", "раундов")],
    "hy": [("steps", "clause", "The option revolution=false disables reversals; equality, jokers and sequences "
            "stay absent", "տարբերակը", "ընտրանքն"),
           ("rules", "suit", "♦", "քյափը", "ղառը"),
           ("rules", "suit", "♠", "ղառը", "քյափը")],
    "hi": [("steps", "scenario", "only the first out scores", "निकलने", "होने"),
           ("steps", "clause", "If the player who must lead has finished, the lead passes to the next active player",
            "पहल", "शुरुआत")],
}


@pytest.fixture(scope="module")
def tb():
    return load_termbase(ROOT)


def _translation(lang: str, domain: str, ctx: str | None, msgid: str) -> str:
    cat = load_catalog(po_path(ROOT, lang, domain), lang, formats=False)
    msg = cat.get(msgid, context=ctx)
    assert msg is not None and isinstance(msg.string, str) and msg.string, (lang, ctx, msgid)
    return msg.string


@pytest.mark.parametrize("lang", sorted(PLANTS))
def test_a_word_the_sheet_does_not_use_fails_in_steps_and_titles(tb, lang):
    assert set(PLANTS) == set(CATALOG_LANGS)
    for domain, ctx, msgid, published, other in PLANTS[lang]:
        good = _translation(lang, domain, ctx, msgid)
        assert published in good, (lang, msgid, good)
        assert term_hits(tb, lang, msgid, good, published=False) == [], (lang, msgid)  # the fixed catalog
        bad = good.replace(published, other)
        assert term_hits(tb, lang, msgid, bad, published=False), (lang, msgid, bad)
        assert term_hits(tb, lang, msgid, bad, published=True), (lang, msgid)  # an `avoid` word fails anywhere


def test_a_concept_inside_another_is_left_to_it(tb):
    """"deals" in "a series of several deals" is the twin sentence's phrase (ru раздач), not a deal (раунд)."""
    english = "In a series of several deals the last gives their best card."
    assert "deal" not in tb.concepts_named(english) and "series-of-deals" in tb.concepts_named(english)
    assert "deal" in tb.concepts_named("The deal ends; in a series of several deals the last gives their best card.")


@pytest.mark.slow
def test_check_reports_each_planted_term_at_its_entry(tmp_path):
    root = copy_project(tmp_path / "copy")
    planted = {}
    for lang, rows in PLANTS.items():
        domain, ctx, msgid, published, other = rows[0]
        path = po_path(root, lang, domain)
        good = _translation(lang, domain, ctx, msgid)
        planted[lang] = (path, plant(path, msgid, good.replace(published, other), ctx=ctx))
    problems = run_checks(Project.resolve(root), [check_terms])
    for lang, (path, (first, last)) in planted.items():
        found = [p for p in problems if Path(p.file).name == path.name and f"/{lang}/" in p.file]
        assert len(found) == 1 and first <= found[0].line <= last + 1, (lang, [str(p) for p in found])
        assert "the published sheet says" in found[0].message and "termbase.yaml" in found[0].hint
    assert len(problems) == len(planted), "\n".join(map(str, problems))


def test_a_latin_stop_after_a_devanagari_vowel_sign_or_anusvara():
    """T8: नहीं (anusvara), है (vowel sign) and को end in combining marks; a bare consonant too."""
    for text in ("कोई अंक नहीं. दिए जाते।", "यह खेल है. अब", "राउंड को. फिर", "कार्ड. दिए"):
        assert inner_stops(Message("x.", text), "।"), text
    for text in ("रैंक का सामान्य क्रम: 3,4,2. अगला", "%(order)s. अगला", "CardVerse v1.1.0. अगला", "एक वाक्य।"):
        assert not inner_stops(Message("x.", text), "।"), text


@pytest.mark.slow
def test_check_reports_a_planted_hindi_inner_stop(tmp_path):
    root = copy_project(tmp_path / "copy")
    msgid = "In each deal only the first out scores one point."
    path = po_path(root, "hi", "rules")
    first, last = plant(path, msgid, "हर राउंड में केवल पहले बाहर निकलने वाले को अंक नहीं. एक अंक मिलता है।")
    found = [p for p in run_checks(Project.resolve(root), [check_sentence_end]) if "Latin full stop" in p.message]
    assert len(found) == 1 and found[0].file.endswith("hi/LC_MESSAGES/rules.po") and first <= found[0].line <= last
    plant(path, msgid, _translation("hi", "rules", None, msgid))
    assert not [p for p in run_checks(Project.resolve(root), [check_sentence_end]) if "Latin full stop" in p.message]


@pytest.mark.slow
def test_a_number_written_in_words_points_to_the_number_words_header(tmp_path):
    """ru `владелец тройки треф` passes with `# number-words: 3 = тройки …`; without it the hint names it."""
    root = copy_project(tmp_path / "copy")
    path = po_path(root, "ru", "steps")
    text = path.read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith("# number-words:"))
    assert "тройки" in header
    assert not [p for p in run_checks(Project.resolve(root), [check_steps_catalogs]) if "number" in p.message]
    path.write_text(text.replace(header + "\n", ""), encoding="utf-8")
    found = [p for p in run_checks(Project.resolve(root), [check_steps_catalogs]) if "lacks number(s) 3" in p.message]
    assert len(found) == 1 and "# number-words: 3 = " in found[0].hint and "never type them in" not in found[0].hint


def test_every_review_row_reads_as_the_review_says():
    """The corrections of the round-5 review are in the catalogs (a regression guard, one per row group)."""
    want = {
        ("ar", "steps"): ("تُرفض ثلاثة جوكرات", "عدد الجوكرات في الرزمة", "إلا الأولُ خروجًا", "\u20663♣\u2069"),
        ("ar", "rules"): ("والسلسلة لا تعكس الترتيب أبدًا",),
        ("el", "rules"): ("σε μια σειρά από πολλούς γύρους", "έχει το %(card)s και ο πρώτος του συνδυασμός"),
        ("el", "steps"): ("ποτέ την ιεραρχία", "πάσο από όποιον ανοίγει"),
        ("ru", "steps"): ("равная карта отвечает, и следующий игрок пропускает ход", "не менее чем из 3 карт"),
        ("hy", "rules"): ("որն ունի %(card)s", "մի քանի փուլից բաղկացած", "իրար հաջորդող քարտից"),
        ("hy", "steps"): ("պաս տված նստատեղերը՝ {seats:Numbers}", "մեկ ջոկեր է բաժանվում 52 քարտի հետ"),
        ("hi", "steps"): ("आखिरी से पहले उप-फिसड्डी",),
    }
    for (lang, domain), texts in want.items():
        body = re.sub(r'"\n"', "", po_path(ROOT, lang, domain).read_text(encoding="utf-8"))
        for t in texts:
            assert t in body, (lang, domain, t)


@pytest.mark.parametrize("lang", ("en", *sorted(PLANTS)))
def test_a_counted_step_phrase_agrees_with_its_number(lang):
    """The deck holds 1 joker / 2 jokers: a counted step phrase is a plural message, rendered with
    the form of its number and read back from any form."""
    from president.i18n.steps_catalog import step_language
    from president.scenarios.steps import TEMPLATES, count_field, render
    steps = step_language(ROOT, lang)
    for key, field in (("opt-jokers", "jokers"), ("deals", "deals")):
        assert count_field(TEMPLATES[key]) == field
        for n in (0, 1, 2, 3, 5, 11, 21, 100):
            text = steps.render(key, {field: n}) if lang != "en" else render(key, {field: n})
            assert str(n) in text
            assert steps.match(key, text) == {field: n}, (lang, text)
            if lang == "en":
                assert text.endswith(("joker", "deal") if n == 1 else ("jokers", "deals")), text
    if lang != "en":
        cat = load_catalog(po_path(ROOT, lang, "steps"), lang, formats=False)
        msg = next(m for m in cat if m.context == "opt-jokers")
        assert isinstance(msg.id, tuple) and msg.id[1] == "the deck holds {jokers:d} jokers" and not msg.fuzzy


def test_a_copula_before_the_frame_colon_is_reported():
    """H4: `պաս տված նստատեղերն են՝ 1` (the plural copula before a one-seat list) passed the frame check."""
    from president.i18n.lint import value_frames
    msgid = "the seats that passed are {seats:Numbers}"
    assert "verb 'են'" in (value_frames(Message(msgid, "պաս տված նստատեղերն են՝ {seats:Numbers}")) or "")
    assert "verb 'हैं'" in (value_frames(Message(msgid, "पास करने वाली सीटें हैं: {seats:Numbers}")) or "")
    for lang in CATALOG_LANGS:  # the fixed catalogs
        cat = load_catalog(po_path(ROOT, lang, "steps"), lang, formats=False)
        assert [m.id for m in cat if m.id and value_frames(m)] == [], lang
