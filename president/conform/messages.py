"""Each long text once in a JSON report: the rest refer to it (`{"$ref": "#/messages/N"}`).

An engine's refusal is quoted by every scenario, divergence, deviation and clause it touches; the
JSON report keeps each distinct long text (`SHARED` characters or more, seen more than once) in a
top-level `messages` table, and a JSON Reference where it was repeated. `expand` undoes it.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from ..errors import PresidentError

#: Texts at least this long, seen twice or more, are kept once.
SHARED = 120
#: The parts of the report that quote engine texts.
SECTIONS = ("clauses", "deviations", "scenario_results", "divergences", "protocol_faults", "toolkit_errors",
            "worker_errors", "fit", "lockstep", "protocol_notes", "failing")


def _walk(value: Any, seen: Counter[str]) -> None:
    if isinstance(value, str):
        if len(value) >= SHARED:
            seen[value] += 1
    elif isinstance(value, dict):
        for v in value.values():
            _walk(v, seen)
    elif isinstance(value, list):
        for v in value:
            _walk(v, seen)


def _swap(value: Any, index: dict[str, int]) -> Any:
    if isinstance(value, str):
        return {"$ref": f"#/messages/{index[value]}"} if value in index else value
    if isinstance(value, dict):
        return {k: _swap(v, index) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v, index) for v in value]
    return value


def share_messages(report: dict[str, Any]) -> dict[str, Any]:
    """`report` with every long text repeated in its SECTIONS kept once, in `report["messages"]`."""
    seen: Counter[str] = Counter()
    for key in SECTIONS:
        _walk(report.get(key), seen)
    shared = [text for text, n in seen.items() if n > 1]
    index = {text: i for i, text in enumerate(shared)}
    out = {k: (_swap(v, index) if k in SECTIONS else v) for k, v in report.items()}
    out["messages"] = shared
    return out


#: A reference to an entry of the messages table, as `share_messages` writes it (no sign, no
#: leading zero, ASCII digits only, at most 9 of them).
_REF = re.compile(r"#/messages/(0|[1-9][0-9]{0,8})")


class BadReference(PresidentError, ValueError):
    """A `{"$ref": ...}` of a report that `expand` cannot follow: what is wrong with it."""


def expand(report: dict[str, Any]) -> dict[str, Any]:
    """A report read back with every `{"$ref": "#/messages/N"}` replaced by its text.

    The report may come from anyone: each entry of the table must be a text (a reference to a
    reference, to itself or in a circle, is refused, never followed) and each reference must name
    an entry that exists; BadReference says which does not."""
    table = report.get("messages") or []
    if not isinstance(table, list):
        raise BadReference(f"the messages table is {type(table).__name__}, not a list")
    for i, entry in enumerate(table):
        if not isinstance(entry, str):
            what = "another reference" if isinstance(entry, dict) and "$ref" in entry else type(entry).__name__
            raise BadReference(f"messages/{i} is {what}, not a text (a reference may only name a text)")

    def back(value: Any) -> Any:
        if isinstance(value, dict):
            ref = value.get("$ref")
            if len(value) == 1 and isinstance(ref, str) and ref.startswith("#/messages/"):
                m = _REF.fullmatch(ref)
                if m is None:
                    raise BadReference(f"{json.dumps(ref[:40])} is not a reference to a message (#/messages/N)")
                index = int(m.group(1))
                if index >= len(table):
                    raise BadReference(f"{ref} points past the end of the messages table ({len(table)} entries)")
                return table[index]
            return {k: back(v) for k, v in value.items()}
        if isinstance(value, list):
            return [back(v) for v in value]
        return value

    return {k: back(v) for k, v in report.items()}
