"""Every exception class the toolkit defines derives from PresidentError, and president/errors.py
documents each one in its tree."""
from __future__ import annotations

import importlib
import inspect
import pkgutil

import click

import president
from president import errors


def _toolkit_exceptions() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(president.__path__, "president."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and issubclass(obj, BaseException) and obj.__module__ == info.name:
                found[f"{info.name}.{name}"] = obj
    return found


def test_every_toolkit_exception_is_a_president_error_and_documented():
    found = _toolkit_exceptions()
    assert len(found) >= 20
    # the command line's own: usage errors are click's, SIGTERM unwinds like Ctrl-C (a KeyboardInterrupt)
    library = {name: cls for name, cls in found.items()
               if not issubclass(cls, (click.ClickException, KeyboardInterrupt))}
    outside = [name for name, cls in library.items() if not issubclass(cls, errors.PresidentError)]
    assert outside == []
    undocumented = [name for name, cls in library.items() if cls.__name__ not in (errors.__doc__ or "")]
    assert undocumented == []
