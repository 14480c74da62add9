"""docs/api.md is the API's page: each of its examples runs here as a doctest, as written."""
from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"


@pytest.mark.slow  # its conformance example runs the reference engine
def test_api_page_examples_pass_as_doctests():
    result = doctest.testfile(str(DOC), module_relative=False, encoding="utf-8",
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 20 and result.failed == 0, result


def test_the_package_says_it_is_typed_and_lists_its_names():
    import president

    assert (Path(president.__file__).parent / "py.typed").is_file()
    for name in president.__all__:
        assert getattr(president, name) is not None, name
