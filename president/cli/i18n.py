"""CLI: the `president i18n` translator tools (`build` and `check` are in president/cli/project.py).

Exit codes: 0 success, 1 problems found (listed on stderr as file:line: what (what to do)),
2 usage errors. Progress goes to stderr; stdout carries only requested output.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Iterable, NoReturn

import click

from ..errors import PresidentError, Problem, SpecError
from ..resources import LANGS, find_project_root
from .util import echo



def _project_here(ctx: click.Context, param: click.Parameter, root: Path | None) -> Path | None:
    """--root, else the project found upward from the current folder (None outside any project:
    the packaged copies). The command line is the only place that looks at the current folder."""
    return root if root is not None else find_project_root(Path.cwd())


_ROOT = click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=None,
                     callback=_project_here,
                     help="Project folder (default: found upward from the current folder, "
                          "else the copies packaged with president).")
_SPEC = click.option("--spec", "spec", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="Spec file (default: <root>/spec/president.yaml).")


def _say(message: str) -> None:
    echo(message, err=True)  # a problem may quote a catalog: shown inert


def _fail(problems: Iterable[Problem], what: str) -> NoReturn:
    problems = list(problems)
    for p in problems:
        _say(str(p))
    _say(f"{what}: {len(problems)} problem{'s' if len(problems) != 1 else ''}")
    sys.exit(1)


def _require_i18n() -> None:
    """The i18n stack needs Babel and Jinja2 (declared dependencies): say so instead of a traceback."""
    import importlib
    for module, requirement in (("babel", "babel==2.19.*"), ("jinja2", "jinja2>=3.1")):
        try:
            importlib.import_module(module)
        except ImportError:
            _fail([Problem("president", None, "", f"the localization tools need {module}, which is not installed",
                           f"pip install '{requirement}'")], "cannot run")


def writable_root(root: Path | None, out: Path | None = None) -> Path | None:
    """The project to write into; outside any project (without --root/--out) a usage error:
    the copies packaged with president are never rewritten."""
    if root is None and out is None:
        raise click.UsageError(f"no project here (no spec/president.yaml and locales/ in {Path.cwd()} or above), "
                               "and the copies installed with president are read-only: "
                               "pass --out DIR to write elsewhere, or --root DIR to name a project")
    return root


def _problems_of(exc: PresidentError) -> list[Problem]:
    problems = getattr(exc, "problems", None)
    if isinstance(exc, SpecError) or problems:
        return list(problems or [])
    return [Problem("president", None, "", str(exc))]


@click.group()
def i18n() -> None:
    """Translator tools: extract messages, update catalogs, statistics, pseudo-locale.

    Plain Babel works too: `pybabel extract -F babel.cfg -o locales/rules.pot .` and
    `pybabel update -i locales/rules.pot -d locales -D rules`.
    """


@i18n.command()
@_SPEC
@_ROOT
def extract(spec: Path | None, root: Path | None) -> None:
    """Write locales/rules.pot from the templates and the spec (no dates: reproducible)."""
    _require_i18n()
    from ..project.build import Project, write_files
    from ..i18n.catalogs import pot_path
    from ..i18n.extract import template_bytes
    project = Project.resolve(writable_root(root), spec)
    path = pot_path(project.root)
    try:
        data = template_bytes(project.root, project.spec_path)
        written = write_files({path: data})
    except PresidentError as exc:
        _fail(_problems_of(exc), "extract failed")
    _say(f"{'wrote' if written else 'unchanged'} {path}")


@i18n.command()
@_SPEC
@_ROOT
@click.option("--no-fuzzy-matching", is_flag=True, help="Do not guess fuzzy translations for new messages.")
def update(spec: Path | None, root: Path | None, no_fuzzy_matching: bool) -> None:
    """Extract, then merge the template into every catalog (new messages empty or fuzzy)."""
    _require_i18n()
    from ..project.build import Project, write_files
    from ..i18n.catalogs import po_path, pot_path
    from ..i18n.extract import extract_template, serialize, updated_catalogs
    project = Project.resolve(writable_root(root), spec)
    try:
        template = extract_template(project.root, project.spec_path)
        files = {pot_path(project.root): serialize(template)}
        for lang, data in updated_catalogs(project.root, template, fuzzy_matching=not no_fuzzy_matching).items():
            files[po_path(project.root, lang)] = data
        from ..project.build import read_spec
        from ..i18n.steps_catalog import updated_steps_catalogs  # the steps domain, `#. unreviewed` kept
        files.update(updated_steps_catalogs(project.root, read_spec(project.spec_path),
                                            fuzzy_matching=not no_fuzzy_matching))
        written = set(write_files(files))
    except PresidentError as exc:
        _fail(_problems_of(exc), "update failed, nothing written")
    for path in files:
        _say(f"{'wrote' if path in written else 'unchanged'} {path}")


@i18n.command()
@_ROOT
def stats(root: Path | None) -> None:
    """Translated, fuzzy, untranslated and unreviewed messages per catalog (rules and steps domains)."""
    _require_i18n()
    from ..project.build import Project
    from ..i18n.extract import catalog_stats
    project = Project.resolve(root)
    try:
        rows = [(domain, row) for domain in ("rules", "steps") for row in catalog_stats(project.root, domain)]
    except PresidentError as exc:
        _fail(_problems_of(exc), "stats failed")
    click.echo(f"{'lang':<6}{'total':>7}{'done':>7}{'fuzzy':>7}{'todo':>7}{'unreviewed':>11}  domain")
    for domain, (lang, total, done, fuzzy, todo, unreviewed) in rows:
        click.echo(f"{lang:<6}{total:>7}{done:>7}{fuzzy:>7}{todo:>7}{unreviewed:>11}  {domain}")


@i18n.command()
@_SPEC
@_ROOT
@click.option("--format", "fmt", type=click.Choice(["txt", "md", "html"]), default="txt", show_default=True,
              help="Format of the sheet printed.")
def pseudo(spec: Path | None, root: Path | None, fmt: str) -> None:
    """Print the sheet in the pseudo-locale `xx`: every message ⟦àççéñţéđ⟧, so any text that
    escapes translation shows up unbracketed."""
    _require_i18n()
    from ..project.build import Project, read_spec
    from ..i18n.catalogs import PSEUDO_LANG, Translator
    from ..i18n.render import render_sheet
    project = Project.resolve(root, spec)
    try:
        text = render_sheet(read_spec(project.spec_path), PSEUDO_LANG, fmt, project.root,
                            translator=Translator(PSEUDO_LANG, None, pseudo=True))
    except PresidentError as exc:
        _fail(_problems_of(exc), "pseudo failed")
    echo(text)


@i18n.command()
@click.argument("lang", type=click.Choice(list(LANGS)))
@_SPEC
@_ROOT
def lines(lang: str, spec: Path | None, root: Path | None) -> None:
    """Print the sheet's lines in LANG with their clause ids, as JSON lines."""
    _require_i18n()
    from ..project.build import Project, read_spec
    from ..i18n.render import render_lines
    project = Project.resolve(root, spec)
    try:
        rows = render_lines(read_spec(project.spec_path), lang, project.root)
    except PresidentError as exc:
        _fail(_problems_of(exc), "lines failed")
    for rules, text in rows:
        click.echo(json.dumps({"rules": list(rules), "text": text}, ensure_ascii=False))


__all__ = ["i18n"]
