"""`president build`: every generated file of a project, computed in memory, then written atomically.

Generated files: rules/<lang>.{txt,md,html} for every language, and features/* from the
conformance generator (`president.scenarios.gherkin.generate_features(spec)`) when it is available;
with --pseudo and --pdf, the pseudo-locale sheets and the PDFs too. Everything is staged together
and renamed into place once all of it is ready: an error or an interruption changes no file.
Staged files that an earlier build left (killed with SIGKILL) are removed first.
"""
from __future__ import annotations

import dataclasses
import hashlib
import importlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import jinja2

from ..atomic import StagingError, remove_stale, replace_all
from ..errors import Problem
from ..resources import project_root
from ..spec import Spec, decode_spec, parse_spec, read_spec_bytes
from ..i18n.catalogs import LANGS, BuildError, confined
from ..i18n.render import render_all

Progress = Callable[[str], None]
#: More files for the same build, computed from the spec: {target: bytes} (pseudo-locales, PDFs).
Extra = Callable[[Spec], dict[Path, bytes]]


def _quiet(_: str) -> None:
    pass


@dataclass(frozen=True)
class Project:
    """Where build and check read and write.

    Sheets go to `rules_dir` (<root>/rules, or the --out folder itself), features to
    `features_dir` (<root>/features, or <out>/features).
    """

    root: Path
    spec_path: Path
    rules_dir: Path
    features_dir: Path

    #: the --out folder given, if any: sheets and features stay inside it instead of the root
    out: Path | None = None

    @classmethod
    def resolve(cls, root: Path | None = None, spec: Path | None = None, out: Path | None = None) -> "Project":
        """The project at `root`; BuildError if its spec (unless given with --spec), rules/ or
        features/ lead out of it through a symlink."""
        base = project_root(root)
        spec_path = Path(spec).absolute() if spec else confined(base / "spec" / "president.yaml", base)
        if out is not None:
            out = Path(out).resolve()
            return cls(base, spec_path, out, confined(out / "features", out), out)
        return cls(base, spec_path, confined(base / "rules", base), confined(base / "features", base))

    def target(self, rel: str) -> Path:
        """The file a generated path ("rules/ru.txt", "features/x.feature") is written to;
        BuildError if it would lead out of the project (or of --out) through a symlink."""
        folder, _, rest = rel.partition("/")
        return confined((self.rules_dir if folder == "rules" else self.features_dir) / rest, self.out or self.root)


_SPECS: dict[bytes, Spec] = {}


def read_spec(path: Path) -> Spec:
    """load_spec, parsed once per distinct content in this process (the YAML is large)."""
    data = read_spec_bytes(path)  # a regular file within the size limit, else SpecError
    key = hashlib.sha256(data).digest()
    if key not in _SPECS:
        if len(_SPECS) > 16:
            _SPECS.clear()
        _SPECS[key] = parse_spec(decode_spec(data, str(path)), str(path))
    return dataclasses.replace(_SPECS[key], path=str(path))


def features_generator() -> Callable[[Spec], dict[str, str]] | None:
    """`president.scenarios.gherkin.generate_features` if the conformance package provides it yet."""
    try:
        mod = importlib.import_module("president.scenarios.gherkin")
    except ImportError:
        return None
    gen = getattr(mod, "generate_features", None)
    return gen if callable(gen) else None


def generate_features(spec: Spec) -> dict[str, str]:
    """{"features/<path>": text}; empty when no generator is installed."""
    gen = features_generator()
    if gen is None:
        return {}
    try:
        files = gen(spec)
    except BuildError:
        raise
    except Exception as exc:  # the generator belongs to another area: report, do not crash
        raise BuildError([Problem("president/scenarios/gherkin.py", None, "",
                                  f"the features generator failed: {type(exc).__name__}: {exc}",
                                  "fix generate_features(spec)")]) from None
    return {f"features/{Path(rel).as_posix()}": text for rel, text in sorted(files.items())}


def generated_files(project: Project, spec: Spec | None = None, langs: tuple[str, ...] = LANGS) -> dict[str, bytes]:
    """Every generated file, relative to the output root -> exact bytes. Raises BuildError."""
    spec = spec or read_spec(project.spec_path)
    try:
        files = {path: text.encode("utf-8") for path, text in render_all(spec, project.root, langs).items()}
        files.update({path: text.encode("utf-8") for path, text in generate_features(spec).items()})
        if features_generator() is not None:  # the same scenarios in every language, through the steps catalogs
            from ..i18n.features import translated_features
            files.update({path: text.encode("utf-8") for path, text in
                          translated_features(spec, project.root, tuple(lg for lg in langs if lg != "en")).items()})
    except jinja2.TemplateError as exc:
        raise BuildError([template_problem(exc)]) from None
    return dict(sorted(files.items()))


def template_problem(exc: Exception) -> Problem:
    """A missing or broken Jinja2 template as one problem with its file and line."""
    from ..i18n.render import TEMPLATES_DIR
    if isinstance(exc, jinja2.TemplateNotFound):
        return Problem(str(TEMPLATES_DIR / str(exc.name)), None, "", "the template is missing",
                       "reinstall president, or restore the file")
    name = getattr(exc, "filename", None) or getattr(exc, "name", None) or str(TEMPLATES_DIR)
    return Problem(str(name), getattr(exc, "lineno", None), "", f"broken template: {getattr(exc, 'message', exc)}",
                   "fix the template")


def _unchanged(path: Path, data: bytes) -> bool:
    """The regular file at `path` holds `data` already (a device or a FIFO is never read)."""
    from ..resources import read_regular
    try:
        return read_regular(path, len(data)) == data
    except OSError:
        return False


def _write_error(exc: StagingError, size: int) -> BuildError:
    path, error = exc.path, exc.error
    reason = error.strerror or str(error)
    blocker = next((d for d in path.parents if d.exists() and not d.is_dir()), None)
    if blocker is not None:
        reason = f"{blocker} is a file, not a folder"
    elif isinstance(error.filename, str) and not Path(error.filename).name.endswith(".tmp") and Path(error.filename) != path:
        reason = f"{error.filename}: {reason}"
    return BuildError([Problem(str(path), None, "", f"cannot write: {reason}",
                               exc.what_to_do(size, "make the folder writable, or choose another output folder"))])


def write_files(files: dict[Path, bytes]) -> list[Path]:
    """Write every changed file or none (`president.atomic.replace_all`), making the folders they
    need. On any failure the staged files and the folders made for them are removed, nothing else
    has changed, and BuildError names the path and the reason.
    Returns the paths written (unchanged files are not touched)."""
    changed = {path: data for path, data in files.items() if not _unchanged(path, data)}
    made: list[Path] = []
    try:
        for path in changed:
            missing = [d for d in (path.parent, *path.parent.parents) if not d.exists()]
            for folder in reversed(missing):
                try:
                    folder.mkdir()
                except OSError as exc:
                    raise StagingError(path, exc) from None
                made.append(folder)
        replace_all(changed)
    except StagingError as exc:
        for folder in reversed(made):
            try:
                folder.rmdir()
            except OSError:
                pass
        raise _write_error(exc, sum(map(len, changed.values()))) from None
    return list(changed)


@dataclass
class BuildResult:
    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)  # stale staged files of an earlier build
    seconds: float = 0.0
    features: bool = False


def remove_stale_staged(targets: list[Path]) -> list[Path]:
    """Remove what an interrupted write of `targets` left beside them (`.NAME.XXXXXXXX.tmp`)."""
    folders: dict[Path, set[str]] = {}
    for path in targets:
        folders.setdefault(path.parent, set()).add(path.name)
    return [stale for folder, names in folders.items() for stale in remove_stale(folder, names)]


def build_project(project: Project, progress: Progress = _quiet, extras: tuple[Extra, ...] = ()) -> BuildResult:
    """Render everything first (refusing on any problem), then write every changed file or none:
    the generated files and those of `extras`, staged together and renamed once all are ready."""
    start = time.perf_counter()
    spec = read_spec(project.spec_path)
    progress(f"spec {project.spec_path} ({spec.id} {spec.version})")
    files = {project.target(rel): data for rel, data in generated_files(project, spec).items()}
    result = BuildResult(features=features_generator() is not None)
    if not result.features:
        progress("features: generator not available (president.scenarios.gherkin.generate_features); skipped")
    for extra in extras:
        files.update(extra(spec))
    result.removed = remove_stale_staged(list(files))
    written = set(write_files(files))
    for path in files:
        (result.written if path in written else result.unchanged).append(path)
    result.seconds = time.perf_counter() - start
    return result
