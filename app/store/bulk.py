"""Parsing of pasted word lists ("term - meaning", "term: a; b", "term<TAB>meaning", ...).

Pure and defensive: any text gives a preview, never an exception. Each non-blank line becomes a
row marked ok, duplicate or invalid with a reason, so the user sees what will happen before
anything is written.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from app.domain import check_meanings, check_name
from app.store.results import BulkPreview, BulkRow, BulkStatus
from app.store.transfer.steps import CHUNK, Progress, Steps, run_steps
from app.text.rejected import shown

MAX_ROWS = 10_000
# Earliest of these splits term from meanings; " - " needs spaces so "well-being" stays whole.
_SEPARATORS = (" - ", "–", "—", ":", "=")
_MEANING_SPLIT = r"[;|\t]"
_BULLETS = ("- ", "* ", "• ")


def split_line(line: str) -> tuple[str, list[str]]:
    """Split one line into its term and meanings (possibly none)."""
    line = line.strip()
    for bullet in _BULLETS:
        line = line.removeprefix(bullet)
    if "\t" in line:
        term, _, rest = line.partition("\t")
    else:
        line += " "  # so a trailing " -" with no meaning after it still separates
        found = [(i, sep) for sep in _SEPARATORS if (i := line.find(sep)) >= 0]
        if not found:
            return line.strip(), []
        at, sep = min(found)
        term, rest = line[:at], line[at + len(sep) :]
    return term.strip(), [m.strip() for m in re.split(_MEANING_SPLIT, rest) if m.strip()]


def _invalid(line_no: int, term: str, reason: str) -> BulkRow:
    return BulkRow(line=line_no, term=shown(term), meanings=[], status="invalid", reason=reason)


def _row(line_no: int, line: str, existing: Collection[str], seen: dict[str, int]) -> BulkRow:
    term, meanings = split_line(line)
    try:
        term = check_name(term)
    except ValueError as exc:
        return _invalid(line_no, term, f"The term {exc}.")
    try:
        meanings = check_meanings(meanings)
    except ValueError as exc:
        return _invalid(line_no, term, f"The meanings {exc}.")
    key = term.casefold()
    reason = ""
    if key in existing:
        reason = "Already in this folder."
    elif key in seen:
        reason = f"Same as line {seen[key]}."
    seen.setdefault(key, line_no)
    status: BulkStatus = "duplicate" if reason else "ok"
    return BulkRow(line=line_no, term=term, meanings=meanings, status=status, reason=reason)


def parse_bulk(text: str, existing: Collection[str] = frozenset()) -> BulkPreview:
    """Preview `text`; `existing` holds the casefolded terms already in the target folder."""
    return run_steps(preview_steps(text, existing))


def preview_steps(text: str, existing: Collection[str] = frozenset()) -> Steps[BulkPreview]:
    """`parse_bulk` in steps: progress after every CHUNK lines, so a page can paint between."""
    lines = text.removeprefix("\ufeff").splitlines()
    rows: list[BulkRow] = []
    seen: dict[str, int] = {}
    for index, line in enumerate(lines):
        if index and index % CHUNK == 0:
            yield Progress("Reading the lines", index, len(lines))
        if not line.strip():
            continue
        if len(rows) == MAX_ROWS:
            left = sum(1 for rest in lines[index:] if rest.strip())
            return BulkPreview(rows=rows, note=_limit_note(left))
        rows.append(_row(index + 1, line, existing, seen))
    return BulkPreview(rows=rows)


def _limit_note(left: int) -> str:
    return (
        f"Only the first {MAX_ROWS:,} lines were read; {left:,} more were left out. "
        "Paste them in another go."
    )
