"""The pieces that keep engine text bounded and inert (issue 27), without a conform run:
`president.textsafe`, `president.protocol.reading`, `president.conform.messages`, and the client
against fake engines (a stray line, an exit with stdout held by a setsid child)."""
from __future__ import annotations

import json
import sys
from xml.etree import ElementTree as ET

import pytest

from president.conform.messages import expand, share_messages
from president.protocol.client import EngineDied, ProtocolFault, RunStopped, SubprocessClient
from president.protocol.reading import MAX_REPLY_BYTES, OverBound, loads_strict, measure, shorten
from president.textsafe import TEXT_LIMIT, cut, engine_text, inert, xml_text

from .fake_engine import HOSTILE_TEXT
from .test_faults import FAKE, left_alive


@pytest.mark.parametrize("raw", ["\x1b", "\r", "\x00", "\x07", "\x7f", "\x9b", "\u202e", "\u202a", "\u2028"])
def test_every_control_character_is_shown_escaped(raw):
    shown = inert(f"a{raw}b")
    assert raw not in shown and shown.startswith("a\\") and shown.endswith("b")
    assert inert(shown) == shown  # escaping twice changes nothing


def test_newlines_and_isolates_are_kept_in_a_report_and_escaped_in_an_engine_text():
    rtl = "\u200f\u2068ع\u2069"  # what the project's own right-to-left texts use
    assert inert(f"a\nb\tc{rtl}") == f"a\nb\tc{rtl}"
    assert inert("a\nb", strict=True) == "a\\x0ab"
    assert engine_text(rtl) == "\\u200f\\u2068ع\\u2069"


def test_a_long_text_is_cut_with_its_length_noted():
    text = cut("x" * 5_000_000)
    assert len(text) < TEXT_LIMIT + 64 and text.endswith("[cut, 5,000,000 characters]")
    assert cut(text) == text and cut("short") == "short"
    assert engine_text(HOSTILE_TEXT).count("\\x1b") == HOSTILE_TEXT.count("\x1b")


def test_xml_text_keeps_a_document_well_formed():
    element = ET.Element("failure", message=xml_text(HOSTILE_TEXT + "\ud800\ufffe"))
    element.text = xml_text("\x01\x02 fine\ttab\nline")
    ET.fromstring(ET.tostring(element))  # parses: nothing XML 1.0 forbids


@pytest.mark.parametrize("body", ["x" * 3_000_000, "é" * 1_000_000, "\\u00e9" * 500_000,
                                  "\\ud83d\\ude00" * 300_000, '\\"' * 1_000_000, "a\\\\" * 1_000_000])
@pytest.mark.parametrize("pad", range(7))
def test_a_long_string_is_cut_on_the_bytes_into_valid_json(body, pad):
    line = ('{"ok":false,"error":{"message":"' + "z" * pad + body + '"}}').encode()
    short = shorten(line)
    assert len(short) < TEXT_LIMIT + 100
    assert loads_strict(short)["error"]["message"].endswith(f"[cut, {pad + len(body.encode()):,} bytes]")


def test_values_and_actions_are_counted_before_parsing():
    many = b'{"ok":true,"player":0,"actions":[' + b",".join([b'{"type":"pass"}'] * 10_001) + b"]}"
    with pytest.raises(OverBound, match="10,001 actions"):
        measure(many, "legal")
    nested = b"[" + b",".join([b"[]"] * (2 << 20)) + b"]"
    with pytest.raises(OverBound, match="JSON values"):
        measure(nested, "state")
    braces_in_a_string = b'{"ok":false,"error":{"message":"' + b"{[," * 500_000 + b'"}}'
    measure(braces_in_a_string, "legal")  # text, not values
    assert MAX_REPLY_BYTES >= len(many)


def test_a_report_keeps_each_repeated_long_text_once():
    long = "engine: " + "y" * 500
    report = {"scenario_results": [{"message": long}, {"message": long, "details": "short"}],
              "divergences": [{"engine_error": long}], "clauses": {"a": {"reasons": [long]}}, "spec_version": "1"}
    shared = share_messages(report)
    assert shared["messages"] == [long] and json.dumps(shared).count("y" * 500) == 1
    assert shared["scenario_results"][0]["message"] == {"$ref": "#/messages/0"}
    assert expand(shared) == {**report, "messages": [long]}


def _client(mode: str, tmp_path, monkeypatch, **kwargs) -> SubprocessClient:
    monkeypatch.setenv("FAKE_PIDS", str(tmp_path / "pids"))
    return SubprocessClient([sys.executable, str(FAKE), mode], **kwargs)


@pytest.mark.slow
def test_a_stray_line_is_never_a_later_reply_and_never_forgiven(tmp_path, monkeypatch):
    """Read as a reply (it fits any request), the line shifts the real reply, which is caught (as a
    line nobody asked for, or one that does not fit its request); the third such line in the run
    stops it, whatever the replies in between."""
    client = _client("stray", tmp_path, monkeypatch, hung_after=3)
    faults, verdict = 0, ""
    try:
        for _ in range(10):
            try:
                client.hello()
                client.request({"cmd": "new_game", "config": {"players": 3}, "seed": 1})
                for _ in range(3):
                    client.request({"cmd": "state"})
            except ProtocolFault:
                faults += 1
                client.restart()
            except RunStopped as exc:
                verdict = str(exc)
                break
    finally:
        client.close()
    assert faults == 2 and "3 lines that answered no request" in verdict, (faults, verdict)
    assert left_alive(tmp_path / "pids") == []


def test_an_exit_is_seen_though_a_setsid_child_holds_stdout(tmp_path, monkeypatch):
    client = _client("setsid-exit", tmp_path, monkeypatch, timeout=600)
    try:
        client.hello()
        client.request({"cmd": "new_game", "config": {"players": 3}, "seed": 1})
        with pytest.raises(EngineDied, match="exited"):  # at once, not after the 600 s timeout
            client.request({"cmd": "act", "player": 0, "action": {"type": "pass"}})
    finally:
        client.close()
    assert left_alive(tmp_path / "pids") == []
