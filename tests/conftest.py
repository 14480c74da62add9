"""Shared pytest hooks: figures measured by tests are printed after the run, not among the dots;
and `benchmark_module`, which loads a script of benchmarks/ for the tests that keep it working.

A test records a figure with `record_property("president_summary", line)`; user properties travel
with the test report, so this works with and without pytest-xdist workers.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """benchmarks/<name>.py as a module (the benchmarks are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


@pytest.fixture(scope="session")
def benchmark_module():
    """The loader of benchmark scripts, for the tests that keep them working."""
    return load_benchmark


@pytest.fixture(scope="module")
def cluster():
    """A Dask LocalCluster of two single-threaded worker processes (skips without dask.distributed)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as c:
        yield c


def pytest_runtest_logreport(report) -> None:  # noqa: ANN001
    if report.when == "call":
        for name, value in report.user_properties:
            if name == "president_summary":
                _LINES.append(str(value))


_LINES: list[str] = []


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # noqa: ANN001
    if _LINES:
        terminalreporter.section("figures measured by the tests")
        for line in _LINES:
            terminalreporter.write_line(line)
