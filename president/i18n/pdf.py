"""Print-ready PDF rule sheets: the HTML sheet of each language through WeasyPrint
(`pip install 'president[pdf]'`), on A4 with page numbers, every font embedded (subsets), text
shaped by HarfBuzz (Arabic joining, Devanagari conjuncts, Armenian).

`president build --pdf [--out DIR]` writes DIR/<lang>.pdf (default <root>/pdf/, not committed),
together with the sheets (president.project.build). Ctrl-C or SIGTERM while WeasyPrint renders
is honoured even when one of its finalizers swallows the KeyboardInterrupt (atomic.signals_honoured).
Before anything is rendered, fontconfig is asked for every page's fonts (president.i18n.fonts):
a missing font is refused with its Debian package, never printed as tofu boxes.
"""
from __future__ import annotations

import logging
from pathlib import Path
from types import ModuleType

from ..atomic import signals_honoured
from ..errors import Problem
from ..spec import Spec
from .catalogs import LANGS, BuildError
from .fonts import have_fontconfig, missing_fonts
from .render import render_all

PDF_EXTRA = "pip install 'president[pdf]'"


def _weasyprint() -> ModuleType:
    try:
        import weasyprint
    except (ImportError, OSError) as exc:  # OSError: the pango library is missing
        raise BuildError([Problem("president", None, "", f"the PDF sheets need WeasyPrint, which cannot be loaded ({exc})",
                                  f"{PDF_EXTRA} (and Debian's libpango-1.0-0)")]) from None
    for name in ("weasyprint", "fontTools"):  # unsupported screen-only CSS, font subsetting chatter
        logging.getLogger(name).setLevel(logging.ERROR)
    return weasyprint


def font_problems(pages: dict[str, str]) -> list[Problem]:
    """A problem for every page whose fonts fontconfig lacks (`pages`: lang -> visible text)."""
    if not have_fontconfig():
        return [Problem("president", None, "", "fontconfig's fc-list is not installed, so the fonts cannot be checked",
                        "apt-get install fontconfig fonts-noto-core")]
    return [Problem(f"{lang}.pdf", None, "", str(m), f"apt-get install {m.package}")
            for lang, text in pages.items() for m in missing_fonts(lang, text)]


def render_pdfs(spec: Spec, root: Path, langs: tuple[str, ...] = LANGS) -> dict[str, bytes]:
    """{lang: PDF bytes} for every language; BuildError (nothing rendered) on a missing
    translation, a missing font or a missing WeasyPrint."""
    weasyprint = _weasyprint()
    sheets = render_all(spec, root, langs)
    problems = font_problems({lang: sheets[f"rules/{lang}.txt"] for lang in langs})
    if problems:
        raise BuildError(problems)
    out = {}
    with signals_honoured() as checkpoint:  # WeasyPrint's finalizers must not eat a Ctrl-C
        for lang in langs:
            document = weasyprint.HTML(string=sheets[f"rules/{lang}.html"], base_url=str(root))
            out[lang] = document.write_pdf()
            del document
            checkpoint()
    return out
