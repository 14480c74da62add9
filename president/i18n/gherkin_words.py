"""The Gherkin keywords of each translated feature language, chosen by a reader of the language
from those Gherkin accepts (gherkin-official's gherkin-languages.json), not the first listed.

Why each one (docs/i18n.md shows this table):

- ar: When `عندما` ("when"), not `متى` (the question word "when?"); Then `ثم`, not `اذاً`
  ("therefore", and misspelt without its hamza); Scenario `مثال`: each scenario is an example of
  a clause.
- el: Given `Δεδομένου ότι` ("given that"): Gherkin accepts `Δεδομένου`, which alone needs a noun
  in the genitive; `ότι` is written after it as part of the step text (a *lead*, see `LEADS`) and
  dropped when a step is read back. Scenario `Παράδειγμα` (example).
- ru: Given `Дано`, not `Допустим` ("let us suppose"); When `Когда`, not `Если` ("if"); Then
  `Тогда`, not `То` (which needs a preceding `если`); Scenario `Пример`; Background `Контекст`.
- hy (Gherkin code `am`): When `Երբ` ("when"), not `Եթե` ("if"); Given `Դիցուք` ("let");
  Feature `Հատկություն`; Scenario `Օրինակ` (example).
- hi: Given `यदि` (the sheet's formal register; `अगर` is colloquial), paired with Then `तब`; When
  `जब`, not the Sanskrit `कदा`; But `परन्तु`.

`gherkin_keywords(lang)` gives them with step keywords ending in a space, as gherkin-languages.json
spells them; the test suite checks each against that file (tests/i18n/test_i18n_steps.py).
"""
from __future__ import annotations

from typing import Mapping

#: Kinds of keyword, in the order of the docs' table.
KINDS = ("feature", "rule", "background", "scenario", "given", "when", "then", "and", "but")

KEYWORDS: dict[str, dict[str, str]] = {
    "ar": {"feature": "خاصية", "rule": "Rule", "background": "الخلفية", "scenario": "مثال",
           "given": "بفرض ", "when": "عندما ", "then": "ثم ", "and": "و ", "but": "لكن "},
    "el": {"feature": "Δυνατότητα", "rule": "Rule", "background": "Υπόβαθρο", "scenario": "Παράδειγμα",
           "given": "Δεδομένου ότι ", "when": "Όταν ", "then": "Τότε ", "and": "Και ", "but": "Αλλά "},
    "ru": {"feature": "Функция", "rule": "Правило", "background": "Контекст", "scenario": "Пример",
           "given": "Дано ", "when": "Когда ", "then": "Тогда ", "and": "И ", "but": "Но "},
    "hy": {"feature": "Հատկություն", "rule": "Rule", "background": "Կոնտեքստ", "scenario": "Օրինակ",
           "given": "Դիցուք ", "when": "Երբ ", "then": "Ապա ", "and": "Եվ ", "but": "Բայց "},
    "hi": {"feature": "रूप लेख", "rule": "नियम", "background": "पृष्ठभूमि", "scenario": "परिदृश्य",
           "given": "यदि ", "when": "जब ", "then": "तब ", "and": "और ", "but": "परन्तु "},
}

#: Words written after a step keyword that Gherkin reads as the start of the step text: (lang, kind)
#: -> lead. Reading a step back drops it (`strip_lead`).
LEADS: dict[tuple[str, str], str] = {("el", "given"): "ότι "}


def gherkin_keywords(lang: str, english: Mapping[str, str]) -> dict[str, str]:
    """The keywords features/<lang>/ are written with (`english` for a language without a row)."""
    return dict(KEYWORDS.get(lang, english))


def strip_lead(lang: str, kind: str | None, text: str) -> str:
    """A step's text without the lead its keyword of `kind` is written with (`ότι ` after el Given)."""
    leads = [lead for (lg, k), lead in LEADS.items() if lg == lang and (kind is None or k == kind)]
    for lead in leads:
        if text.startswith(lead):
            return text[len(lead):]
    return text


def accepted_keyword(written: str, accepted: list[str]) -> str | None:
    """The keyword of gherkin-languages.json that Gherkin reads `written` as (the longest prefix)."""
    found = [k for k in accepted if k.strip() != "*" and written.startswith(k)]
    return max(found, key=len) if found else None


def keyword_table() -> str:
    """The Markdown table of docs/i18n.md: one row per kind, one column per language."""
    langs = list(KEYWORDS)
    rows = ["| kind | " + " | ".join(f"{lg}" for lg in langs) + " |", "|---" * (len(langs) + 1) + "|"]
    for kind in KINDS:
        rows.append(f"| {kind} | " + " | ".join(f"`{KEYWORDS[lg][kind].strip()}`" for lg in langs) + " |")
    return "\n".join(rows) + "\n"
