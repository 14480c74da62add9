"""Helpers shared by the localization tests: a throwaway copy of the project."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SEEDS = Path(__file__).resolve().parent / "seeds"
PUBLISHED = ("ar", "el", "ru", "hy", "hi")
ALL_LANGS = ("en", *PUBLISHED)


def copy_project(dest: Path) -> Path:
    """Copy what build and check read (spec, locales, rules, features) to `dest`."""
    for name in ("spec", "locales", "rules", "features"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name)
        else:
            (dest / name).mkdir(parents=True)
    return dest


def edit_spec(root: Path, edit) -> Path:
    """Apply `edit(data)` to root/spec/president.yaml (as YAML data) and write it back."""
    path = root / "spec" / "president.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def stub_features(spec) -> dict[str, str]:
    """Stand-in for president.scenarios.gherkin.generate_features: keeps these tests about i18n only."""
    return {"rules.feature": f"Feature: {spec.game} {spec.version}\n"}


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A copy of the project as the current folder, with the stand-in features generator."""
    import president.project.build as build_mod
    monkeypatch.setattr(build_mod, "features_generator", lambda: stub_features)
    root = copy_project(tmp_path / "copy")
    for generated in (root / "features").glob("*.feature"):  # the stand-in writes its own
        generated.unlink()
    monkeypatch.chdir(root)
    return root
