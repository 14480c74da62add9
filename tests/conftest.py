"""Shared pytest hooks: figures measured by tests are printed after the run, not among the dots.

A test records a figure with `record_property("president_summary", line)`; user properties travel
with the test report, so this works with and without pytest-xdist workers.
"""
from __future__ import annotations


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
