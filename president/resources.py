"""Where the project files live: the project found upward from a folder, or the packaged copies."""
from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
#: In a wheel the data files ship under president/_data; in a checkout they sit beside the package.
_PACKAGED = PACKAGE_DIR / "_data"
_CHECKOUT = PACKAGE_DIR.parent


def packaged_root() -> Path:
    """The root holding spec/, locales/, rules/ and features/ that came with the installed package."""
    if (_PACKAGED / "spec" / "president.yaml").is_file():
        return _PACKAGED
    return _CHECKOUT


def find_project_root(start: Path | None = None) -> Path | None:
    """Walk upward from `start` (default: cwd) as git does, to a folder with spec/president.yaml."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "spec" / "president.yaml").is_file() and (folder / "locales").is_dir():
            return folder
    return None


def project_root(root: Path | None = None) -> Path:
    """`root` if given, else the project around the cwd, else the packaged copies."""
    if root is not None:
        return Path(root).resolve()
    return find_project_root() or packaged_root()


def default_spec_path(root: Path | None = None) -> Path:
    return project_root(root) / "spec" / "president.yaml"


def schema_path() -> Path:
    return packaged_root() / "spec" / "schema.json"
