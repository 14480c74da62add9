"""Reading one reply line from an engine, bounded whatever the engine writes.

A line is at most `MAX_REPLY_BYTES`; a long line has its long strings cut (`shorten`) and is measured
(values, objects) on its bytes before it is parsed, so that a `legal` reply over the protocol's `MAX_LEGAL_ACTIONS` or a reply holding
millions of values is refused without being built in memory. Once parsed, every text an engine
chose (an error's code, rule and message, hello's name and version, any long string) is cut to
`textsafe.TEXT_LIMIT` characters and made inert: a report keeps a few KB of it, whatever was sent.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

from ..spec import MAX_LEGAL_ACTIONS
from ..textsafe import TEXT_LIMIT, engine_text
from ..errors import PresidentError

#: The longest reply line read: `legal` at its bound (10,000 actions of a few cards) is well under 1 MiB.
MAX_REPLY_BYTES = 8 << 20
#: Lines longer than this are measured before they are parsed, and their strings are cut after.
LONG_LINE = 1 << 16
#: The most JSON values (arrays, objects, strings, numbers...) one reply may hold: `legal` at its
#: bound holds about 10 per action.
MAX_VALUES = 40 * MAX_LEGAL_ACTIONS
_ESCAPE = re.compile(rb"\\(?:u[0-9a-fA-F]{4}|.)", re.S)
_HIGH_SURROGATE = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}")
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
#: A run of bytes without a quote as long as a string `_cut_string` would cut.
_LONG_RUN = re.compile(rb'[^"]{%d}' % (TEXT_LIMIT + 63))


class NonJsonValue(PresidentError, ValueError):
    """Python's json reads it, RFC 8259 has no such value: NaN, Infinity, 1e400, a lone surrogate."""


class OverBound(PresidentError, ValueError):
    """A reply over one of the protocol's bounds; `kind` names which (`legal`, `values`)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


def _not_json(name: str) -> Any:
    raise NonJsonValue(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NonJsonValue(f"{text} is out of the range of a JSON number")
    return value


def loads_strict(line: bytes) -> Any:
    """JSON as RFC 8259 has it: no NaN, Infinity or -Infinity, no number that overflows to one,
    no string that is not Unicode (a lone surrogate). Raises ValueError (NonJsonValue for those)."""
    try:
        value = json.loads(line, parse_constant=_not_json, parse_float=_finite)
    except NonJsonValue:
        json.loads(line)  # a line that is not JSON at all either ("NaN: a log line") raises plain ValueError
        raise
    if b"\\u" in line:  # an escaped lone surrogate reads as a str that cannot be written out again
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise NonJsonValue("a string holds a lone surrogate (\\ud800-\\udfff), which is not Unicode") from None
    return value


def _cut_string(match: re.Match[bytes]) -> bytes:
    """A JSON string (with its quotes) cut to TEXT_LIMIT bytes, never inside an escape, a surrogate
    pair or a UTF-8 character, its length noted."""
    text = match.group()
    if len(text) <= TEXT_LIMIT + 64:
        return text
    end = TEXT_LIMIT
    for escape in _ESCAPE.finditer(text, 1, end + 6):
        if escape.end() > end:
            end = escape.start()
            break
    if _HIGH_SURROGATE.fullmatch(text, end - 6, end):  # the first half of a pair alone is no Unicode
        end -= 6
    while end > 1 and 0x80 <= text[end] < 0xC0:  # not inside a UTF-8 character
        end -= 1
    return text[:end] + f"… [cut, {len(text) - 2:,} bytes]".encode() + b'"'


def shorten(line: bytes) -> bytes:
    """A long line with each long string cut (`_cut_string`) before it is parsed: an engine's 5 MB
    message is read as 2 KB of it, in one pass over the bytes."""
    if len(line) <= LONG_LINE or (b'\\"' not in line and not _LONG_RUN.search(line)):
        return line  # no string in it is long (without an escaped quote, a string lies within a run)
    return _STRING.sub(_cut_string, line)


def measure(line: bytes, cmd: str | None) -> None:
    """Refuse (`OverBound`) a long line that would build too much once parsed: counted on its bytes,
    strings aside. A `legal` reply lists at most MAX_LEGAL_ACTIONS actions (one object each)."""
    if len(line) <= LONG_LINE:
        return
    if line.count(b"{") + line.count(b"[") + line.count(b",") <= min(MAX_VALUES, MAX_LEGAL_ACTIONS + 1):
        return  # within every bound even counting what strings hold
    bare = _STRING.sub(b'""', line)  # strings aside: their brackets and commas are text
    objects = bare.count(b"{")
    values = objects + bare.count(b"[") + bare.count(b",")
    if cmd == "legal" and objects - 1 > MAX_LEGAL_ACTIONS:
        raise OverBound("legal", f"the reply to legal lists about {objects - 1:,} actions, over the protocol's "
                                 f"bound of {MAX_LEGAL_ACTIONS:,} (docs/protocol.md, Bounds); not read")
    if values > MAX_VALUES:
        raise OverBound("values", f"the reply to {cmd} holds about {values:,} JSON values, over the "
                                  f"{MAX_VALUES:,} any reply may hold (docs/protocol.md, Bounds); not read")


def bound_reply(reply: dict[str, Any], cmd: str | None) -> dict[str, Any]:
    """The reply as the toolkit keeps it: the engine's own texts cut and inert (an error's code, rule
    and message, hello's name and version)."""
    err = reply.get("error")
    if isinstance(err, dict):
        for key in ("code", "rule", "message"):
            if isinstance(err.get(key), str):
                err[key] = engine_text(err[key])
    if cmd == "hello":
        for key in ("name", "version"):
            if isinstance(reply.get(key), str):
                reply[key] = engine_text(reply[key])
    return reply


def _action_key(action: Any) -> Any:
    if isinstance(action, dict) and isinstance(action.get("cards", ()), (list, tuple)):
        return action.get("type"), tuple(action.get("cards", ())), len(action)
    return json.dumps(action, sort_keys=True)


def duplicate_action(actions: Any) -> Any:
    """The first action a `legal` reply lists twice (the protocol lists each distinct action once), or None."""
    if not isinstance(actions, list) or len(actions) < 2:
        return None
    seen: set[Any] = set()
    try:
        for action in actions:
            key = _action_key(action)
            if key in seen:
                return action
            seen.add(key)
    except TypeError:  # an unhashable card (a list in a list): the schema refuses it later
        return None
    return None
