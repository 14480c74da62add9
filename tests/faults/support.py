"""What the file and spec fault tests share: `president` run as a user would, in a folder."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def president(cwd: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "president", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)
