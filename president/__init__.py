"""President, CardVerse variant: rules-spec conformance and localization toolkit."""
from __future__ import annotations

__version__ = "0.1.0"
