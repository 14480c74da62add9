"""CLI: `president build` and `president check`, the project's own jobs (president.project).

Exit codes: 0 success, 1 problems found (listed on stderr as file:line: what (what to do)),
2 usage errors. Progress goes to stderr; stdout carries only requested output.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from .i18n import _ROOT, _SPEC, _fail, _problems_of, _require_i18n, _say, writable_root
from .util import bounded
from ..errors import PresidentError

if TYPE_CHECKING:
    from ..project.build import Extra
    from ..spec import Spec


@click.command()
@_SPEC
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write the sheets to OUT/<lang>.{txt,md,html} and the features to OUT/features/ "
                   "(default: <root>/rules and <root>/features).")
@_ROOT
@click.option("--pseudo", is_flag=True,
              help="Also write the pseudo-locale sheets en-XA (accented, ~40% longer, bracketed) and "
                   "ar-XB (right to left) to <root>/pseudo/ (or OUT/pseudo/).")
@click.option("--no-isolation", is_flag=True, hidden=True,
              help="Pseudo-locale sheets without bidi isolation (to see what it protects).")
@click.option("--pdf", is_flag=True,
              help="Also write print-ready A4 sheets OUT/<lang>.pdf (default <root>/pdf/, not committed) "
                   "through WeasyPrint: pip install 'president[pdf]'.")
def build(spec: Path | None, out: Path | None, root: Path | None, pseudo: bool = False,
          no_isolation: bool = False, pdf: bool = False) -> None:
    """Render the rule sheets (en, ar, el, ru, hy, hi as .txt, .md, .html) and the features.

    Nothing is written unless everything renders: a variant whose sentences the catalogs
    lack is refused with the list of missing translations.
    """
    _require_i18n()
    from ..project.build import Project, build_project
    project = Project.resolve(writable_root(root, out), spec, out)
    base = out.resolve() if out else project.root
    pdf_folder = base if out else project.root / "pdf"
    extras = (*([_pseudo_sheets(base, not no_isolation)] if pseudo else []),
              *([_pdf_sheets(pdf_folder, project.root)] if pdf else []))
    try:
        result = build_project(project, _say, extras)
    except PresidentError as exc:
        _fail(bounded(_problems_of(exc)), "build refused, nothing written")
    for path in result.removed:
        _say(f"removed {path} (a staged file an interrupted build left)")
    for path in result.written:
        _say(f"wrote {path}")
    _say(f"build: {len(result.written)} written, {len(result.unchanged)} unchanged "
         f"in {result.seconds:.2f}s (sheets in {project.rules_dir}, features in {project.features_dir}"
         f"{', pseudo-locales en-XA, ar-XB in ' + str(base / 'pseudo') if pseudo else ''}"
         f"{', PDF sheets in ' + str(pdf_folder) if pdf else ''})")


def _pseudo_sheets(base: Path, isolation: bool) -> Extra:
    """The pseudo-locale sheets en-XA and ar-XB in base/pseudo/."""
    def files(spec: Spec) -> dict[Path, bytes]:
        from ..i18n.catalogs import confined
        from ..i18n.render import render_pseudo
        return {confined(base / "pseudo" / name, base): text.encode("utf-8")
                for name, text in render_pseudo(spec, isolation=isolation).items()}
    return files


def _pdf_sheets(folder: Path, root: Path) -> Extra:
    """<lang>.pdf for every language in `folder`."""
    def files(spec: Spec) -> dict[Path, bytes]:
        from ..i18n.pdf import render_pdfs
        return {folder / f"{lang}.pdf": data for lang, data in render_pdfs(spec, root).items()}
    return files


@click.command()
@_SPEC
@_ROOT
def check(spec: Path | None, root: Path | None) -> None:
    """Check the spec, the catalogs, placeholders and numbers, template clause ids, and drift.

    Lists every problem with its file and line and exits 1 if there is any.
    """
    _require_i18n()
    from ..project.build import Project
    from ..project.check import CHECKS, run_checks
    project = Project.resolve(root, spec)
    _say(f"check: {project.root} ({len(CHECKS)} checks)")
    problems = run_checks(project)
    if problems:
        _fail(bounded(problems), "check failed")
    _say("check: no problems")
