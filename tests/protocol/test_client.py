"""The subprocess client's strict JSON reading and its refusals of an --engine it cannot run."""
from __future__ import annotations

import pytest

from president.protocol.client import EngineStartError, NonJsonValue, SubprocessClient, loads_strict, open_client


@pytest.mark.parametrize("line", [b'{"a":NaN}', b"[Infinity]", b"[-Infinity]", b"[1e400]", b'["\\ud800"]'])
def test_values_json_does_not_have_are_refused(line):
    with pytest.raises(NonJsonValue):
        loads_strict(line)


@pytest.mark.parametrize("line, value", [(b'["\\u00e9", 1.5, -0.0, 1e308]', ["é", 1.5, -0.0, 1e308]),
                                         (b'{"nan": "NaN"}', {"nan": "NaN"})])
def test_json_is_read_as_ever(line, value):
    assert loads_strict(line) == value


def test_a_line_that_is_no_json_at_all_is_not_taken_for_a_bad_value():
    with pytest.raises(ValueError) as info:
        loads_strict(b"NaN: a log line")
    assert not isinstance(info.value, NonJsonValue)


@pytest.mark.parametrize("engine, wanted", [("", "empty"), ("   ", "empty"), ('x "unterminated', "No closing quotation"),
                                            ("/nonexistent/engine", "cannot start")])
def test_an_engine_command_that_cannot_run(engine, wanted):
    with pytest.raises(EngineStartError, match=wanted):
        open_client(engine)


def test_a_list_command_with_an_empty_program_is_refused():
    with pytest.raises(EngineStartError, match="empty"):
        SubprocessClient([""])
