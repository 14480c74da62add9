"""The pieces of a stopped run's verdict (issue 32), without a conform run: the stop as each report
writes it, a saved report read back with and without it, the stop kept across a --jobs worker's
pipe, the items done before it kept, and the client's settle before a divergence is judged."""
from __future__ import annotations

import json
import pickle
import sys
from xml.etree import ElementTree as ET

import pytest

from president.conform import report as reports
from president.conform.jobs import WorkerFailed, run_parallel
from president.conform.saved import Report, ReportError, problems
from president.conform.stopped import Stop
from president.protocol.client import InProcessClient, ProtocolFault, RunStopped, SubprocessClient
from president.spec import default_spec

from .fake_engine import HOSTILE_TEXT
from .test_faults import FAKE, left_alive

LINES = [{"request": 12, "cmd": "new_game", "line": "debug: new game starting"}] * 3


def _stopped_run(stop: Stop) -> reports.Run:
    run = reports.Run(default_spec(), [], None, None, "fake engine")
    run.stopped = stop
    return run


@pytest.fixture
def stop() -> Stop:
    exc = RunStopped("the engine keeps breaking the protocol (3 lines that answered no request, in this run)",
                     "protocol", {"number": 12, "cmd": "new_game"}, LINES)
    return Stop.of(exc, "scenarios", "scenario setup.rank-order/a-2-beats-an-ace")


def test_a_stop_is_an_engine_error_in_every_report(stop):
    run = _stopped_run(stop)
    assert not run.ok and run.exit_code == reports.EXIT_FAIL
    data = run.to_json()
    assert data["stopped"] == stop.as_dict() and data["exit_code"] == 1
    assert problems(json.loads(json.dumps(data))) == []  # the schema describes it
    suite = ET.fromstring(reports.junit_xml(run))
    case = suite.find("testcase[@name='run/stopped']")
    assert case is not None and case.find("failure") is None
    assert case.find("error").get("type") == "stopped-protocol" and "debug: new game starting" in case.find("error").text
    assert suite.get("errors") == "1" and suite.get("failures") == "0" and suite.get("tests") == "1"
    text = reports.summary_text(run)
    assert "STOPPED (protocol" in text and "at request 12 (new_game)" in text and text.count("debug: new game") == 3
    page = reports.annotated_sheet_html(run, "en")
    assert 'id="stopped"' in page and "debug: new game starting" in page


def test_a_toolkit_error_still_wins_over_a_stop(stop):
    from president.conform.toolkit import ToolkitError

    run = _stopped_run(stop)
    run.toolkit_errors = [ToolkitError("scenario", "x/y", "TypeError: planted", "")]
    assert run.exit_code == reports.EXIT_TOOLKIT


def test_a_saved_stop_is_read_back_and_a_report_without_one_reads_as_none(stop, tmp_path):
    data = _stopped_run(stop).to_json()
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    saved = Report.load(path)
    assert saved.stopped == stop and "STOPPED (protocol" in saved.text()
    del data["stopped"]  # written before the key was added: still version 1, read as no stop
    path.write_text(json.dumps(data))
    assert Report.load(path).stopped is None and "STOPPED" not in Report.load(path).text()


def test_a_saved_stop_is_shown_inert_and_checked(stop, tmp_path):
    data = _stopped_run(stop).to_json()
    data["stopped"] = {**stop.as_dict(), "kind": HOSTILE_TEXT, "message": HOSTILE_TEXT * 1000, "item": HOSTILE_TEXT}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    text = Report.load(path).text()
    assert "\x1b" not in text and "\u202e" not in text and len(max(text.splitlines(), key=len)) <= 200
    data["stopped"] = {"kind": 3}
    path.write_text(json.dumps(data))
    with pytest.raises(ReportError, match="stopped"):
        Report.load(path)


def test_a_stop_crosses_a_workers_pipe_whole():
    exc = pickle.loads(pickle.dumps(RunStopped("hung", "hang", {"number": 3, "cmd": "act"}, LINES)))
    assert (exc.kind, exc.request, exc.lines, str(exc)) == ("hang", {"number": 3, "cmd": "act"}, LINES, "hung")
    assert pickle.loads(pickle.dumps(WorkerFailed("lost"))).kind == "worker"


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_items_done_before_a_stop_are_kept(jobs):
    def work(client, item: int) -> int:
        if item == 5:
            raise RunStopped("budget spent", "budget")
        return item * 10

    with pytest.raises(RunStopped) as caught:
        run_parallel(list(range(8)), work, InProcessClient(), jobs, factory=InProcessClient if jobs > 1 else None)
    done = caught.value.partial
    assert caught.value.kind == "budget" and done is not None and done == sorted(done)
    assert {0, 10, 20, 30, 40} <= set(done) if jobs == 1 else set(done) <= {i * 10 for i in range(8) if i != 5}
    assert caught.value.item == (5 if jobs == 1 else None)


@pytest.mark.slow
def test_settle_turns_a_late_second_reply_into_a_protocol_fault(tmp_path, monkeypatch):
    """The copy of a reply coming 0.1 s late (within `SETTLE_SECONDS`): `settle`, called before a divergence
    is judged, sees it."""
    for key, value in {"FAKE_CMD": "state", "FAKE_AT": "1", "FAKE_LATE": "0.1", "FAKE_MARKER": str(tmp_path / "n"),
                       "FAKE_PIDS": str(tmp_path / "pids")}.items():
        monkeypatch.setenv(key, value)
    client = SubprocessClient([sys.executable, str(FAKE), "twice-at"])
    try:
        client.hello()
        client.request({"cmd": "new_game", "config": {"players": 3}, "seed": 1})
        client.request({"cmd": "state"})
        with pytest.raises(ProtocolFault, match="nobody asked for"):
            client.settle()
        assert client.stray_count == 1 and client.stray_lines[0]["line"].startswith('{"ok": true')
    finally:
        client.close()
    assert left_alive(tmp_path / "pids") == []
