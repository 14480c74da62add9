"""What the file and spec fault tests share: `president` run as a user would, in a folder."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from president.i18n.catalogs import BuildError


def catalog_refusal(project: Path, catalog: Path) -> "BuildError":
    """The BuildError that rendering what `catalog` (locales/<lang>/LC_MESSAGES/<domain>.po, relative
    to `project`) feeds raises: the sheets of its language, or its translated features."""
    import pytest

    from president.i18n.catalogs import BuildError
    from president.i18n.features import translated_features
    from president.i18n.render import render_all
    from president.project.build import read_spec

    lang, domain = catalog.parts[1], catalog.stem
    spec = read_spec(project / "spec" / "president.yaml")
    with pytest.raises(BuildError) as caught:
        if domain == "rules":
            render_all(spec, project, (lang,))
        else:
            translated_features(spec, project, (lang,))
    return caught.value


def president(cwd: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "president", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


#: Runs `python -m president ARGS` and writes its peak RSS (KB) to the file named by PEAK_FILE. A
#: small process of its own: a child forked straight from a big pytest worker would count the
#: worker's pages in its own peak (ru_maxrss keeps the RSS from before the exec).
_PEAK = ("import os, resource, subprocess, sys\n"
         "code = subprocess.call([sys.executable, '-m', 'president', *sys.argv[1:]])\n"
         "open(os.environ['PEAK_FILE'], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
         "sys.exit(code)\n")


def measured(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 300) -> tuple[int, str, str, int]:
    """Run `python -m president ARGS`; (exit code, stdout, stderr, peak RSS in KB of the run: conform
    and the engines it waited for). Killed (whole session) after `timeout` s."""
    import os
    import signal
    import tempfile
    import threading

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.TemporaryDirectory() as scratch:
        peak_file = Path(scratch) / "peak"
        proc = subprocess.Popen([sys.executable, "-c", _PEAK, *args], cwd=cwd, env={**env, "PEAK_FILE": str(peak_file)},
                                stdout=out, stderr=err, start_new_session=True)
        killer = threading.Timer(timeout, lambda: os.killpg(proc.pid, signal.SIGKILL))
        killer.start()
        try:
            proc.wait()
        finally:
            killer.cancel()
        out.seek(0)
        err.seek(0)
        peak = int(peak_file.read_text()) if peak_file.exists() else 0
        return (proc.returncode, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"), peak)
