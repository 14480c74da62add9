"""Catalogs under the translators' own tools: review marks survive `pybabel update` and
`msgmerge -U` (as they do Poedit and Weblate, which merge the same way), and `msgfmt --check`
accepts every catalog and template. Skips cleanly when a tool is absent."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from president.i18n.catalogs import CATALOG_LANGS, load_catalog, po_path, pot_path
from president.i18n.steps_catalog import is_unreviewed

from i18n_support import copy_project

DOMAINS = ("rules", "steps")


def marks(root: Path) -> dict[tuple[str, str], int]:
    """Review marks per (domain, lang), as `president i18n stats` counts them."""
    return {(d, lang): sum(1 for m in load_catalog(po_path(root, lang, d), lang) if m.id and is_unreviewed(m))
            for d in DOMAINS for lang in CATALOG_LANGS}


def _pybabel() -> list[str] | None:
    try:
        import babel.messages.frontend  # noqa: F401
    except ImportError:
        return None
    return [sys.executable, "-m", "babel.messages.frontend"]


@pytest.mark.slow
def test_marks_survive_pybabel_update(tmp_path):
    cmd = _pybabel()
    if cmd is None:
        pytest.skip("Babel's command line is not importable")
    root = copy_project(tmp_path)
    before = marks(root)
    assert before[("steps", "ru")] > 0 and before[("rules", "ar")] > 0
    for domain in DOMAINS:
        subprocess.run([*cmd, "-q", "update", "-i", str(pot_path(root, domain)), "-d", str(root / "locales"),
                        "-D", domain], check=True, capture_output=True)
    assert marks(root) == before


@pytest.mark.skipif(shutil.which("msgmerge") is None, reason="gettext's msgmerge is not installed")
def test_marks_survive_msgmerge(tmp_path):
    root = copy_project(tmp_path)
    before = marks(root)
    for domain in DOMAINS:
        for lang in CATALOG_LANGS:
            subprocess.run(["msgmerge", "-q", "-U", "--backup=off", str(po_path(root, lang, domain)),
                            str(pot_path(root, domain))], check=True, capture_output=True)
    assert marks(root) == before


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed")
def test_msgfmt_check_is_clean(tmp_path):
    from i18n_support import ROOT
    files = [pot_path(ROOT, d) for d in DOMAINS] + [po_path(ROOT, lang, d) for d in DOMAINS for lang in CATALOG_LANGS]
    for f in files:
        done = subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "out.mo"), str(f)],
                              capture_output=True, text=True)
        assert done.returncode == 0 and not done.stderr.strip(), f"{f}: {done.stderr}"


# --- our writer is gettext's: msgmerge and msgcat change nothing ---------------------------

def _files(root: Path) -> dict[Path, bytes]:
    return {p.relative_to(root): p.read_bytes() for p in sorted((root / "locales").rglob("*.po*"))}


@pytest.mark.skipif(shutil.which("msgmerge") is None, reason="gettext's msgmerge is not installed")
def test_msgmerge_changes_nothing(tmp_path):
    """`msgmerge --previous -U` (the command docs/i18n.md gives) on every committed catalog: not
    one byte changes, header included."""
    root = copy_project(tmp_path)
    before = _files(root)
    for domain in DOMAINS:
        for lang in CATALOG_LANGS:
            subprocess.run(["msgmerge", "-q", "--previous", "-U", "--backup=off", str(po_path(root, lang, domain)),
                            str(pot_path(root, domain))], check=True, capture_output=True)
    after = _files(root)
    assert [p for p in before if before[p] != after[p]] == []


def _tricky_catalog():
    from babel.messages.catalog import Catalog
    from president.i18n.extract import new_catalog
    cat: Catalog = new_catalog("ar")
    cat.header_comment = "# a header comment"
    long_word = "x" * 100
    samples = [
        "short",
        "A sentence that is long enough to be wrapped by gettext at seventy-nine columns, with a-hyphen/slash.",
        'quotes "inside" and a back\\slash and a tab\there, then a line\nand another line\n',
        "ends with a newline that must not be separated from the text before it, even at the very end\n",
        f"a word longer than a line: {long_word} and after",
        "isolated \u20663\u2663\u2069 card, \u2066V < D < R\u2069, in Arabic: يبدأ المقعد 0 الجولة الأولى ويختار رتبته بحرية؛ ولا تُشترط الورقة الأدنى ويوزَّع كأي ورقة",
        "Devanagari: पहला खिलाड़ी पहला राउंड शुरू करता है और अपनी रैंक स्वतंत्र रूप से चुनता है। फिर बारी आती है।",
        "Armenian: Առաջին նստատեղը սկսում է առաջին խաղարկությունը և ազատ ընտրում է իր ռանգը։ Հետո՝ մյուսները",
        "percent %(card)s, braces {cards:Cards} and (parentheses) — dashes – and … ellipsis « quotes » end.",
    ]
    for i, text in enumerate(samples):
        cat.add(text, string=text[::-1] if i % 2 else text.upper(), context="ctx" if i % 3 == 0 else None,
                auto_comments=[f"note {i}"], user_comments=["unreviewed"] if i % 2 else [],
                locations=[(f"president/templates/{'very-long-file-name-' * (i % 3)}sheet.j2", 10 * k + i)
                           for k in range(1, 2 + i)],
                flags=["python-format"] if "%(" in text else [])
    cat.add(("one card of %(num)s", "%(num)s cards, with a plural long enough to need wrapping, surely at 79 columns"),
            string=("a", "b", "c", "d", "e", "f" * 90), locations=[("spec/president.yaml", 3)], flags=["python-format"])
    fuzzy = cat.add("a changed message", string="رسالة", flags=["fuzzy"])
    fuzzy.previous_id = ["the message as it was before the source changed, long enough to wrap over two lines"]
    cat.obsolete["gone"] = type(fuzzy)("gone", string="ذهب " * 30, user_comments=["unreviewed"])
    return cat


@pytest.mark.skipif(shutil.which("msgcat") is None, reason="gettext's msgcat is not installed")
def test_writer_writes_what_msgcat_writes(tmp_path):
    """Escapes, a final \\n, words longer than a line, marks of width 0, bidi isolates, plurals,
    long references, a previous msgid and an obsolete entry: msgcat rewrites none of it."""
    from president.i18n.pofile import po_bytes
    data = po_bytes(_tricky_catalog())
    src = tmp_path / "tricky.po"
    src.write_bytes(data)
    out = tmp_path / "out.po"
    subprocess.run(["msgcat", "-o", str(out), str(src)], check=True, capture_output=True)
    assert out.read_bytes().decode() == data.decode()
    assert b'#| msgid ""\n#| "the message as it was' in data  # the previous msgid is there, wrapped
    assert "x" * 100 in data.decode()  # a long word stays whole


def test_fuzzy_update_writes_the_previous_msgid(tmp_path):
    """`president i18n update` merging a changed message writes `#| msgid` above the fuzzy entry,
    as msgmerge --previous does, so Poedit and Weblate show what changed."""
    from president.i18n.extract import merge_template, new_catalog, serialize
    from babel.messages.catalog import Catalog
    old = new_catalog("ru")
    old.add("The deal ends when all players but one have finished.", string="Раунд заканчивается.")
    template = Catalog(locale="en")
    template.add("The deal ends when all players but one have gone out.")
    merge_template(old, template)
    text = serialize(old).decode()
    assert ('#, fuzzy\n#| msgid "The deal ends when all players but one have finished."\n'
            'msgid "The deal ends when all players but one have gone out."\nmsgstr "Раунд заканчивается."') in text
    if shutil.which("msgmerge"):
        po, pot = tmp_path / "ru.po", tmp_path / "t.pot"
        po.write_text(text, encoding="utf-8")
        pot_cat = new_catalog("en")
        pot_cat.add("The deal ends when all players but one have gone out.")
        pot.write_bytes(serialize(pot_cat))
        # msgmerge keeps the previous msgid with --previous (without it, it drops every `#|` line)
        subprocess.run(["msgmerge", "-q", "--previous", "-U", "--backup=off", str(po), str(pot)], check=True,
                       capture_output=True)
        assert po.read_text(encoding="utf-8") == text


# --- plain Babel: the shipped mappings give our templates, notes included --------------------

def _content(path: Path) -> dict:
    from babel.messages.pofile import read_po
    with path.open("rb") as fh:
        cat = read_po(fh)
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)):
            (list(m.auto_comments), sorted(m.locations), sorted(m.flags)) for m in cat if m.id}


@pytest.mark.slow
def test_pybabel_extract_and_update_keep_every_note(tmp_path):
    """`pybabel extract -F babel.cfg` / `-F babel-steps.cfg` give the messages of locales/rules.pot and
    steps.pot with the same notes, references and flags (header and order aside), and `pybabel update`
    from them leaves every catalog's notes as they are."""
    from i18n_support import ROOT
    cmd = _pybabel()
    if cmd is None:
        pytest.skip("Babel's command line is not importable")
    for domain, cfg in (("rules", "babel.cfg"), ("steps", "babel-steps.cfg")):
        out = tmp_path / f"{domain}.pot"
        subprocess.run([*cmd, "-q", "extract", "-F", cfg, "-o", str(out), "."], cwd=ROOT, check=True,
                       capture_output=True)
        ours = _content(pot_path(ROOT, domain))
        assert _content(out) == ours
        assert sum(len(notes) for notes, _, _ in ours.values()) > 150
    root = copy_project(tmp_path / "project")
    before = {(d, lang): {k: v[0] for k, v in _content(po_path(root, lang, d)).items()}
              for d in DOMAINS for lang in CATALOG_LANGS}
    for domain in DOMAINS:
        subprocess.run([*cmd, "-q", "update", "-i", str(tmp_path / f"{domain}.pot"), "-d", str(root / "locales"),
                        "-D", domain], check=True, capture_output=True)
    after = {(d, lang): {k: v[0] for k, v in _content(po_path(root, lang, d)).items()}
             for d in DOMAINS for lang in CATALOG_LANGS}
    assert after == before
