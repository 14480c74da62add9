"""The termbase (locales/termbase.yaml): for each concept, the term each published sheet uses.

`load_termbase(root)` reads it; `term_hits(termbase, lang, msgid, msgstr, published)` says where
a translation names a concept with another word than the published one. `president check`
runs it over every rules and steps message (president/project/terms_check.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..errors import Problem
from .catalogs import BuildError, confined, read_catalog_bytes

TERMBASE = Path("locales") / "termbase.yaml"


@dataclass(frozen=True)
class Term:
    concept: str
    lang: str
    term: str
    also: re.Pattern[str] | None = None
    avoid: re.Pattern[str] | None = None


@dataclass(frozen=True)
class Termbase:
    names: dict[str, re.Pattern[str]]  # concept -> how an English msgid names it
    terms: dict[tuple[str, str], Term]  # (concept, lang) -> term

    def concepts_named(self, english: str) -> list[str]:
        return [c for c, pat in self.names.items() if pat.search(english)]


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
                                              re.compile(t["avoid"]) if t.get("avoid") else None)
    except (KeyError, TypeError, AttributeError, re.error) as exc:
        raise BuildError([Problem(str(path), None, "", f"malformed termbase entry: {exc!r}",
                                  "each concept needs `en` and, per language, `term` (and optional `also`, `avoid`)")]) from None
    return Termbase(names, terms)


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
        for pattern, why in checks:
            if pattern is None:
                continue
            m = pattern.search(msgstr)
            if m is None:
                continue
            # the word may stand for another concept this msgid names too (ru: seat and place)
            if any(pattern.search(tb.terms[(o, lang)].term) for o in named
                   if o != concept and (o, lang) in tb.terms):
                continue
            out.append(f"names {concept!r} with {m.group(0)!r}{why}; the published sheet says {t.term!r}")
            break
    return out
