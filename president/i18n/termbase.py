"""The termbase (locales/termbase.yaml): for each concept, the term each published sheet uses.

`load_termbase(root)` reads it; `term_hits(termbase, lang, msgid, msgstr, published)` says where
a translation names a concept with another word than the published one (an `avoid` word), or
without the published term at all (matched through its inflections: `forms` in the termbase, or
the term's stem, see `stem`). The words not to use (`avoid`, and `also` outside the published
text) match whole words in their inflections, never a prefix of another word (`word_search`).
`president check` runs it over every rules and steps message (president/project/terms_check.py).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..errors import Problem
from .catalogs import BuildError, confined, read_catalog_bytes

TERMBASE = Path("locales") / "termbase.yaml"
_PLACEHOLDERS = re.compile(r"%\(\w+\)[sd]|\{\w+(?::\w+)?\}")


@dataclass(frozen=True)
class Term:
    concept: str
    lang: str
    term: str
    also: re.Pattern[str] | None = None
    avoid: re.Pattern[str] | None = None
    forms: re.Pattern[str] | None = None  # the inflections of the term; None: its stem (see `stem`)
    #: where a term the published sheet does not contain was confirmed (a review row), '' if it is the sheet's
    reviewed: str = ""

    def used_in(self, text: str) -> bool:
        """The translation uses the term, in any inflection (its `forms`, or its stem anywhere: a
        lenient test, as a verb prefix or a derivation may come before or after it; the words
        that must not be used, `avoid` and `also`, are matched as whole words)."""
        if self.forms is not None:
            return self.forms.search(text) is not None
        folded = fold(self.lang, text)
        return all(stem(self.lang, w) in folded for w in fold(self.lang, self.term).split())


@dataclass(frozen=True)
class Termbase:
    names: dict[str, re.Pattern[str]]  # concept -> how an English msgid names it
    terms: dict[tuple[str, str], Term]  # (concept, lang) -> term

    skip_contexts: frozenset[str] = frozenset()  # msgctxts whose messages name no game concept

    def concepts_named(self, english: str) -> list[str]:
        """The concepts an English msgid names. A concept named only inside the words of another
        ("deals" in "a series of several deals") is left to that one, whose term says it whole
        (ru "в серии из нескольких раздач", where раунд is the word for a deal elsewhere)."""
        bare = _PLACEHOLDERS.sub(" ", english)  # {seats:Numbers} names no seat
        spans = {c: [m.span() for m in pat.finditer(bare) if m.end() > m.start()] for c, pat in self.names.items()}
        spans = {c: s for c, s in spans.items() if s}
        return [c for c, own in spans.items()
                if not all(any(o != c and a <= start and end <= b and (a, b) != (start, end)
                               for o, other in spans.items() for a, b in other)
                           for start, end in own)]


# Endings stripped from a term to find its inflections (a simple stem match per language): the
# longest ending that leaves at least three letters goes; the rest must occur in the translation.
_ENDINGS = {
    "ru": ("ами", "ями", "ов", "ей", "ом", "ем", "ам", "ах", "а", "я", "о", "е", "у", "ю", "ы", "и", "ь", "й"),
    "el": ("εσ", "οσ", "ησ", "ασ", "ων", "α", "η", "ο", "ι", "ε"),  # folded: no accents, ς -> σ
    "hy": ("ում", "ուն", "ներ", "եր", "ը", "ն", "ի", "ալ", "ել"),  # վերցում / վերցման, -ություն / -ության
    "ar": ("ات", "ون", "ين", "ة"),
    "hi": ("ों", "ें", "ा", "े", "ी"),
}
_PREFIXES = {"ar": ("ال",)}


#: Endings beyond the stemming ones that a matched word may still carry (case and article
#: suffixes; up to MAX_ENDINGS of them in a row: hy խաղաթղթ-եր-ը, ar مقعد-ها).
_MORE_ENDINGS = {
    "hy": ("ից", "ով", "ին", "ու", "ս", "դ", "ն", "ներ", "եր", "ի", "ը", "ում"),
    "ar": ("ها", "ه", "هم", "ي", "ان", "تان", "تين", "ات"),
    "ru": ("ой", "ую", "ая", "ые", "ых", "ым", "ыми", "ий", "ие", "их", "им", "ими", "ого", "ему", "ом"),
    "el": ("ου", "ουσ", "εσ", "ων", "ια", "ιεσ", "ιων"),
    "hi": ("ें", "ों", "ियाँ", "ियों", "ी"),
}
MAX_ENDINGS = 3
#: Proclitics written as one word with the next (ar وال، بال، لل…): a match may follow them.
_PROCLITIC = {"ar": re.compile(r"^(?:[وف])?(?:[بلك])?(?:ال|ل)?$")}


def _is_word_char(c: str) -> bool:
    """A letter, a digit or a combining mark (Devanagari vowel signs are not word characters of `re`)."""
    return c.isalnum() or c == "_" or unicodedata.category(c).startswith("M")


def _inflection(lang: str, rest: str, depth: int = 0) -> bool:
    """`rest` (what follows a match inside its word) is made of the language's endings."""
    if not rest:
        return True
    if depth >= MAX_ENDINGS:
        return False
    rest_folded = fold(lang, rest)
    endings = set(_ENDINGS.get(lang, ())) | set(_MORE_ENDINGS.get(lang, ()))
    return any(rest_folded.startswith(e) and _inflection(lang, rest[len(e):] if len(rest) == len(rest_folded)
                                                         else rest_folded[len(e):], depth + 1)
               for e in endings)


def word_search(pattern: re.Pattern[str], text: str, lang: str) -> re.Match[str] | None:
    """The first match of `pattern` that is a whole word in one of its inflections: it starts a word
    (ar: or follows a proclitic, الـ وبالـ) and the rest of the word is made of endings of the
    language. So hy `տեղ` ("place") finds տեղը, տեղում, not տեղափոխվել ("to move"); hi क्रम finds
    क्रम, not अनुक्रम."""
    for m in pattern.finditer(text):
        if m.start() == m.end():
            continue
        start, end = m.start(), m.end()
        while start > 0 and _is_word_char(text[start - 1]):
            start -= 1
        while end < len(text) and _is_word_char(text[end]):
            end += 1
        prefix = text[start:m.start()]
        if prefix and not (lang in _PROCLITIC and _PROCLITIC[lang].match(prefix)):
            continue
        if _inflection(lang, text[m.end():end]):
            return m
    return None


def fold(lang: str, text: str) -> str:
    """Case-folded text; Greek without accents (inflection moves them: μπάζα, μπαζών)."""
    text = text.casefold()
    if lang == "el":
        text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return text


def stem(lang: str, word: str) -> str:
    """The part of a (folded) word that its inflections keep: раунд -> раунд, διανομη -> διανομ,
    վերցում -> վերց, الجولة -> جول, चौका -> चौक."""
    for prefix in _PREFIXES.get(lang, ()):
        if word.startswith(prefix) and len(word) - len(prefix) >= 3:
            word = word[len(prefix):]
    for ending in sorted(_ENDINGS.get(lang, ()), key=len, reverse=True):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[:-len(ending)]
    return word


def termbase_path(root: Path) -> Path:
    return root / TERMBASE


def load_termbase(root: Path) -> Termbase | None:
    """The project's termbase, None if it has none; BuildError quoting a malformed entry."""
    path = confined(termbase_path(root), root)
    try:
        data = yaml.safe_load(read_catalog_bytes(path).decode("utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise BuildError([Problem(str(path), getattr(getattr(exc, "problem_mark", None), "line", None),
                                  "", f"cannot read the termbase: {exc}", "fix the YAML")]) from None
    names, terms = {}, {}
    try:
        for concept, entry in (data or {}).get("concepts", {}).items():
            names[concept] = re.compile(entry["en"])
            for lang, t in entry.items():
                if lang == "en":
                    continue
                terms[(concept, lang)] = Term(concept, lang, t["term"],
                                              re.compile(t["also"]) if t.get("also") else None,
                                              re.compile(t["avoid"]) if t.get("avoid") else None,
                                              re.compile(t["forms"], re.I) if t.get("forms") else None,
                                              str(t.get("reviewed") or ""))
    except (KeyError, TypeError, AttributeError, re.error) as exc:
        raise BuildError([Problem(str(path), None, "", f"malformed termbase entry: {exc!r}",
                                  "each concept needs `en` and, per language, `term` (and optional `also`, `avoid`, `forms`, "
                                  "`reviewed`)")]) from None
    return Termbase(names, terms, frozenset((data or {}).get("skip_contexts", ())))


def term_hits(tb: Termbase, lang: str, msgid: str, msgstr: str, published: bool) -> list[str]:
    """What is wrong with the terms of one translation (empty if nothing).

    `published`: the message is reviewed text of a published sheet, where the `also` words
    of the sheet are accepted."""
    named = tb.concepts_named(msgid)
    out = []
    for concept in named:
        t = tb.terms.get((concept, lang))
        if t is None:
            continue
        checks = [(t.avoid, "")]
        if not published:
            checks.append((t.also, " (the published sheet uses it in places, but its term is the one to use)"))
        wrong = None
        for pattern, why in checks:
            if pattern is None:
                continue
            m = word_search(pattern, msgstr, lang)
            if m is None:
                continue
            # the word may stand for another concept this msgid names too (ru: seat and place)
            if any(word_search(pattern, tb.terms[(o, lang)].term, lang) for o in named
                   if o != concept and (o, lang) in tb.terms):
                continue
            wrong = f"names {concept!r} with {m.group(0)!r}{why}; the published sheet says {t.term!r}"
            break
        if wrong is None and not published and not t.used_in(msgstr):  # the published text is the reference
            wrong = f"names {concept!r} without the published term {t.term!r} (in any inflection)"
        if wrong is not None:
            out.append(wrong)
    return out
