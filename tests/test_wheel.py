"""A non-editable wheel carries the spec, schemas, catalogs, templates and features, and works
from outside any checkout."""
from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
                    str(ROOT)], check=True, capture_output=True, text=True)
    return next(out.glob("president-*.whl"))


def test_wheel_ships_the_data_files(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in ["president/_data/spec/president.yaml", "president/_data/spec/schema.json",
                     "president/schemas/protocol/common.json"]:
        assert required in names
    assert any(n.startswith("president/_data/locales/") and n.endswith(".po") for n in names)
    assert any(n.startswith("president/_data/features/") and n.endswith(".feature") for n in names)
    assert any(n.startswith("president/templates/") for n in names)


def test_installed_wheel_runs_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    # Install without dependencies: they come from the test environment, whose site-packages a .pth
    # file appends to the new venv's path. Paths listed in a .pth file are not scanned for .pth files
    # themselves, so an editable install of president in the test environment stays invisible.
    new_site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   check=True, capture_output=True, text=True).stdout.strip())
    (new_site / "test_deps.pth").write_text("\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "-q", str(wheel)],
                   check=True, capture_output=True, text=True)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    where = subprocess.run([str(py), "-c", "import president; print(president.__file__)"], cwd=outside,
                           capture_output=True, text=True, check=True, env=env).stdout
    assert str(env_dir) in where, where
    president = env_dir / "bin" / "president"
    reply = subprocess.run([str(president), "engine"], input='{"cmd":"hello"}\n{"cmd":"quit"}\n', cwd=outside,
                           capture_output=True, text=True, check=True, env=env).stdout.splitlines()
    assert json.loads(reply[0])["spec_version"] == "1.1.0"
    out = tmp_path / "sheets"
    subprocess.run([str(president), "build", "--out", str(out)], cwd=outside, capture_output=True, text=True,
                   check=True, env=env)
    assert (out / "ru.txt").read_bytes() == (ROOT / "tests" / "seeds" / "ru.txt").read_bytes()
    # Inside a copy of the project, the installed (non-editable) toolkit checks that copy and finds no drift.
    copy = tmp_path / "project"
    for part in ("spec", "locales", "rules", "features"):
        shutil.copytree(ROOT / part, copy / part)
    check = subprocess.run([str(president), "check"], cwd=copy / "rules", capture_output=True, text=True, env=env)
    assert check.returncode == 0, check.stdout + check.stderr
    assert str(copy) in check.stdout + check.stderr
