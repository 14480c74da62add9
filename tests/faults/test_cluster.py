"""`tournament --cluster` with a scheduler that is not there: one line, exit 1, within the connect
timeout, no traceback (not even Dask's at exit) and no "input is too large"."""
from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from .test_faults import ROOT

pytestmark = pytest.mark.slow

pytest.importorskip("distributed")


@pytest.fixture
def silent_port():
    """A port that accepts connections and never says a word (a Dask client used to wait there forever)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s.getsockname()[1]


def _tournament(address: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "president", "tournament", "--seats", "medium,easy,easy,easy",
                           "-n", "4", "--cluster", address, "--connect-timeout", "1"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("address, wanted", [
    ("tcp://127.0.0.1:1", "Connection refused"),
    ("garbage:xx", "is not a Dask scheduler address"),
    ("tcp://127.0.0.1", "is not a Dask scheduler address"),
    ("tcp://127.0.0.1:99999", "the port must be 1 to 65535"),
    ("tcp://nosuchhost.invalid:8786", "cannot reach the Dask scheduler"),
    ("silent", "nothing answered within 1 s"),
])
def test_an_unreachable_scheduler_is_one_line(address, wanted, silent_port):
    out = _tournament(f"tcp://127.0.0.1:{silent_port}" if address == "silent" else address)
    assert out.returncode == 1, out.stderr
    assert out.stderr.strip().count("\n") == 0 and out.stderr.startswith("Error: ") and wanted in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and "MemoryError" not in out.stderr
