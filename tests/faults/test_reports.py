"""Reports to any path, and staged files on every exit (issue 21): a report pointed at a device, a
FIFO or a symlink to stdout is written through, never replaced; a rewritten file keeps its mode, a
new one gets the umask's; SIGTERM is handled as Ctrl-C is (exit 143, nothing half-written).
Run as the user would: `python -m president`, real device nodes (as root), FIFOs and signals."""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ("bench", "--games", "3")  # the quickest command that writes a --json report


def president(*args: str, cwd: Path = ROOT, umask: int | None = None) -> subprocess.CompletedProcess[str]:
    def child() -> None:
        if umask is not None:
            os.umask(umask)
    return subprocess.run([sys.executable, "-m", "president", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, preexec_fn=child)


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
@pytest.mark.slow
def test_a_device_node_is_written_through_not_replaced(tmp_path):
    node = tmp_path / "null"
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # the same device as /dev/null
    result = president(*BENCH, "--json", str(node))
    assert result.returncode == 0, result.stderr
    st = os.stat(node)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


@pytest.mark.slow
def test_a_fifo_report_is_written_through(tmp_path):
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    result = president(*BENCH, "--json", str(fifo))
    reader.join(timeout=60)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert json.loads(got[0])["games"] == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.fifo"]


@pytest.mark.skipif(not Path("/proc/self/fd/1").exists(), reason="no /proc/self/fd on this system")
@pytest.mark.slow
def test_a_symlink_to_stdout_is_kept_and_written_through(tmp_path):
    link = tmp_path / "out"
    link.symlink_to("/proc/self/fd/1")
    result = president(*BENCH, "--json", str(link))
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == "/proc/self/fd/1"
    assert json.loads(result.stdout.strip().splitlines()[-1])["games"] == 3  # after bench's summary


@pytest.mark.slow
def test_dev_stdout_is_written_through():
    result = president(*BENCH, "--json", "/dev/stdout")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1])["games"] == 3  # after bench's summary


@pytest.mark.slow
def test_a_rewritten_report_keeps_its_mode_and_a_new_one_gets_the_umask(tmp_path):
    new = tmp_path / "new.json"
    result = president(*BENCH, "--json", str(new), umask=0o022)
    assert result.returncode == 0, result.stderr
    assert stat.S_IMODE(os.stat(new).st_mode) == 0o644
    os.chmod(new, 0o640)
    result = president(*BENCH, "--json", str(new), umask=0o077)
    assert result.returncode == 0, result.stderr
    assert stat.S_IMODE(os.stat(new).st_mode) == 0o640
    assert json.loads(new.read_text())["games"] == 3


@pytest.mark.slow
def test_a_symlink_to_a_regular_report_is_kept(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("{}")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    assert president(*BENCH, "--json", str(link)).returncode == 0
    assert link.is_symlink() and json.loads(real.read_text())["games"] == 3


@pytest.mark.slow
def test_build_keeps_the_mode_of_the_sheets_it_rewrites(tmp_path):
    out = tmp_path / "out"
    assert president("build", "--out", str(out), umask=0o027).returncode == 0
    sheet = out / "ru.txt"
    assert stat.S_IMODE(os.stat(sheet).st_mode) == 0o640
    os.chmod(sheet, 0o604)
    sheet.write_text("changed")
    assert president("build", "--out", str(out)).returncode == 0
    assert stat.S_IMODE(os.stat(sheet).st_mode) == 0o604 and sheet.read_text() != "changed"


def _terminate(args: list[str], after: float, wait_for: str) -> tuple[int, str]:
    proc = subprocess.Popen([sys.executable, "-m", "president", *args], cwd=ROOT, stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True, start_new_session=True)
    assert proc.stderr is not None
    seen = ""
    while wait_for not in seen:
        line = proc.stderr.readline()
        if not line:
            break
        seen += line
    time.sleep(after)
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError(f"{args} still running 60 s after SIGTERM") from None
    return proc.returncode, seen + err


@pytest.mark.parametrize("after", [0.0, *(pytest.param(after, marks=pytest.mark.slow) for after in (0.5, 1.5, 3.0))])
def test_sigterm_during_build_leaves_nothing_half_written(tmp_path, after):
    out = tmp_path / "out"
    code, err = _terminate(["build", "--out", str(out)], after, "spec ")
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")], err
    if code in (0, -signal.SIGTERM):  # finished before the signal (or it landed in the interpreter's own
        assert len(list(out.glob("*.txt"))) == 6  # shutdown, after the last file was in place): then complete
        return
    assert code == 143, err
    assert "terminated" in err and "Traceback" not in err
    assert not out.exists() or not list(out.rglob("*.txt")) or len(list(out.glob("*.txt"))) == 6


@pytest.mark.slow
def test_sigterm_while_staging_many_files_removes_every_staged_file(tmp_path):
    """replace_all itself, under the command line's SIGTERM handler, signalled while it stages."""
    script = tmp_path / "stage.py"
    script.write_text(
        "import signal, sys\n"
        "from pathlib import Path\n"
        "from president.cli import main as m\n"
        "from president.atomic import replace_all\n"
        "signal.signal(signal.SIGTERM, m._terminate)\n"
        "d = Path(sys.argv[1]); d.mkdir()\n"
        "print('staging', flush=True)\n"
        "try:\n"
        "    replace_all({d / f'f{i}.txt': b'x' * 20000 for i in range(3000)})\n"
        "except m.Terminated:\n"
        "    m.interrupted(m.TERMINATED)\n")
    for n, after in enumerate((0.0, 0.01, 0.05, 0.2)):
        folder = tmp_path / f"s{n}"
        proc = subprocess.Popen([sys.executable, str(script), str(folder)], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        proc.stdout.readline()
        time.sleep(after)
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
        names = os.listdir(folder)
        assert not [x for x in names if x.endswith(".tmp")], (after, len(names))
        assert proc.returncode == 143 or len(names) == 3000
        assert len(names) in (0, 3000)  # renames happen all together or not at all
