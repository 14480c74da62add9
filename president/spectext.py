"""Spec texts that carry spec numbers: clause titles and example names.

A clause title or an example name may hold

- `{players.max}`: a spec value, written in digits (in the catalogs `{players_max}`: a
  placeholder name has no dots);
- `{name=path|one|other}`: a counted phrase, the number of the spec value `path` with its noun:
  the English singular and plural, each with `{num}` for the number (and any `{path}` value);
- `{name=path|exactly one|one|other}`: the same with a first form used for the number 1 only,
  which may leave the number out ("their best card").

The catalogs translate the frame (the text with each counted phrase as `{name}` and each value as
`{players_max}`, so no spec value changes a msgid) and each counted phrase as a plural message
(npgettext-style, msgctxt `<owner>: <name>`), so the translation picks the plural form of the
spec's number in every language (president.i18n.steps_catalog).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from .errors import PresidentError

_REF = r"[a-z_]+(?:\.[a-z0-9_]+)+"
VALUE = re.compile(r"\{(" + _REF + r"|num)\}")
#: a placeholder of a frame or a counted phrase in the catalogs
FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_COUNTED_HEAD = re.compile(r"([a-z][a-z_]*)=(" + _REF + r")$")


class SpecTextError(PresidentError, ValueError):
    """A reference or a counted phrase that the spec cannot fill (the loader adds file and line)."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.hint = hint


@dataclass(frozen=True)
class Counted:
    """One counted phrase: `num` is the spec value of `path`."""

    name: str
    path: str
    num: int
    one: str
    other: str
    #: the text for the number 1 only (None: the singular form serves it)
    exactly_one: str | None = None

    def english(self) -> str:
        if self.num == 1:
            return self.exactly_one if self.exactly_one is not None else self.one
        return self.other


@dataclass(frozen=True)
class SpecText:
    """A text with spec numbers: `frame` is its msgid, `values` every `{path}` it and its counted
    phrases name, with the spec's value."""

    frame: str
    values: tuple[tuple[str, Any], ...] = ()
    counted: tuple[Counted, ...] = ()

    @property
    def plain(self) -> bool:
        return not self.values and not self.counted

    def render(self, frame: str, phrase: Callable[[Counted], str], show: Callable[[Any], str] = str) -> str:
        """`frame` (the frame or its translation) filled: counted phrases by `phrase` (already filled,
        see `fill`), values by `show`."""
        by_name = {c.name: c for c in self.counted}
        values = dict(self.values)

        def one(m: re.Match[str]) -> str:
            key = m.group(1)
            if key in by_name:
                return phrase(by_name[key])
            return show(values[key]) if key in values else m.group(0)
        return FIELD.sub(one, frame)

    def fill(self, text: str, num: int, show: Callable[[Any], str] = str) -> str:
        """A counted phrase (English or translated) with `{num}` and its values written in."""
        values = dict(self.values)
        return FIELD.sub(lambda m: show(num) if m.group(1) == "num"
                         else show(values[m.group(1)]) if m.group(1) in values else m.group(0), text)

    def english(self) -> str:
        return self.render(self.frame, lambda c: self.fill(c.english(), c.num))


def field_name(path: str) -> str:
    """The placeholder of a spec value in a catalog message: `players.max` -> `players_max`."""
    return path.replace(".", "_")


def _value(data: dict[str, Any], ref: str) -> Any:
    cur: Any = data
    try:
        for part in ref.split("."):
            cur = cur[int(part)] if isinstance(cur, list) else cur[part]
    except (KeyError, IndexError, ValueError, TypeError):
        raise SpecTextError(f"{{{ref}}} names no spec value",
                            "use a path of the spec, e.g. {players.max} or {exchange.0.cards}") from None
    if isinstance(cur, (dict, list)):
        raise SpecTextError(f"{{{ref}}} is not a single value", "name a number or a word of the spec")
    return cur


def _pieces(text: str) -> list[tuple[bool, str]]:
    """[(is_braced, text)]: top-level `{...}` groups (nested braces kept inside) and the text between."""
    out: list[tuple[bool, str]] = []
    depth, start, last = 0, 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                out += [(False, text[last:start]), (True, text[start + 1:i])]
                last = i + 1
    out.append((False, text[last:]))
    return [p for p in out if p[1] or p[0]]


def _split_bars(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "|" and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return parts + [cur]


def parse_spec_text(text: str, data: dict[str, Any]) -> SpecText:
    """The SpecText of a clause title or an example name; SpecTextError if it cannot be filled."""
    frame = ""
    values: dict[str, Any] = {}
    counted: list[Counted] = []

    def refs(s: str, allow_num: bool) -> str:
        """`s` with its `{a.b}` values as `{a_b}` placeholders (each recorded with its value)."""
        def one(m: re.Match[str]) -> str:
            if m.group(1) == "num":
                if not allow_num:
                    raise SpecTextError("{num} outside a counted phrase",
                                        "write {name=path|one {num} card|{num} cards}")
                return m.group(0)
            values[field_name(m.group(1))] = _value(data, m.group(1))
            return "{" + field_name(m.group(1)) + "}"
        return VALUE.sub(one, s)

    for braced, piece in _pieces(text):
        if not braced:
            frame += piece
            continue
        forms = _split_bars(piece)
        if len(forms) == 1:
            frame += refs("{" + piece + "}", False)
            continue
        head = _COUNTED_HEAD.match(forms[0])
        if head is None or len(forms) not in (3, 4):
            raise SpecTextError(f"{{{piece}}} is not a counted phrase",
                                "write {name=path|{num} card|{num} cards} or "
                                "{name=path|the card|{num} card|{num} cards}")
        name, path = head.groups()
        num = _value(data, path)
        if not isinstance(num, int) or isinstance(num, bool):
            raise SpecTextError(f"{{{name}={path}|…}} counts {path}, which is not a number", "count a number of the spec")
        *first, one, other = (refs(f, True) for f in forms[1:])
        if "{num}" not in one or "{num}" not in other:
            raise SpecTextError(f"{{{name}={path}|…}}: the singular and plural forms must hold {{num}}",
                                "write the number as {num}; a form for 1 alone may come first, without it")
        if any(c.name == name for c in counted):
            raise SpecTextError(f"two counted phrases are named {name!r}", "give each its own name")
        counted.append(Counted(name, path, num, one, other, first[0] if first else None))
        frame += "{" + name + "}"
    return SpecText(frame, tuple(values.items()), tuple(counted))
