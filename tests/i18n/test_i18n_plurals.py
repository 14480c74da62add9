"""Plural-Forms come from the pinned Babel's data, agree with CLDR on integers, and check
compares every catalog with them."""
from __future__ import annotations

from babel import Locale

from president.i18n.catalogs import LANGS, PLURAL_FORMS, plural_function, po_path, raw_plural_forms
from president.project.check import same_plural_rule

from i18n_support import ROOT


def test_plural_forms_are_babels_and_follow_cldr_on_integers():
    for lang in LANGS:
        fn = plural_function(PLURAL_FORMS[lang])
        cldr = Locale.parse(lang).plural_form
        seen: dict[int, str] = {}
        for n in range(0, 1001):
            # one gettext form per CLDR category, and one category per form
            assert seen.setdefault(fn(n), cldr(n)) == cldr(n), (lang, n)
        assert len(set(seen.values())) == len(seen)


def test_hy_and_hi_take_the_singular_at_zero_as_cldr_says():
    for lang in ("hy", "hi"):
        assert Locale.parse(lang).plural_form(0) == Locale.parse(lang).plural_form(1) == "one"
        assert plural_function(PLURAL_FORMS[lang])(0) == plural_function(PLURAL_FORMS[lang])(1) == 0


def test_catalog_headers_follow_babel():
    for lang in LANGS[1:]:
        for domain in ("rules", "steps"):
            assert same_plural_rule(raw_plural_forms(po_path(ROOT, lang, domain)), PLURAL_FORMS[lang])
    assert not same_plural_rule("nplurals=2; plural=(n != 1);", PLURAL_FORMS["hy"])
    assert same_plural_rule("nplurals=2; plural=n>1;", PLURAL_FORMS["hy"])


def test_a_form_used_for_one_number_may_spell_any_placeholder_that_holds_it():
    """The Arabic dual: `من %(min)s إلى ورقتين` for '%(min)s to %(max)s cards' at max = 2. check
    accepts it in a form used for one number only (and only there); build fills it when the left-out
    placeholder holds that number, and refuses it otherwise."""
    import pytest
    from president.i18n.catalogs import BuildError, Translator
    from president.project.check import translation_problems
    msgid = ("%(min)s to %(max)s cards", "%(min)s to %(max)s cards")
    forms = ["%(min)s إلى %(max)s ورقة", "%(min)s إلى %(max)s ورقة", "من %(min)s إلى ورقتين",
             "%(min)s إلى %(max)s أوراق", "%(min)s إلى %(max)s ورقةً", "%(min)s إلى %(max)s ورقة"]
    assert translation_problems(msgid, tuple(forms), PLURAL_FORMS["ar"]) == []
    few = forms[:3] + ["من %(min)s إلى أوراق"] + forms[4:]  # form 3 serves 3..10: it must keep %(max)s
    assert translation_problems(msgid, tuple(few), PLURAL_FORMS["ar"]) == ["msgstr[3] lacks placeholder(s) %(max)s"]
    tr = Translator("ar", {(None, msgid[0]): tuple(forms)}, plural_function(PLURAL_FORMS["ar"]))
    assert tr.ngettext(*msgid, 2, min=1, max=2) == "من \u20661\u2069 إلى ورقتين"
    with pytest.raises(BuildError, match=r"leaves out %\(max\)s = 3, which is not 2"):  # the count is not max here
        tr.ngettext(*msgid, 2, min=2, max=3)
