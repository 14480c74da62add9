"""Traces: what an engine was sent and what it answered, kept whole for the diagnosis.

A trace is one game as the engine played it: the `new_game` request (with its config, hands or
seed) and every later request, each with the engine's reply, in order. Scenarios and lock-step
games both keep theirs, so that a candidate variant (a set of option values) can be judged on all
of the engine's traces at once: replayed on the reference under that variant, does it remove
divergences and add none?

A long `legal` list (`COMPACT_FROM` actions or more, up to the protocol's 10,000) is kept as
`Actions`: each action's text (its JSON, or a shorter one for a play), interned, read back as dicts only where a consumer needs them;
equal lists share one object, and what is derived from them (`derived`: notations, card masks) is
computed once for all the replies that list them.

A run's lock-step games keep their traces in a `TraceSpool` (compressed in a temporary file, read
back one at a time), so that memory does not grow with the number of games; `Chain` reads the
scenarios' traces and the spool as one sequence.
"""
from __future__ import annotations

import gc
import json
from array import array
import os
import pickle
import sys
import tempfile
import weakref
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, overload

Request = dict[str, Any]
Reply = Any  # a reply object, or None where the engine gave none (crash, timeout, not JSON)

#: `legal` lists at least this long are kept as `Actions` (a President hand lists far fewer).
COMPACT_FROM = 256

_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class Actions(Sequence[Any]):
    """A `legal` list kept compactly: a tuple of its actions' texts (`_text`, interned). Reading an
    item gives a fresh dict (`_action`); equal to a list holding the same actions."""

    __slots__ = ("texts", "derived", "__weakref__")

    def __init__(self, texts: tuple[str, ...]):
        self.texts = texts
        self.derived: dict[str, Any] = {}  # what consumers derive from the list, computed once (`derive`)

    @classmethod
    def of(cls, actions: Sequence[Any]) -> "Actions":
        """The compact form of `actions`, shared with every equal list kept so far."""
        if isinstance(actions, Actions):
            return actions
        return cls.of_texts(tuple(map(_text, actions)))

    @classmethod
    def of_texts(cls, texts: tuple[str, ...]) -> "Actions":
        shared = _SHARED.get(texts)
        if shared is None:
            shared = _SHARED[texts] = cls(texts)
        return shared

    def __reduce__(self) -> tuple[Callable[..., "Actions"], tuple[tuple[str, ...]]]:
        return (Actions.of_texts, (self.texts,))  # across `--jobs` processes: shared again on arrival

    def __len__(self) -> int:
        return len(self.texts)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [_action(t) for t in self.texts[i]]
        return _action(self.texts[i])

    def __iter__(self) -> Iterator[Any]:
        return map(_action, self.texts)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Actions):
            return self.texts == other.texts
        if isinstance(other, (list, tuple)):
            return len(other) == len(self.texts) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # like the list it stands for

    def __repr__(self) -> str:
        return f"<{len(self.texts):,} actions>"

    def derive(self, name: str, make: Callable[["Actions"], Any]) -> Any:
        """`make(self)`, computed once per list (an exception is raised again, never kept)."""
        if name not in self.derived:
            self.derived[name] = make(self)
        return self.derived[name]


#: Marks the short text of an action {"type": T, "cards": [C, ...]} ("T C ..."; no JSON text begins so).
_PLAIN = "\x1f"


def _text(action: Any) -> str:
    """An action's text, interned: its JSON, or for {"type": T, "cards": [C, ...]} (those keys in
    that order, strings without a space) the faster `_PLAIN` "T C ..."; read back by `_action`."""
    if type(action) is dict and len(action) == 2 and next(iter(action)) == "type":
        kind, cards = action.get("type"), action.get("cards")
        if type(kind) is str and type(cards) is list:
            try:
                text = " ".join([kind, *cards])
            except TypeError:  # a card that is not a string
                text = ""
            if text and text.count(" ") == len(cards):
                return sys.intern(_PLAIN + text)
    return sys.intern(_ENCODE(action))


def _action(text: str) -> Any:
    if text[:1] == _PLAIN:
        kind, *cards = text[1:].split(" ")
        return {"type": kind, "cards": cards}
    return json.loads(text)


_SHARED: "weakref.WeakValueDictionary[tuple[str, ...], Actions]" = weakref.WeakValueDictionary()


def compact(reply: Reply) -> Reply:
    """`reply` as a trace keeps it: a long `legal` list as `Actions` (a new dict; `reply` is left as it is)."""
    if isinstance(reply, dict):
        actions = reply.get("actions")
        if isinstance(actions, list) and len(actions) >= COMPACT_FROM:
            return {**reply, "actions": Actions.of(actions)}
    return reply


def plain(reply: Reply) -> Reply:
    """`reply` with its `Actions` read back as a list (JSON-ready)."""
    if isinstance(reply, dict) and isinstance(reply.get("actions"), Actions):
        return {**reply, "actions": list(reply["actions"])}
    return reply


def notations(actions: Any) -> list[str]:
    """The notation of each action of a `legal` list (`action_notation`; computed once for `Actions`)."""
    from ..scenarios.model import action_notation

    if isinstance(actions, Actions):
        return actions.derive("notations", lambda acts: [action_notation(a) for a in acts])
    return [action_notation(a) for a in actions]


@dataclass
class Trace:
    """One game of the engine: `source` is a scenario id or "game <n>"; `steps` are (request, reply)."""

    source: str
    steps: list[tuple[Request, Reply]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.steps = [(req, compact(reply)) for req, reply in self.steps]

    def add(self, request: Request, reply: Reply) -> Reply:
        """Keep a step (after its reply was compared); returns the reply as kept (`compact`)."""
        kept = compact(reply)
        self.steps.append((request, kept))
        return kept

    @property
    def requests(self) -> list[Request]:
        return [req for req, _ in self.steps]

    @property
    def config(self) -> dict[str, Any]:
        """The `new_game` config of the trace ({} before the first new_game)."""
        for req, _ in self.steps:
            if req.get("cmd") == "new_game":
                return dict(req.get("config") or {})
        return {}

    def explicit_requests(self) -> list[Request]:
        """The requests with a seeded `new_game` replaced by one with the hands the engine dealt
        (a seed belongs to the engine: replayed on the reference, its own shuffle would deal others).
        A seeded later `deal` stays as it is: its cards before the exchange are not in any reply."""
        out = []
        for req, reply in self.steps:
            if (req.get("cmd") == "new_game" and "seed" in req and "hands" not in req and isinstance(reply, dict)
                    and reply.get("ok") and isinstance(reply.get("state"), dict)):
                req = {**{k: v for k, v in req.items() if k != "seed"}, "hands": reply["state"]["hands"]}
            out.append(req)
        return out


class _Traces(Sequence[Trace]):
    """A sequence of traces read one at a time (`_one`); a slice is a list of them."""

    @overload
    def __getitem__(self, i: int) -> Trace: ...

    @overload
    def __getitem__(self, i: slice) -> list[Trace]: ...

    def __getitem__(self, i: int | slice) -> Trace | list[Trace]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        return self._one(i)

    def _one(self, i: int) -> Trace:
        raise NotImplementedError


class TraceSpool(_Traces):
    """Traces kept out of memory: each one pickled and compressed into a temporary file as it is
    added, read back (a fresh `Trace`) when asked for. Memory holds two offsets per trace, so a run
    keeps every game's whole trace whatever the number of games; the file goes with the spool."""

    def __init__(self, traces: Iterable[Trace] = ()):
        self._file: IO[bytes] | None = None
        # where each trace is in the file: numbers in arrays, no object per trace (nothing that would
        # pin, trace after trace, the memory a game took)
        self._offset, self._length = array("q"), array("q")
        for t in traces:
            self.append(t)

    def append(self, trace: Trace) -> None:
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="president-traces-")
        data = zlib.compress(pickle.dumps(trace, protocol=pickle.HIGHEST_PROTOCOL), 1)
        self._file.seek(0, os.SEEK_END)
        self._offset.append(self._file.tell())
        self._length.append(len(data))
        self._file.write(data)

    def __len__(self) -> int:
        return len(self._offset)

    def _one(self, i: int) -> Trace:
        offset, length = self._offset[i], self._length[i]
        assert self._file is not None
        self._file.seek(offset)
        data = zlib.decompress(self._file.read(length))
        collecting = gc.isenabled()
        gc.disable()  # thousands of fresh containers, none of them garbage: no collection on the way (5-10x faster)
        try:
            trace: Trace = pickle.loads(data)
        finally:
            if collecting:
                gc.enable()
        return trace

    def __iter__(self) -> Iterator[Trace]:
        return (self[k] for k in range(len(self)))

    def __getstate__(self) -> dict[str, Any]:  # to another process: the traces themselves
        return {"traces": list(self)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["traces"])  # type: ignore[misc]

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._offset, self._length = array("q"), array("q")

    def __repr__(self) -> str:
        return f"<{len(self)} spooled traces>"


class Chain(_Traces):
    """Several sequences of traces read as one (the scenarios' traces, then a spool of games)."""

    def __init__(self, *parts: Sequence[Trace]):
        self.parts = [p for p in parts if len(p)]

    def __len__(self) -> int:
        return sum(len(p) for p in self.parts)

    def _one(self, i: int) -> Trace:
        if i < 0:
            i += len(self)
        for p in self.parts:
            if i < len(p):
                return p[i]
            i -= len(p)
        raise IndexError("trace index out of range")

    def __iter__(self) -> Iterator[Trace]:
        for p in self.parts:
            yield from p
