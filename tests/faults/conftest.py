"""Fixtures of the fault tests."""
from __future__ import annotations

from pathlib import Path

import pytest

from i18n_support import copy_project


@pytest.fixture
def project(tmp_path) -> Path:
    """A fresh copy of the project to break."""
    return copy_project(tmp_path / "project")
