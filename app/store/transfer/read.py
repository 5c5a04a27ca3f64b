"""Reading a workspace out of a database: every folder, word, note and the study progress as
plain data (for the exports and for restoring a SQLite file), and what is already there (for
planning a merge)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from app.store import study_queries
from app.store.db import Database
from app.store.queries import folder_tree
from app.store.results import TreeRow
from app.store.transfer.model import REVIEW_FIELDS, CardItem, StoredOptions, WordItem
from app.study.model import SEED_BASIS_SQL, Direction
from app.study.options import DEFAULT_OPTIONS, StudyOptions

RawItem = dict[str, Any]

# The explicit list of what a backup holds: these tables, these columns. Anything else in the
# database (settings, conversations, keys) is never exported.
FOLDER_FIELDS = (
    *("id", "parent_id", "name", "emoji", "color", "lang", "created_at", "updated_at", "gid"),
)
WORD_FIELDS = (
    *("id", "folder_id", "term", "meanings", "notes", "color", "lang"),
    *("created_at", "updated_at", "gid"),
)
NOTE_FIELDS = ("id", "folder_id", "title", "body", "created_at", "updated_at", "gid")
# A card's folder is its word's, so it is not repeated; a review's session is not exported.
CARD_FIELDS = tuple(CardItem.model_fields)
OPTIONS_FIELDS = ("id", "options", "created_at", "updated_at")


@dataclass(frozen=True)
class RawWorkspace:
    folders: list[RawItem]
    words: list[RawItem]
    notes: list[RawItem]
    cards: list[RawItem] = field(default_factory=list)
    reviews: list[list[Any]] = field(default_factory=list)  # values in REVIEW_FIELDS order
    options: list[RawItem] = field(default_factory=list)  # folder_id None: the collection's
    has_study: bool = True  # False for a file older than study progress
    # Its cards' due dates are of the fuzz before decision 045 (schedules.stale).
    stale_dues: bool = False


def raw_workspace(db: Database) -> RawWorkspace:
    """Everything in the workspace, ordered by id; meanings decoded from their JSON column.

    Raises ValueError when a meanings column is not a JSON list (a damaged or forged file)."""
    folders = [
        dict(r) for r in db.all(f"SELECT {', '.join(FOLDER_FIELDS)} FROM folder ORDER BY id")
    ]
    words = []
    # A word's `seed` is exported as its effective basis, never NULL: restored anywhere under
    # another id, its cards keep the fuzz their schedules were computed with (decision 036).
    columns = ", ".join(f"w.{name}" for name in WORD_FIELDS)
    for row in db.all(f"SELECT {columns}, {SEED_BASIS_SQL} AS seed FROM word w ORDER BY w.id"):
        word = dict(row)
        word["meanings"] = _meanings(word["meanings"])
        words.append(word)
    notes = [dict(r) for r in db.all(f"SELECT {', '.join(NOTE_FIELDS)} FROM note ORDER BY id")]
    cards = [dict(r) for r in db.all(f"SELECT {', '.join(CARD_FIELDS)} FROM card ORDER BY id")]
    # Reviews of a card that is gone (possible after undoing an import a grade followed) are
    # invisible in the app, so they are not exported either.
    reviews = [
        list(r)
        for r in db.execute(
            f"SELECT {', '.join(REVIEW_FIELDS)} FROM review "
            "WHERE card_id IN (SELECT id FROM card) ORDER BY id"
        )
    ]
    return RawWorkspace(folders, words, notes, cards, reviews, _options(db))


def _options(db: Database) -> list[RawItem]:
    """The study options rows the app can read. One it cannot read counts as unset in the app
    (the folder inherits), so leaving it out keeps what the user sees."""
    rows = []
    for row in db.all(f"SELECT {', '.join(OPTIONS_FIELDS)} FROM study_options ORDER BY id"):
        try:
            options = StoredOptions.model_validate(json.loads(row["options"]))
        except (ValueError, TypeError, ValidationError):
            continue
        rows.append(
            {
                "folder_id": None if row["id"] == study_queries.COLLECTION else row["id"],
                "options": options.model_dump(exclude_none=True),
                "created_at": row["created_at"],
                "updated_at": row["updated_at"],
            }
        )
    return rows


def _meanings(stored: Any) -> Any:
    decoded = json.loads(stored) if isinstance(stored, str) else stored
    if not isinstance(decoded, list):
        raise ValueError("meanings are not a list")
    return decoded


def seed_basis(word: WordItem) -> str | None:
    """The seed basis a file's word brings: its own (backup 5), or else its id in the file, as
    every word was seeded before schema 8 and still is without a `seed` (so older backups keep
    their cards' fuzz). None for a word without either: it has no cards."""
    if word.seed is not None:
        return word.seed
    return None if word.id is None else str(word.id)


def stored_seed(basis: str | None, word_id: int | None) -> str | None:
    """The `word.seed` column for a word with seed `basis` stored under `word_id`: NULL when the
    basis is that id anyway, so a restore under the same ids writes the rows as they were."""
    return None if basis is None or basis == str(word_id) else basis


@dataclass(frozen=True)
class ExistingWord:
    id: int
    meanings: list[str]
    notes: str
    color: str
    lang: str


@dataclass
class Existing:
    """What the workspace holds now, keyed the way a merge matches things."""

    folders: dict[tuple[int | None, str], int] = field(default_factory=dict)
    words: dict[tuple[int, str], ExistingWord] = field(default_factory=dict)
    notes: set[tuple[int, str, str]] = field(default_factory=set)
    cards: set[tuple[int, Direction]] = field(default_factory=set)  # (word id, direction)
    options: set[int] = field(default_factory=set)  # folder ids (0: the collection) with own
    effective: dict[int, StudyOptions] = field(default_factory=dict)  # each folder's, inherited
    langs: dict[int, str] = field(default_factory=dict)  # each folder's default, inherited
    base: StudyOptions = DEFAULT_OPTIONS  # the collection's
    next_folder_id: int = 1
    next_word_id: int = 1
    next_card_id: int = 1
    counts: tuple[int, int, int] = (0, 0, 0)  # folders, words, notes
    cards_count: int = 0
    # The seed basis of words that came from another device (app/study/model.py card_seed);
    # every other word's is its id.
    seeds: dict[int, str] = field(default_factory=dict)
    # Rows by global id: a file's row with one of these is that row (decision 040).
    folder_gids: dict[str, int] = field(default_factory=dict)
    word_gids: dict[str, tuple[int, str]] = field(default_factory=dict)  # -> (folder, term key)
    note_gids: set[str] = field(default_factory=set)


def existing(db: Database, *, contents: bool) -> Existing:
    """The current workspace; without `contents` only its counts (a replace needs no more)."""
    counts = (
        int(db.scalar("SELECT count(*) FROM folder")),
        int(db.scalar("SELECT count(*) FROM word")),
        int(db.scalar("SELECT count(*) FROM note")),
    )
    now = Existing(counts=counts, cards_count=int(db.scalar("SELECT count(*) FROM card")))
    if not contents:
        return now
    tree = folder_tree(db)
    _study(db, now, tree)
    for row in tree:  # depth first: a parent before its children
        parent = row.folder.parent_id
        inherited = "" if parent is None else now.langs.get(parent, "")
        now.langs[row.folder.id] = row.folder.lang or inherited
    for r in db.all("SELECT id, parent_id, name_key, gid FROM folder"):
        now.folders[(r["parent_id"], r["name_key"])] = r["id"]
        now.folder_gids[r["gid"]] = r["id"]
    now.next_folder_id = int(db.scalar("SELECT coalesce(max(id), 0) + 1 FROM folder"))
    now.next_word_id = int(db.scalar("SELECT coalesce(max(id), 0) + 1 FROM word"))
    for r in db.all("SELECT id, folder_id, term_key, meanings, notes, color, lang, gid FROM word"):
        key = (r["folder_id"], r["term_key"])
        now.words[key] = ExistingWord(
            r["id"], json.loads(r["meanings"]), r["notes"], r["color"], r["lang"]
        )
        now.word_gids[r["gid"]] = key
    notes = db.all("SELECT folder_id, title, body, gid FROM note")
    now.notes = {(r[0], r[1], r[2]) for r in notes}
    now.note_gids = {r[3] for r in notes}
    now.seeds = {r[0]: r[1] for r in db.all("SELECT id, seed FROM word WHERE seed IS NOT NULL")}
    return now


def _study(db: Database, now: Existing, tree: list[TreeRow]) -> None:
    """Which words have progress and how each folder studies, so a merge keeps existing
    progress and replays an Anki history the way the folder will schedule it."""
    now.cards = {(r[0], r[1]) for r in db.execute("SELECT word_id, direction FROM card")}
    now.next_card_id = int(db.scalar("SELECT coalesce(max(id), 0) + 1 FROM card"))
    now.options = {int(r[0]) for r in db.execute("SELECT id FROM study_options")}
    stored = study_queries.stored_options(db)
    now.base = stored.get(study_queries.COLLECTION, DEFAULT_OPTIONS)
    now.effective = {
        int(f): o
        for f, o in study_queries.effective_options([r.folder for r in tree], stored).items()
    }
