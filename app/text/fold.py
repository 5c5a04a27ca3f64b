"""Folding text for matching as people expect: case, accents and width variants do not count."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """Casefold and drop accents and width variants, so 'CRÉER', 'Créer' and 'creer' agree."""
    if text.isascii():  # most terms: skip two normalisations (filters fold thousands per key)
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))
