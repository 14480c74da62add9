"""JSON Schemas of engine protocol v1 messages (president/schemas/protocol/*.json).

`reply_problems(cmd, reply)` lists how a reply breaks the protocol (empty when it conforms);
the conformance runner uses it to tell a protocol violation (error) from a wrong answer (fail).
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
from referencing import Registry, Resource

from ..textsafe import engine_text

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas" / "protocol"
BASE = "https://cardverse.example/president/protocol/v1/"

#: Which reply schema answers which command (an error reply is always allowed).
REPLY_FOR = {"hello": "reply-hello", "new_game": "reply-state", "deal": "reply-state", "act": "reply-state",
             "state": "reply-state", "legal": "reply-legal", "quit": "reply-quit", "ai": "reply-ai"}


@lru_cache(maxsize=1)
def _registry() -> Registry:
    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def validator(name: str) -> jsonschema.Draft202012Validator:
    """A validator for one message schema, e.g. `validator("request-act")`."""
    schema = _registry()[BASE + name + ".json"].contents
    return jsonschema.Draft202012Validator(schema, registry=_registry())


def schema_names() -> list[str]:
    return sorted(p.stem for p in SCHEMA_DIR.glob("*.json") if p.stem != "common")


#: The longest problem kept: jsonschema quotes the offending value, which an engine may make huge.
PROBLEM_CHARS = 300


def _problems(name: str, message: Any) -> list[str]:
    return [engine_text(f"{'/'.join(map(str, e.absolute_path)) or '(reply)'}: {e.message}", PROBLEM_CHARS)
            for e in validator(name).iter_errors(message)]


def request_problems(request: Any) -> list[str]:
    cmd = request.get("cmd") if isinstance(request, dict) else None
    if cmd not in REPLY_FOR:
        return [f"unknown command {cmd!r}"]
    return _problems("request-" + cmd.replace("_", "-"), request)


def reply_problems(cmd: str, reply: Any) -> list[str]:
    """How `reply` (to a `cmd` request) breaks the protocol; [] if it conforms."""
    if isinstance(reply, dict) and reply.get("ok") is False:
        return _problems("reply-error", reply)
    return _problems(REPLY_FOR[cmd], reply)
