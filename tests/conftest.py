"""Shared pytest hooks: figures measured by tests are printed after the run, not among the dots."""
from __future__ import annotations


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # noqa: ANN001
    lines = getattr(config, "president_summary", [])
    if lines:
        terminalreporter.section("figures measured by the tests")
        for line in lines:
            terminalreporter.write_line(line)
