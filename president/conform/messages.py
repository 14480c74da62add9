"""Each long text once in a JSON report: the rest refer to it (`{"$ref": "#/messages/N"}`).

An engine's refusal is quoted by every scenario, divergence, deviation and clause it touches; the
JSON report keeps each distinct long text (`SHARED` characters or more, seen more than once) in a
top-level `messages` table, and a JSON Reference where it was repeated. `expand` undoes it.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

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


def expand(report: dict[str, Any]) -> dict[str, Any]:
    """A report read back with every `{"$ref": "#/messages/N"}` replaced by its text."""
    table = report.get("messages") or []

    def back(value: Any) -> Any:
        if isinstance(value, dict):
            ref = value.get("$ref")
            if len(value) == 1 and isinstance(ref, str) and ref.startswith("#/messages/"):
                return table[int(ref.rsplit("/", 1)[1])]
            return {k: back(v) for k, v in value.items()}
        if isinstance(value, list):
            return [back(v) for v in value]
        return value

    return {k: back(v) for k, v in report.items()}
