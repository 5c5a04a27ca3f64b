"""Word commands: add, edit, move, delete and bulk add.

Terms are unique per folder ignoring case; `term_key` (the casefolded term, indexed with the
folder) makes that check a single index lookup even in a folder of thousands of words.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from app.domain import Conflict, FolderId, InvalidInput, NotFound, Word, WordId
from app.store import queries
from app.store.db import Database
from app.store.results import BulkResult, BulkRow, WordsMoved

if TYPE_CHECKING:
    from app.inputs import NewWord, WordPatch

# Built once: json.dumps with options builds a new encoder per call, which shows when an
# import encodes 100,000 lists.
_MEANINGS_ENCODER = json.JSONEncoder(ensure_ascii=False)


def meanings_json(meanings: list[str]) -> str:
    return _MEANINGS_ENCODER.encode(meanings)


def _check_free(
    db: Database, folder_id: FolderId, term: str, besides: WordId | None = None
) -> None:
    clash = queries.word_with_term(db, folder_id, term)
    if clash is not None and clash.id != besides:
        folder = queries.folder(db, folder_id)
        raise Conflict(f'"{folder.name}" already has the word "{clash.term}".')


def add(db: Database, now: int, new: NewWord) -> tuple[Word, str]:
    folder = queries.folder(db, new.folder_id)
    _check_free(db, new.folder_id, new.term)
    word_id = db.insert("word", _row(new, queries.default_lang(db, new.folder_id)), now)
    return queries.word(db, WordId(word_id)), f'Add "{new.term}" to "{folder.name}"'


def _row(new: NewWord, default_lang: str) -> dict[str, object]:
    """The word's row; a word that gives no language takes its folder's default."""
    return {
        "folder_id": new.folder_id,
        "term": new.term,
        "term_key": new.term.casefold(),
        "meanings": meanings_json(new.meanings),
        "notes": new.notes,
        "color": new.color,
        "lang": new.lang or default_lang,
    }


def update(db: Database, now: int, word_id: WordId, patch: WordPatch) -> tuple[Word, str]:
    current = queries.word(db, word_id)
    values = patch.changes()
    if "term" in values:
        _check_free(db, current.folder_id, values["term"], besides=word_id)
        values["term_key"] = values["term"].casefold()
    if "meanings" in values:
        values["meanings"] = meanings_json(values["meanings"])
    if values:
        db.update("word", word_id, values, now)
    return queries.word(db, word_id), f'Edit word "{current.term}"'


def move(
    db: Database, now: int, ids: Sequence[WordId], folder_id: FolderId
) -> tuple[WordsMoved, str]:
    """Move what can be moved; words whose term already exists at the destination stay put."""
    folder = queries.folder(db, folder_id)
    found = queries.words_by_id(db, ids)
    taken = queries.term_keys(db, folder_id)
    skipped = [f"Word {i} does not exist." for i in sorted(set(ids) - {w.id for w in found})]
    moved: list[WordId] = []
    for w in found:
        if w.folder_id == folder_id:
            continue
        if w.term.casefold() in taken:
            skipped.append(f'"{folder.name}" already has the word "{w.term}".')
            continue
        taken.add(w.term.casefold())
        moved.append(w.id)
    db.executemany(
        "UPDATE word SET folder_id = ?, updated_at = ? WHERE id = ?",
        [(folder_id, now, i) for i in moved],
    )
    return WordsMoved(moved=moved, skipped=skipped), f'Move {_count(moved)} to "{folder.name}"'


def delete(db: Database, ids: Sequence[WordId]) -> tuple[int, str]:
    found = queries.words_by_id(db, ids)
    missing = sorted(set(ids) - {w.id for w in found})
    if missing:
        raise NotFound(f"Word {missing[0]} does not exist.")
    db.execute(f"DELETE FROM word WHERE id IN ({queries.IDS})", (json.dumps(list(ids)),))
    label = f'Delete word "{found[0].term}"' if len(found) == 1 else f"Delete {_count(found)}"
    return len(found), label


def bulk_add(
    db: Database, now: int, folder_id: FolderId, rows: Sequence[BulkRow]
) -> tuple[BulkResult, str]:
    """Add the rows marked ok, re-checking them: the folder may have changed since the preview."""
    folder = queries.folder(db, folder_id)
    taken = queries.term_keys(db, folder_id)
    lang = queries.default_lang(db, folder_id)
    values: list[dict[str, object]] = []
    skipped: list[BulkRow] = []
    for row in rows:
        new, reason = _bulk_word(folder_id, row, taken)
        if new is None:
            skipped.append(replace(row, reason=row.reason or reason))
            continue
        taken.add(new.term.casefold())
        values.append(_row(new, lang))
    db.insert_many("word", values, now)
    label = f'Add {_count(values)} to "{folder.name}"'
    return BulkResult(added=len(values), skipped=skipped), label


def _bulk_word(folder_id: FolderId, row: BulkRow, taken: set[str]) -> tuple[NewWord | None, str]:
    if row.status != "ok":
        return None, "not marked ok in the preview"
    # Checked again as any new word is: the input rules are pydantic's, loaded after the
    # first screen (decision 025), so imported where a bulk add first needs them.
    from app.inputs import NewWord, parse_input  # noqa: PLC0415

    try:
        new = parse_input(
            NewWord, {"folder_id": folder_id, "term": row.term, "meanings": row.meanings}
        )
    except InvalidInput as exc:
        return None, exc.message
    if new.term.casefold() in taken:
        return None, "already in the folder"
    return new, ""


def _count(items: Sequence[object]) -> str:
    return f"{len(items):,} word{'' if len(items) == 1 else 's'}"
