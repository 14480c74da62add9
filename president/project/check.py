"""`president check`: every problem of the project at once, each with its file and line.

The checks are plain functions `check(ctx: CheckContext) -> list[Problem]` kept in `CHECKS`.
To add one (for example clause coverage from the conformance side)::

    from president.project.check import CheckContext, register_check

    @register_check
    def check_coverage(ctx: CheckContext) -> list[Problem]:
        if ctx.spec is None:          # the spec is invalid: check_spec reports it
            return []
        return [Problem(...), ...]

`run_checks(project)` runs them all in order; a check that crashes is reported as a
problem of its own rather than hiding the others. Make sure the module defining the check
is imported before `run_checks` runs: `president/project/__init__.py` imports every check module.
"""
from __future__ import annotations

import dataclasses

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from babel.messages.catalog import Catalog, Message
from jinja2 import nodes

from ..errors import Problem, SpecError
from ..spec import Spec
from .build import Project, features_generator, generated_files, read_spec
from ..i18n.catalogs import (CATALOG_LANGS, DOMAIN, PLURAL_FORMS, BuildError, Key, load_catalog, message_key,
                       outside_problem, parse_plural_forms, plural_function, po_path, pot_path,
                       raw_plural_forms, read_catalog_bytes)
from ..i18n.extract import extract_template, serialize
from ..scenarios.coverage import check_coverage
from ..i18n.render import NUMBER_WORDS, TEMPLATES_DIR, environment


@dataclass
class CheckContext:
    project: Project
    spec: Spec | None = None
    spec_error: SpecError | None = None
    _template: Catalog | None = field(default=None, repr=False)
    #: domain -> (catalogs, problems), read once per run: the checks only read them
    _catalogs: dict[str, tuple[dict[str, Catalog], list[Problem]]] = field(default_factory=dict, repr=False)

    def rel(self, path: Path | str) -> str:
        p = Path(path)
        for base in (self.project.root, self.project.root.resolve()):
            try:
                return p.relative_to(base).as_posix()
            except ValueError:
                pass
        try:
            return p.resolve().relative_to(self.project.root.resolve()).as_posix()
        except ValueError:
            return str(path)

    def spec_location(self, file: str) -> str:
        """A template's `#:` file as the checked spec is named: the templates reference the spec as
        spec/president.yaml wherever it is, so a spec given elsewhere (--spec) is named itself."""
        canonical = self.project.root / "spec" / "president.yaml"
        if file != "spec/president.yaml" or self.project.spec_path.resolve() == canonical.resolve():
            return file
        return self.rel(self.project.spec_path)

    def template(self) -> Catalog | None:
        """The message template extracted now from the templates and the spec (None if invalid)."""
        if self._template is None and self.spec is not None:
            self._template = extract_template(self.project.root, self.project.spec_path, self.spec)
        return self._template


Check = Callable[[CheckContext], list[Problem]]
CHECKS: list[Check] = []


def register_check(fn: Check) -> Check:
    """Add `fn` to the checks `president check` runs (usable as a decorator)."""
    if fn not in CHECKS:
        CHECKS.append(fn)
    return fn


def run_checks(project: Project, checks: list[Check] | None = None) -> list[Problem]:
    ctx = CheckContext(project)
    try:
        ctx.spec = read_spec(project.spec_path)
    except SpecError as exc:
        ctx.spec, ctx.spec_error = None, exc
    problems: list[Problem] = []
    for check in checks if checks is not None else CHECKS:
        try:
            problems.extend(check(ctx))
        except BuildError as exc:
            problems.extend(exc.problems)
        except Exception as exc:  # a broken check must not hide the others
            problems.append(Problem(check.__module__, None, "", f"check {check.__name__} crashed: "
                                    f"{type(exc).__name__}: {exc}", "fix the check"))
    unique: dict[Problem, None] = {}  # one problem found by several checks is listed once
    for p in problems:
        unique.setdefault(Problem(ctx.rel(p.file) if p.file.startswith("/") else p.file, *dataclasses.astuple(p)[1:]))
    return list(unique)


# --- the spec -------------------------------------------------------------------------------

@register_check
def check_spec(ctx: CheckContext) -> list[Problem]:
    """The spec loads and validates (schema and cross references)."""
    if ctx.spec_error is None:
        return []
    return [Problem(ctx.rel(p.file), p.line, p.path, p.message, p.hint) for p in ctx.spec_error.problems]


# --- catalogs -------------------------------------------------------------------------------

def _catalogs(ctx: CheckContext, domain: str = DOMAIN) -> tuple[dict[str, Catalog], list[Problem]]:
    """Every language's catalog of `domain` (read once per check run) and the problems of reading them."""
    if domain not in ctx._catalogs:
        ctx._catalogs[domain] = _read_catalogs(ctx, domain)
    cats, problems = ctx._catalogs[domain]
    return dict(cats), list(problems)


def _read_catalogs(ctx: CheckContext, domain: str) -> tuple[dict[str, Catalog], list[Problem]]:
    cats: dict[str, Catalog] = {}
    problems: list[Problem] = []
    for lang in CATALOG_LANGS:
        try:
            cats[lang] = load_catalog(po_path(ctx.project.root, lang, domain), lang, formats=False)
        except BuildError as exc:
            problems.extend(Problem(ctx.rel(p.file), p.line, p.path, p.message, p.hint) for p in exc.problems)
    return cats, problems


def _key_text(key: Key) -> str:
    return f"{key[1]!r}" + (f" (msgctxt {key[0]!r})" if key[0] else "")


def _translated(msg: Message) -> bool:
    return all(msg.string) if isinstance(msg.string, (list, tuple)) else bool(msg.string)


@register_check
def check_template_syntax(ctx: CheckContext) -> list[Problem]:
    """The message templates (locales/*.pot) read strictly, as `msgfmt --check` would."""
    from ..i18n.strict import po_problems
    from ..resources import escape_of
    out = []
    for pot in sorted((ctx.project.root / "locales").glob("*.pot")):
        escape = escape_of(pot, ctx.project.root)
        if escape is not None:
            out.append(outside_problem(*escape))
            continue
        try:
            data = read_catalog_bytes(pot)
        except OSError as exc:
            out.append(Problem(ctx.rel(pot), None, "", f"cannot read the template: {exc.strerror or exc}",
                               "make it a regular, readable file: `president i18n update` writes it"))
            continue
        out += [Problem(ctx.rel(p.file), p.line, p.path, p.message, p.hint) for p in po_problems(pot, data)]
    return out


@register_check
def check_catalogs(ctx: CheckContext) -> list[Problem]:
    """Plural-Forms written explicitly; no message missing, untranslated, fuzzy or obsolete."""
    return catalog_problems(ctx, DOMAIN, ctx.template())


def catalog_problems(ctx: CheckContext, domain: str, template: Catalog | None) -> list[Problem]:
    """check_catalogs for the catalogs of any domain against its message template."""
    cats, problems = _catalogs(ctx, domain)
    wanted = {message_key(m): m for m in template if m.id} if template is not None else None
    for lang, cat in cats.items():
        path = po_path(ctx.project.root, lang, domain)
        file = ctx.rel(path)
        header = raw_plural_forms(path)
        if header is None:
            problems.append(Problem(file, 1, "", "no explicit Plural-Forms header",
                                    f'write "Plural-Forms: {PLURAL_FORMS[lang]}"'))
        elif not same_plural_rule(header, PLURAL_FORMS[lang]):
            problems.append(Problem(file, _header_line(path, "Plural-Forms"), "", f"Plural-Forms is {header!r}",
                                    f"write {PLURAL_FORMS[lang]!r} (Babel's data for {lang!r}), "
                                    "or run `president i18n update`, which writes it"))
        have = {message_key(m): m for m in cat if m.id}
        unused: dict[Key, Message] = {}
        for key, msg in have.items():
            if msg.fuzzy:
                problems.append(Problem(file, msg.lineno, "", f"{lang}: fuzzy translation of {_key_text(key)}",
                                        "review it and remove the fuzzy flag"))
            elif not _translated(msg):
                problems.append(Problem(file, msg.lineno, "", f"{lang}: untranslated {_key_text(key)}",
                                        "write the msgstr"))
            if wanted is not None and key not in wanted:
                unused[key] = msg
        # obsolete `#~` entries are kept on purpose: `i18n update` brings them back when a revert
        # needs them again, and nothing renders them, so they are not problems.
        missing = [(k, m) for k, m in wanted.items() if k not in have] if wanted is not None else []
        problems.extend(_changed_messages(file, lang, unused, missing, ctx.spec_location))
    return problems


def _changed_messages(file: str, lang: str, unused: dict[Key, Message], missing: list[tuple[Key, Message]],
                      located: Callable[[str], str] = lambda f: f) -> list[Problem]:
    """One problem per change: a message the templates or the spec no longer use and the one
    that replaces it (same msgctxt) are reported together, at the old message's line."""
    out = []
    by_context: dict[str | None, list[Key]] = {}
    for key in unused:
        by_context.setdefault(key[0], []).append(key)
    update = "run `president i18n update`"
    for key, msg in missing:
        where = ", ".join(f"{located(f)}:{n}" for f, n in msg.locations) or "; ".join(msg.auto_comments)
        olds = by_context.get(key[0], [])
        if key[0] is not None and len(olds) == 1 and sum(k[0] == key[0] for k, _ in missing) == 1:
            old = unused.pop(olds[0])
            out.append(Problem(file, old.lineno, "", f"{lang}: {_key_text(olds[0])} is no longer used; "
                               f"{key[1]!r} replaces it (used at {where})",
                               f"{update} (it keeps the old message as #~ and offers its translation "
                               "as a fuzzy guess), then translate the new one"))
        elif msg.locations:  # not in the catalog yet: reported where the message comes from
            src, line = msg.locations[0]
            out.append(Problem(located(src), line, "", f"{lang}: {file} lacks the message {_key_text(key)} used here",
                               f"{update}, then translate it"))
        else:
            out.append(Problem(file, None, "", f"{lang}: missing message {_key_text(key)} ({where})",
                               f"{update}, then translate it"))
    for key, msg in unused.items():
        out.append(Problem(file, msg.lineno, "", f"{lang}: obsolete message {_key_text(key)}",
                           f"no template or spec uses it: {update} (it keeps it as #~)"))
    return out


def _header_line(path: Path, field: str) -> int:
    """The line of a header field in a catalog (1 if not found)."""
    try:
        for n, line in enumerate(read_catalog_bytes(path).decode("utf-8").splitlines(), 1):
            if line.startswith(f'"{field}:'):
                return n
    except (OSError, UnicodeDecodeError):
        pass
    return 1


def same_plural_rule(header: str, expected: str, upto: int = 1000) -> bool:
    """Same number of forms and the same form for every n in 0..upto (spelling may differ)."""
    try:
        (n1, _), (n2, _) = parse_plural_forms(header), parse_plural_forms(expected)
        f1, f2 = plural_function(header), plural_function(expected)
        return n1 == n2 and all(f1(n) == f2(n) for n in range(upto + 1))
    except (ValueError, SyntaxError):
        return False


_PLACEHOLDER = re.compile(r"%\(([A-Za-z_][A-Za-z0-9_]*)\)[sdif]")
_NUMBER = re.compile(r"\d+")  # \d matches every script's decimal digits
_WORD_VALUES = {w: i for i, w in enumerate(NUMBER_WORDS)}


@dataclass(frozen=True)
class PlaceholderStyle:
    """How a domain writes placeholders: `%(name)s` in rules, `{name:Type}` in steps."""

    pattern: re.Pattern[str]  # group 1: what must match between source and translation
    show: Callable[[str], str]
    valid: Callable[[str, set[str]], None]  # raises ValueError, TypeError or KeyError if malformed


def _percent_valid(form: str, got: set[str]) -> None:
    form % {p: 1 for p in got | {"num"}}


def _brace_valid(form: str, got: set[str]) -> None:
    bare = re.sub(r"\{\w+(?::\w+)?\}", "", form)
    if "{" in bare or "}" in bare:
        raise ValueError("a brace outside a {field:Type} placeholder")


PERCENT = PlaceholderStyle(_PLACEHOLDER, lambda p: f"%({p})s", _percent_valid)
BRACES = PlaceholderStyle(re.compile(r"\{(\w+(?::\w+)?)\}"), lambda p: f"{{{p}}}", _brace_valid)


def _numbers(text: str, words: bool, placeholder: re.Pattern[str] = _PLACEHOLDER) -> list[int]:
    """Numbers written in `text` outside placeholders; native digits count as the same number."""
    bare = placeholder.sub(" ", text)
    found = [int("".join(str(unicodedata.decimal(c)) for c in m.group(0))) for m in _NUMBER.finditer(bare)]
    if words:
        found += [_WORD_VALUES[w] for w in re.findall(r"[a-z]+", bare.lower()) if w in _WORD_VALUES]
    return found


#: The placeholders that hold the number picking the plural form (context.PLACEHOLDER_NOTES: `num`
#: is ngettext's count; `n` and `max` are passed as the count by every ngettext call that takes them).
COUNT_PLACEHOLDERS = frozenset({"num", "n", "max"})


def _single_valued_forms(header: str) -> set[int]:
    """Plural form indexes used by exactly one n (e.g. ar 0, 1, 2): they may spell out any
    placeholder holding that number (COUNT_PLACEHOLDERS), `ورقتين` for `%(max)s ورقة`."""
    fn = plural_function(header)
    counts: dict[int, int] = {}
    for n in range(1000):
        counts[fn(n)] = counts.get(fn(n), 0) + 1
    return {idx for idx, c in counts.items() if c == 1}


def number_words(path: Path) -> dict[int, tuple[str, ...]]:
    """The number words a catalog declares in its header comment, for the number check:
    `# number-words: 1 = واحد واحدة; 2 = اثنان اثنتان` (a translator comment: the tools keep it)."""
    out: dict[int, tuple[str, ...]] = {}
    try:
        lines = read_catalog_bytes(path).decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return out
    for line in lines:
        if line.startswith("msgid "):
            break
        m = re.match(r"#\s*number-words:\s*(.*)$", line)
        for entry in (m.group(1).split(";") if m else []):
            number, _, words = entry.partition("=")
            if number.strip().isdigit() and words.split():
                out[int(number)] = tuple(words.split())
    return out


def translation_problems(msgid: str | tuple[str, ...] | list[str], string: str | tuple[str, ...] | list[str] | None,
                         plural_header: str, style: PlaceholderStyle = PERCENT,
                         words: dict[int, tuple[str, ...]] | None = None) -> list[str]:
    """What is wrong with one translation: placeholders or numbers missing or extra, bad format.

    `words`: the number words the catalog declares; a number of the source may be written so."""
    sources = list(msgid) if isinstance(msgid, (list, tuple)) else [msgid]
    forms = list(string) if isinstance(string, (list, tuple)) else [string]
    want = {p for s in sources for p in style.pattern.findall(s)}
    numbers = {n for s in sources for n in _numbers(s, True, style.pattern)}
    digits = {n for s in sources for n in _numbers(s, False, style.pattern)}
    lenient = _single_valued_forms(plural_header) if isinstance(msgid, (list, tuple)) else set()
    out = []
    for idx, form in enumerate(forms):
        if not form:
            continue
        label = f"msgstr[{idx}]" if isinstance(string, (list, tuple)) else "msgstr"
        got = set(style.pattern.findall(form))
        # a form used for exactly one number may spell out the placeholder holding it (the Arabic dual:
        # من %(min)s إلى ورقتين); the build also refuses it if that placeholder's value is not the number
        missing = want - got - (COUNT_PLACEHOLDERS if idx in lenient else set())
        if missing:
            out.append(f"{label} lacks placeholder(s) {', '.join(style.show(p) for p in sorted(missing))}")
        if got - want:
            out.append(f"{label} has placeholder(s) the source lacks: "
                       f"{', '.join(style.show(p) for p in sorted(got - want))}")
        found = _numbers(form, False, style.pattern)
        extra = sorted(set(found) - numbers)
        if extra:
            out.append(f"{label} has number(s) the source lacks: {', '.join(map(str, extra))}")
        spelled = {n for n, ws in (words or {}).items() if any(w in form for w in ws)}
        lost = sorted(digits - set(found) - spelled)
        if lost:
            out.append(f"{label} lacks number(s) {', '.join(map(str, lost))}")
        try:
            style.valid(form, got)
        except (ValueError, TypeError, KeyError) as exc:
            out.append(f"{label} is not a valid format string: {exc}")
    return out


@register_check
def check_placeholders(ctx: CheckContext) -> list[Problem]:
    """Each translation keeps the source's placeholders and numbers, and adds none."""
    return placeholder_problems(ctx, DOMAIN, PERCENT)


def placeholder_problems(ctx: CheckContext, domain: str, style: PlaceholderStyle) -> list[Problem]:
    """check_placeholders for the catalogs of any domain."""
    cats, _ = _catalogs(ctx, domain)  # parse problems are reported by the catalog check
    problems = []
    for lang, cat in cats.items():
        path = po_path(ctx.project.root, lang, domain)
        header = raw_plural_forms(path) or PLURAL_FORMS[lang]
        declared = number_words(path)
        for msg in cat:
            if not msg.id or msg.fuzzy or not _translated(msg):  # a fuzzy guess is reported as fuzzy
                continue
            for what in translation_problems(msg.id, msg.string, header, style, declared):
                problems.append(Problem(ctx.rel(path), msg.lineno, "", f"{lang}: {_key_text(message_key(msg))}: {what}",
                                        _number_hint(what)))
    return problems


_LOST_NUMBERS = re.compile(r"lacks number\(s\) ([\d, ]+)")


def _number_hint(what: str) -> str:
    """What to do about one translation problem: a number written in words (ru `тройки треф` for
    "the 3 of clubs") passes once the catalog declares the words in its header comment."""
    lost = _LOST_NUMBERS.search(what)
    if lost is None:
        return "placeholders and numbers come from the spec; never type them in"
    numbers = [n.strip() for n in lost.group(1).split(",") if n.strip()]
    example = "; ".join(f"{n} = <the words you wrote for {n}>" for n in numbers)
    return (f"keep the number; if you wrote it in words, declare them in the catalog's header comment, before "
            f"the first msgid: `# number-words: {example}` (docs/i18n.md)")


# --- templates ------------------------------------------------------------------------------

_CLAUSE_ID = re.compile(r"^[a-z]+(\.[a-z0-9]+(-[a-z0-9]+)*)+$")


def template_clause_ids() -> list[tuple[str, int, str]]:
    """(template, line, clause id) for every clause id named in the templates."""
    env = environment()
    out = []
    for path in sorted(TEMPLATES_DIR.glob("*.j2")):
        ast = env.parse(path.read_text(encoding="utf-8"))
        for const in ast.find_all(nodes.Const):
            if isinstance(const.value, str) and _CLAUSE_ID.match(const.value):
                out.append((path.name, const.lineno, const.value))
    return out


@register_check
def check_template_clauses(ctx: CheckContext) -> list[Problem]:
    """Every clause id the templates attach to a rule line exists in the spec."""
    if ctx.spec is None:
        return []
    known = set(ctx.spec.clause_ids)
    return [Problem(f"president/templates/{name}", line, "", f"unknown clause id {cid!r}",
                    "use a clause id declared in the spec, or declare it")
            for name, line, cid in template_clause_ids() if cid not in known]


# --- drift ----------------------------------------------------------------------------------

def _first_difference(old: bytes, new: bytes) -> int:
    a, b = old.decode("utf-8", "replace").split("\n"), new.decode("utf-8", "replace").split("\n")
    for i, (x, y) in enumerate(zip(a, b), 1):
        if x != y:
            return i
    return min(len(a), len(b)) + 1


@register_check
def check_drift(ctx: CheckContext) -> list[Problem]:
    """rules/, features/ and locales/rules.pot equal what `build` / `i18n extract` write now."""
    if ctx.spec is None:
        return []
    problems: list[Problem] = []
    hint = "run `president build` and commit the result"
    try:
        expected = generated_files(ctx.project, ctx.spec)
    except BuildError as exc:
        # a missing translation is the catalog check's problem (reported there once, with its
        # line); the sheets cannot be compared until the catalogs are complete
        problems.extend(p for p in exc.problems if ": no translation for " not in p.message)
        expected = None
    pot = pot_path(ctx.project.root)
    expected_pot = serialize(ctx.template())  # type: ignore[arg-type]
    targets = []
    for rel, data in (expected or {}).items():
        try:
            targets.append((ctx.project.target(rel), data, hint))
        except BuildError as exc:  # a symlink out of the project: named, never read
            problems.extend(exc.problems)
    targets.append((pot, expected_pot, "run `president i18n update` and commit the result"))
    from ..i18n.render import MAX_SHEET_BYTES
    from ..resources import read_regular
    for path, data, fix in targets:
        try:
            old = read_regular(path, max(MAX_SHEET_BYTES, len(data)))
        except FileNotFoundError:
            problems.append(Problem(ctx.rel(path), None, "", "generated file is missing", fix))
            continue
        except OSError as exc:
            problems.append(Problem(ctx.rel(path), None, "", f"cannot read: {exc.strerror or exc}",
                                    "delete it; `president build` writes a regular file"))
            continue
        if old != data:
            problems.append(Problem(ctx.rel(path), _first_difference(old, data), "",
                                    "differs from what would be generated now (drift)", fix))
    if expected is None:
        return problems
    dirs: list[tuple[str, Path, tuple[str, ...]]] = [("rules", ctx.project.rules_dir, ("*.txt", "*.md", "*.html"))]
    if features_generator():
        dirs.append(("features", ctx.project.features_dir, ("*.feature",)))
    for name, folder, patterns in dirs:
        for path in sorted(p for pattern in patterns for p in folder.rglob(pattern)):
            rel = f"{name}/{path.relative_to(folder).as_posix()}"
            if rel not in expected:
                problems.append(Problem(ctx.rel(path), None, "", "stale generated file: build no longer writes it",
                                        "delete it"))
    return problems


@register_check
def check_leftovers(ctx: CheckContext) -> list[Problem]:
    """No staged file (`.NAME.XXXXXXXX.tmp`) that an interrupted write (SIGKILL) left behind."""
    from ..atomic import stale_staged
    root = ctx.project.root
    built = [ctx.project.rules_dir, ctx.project.features_dir, root / "pseudo", root / "pdf"]
    found: dict[Path, str] = {}
    for folder in [*built, root / "locales", root / "spec"]:
        fix = "run `president build` (it removes them), or delete it" if folder in built else "delete it"
        for path in stale_staged(folder, recursive=True):
            found.setdefault(path, fix)
    return [Problem(ctx.rel(path), None, "", "a staged file left by an interrupted write", fix)
            for path, fix in found.items()]


# Conformance: every testable clause has a scenario, every scenario tag names a clause.
register_check(check_coverage)
