"""What an import will do, worked out before anything is written (the preview) and again inside
the transaction that applies it.

Merge: folders are matched by their path (names compared ignoring case), words by term in the
same folder, notes by title and text. A matched word gains what the file adds (new meanings,
notes, a language or colour it lacked) and loses nothing; a word with nothing new is skipped as
a duplicate. Rows of one file with the same term in the same folder (a homograph in two Anki
notes) are one word with the meanings of both. Replace: the workspace is emptied and the
file's contents go in with their ids, so deep links keep working. Rows keep the file's global
ids (rows from a file older than them get new ones); in a merge a folder, word or note whose
global id is here already is that row, wherever it is and whatever it is called now (decision
040). A word's seed basis comes with it, so its cards keep their fuzz under a new id. Either
way, importing the same file twice changes nothing the second time. Study progress follows the words
(app.store.transfer.plan_study).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import Field

from app.domain import MEANINGS_MAX, TEXT_MAX
from app.ids import uuid7
from app.store.transfer import Mode
from app.store.transfer.model import FolderItem, NoteItem, SkippedRow, WordItem, _Result, stamps
from app.store.transfer.parsed import ParsedImport
from app.store.transfer.plan_study import Landing, StudyPlan, plan_study
from app.store.transfer.read import Existing, ExistingWord, seed_basis, stored_seed
from app.store.transfer.steps import CHUNK, Progress, Steps
from app.study.days import Moment

SAMPLE_ROWS = 20
LISTED_FOLDERS = 200
LISTED_SKIPS = 1_000
PATH_SEPARATOR = " › "

Outcome = Literal["add", "update", "merge", "skip"]
Row = dict[str, Any]


class SampleRow(_Result):
    line: int | None
    folder: str
    term: str
    meanings: list[str]
    outcome: Outcome
    reason: str = ""


class PlanSummary(_Result):
    """The counts and examples a preview shows, and an import reports once done."""

    mode: Mode
    new_folders: int
    folder_paths: list[str]  # the first LISTED_FOLDERS folders to be created
    new_words: int
    updated_words: int
    duplicate_words: int
    new_notes: int
    duplicate_notes: int
    removed: tuple[int, int, int]  # folders, words, notes deleted first (replace)
    skipped: list[SkippedRow]  # the first LISTED_SKIPS rows left out, in file order
    skipped_total: int
    sample: list[SampleRow]
    merged_words: int = 0  # rows of the file whose term an earlier row has: folded into it
    merged: list[SkippedRow] = Field(default_factory=list)  # the first LISTED_SKIPS of them
    cards: int = 0  # cards whose progress comes along
    reviews: int = 0
    new_options: int = 0  # folders (or the collection) given study options
    removed_cards: int = 0  # cards with progress deleted first (replace)
    study_notes: list[str] = Field(default_factory=list)  # what of the history stayed behind

    @property
    def changes_anything(self) -> bool:
        added = self.new_folders or self.new_words or self.updated_words or self.new_notes
        return bool(added or self.cards or self.new_options) or any(self.removed)


@dataclass
class Plan:
    summary: PlanSummary
    folders: list[Row] = field(default_factory=list)
    words: list[Row] = field(default_factory=list)
    updates: list[Row] = field(default_factory=list)
    notes: list[Row] = field(default_factory=list)
    study: StudyPlan = field(default_factory=StudyPlan)


@dataclass
class _Builder:
    parsed: ParsedImport
    existing: Existing
    mode: Mode
    now: int
    target: dict[int, int] = field(default_factory=dict)  # file folder id -> store folder id
    paths: dict[int, str] = field(default_factory=dict)  # store folder id -> shown path
    folder_rows: list[Row] = field(default_factory=list)
    word_rows: list[Row] = field(default_factory=list)
    updates: list[Row] = field(default_factory=list)
    note_rows: list[Row] = field(default_factory=list)
    # file word id -> (word id, folder id) here, and the word here each merge key became
    landed: dict[int, tuple[int, int]] = field(default_factory=dict)
    word_at: dict[tuple[int, str], int | None] = field(default_factory=dict)
    row_at: dict[tuple[int, str], Row] = field(default_factory=dict)  # its add or update row
    merged: list[SkippedRow] = field(default_factory=list)  # rows folded into an earlier one
    skipped: list[SkippedRow] = field(default_factory=list)
    sample: list[SampleRow] = field(default_factory=list)
    duplicate_words: int = 0
    duplicate_notes: int = 0

    @property
    def keep_ids(self) -> bool:
        return self.mode == "replace"


def plan_import(parsed: ParsedImport, existing: Existing, mode: Mode, now: Moment) -> Steps[Plan]:
    """Work out the import of `parsed` into `existing`; `now` stamps rows without timestamps
    and says which study day an imported review fell on."""
    if mode not in parsed.modes:
        raise ValueError(f"{parsed.kind} files cannot be imported with {mode}")
    removed = existing.counts if mode == "replace" else (0, 0, 0)
    b = _Builder(parsed, Existing() if mode == "replace" else existing, mode, now.at)
    b.skipped.extend(parsed.skipped)
    for folder in parsed.workspace.folders:
        _place_folder(b, folder)
    words = parsed.workspace.words
    seen: dict[tuple[int, str], int | None] = {}
    for start in range(0, len(words), CHUNK):
        for index in range(start, min(start + CHUNK, len(words))):
            _place_word(b, words[index], index, seen)
        yield Progress("Comparing with your workspace", min(start + CHUNK, len(words)), len(words))
    for note in parsed.workspace.notes:
        _place_note(b, note)
    if b.keep_ids:
        _number_the_rest(b.word_rows)
        _number_the_rest(b.note_rows)
    landing = Landing(b.landed, b.target, b.folder_rows)
    study = yield from plan_study(parsed.workspace.study, landing, b.existing, mode, now)
    b.skipped.sort(key=lambda s: s.line if s.line is not None else 0)
    summary = PlanSummary(
        mode=mode,
        new_folders=len(b.folder_rows),
        folder_paths=[b.paths[r["id"]] for r in b.folder_rows[:LISTED_FOLDERS]],
        new_words=len(b.word_rows),
        updated_words=len(b.updates),
        duplicate_words=b.duplicate_words,
        new_notes=len(b.note_rows),
        duplicate_notes=b.duplicate_notes,
        removed=removed,
        skipped=b.skipped[:LISTED_SKIPS],
        skipped_total=len(b.skipped),
        sample=b.sample,
        merged_words=len(b.merged),
        merged=b.merged[:LISTED_SKIPS],
        cards=len(study.cards),
        reviews=len(study.reviews),
        new_options=len(study.options),
        removed_cards=existing.cards_count if mode == "replace" else 0,
        study_notes=study.notes,
    )
    return Plan(summary, b.folder_rows, b.word_rows, b.updates, b.note_rows, study)


def _number_the_rest(rows: list[Row]) -> None:
    """Give rows without a kept id one past the largest kept id, so none can collide."""
    next_id = max((r["id"] for r in rows if r["id"] is not None), default=0) + 1
    for row in rows:
        if row["id"] is None:
            row["id"] = next_id
            next_id += 1


def _place_folder(b: _Builder, folder: FolderItem) -> None:
    parent = None if folder.parent_id is None else b.target[folder.parent_id]
    key = (parent, folder.name.casefold())
    shown = folder.name if parent is None else f"{b.paths[parent]}{PATH_SEPARATOR}{folder.name}"
    match = b.existing.folder_gids.get(folder.gid) if folder.gid else None
    if match is None:
        match = b.existing.folders.get(key)
    if match is not None:
        b.target[folder.id] = match
        b.paths.setdefault(match, shown)
        return
    if b.keep_ids:
        new_id = folder.id
    else:
        new_id = b.existing.next_folder_id
        b.existing.next_folder_id += 1
    b.existing.folders[key] = new_id
    b.existing.langs[new_id] = folder.lang or b.existing.langs.get(parent or 0, "")
    b.target[folder.id] = new_id
    b.paths[new_id] = shown
    created, updated = stamps(folder, b.now)
    b.folder_rows.append(
        {
            "id": new_id,
            "parent_id": parent,
            "name": folder.name,
            "name_key": folder.name.casefold(),
            "emoji": folder.emoji,
            "color": folder.color,
            "lang": folder.lang,
            "created_at": created,
            "updated_at": updated,
            "gid": folder.gid or uuid7(),
        }
    )


def _place_word(
    b: _Builder, word: WordItem, index: int, seen: dict[tuple[int, str], int | None]
) -> None:
    folder = b.target[word.folder_id]
    path = b.paths[folder]
    # The same row as a word here, which may have been renamed or moved since: merged into it.
    key = b.existing.word_gids.get(word.gid) if word.gid else None
    if key is None:
        key = (folder, word.term.casefold())
    folder = key[0]
    path = b.paths.get(folder, path)  # a folder the file does not have: the file's is shown
    line = word.line if word.line is not None else index + 1
    reason = ""
    outcome: Outcome
    if key in seen:
        outcome, reason = _fold_in(b, key, word, seen[key])
    elif key in b.existing.words:
        b.word_at[key] = b.existing.words[key].id
        change = merged_word(b.existing.words[key], word)
        if change is None:
            reason = f"Already in {path}."
            outcome = "skip"
        else:
            change["updated_at"] = b.now
            b.updates.append(change)
            b.row_at[key] = change
            outcome = "update"
    else:
        # A merge numbers new words itself, like folders, so their cards can point at them.
        if b.keep_ids:
            word_id = word.id
        else:
            word_id = b.existing.next_word_id
            b.existing.next_word_id += 1
        b.word_at[key] = word_id
        # A listed word without a language takes its folder's default, as one added by hand
        # does; a backup's words are restored as they were.
        lang = word.lang or (b.existing.langs.get(folder, "") if b.parsed.source else "")
        b.row_at[key] = _word_row(word, word_id, folder, lang, stamps(word, b.now))
        b.word_rows.append(b.row_at[key])
        outcome = "add"
    seen.setdefault(key, line)
    landed = b.word_at[key]
    if word.id is not None and landed is not None:
        b.landed[word.id] = (landed, folder)
    if outcome == "skip":
        b.duplicate_words += 1
        b.skipped.append(SkippedRow(line=line, term=word.term, reason=reason))
    elif outcome == "merge":
        b.merged.append(SkippedRow(line=line, term=word.term, reason=reason))
    if len(b.sample) < SAMPLE_ROWS:
        b.sample.append(
            SampleRow(
                line=line,
                folder=path,
                term=word.term,
                meanings=word.meanings,
                outcome=outcome,
                reason=reason,
            )
        )


def _fold_in(
    b: _Builder, key: tuple[int, str], word: WordItem, earlier: int | None
) -> tuple[Outcome, str]:
    """A second row with the same term in the same folder adds what it has to the word the
    first one made or updated (a homograph's other meanings); only an exact repeat is skipped."""
    label = f"{b.parsed.item_label.lower()} {earlier}"
    row = b.row_at.get(key)
    current = _as_existing(row) if row is not None else b.existing.words.get(key)
    change = None if current is None else merged_word(current, word)
    if change is None:
        return "skip", f"Same as {label}."
    if row is None:
        change["updated_at"] = b.now
        b.updates.append(change)
        b.row_at[key] = change
    else:
        row.update(change)
    assert current is not None
    added = len(change["meanings"]) - len(current.meanings)
    what = f"{added:,} meaning{'s' if added != 1 else ''} added" if added else "Notes added"
    return "merge", f"{what} to the word of {label}."


def _as_existing(row: Row) -> ExistingWord:
    return ExistingWord(row["id"], row["meanings"], row["notes"], row["color"], row["lang"])


def _word_row(
    word: WordItem, word_id: int | None, folder: int, lang: str, stamps: tuple[int, int]
) -> Row:
    return {
        "id": word_id,  # None: numbered once every kept id is known (replace)
        "folder_id": folder,
        "term": word.term,
        "term_key": word.term.casefold(),
        "meanings": word.meanings,
        "notes": word.notes,
        "color": word.color,
        "lang": lang,
        "created_at": stamps[0],
        "updated_at": stamps[1],
        "gid": word.gid or uuid7(),
        "seed": stored_seed(seed_basis(word), word_id),
    }


def merged_word(current: ExistingWord, incoming: WordItem) -> Row | None:
    """The columns that change when `incoming` is merged into `current`, or None if nothing
    would: meanings not yet there are appended (up to the limit), notes not yet contained are
    appended, and an empty language or "none" colour takes the file's value."""
    known = {m.casefold() for m in current.meanings}
    extra = [m for m in incoming.meanings if m.casefold() not in known]
    meanings = [*current.meanings, *extra][: max(MEANINGS_MAX, len(current.meanings))]
    notes = current.notes
    if incoming.notes and incoming.notes not in notes:
        joined = f"{notes}\n\n{incoming.notes}" if notes else incoming.notes
        notes = joined if len(joined) <= TEXT_MAX else notes
    lang = current.lang or incoming.lang
    color = incoming.color if current.color == "none" else current.color
    if (meanings, notes, lang, color) == (
        current.meanings,
        current.notes,
        current.lang,
        current.color,
    ):
        return None
    return {"id": current.id, "meanings": meanings, "notes": notes, "lang": lang, "color": color}


def _place_note(b: _Builder, note: NoteItem) -> None:
    folder = b.target[note.folder_id]
    key = (folder, note.title, note.body)
    if key in b.existing.notes or note.gid in b.existing.note_gids:
        b.duplicate_notes += 1
        return
    created, updated = stamps(note, b.now)
    row: Row = {
        "folder_id": folder,
        "title": note.title,
        "body": note.body,
        "created_at": created,
        "updated_at": updated,
        "gid": note.gid or uuid7(),
    }
    if b.keep_ids:
        row["id"] = note.id
    b.note_rows.append(row)
