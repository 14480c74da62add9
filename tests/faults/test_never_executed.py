"""Templates and catalogs never execute (issue 32): a spec title or a translation holding Jinja2 syntax
(`{{ ''.__class__ }}`, `{% include '/etc/passwd' %}`, `{#`) or Python format syntax (`{game.__class__}`,
`{version:99999999}`) is text in every output (txt, md, html, pdf, features); a Plural-Forms header
that is not a plain C expression of n is refused with its file and line, and never compiled.
In-process (the library's render calls), on a copy of the project; one build through the command line."""
from __future__ import annotations

import gettext
import io
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from markupsafe import escape

from i18n_support import edit_spec, plant

from president.i18n.catalogs import BuildError, translator_for
from president.i18n.features import translated_features
from president.i18n.plurals import MAX_CHARS, MAX_DEPTH, plural_problem
from president.i18n.render import _md_escape, render_all, render_sheet
from president.project.build import generate_features, read_spec

from .support import catalog_refusal, president

#: Jinja2 in every form it takes: an expression, a statement (include reads a file), a comment left
#: open, a raw block, a loop that would never end; and the Python format fields str.format obeys.
JINJA = ("{{ ''.__class__.__mro__ }} {{ 7*7 }} {% include '/etc/passwd' %} {% for x in range(9**9) %}x{% endfor %} "
         "{# open {%raw%} {{ config }}")
FORMAT = "{game.__class__} {version:99999999} {0} {section!r} {{ }} {lang}"
#: What an executed payload would leave: the class, the product, the file's first field.
EXECUTED = re.compile(r"<class |\b49\b|root:x:0:0|xxxxxxxxx")
RULES = Path("locales") / "ru" / "LC_MESSAGES" / "rules.po"
STEPS = Path("locales") / "ru" / "LC_MESSAGES" / "steps.po"


def _a_plain_translation(path: Path, sheet: str) -> tuple[str, str | None, str]:
    """(msgid, msgctxt, msgstr) of a translation without placeholders that the sheet shows whole."""
    catalog = read_po(io.BytesIO(path.read_bytes()))
    for msg in catalog:
        if (msg.id and isinstance(msg.id, str) and isinstance(msg.string, str) and len(msg.string) > 20
                and "%" not in msg.id and "{" not in msg.id and msg.string in sheet):
            return msg.id, msg.context, msg.string
    raise AssertionError(f"no plain translation of {path} in the sheet")


def _assert_inert(text: str, shown: str, where: str) -> None:
    assert shown in text, (where, shown)
    assert not EXECUTED.search(text.replace(shown, "")), (where, EXECUTED.findall(text))


@pytest.fixture
def planted(project) -> tuple[Path, str]:
    """The project with JINJA at the start of a Russian translation of the rule sheet."""
    sheet = (project / "rules" / "ru.txt").read_text(encoding="utf-8")
    msgid, ctx, msgstr = _a_plain_translation(project / RULES, sheet)
    plant(project / RULES, msgid, f"{JINJA} {msgstr}", ctx)
    return project, f"{JINJA} {msgstr}"


@pytest.mark.slow
def test_a_translation_holding_jinja_is_text_in_every_sheet(planted):
    root, text = planted
    spec = read_spec(root / "spec" / "president.yaml")
    out = render_all(spec, root, ("ru",))
    _assert_inert(out["rules/ru.txt"], text, "txt")
    _assert_inert(out["rules/ru.md"], _md_escape(text), "md")
    _assert_inert(out["rules/ru.html"], str(escape(text)), "html")


@pytest.mark.slow
def test_a_spec_title_holding_jinja_is_text_in_the_sheets_and_features(project):
    def titled(data) -> None:
        data["game"] = "{{ 7*7 }}{% include 'x' %}"
        data["sections"][0]["title"] = JINJA
        data["clauses"][0]["title"] = JINJA + " {0} {section!r} {version:99999999} {{ }}"
    edit_spec(project, titled)
    spec = read_spec(project / "spec" / "president.yaml")
    for fmt, shown in (("txt", JINJA), ("md", _md_escape(JINJA)), ("html", str(escape(JINJA)))):
        _assert_inert(render_sheet(spec, "en", fmt, project), shown, fmt)
    features = "\n".join(generate_features(spec).values())
    _assert_inert(features, JINJA + " {0} {section!r} {version:99999999} {{ }}", "features")


@pytest.mark.slow
def test_a_spec_title_naming_an_attribute_is_refused_not_looked_up(project):
    """A spec text's own references (`{players.max}`) are looked up in the spec's data only."""
    from president.errors import SpecError

    edit_spec(project, lambda data: data["clauses"][0].update(title="{game.__class__} {players.__init__}"))
    with pytest.raises(SpecError) as caught:
        read_spec(project / "spec" / "president.yaml")
    assert "{game.__class__} names no spec value" in str(caught.value) and "<class" not in str(caught.value)


def test_a_steps_translation_holding_format_fields_or_jinja_is_text_in_the_features(project):
    """The feature header is filled by name only: str.format would look attributes up and pad to any
    width (`{version:99999999}` cost 2 GB and a 100 MB feature)."""
    source = "Rule clauses of section {section} of {game}, {variant} variant {version},"
    plant(project / STEPS, source, f"{JINJA} {FORMAT} {{section}} {{game}}", "feature")
    spec = read_spec(project / "spec" / "president.yaml")
    files = translated_features(spec, project, ("ru",))
    text = "\n".join(files.values())
    assert max(len(line) for line in text.splitlines()) < 2000
    _assert_inert(text, f"{JINJA} {FORMAT} ", "features")
    game = translator_for(project, "ru").pgettext("game name", spec.game)
    sections = "|".join(s.id for s in spec.sections)
    assert re.search(rf"{re.escape(FORMAT)} (?:{sections}) {re.escape(game)}", text)  # its fields filled, by name


def test_a_step_phrase_holding_unknown_fields_keeps_them_as_text(project):
    catalog = read_po(io.BytesIO((project / STEPS).read_bytes()))
    msg = next(m for m in catalog if m.id and m.context and "{seat:d}" in str(m.id) and isinstance(m.string, str)
               and "{seat:d}" in m.string)
    plant(project / STEPS, msg.id, msg.string + " {nosuch} {seat.__class__} {{ 7*7 }}", msg.context)
    spec = read_spec(project / "spec" / "president.yaml")
    text = "\n".join(translated_features(spec, project, ("ru",)).values())
    assert "{nosuch} {seat.__class__} {{ 7*7 }}" in text and "<class" not in text


@pytest.mark.slow
def test_a_translation_holding_jinja_is_text_in_the_pdf(planted):
    pytest.importorskip("weasyprint")
    pytest.importorskip("pdfminer")
    from pdfminer.high_level import extract_text

    from president.i18n.pdf import render_pdfs

    root, _ = planted
    spec = read_spec(root / "spec" / "president.yaml")
    try:
        pdf = render_pdfs(spec, root, ("ru",))["ru"]
    except BuildError as exc:
        pytest.skip(f"no PDF here: {exc}")
    shown = re.sub(r"\s+", " ", extract_text(io.BytesIO(pdf)))
    for piece in ("''.__class__.__mro__", "{% include '/etc/passwd' %}", "{# open", "{{ 7*7 }}"):
        assert piece in shown, (piece, shown[:300])
    assert not EXECUTED.search(shown.replace("{{ 7*7 }}", ""))


@pytest.mark.slow
def test_build_writes_jinja_in_a_translation_as_text(planted):
    root, text = planted
    result = president(root, "build")
    assert result.returncode == 0, result.stderr
    _assert_inert((root / "rules" / "ru.txt").read_text(encoding="utf-8"), text, "txt")
    _assert_inert((root / "rules" / "ru.html").read_text(encoding="utf-8"), str(escape(text)), "html")


# --- Plural-Forms --------------------------------------------------------------------------------

HOSTILE_PLURALS = [
    ("nplurals=2; plural=__import__('os').system('touch {marker}');", "does not parse"),
    ("nplurals=2; plural=n.__class__;", "does not parse"),
    ("nplurals=2; plural=(lambda: 1)();", "does not parse"),
    ("nplurals=2; plural=n if n else 0;", "does not parse"),
    ("nplurals=2; plural=n ** 99999999;", "does not parse"),
    ("nplurals=2; plural=n << 1;", "does not parse"),
    ("nplurals=2; plural=n != 1 or 0;", "does not parse"),
    ("nplurals=2; plural=[n][0];", "does not parse"),
    ("nplurals=2; plural=n != 1 ? 1 : 0 ? ;", "does not parse"),
    ("nplurals=2; plural=999999999999 * n;", "does not parse"),
    ("nplurals=2; plural=n\x1b[2J;", "does not parse"),
    ("nplurals=2; plural=" + "(" * (MAX_DEPTH + 1) + "n != 1" + ")" * (MAX_DEPTH + 1) + ";", "nests deeper"),
    ("nplurals=2; plural=" + "!" * (MAX_DEPTH + 1) + "n;", "nests deeper"),
    ("nplurals=2; plural=" + "(n != 1) && " * (MAX_CHARS // 10) + "1;", "longer than"),
    ("nplurals=2; plural=" + "(" * 5000 + "n" + ")" * 5000 + ";", "longer than"),
    ("nplurals=2; plural=n / (n - n);", "divides by zero"),
    ("nplurals=2; plural=n + 2;", "picks form 2 for n = 0"),
    ("nplurals=0; plural=0;", "not between 1 and"),
    ("nplurals=2; plural=;", "does not parse"),
    ("plural=n != 1;", "not of the form"),
]


@pytest.mark.parametrize("header, why", HOSTILE_PLURALS, ids=lambda v: v[:30] if isinstance(v, str) else None)
def test_a_plural_expression_outside_the_grammar_is_refused_never_compiled(tmp_path, monkeypatch, header, why):
    marker = tmp_path / "executed"
    header = header.replace("{marker}", str(marker))
    compiled: list[str] = []
    real = gettext.c2py
    monkeypatch.setattr(gettext, "c2py", lambda expr: compiled.append(expr) or real(expr))
    found = plural_problem(header)
    assert found is not None and why in found, found
    assert not marker.exists()
    if why in ("does not parse", "nests deeper", "longer than", "not between 1 and", "not of the form"):
        assert compiled == []  # refused by the grammar, before gettext saw it
    assert "\x1b" not in found


def test_every_plural_rule_of_babel_is_read():
    from babel.messages.plurals import PLURALS

    refused = {lang: plural_problem(f"nplurals={n}; plural={expr};") for lang, (n, expr) in PLURALS.items()}
    assert {lang: why for lang, why in refused.items() if why} == {}


@pytest.mark.slow
@pytest.mark.parametrize("header, why", [HOSTILE_PLURALS[0], HOSTILE_PLURALS[11], HOSTILE_PLURALS[13]],
                         ids=["import", "nested", "long"])
@pytest.mark.parametrize("catalog", [RULES, STEPS], ids=["rules", "steps"])
def test_a_catalog_with_such_a_header_is_refused_at_its_line(project, tmp_path, catalog, header, why):
    marker = tmp_path / "executed"
    path = project / catalog
    text = path.read_text(encoding="utf-8")
    start = text.index('"Plural-Forms:')
    end = text.index('\\n"\n', start) + 4
    line = text[:start].count("\n") + 1
    forms = header.replace("{marker}", str(marker))
    path.write_text(text[:start] + f'"Plural-Forms: {forms}\\n"\n' + text[end:], encoding="utf-8")
    [problem] = [p for p in catalog_refusal(project, catalog).problems if p.message.startswith("Plural-Forms ")]
    assert problem.file.endswith(str(catalog)) and problem.line == line and why in problem.message, problem
    assert not marker.exists()
