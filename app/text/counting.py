"""Counts as people read them: "1 word", "2 words", "9,874 words", and lists of such counts.

The one place for plurals and thousands separators in the UI, so no screen says "1 folders"
or "9874" while another says "9,874".
"""

from __future__ import annotations

from collections.abc import Sequence

NAMED_MAX = 10  # words named in a sentence; the rest are counted


def counted(n: int, noun: str, plural: str = "") -> str:
    """`n` and the noun in the right number; `plural` only when adding "s" is wrong."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def listed(parts: list[str], conjunction: str = "and") -> str:
    """ "a", "a and b", "a, b and c" ("" for none); "a, b or c" with "or"."""
    if len(parts) > 1:
        return ", ".join(parts[:-1]) + f" {conjunction} " + parts[-1]
    return "".join(parts)


def counted_list(*counts: tuple[int, str]) -> str:
    """The non-zero counts as one phrase: "2 folders, 3 words and 1 note" ("" for none)."""
    return listed([counted(n, noun) for n, noun in counts if n])


def named(words: Sequence[str], most: int = NAMED_MAX) -> str:
    """Up to `most` words by name and the rest counted: "a, b and 3 more words"; "none"."""
    if not words:
        return "none"
    shown = list(words[:most])
    if len(words) > most:
        shown.append(counted(len(words) - most, "more word"))
    return listed(shown)
