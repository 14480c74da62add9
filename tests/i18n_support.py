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


def _po_field(block: list[str], name: str) -> str | None:
    import ast
    out, cur = None, False
    for line in block:
        if line.startswith(name + " "):
            out, cur = [ast.literal_eval(line[len(name) + 1:])], True
        elif line.startswith('"') and cur:
            out.append(ast.literal_eval(line))
        else:
            cur = False
    return "".join(out) if out is not None else None


def plant(path: Path, msgid: str, msgstr: str | list[str], ctx: str | None = None,
          flags: str | None = None) -> tuple[int, int]:
    """Replace the translation of one entry of a .po file, as a translator would (textually).

    `flags`: the new `#,` line (without `#, `), or None to keep it. Returns the entry's first and
    last line numbers (1-based), for asserting that a problem points into the entry."""
    lines = path.read_text(encoding="utf-8").split("\n")
    blocks, start = [], None
    for n, line in enumerate(lines + [""]):
        if line.strip() and start is None:
            start = n
        elif not line.strip() and start is not None:
            blocks.append((start, n))
            start = None
    hits = [(a, b) for a, b in blocks if not lines[a].startswith("#~")
            and _po_field(lines[a:b], "msgid") == msgid and _po_field(lines[a:b], "msgctxt") == ctx]
    assert len(hits) == 1, (path, msgid, ctx, hits)
    a, b = hits[0]
    block = lines[a:b]
    first = next(i for i, line in enumerate(block) if line.startswith("msgstr"))
    head = [line for line in block[:first] if flags is None or not line.startswith("#,")]
    if flags:
        head.insert(next(i for i, line in enumerate(head) if line.startswith(("msgctxt", "msgid"))), f"#, {flags}")
    quote = lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'  # noqa: E731
    body = ([f"msgstr[{i}] {quote(s)}" for i, s in enumerate(msgstr)] if isinstance(msgstr, list)
            else [f"msgstr {quote(msgstr)}"])
    lines[a:b] = head + body
    path.write_text("\n".join(lines), encoding="utf-8")
    return a + 1, a + len(head) + len(body)
