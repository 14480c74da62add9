"""`president build --pdf` with a stand-in for WeasyPrint that is interrupted while it renders.

    python fake_pdf.py MODE     (in a project folder; exits as `president build --pdf` does)

The stand-in renders the first language, then, while rendering the second, gets:
- `raise`: SIGINT, whose KeyboardInterrupt goes up as usual;
- `finalizer`: SIGINT while one of its finalizers runs: Python prints "Exception ignored" and
  the KeyboardInterrupt is lost (what WeasyPrint's finalizers do about one time in seven);
- `term`: SIGTERM;
- `none`: nothing (the build completes);
- `big`: nothing, and each PDF is 256 KB (to fill a small file system).
The signal is raised by the process itself (signal.raise_signal), so nothing depends on timing.
No fonts are needed: the font check is replaced too.
"""
from __future__ import annotations

import signal
import sys
from types import SimpleNamespace

RENDERED: list[str] = []


class _Finalized:
    def __del__(self) -> None:
        signal.raise_signal(signal.SIGINT)


class HTML:
    def __init__(self, string: str, base_url: str | None = None) -> None:
        self.string = string

    def write_pdf(self) -> bytes:
        RENDERED.append(self.string[:40])
        if len(RENDERED) == 2 and MODE not in ("none", "big"):
            if MODE == "finalizer":
                leftover = _Finalized()
                del leftover  # its finalizer runs here, and swallows the KeyboardInterrupt
            else:
                signal.raise_signal(signal.SIGTERM if MODE == "term" else signal.SIGINT)
        return b"%PDF-1.7 stand-in\n" + (b"%" * 262_144 if MODE == "big" else b"")


MODE = sys.argv[1] if __name__ == "__main__" else "none"

if __name__ == "__main__":
    import president.i18n.pdf as pdf
    pdf._weasyprint = lambda: SimpleNamespace(HTML=HTML)  # type: ignore[assignment]
    pdf.font_problems = lambda pages: []  # type: ignore[assignment]
    from president.cli.main import main
    main(["build", "--pdf", *sys.argv[2:]], prog_name="president")
