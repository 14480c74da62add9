"""CLI: `president build` and `president check`, the project's own jobs (president.project).

Exit codes: 0 success, 1 problems found (listed on stderr as file:line: what (what to do)),
2 usage errors. Progress goes to stderr; stdout carries only requested output.
"""
from __future__ import annotations

from pathlib import Path

import click

from .i18n import _ROOT, _SPEC, _fail, _problems_of, _require_i18n, _say, writable_root
from ..errors import PresidentError


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
    try:
        result = build_project(project, _say)
    except PresidentError as exc:
        _fail(_problems_of(exc), "build refused, nothing written")
    for rel in result.written:
        _say(f"wrote {project.target(rel)}")
    _say(f"build: {len(result.written)} written, {len(result.unchanged)} unchanged "
         f"in {result.seconds:.2f}s (sheets in {project.rules_dir}, features in {project.features_dir})")
    if pseudo:
        from ..i18n.render import render_pseudo
        from ..i18n.catalogs import confined
        from ..project.build import read_spec, write_files
        base = out.resolve() if out else project.root
        folder = base / "pseudo"
        try:
            write_files({confined(folder / name, base): text.encode("utf-8") for name, text in
                         render_pseudo(read_spec(project.spec_path), isolation=not no_isolation).items()})
        except PresidentError as exc:
            _fail(_problems_of(exc), "pseudo-locales refused, not written")
        _say(f"pseudo-locales en-XA, ar-XB written to {folder}")
    if pdf:
        _build_pdfs(project, out)


def _build_pdfs(project, out: Path | None) -> None:  # type: ignore[no-untyped-def]
    """<lang>.pdf for every language, all or none."""
    import time
    from ..i18n.pdf import render_pdfs
    from ..project.build import read_spec, write_files
    folder = out.resolve() if out else project.root / "pdf"
    start = time.perf_counter()
    try:
        pdfs = render_pdfs(read_spec(project.spec_path), project.root)
        written = write_files({folder / f"{lang}.pdf": data for lang, data in pdfs.items()})
    except PresidentError as exc:
        _fail(_problems_of(exc), "PDF sheets refused, none written")
    for path in written:
        _say(f"wrote {path}")
    _say(f"pdf: {len(pdfs)} sheets in {folder} in {time.perf_counter() - start:.2f}s")


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
        _fail(problems, "check failed")
    _say("check: no problems")
