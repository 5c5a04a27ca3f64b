"""Reads for studying: options per folder, due and new counts, the session queue, cards.

Cards exist only once studied (decision 011): "new" is a word in a folder that studies a
direction with no card for that direction. Directions and limits come from each word's folder
options, inherited from the nearest ancestor that sets them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.domain import Folder, FolderId, NotFound, WordId
from app.store.db import Database
from app.store.results import TreeRow
from app.study.model import (
    DEFAULT_DAY_START_HOUR,
    DIRECTIONS,
    SEED_BASIS_SQL,
    CardKey,
    CardState,
    Direction,
    Progress,
    StudyCard,
)

if TYPE_CHECKING:
    from app.study.options import StudyOptions

COLLECTION = 0  # the study_options row that holds the collection's own options


def default_options() -> StudyOptions:
    """The options of a folder that sets none. Imported when first needed: options are
    validated with pydantic, which loads after the first screen (decision 025)."""
    from app.study.options import DEFAULT_OPTIONS  # noqa: PLC0415

    return DEFAULT_OPTIONS


def _parse_options(text: str) -> StudyOptions | None:
    from app.study.options import StudyOptions  # noqa: PLC0415 (see default_options)

    try:
        data = json.loads(text)
        data.pop("day_start_hour", None)
        return StudyOptions.model_validate(data)
    except (ValueError, TypeError, AttributeError):  # pydantic's ValidationError is a ValueError
        return None  # a damaged row counts as unset: the folder inherits instead


def stored_options(db: Database) -> dict[int, StudyOptions]:
    rows = db.all("SELECT id, options FROM study_options")
    parsed = {int(r["id"]): _parse_options(r["options"]) for r in rows}
    return {k: v for k, v in parsed.items() if v is not None}


def day_start_hour(db: Database) -> int:
    text = db.scalar("SELECT options FROM study_options WHERE id = ?", (COLLECTION,))
    try:
        hour = json.loads(text).get("day_start_hour") if text else None
    except (ValueError, AttributeError):
        hour = None
    return hour if isinstance(hour, int) and 0 <= hour <= 23 else DEFAULT_DAY_START_HOUR


def effective_options(
    folders: Sequence[Folder], stored: Mapping[int, StudyOptions]
) -> dict[FolderId, StudyOptions]:
    """Each folder's options: its own, else its nearest ancestor's, else the collection's;
    `folders` depth first."""
    base = stored.get(COLLECTION) or default_options()
    result: dict[FolderId, StudyOptions] = {}
    for folder in folders:  # depth first: a parent is always resolved before its children
        parent = folder.parent_id
        inherited = result[parent] if parent is not None and parent in result else base
        result[folder.id] = stored.get(folder.id, inherited)
    return result


def subtree(folders: Sequence[Folder], root: FolderId) -> list[FolderId]:
    """`root` and every folder below it; `folders` depth first."""
    inside = {root}
    for folder in folders:  # depth first: a descendant always follows its parent
        if folder.parent_id in inside:
            inside.add(folder.id)
    return [f.id for f in folders if f.id in inside]


@dataclass(frozen=True, slots=True)
class Scope:
    """What a session studies: some folders' words, or a given list of words."""

    folders: tuple[FolderId, ...] | None = None  # None: every folder
    words: tuple[WordId, ...] | None = None


def scope_where(scope: Scope, alias: str) -> tuple[str, list[str]]:
    """SQL that keeps the rows of `alias` (a card "c" or a word "w") inside the scope."""
    clauses, params = [], []
    if scope.folders is not None:
        clauses.append(f"{alias}.folder_id IN (SELECT value FROM json_each(?))")
        params.append(json.dumps(scope.folders))
    if scope.words is not None:
        column = "id" if alias == "w" else "word_id"
        clauses.append(f"{alias}.{column} IN (SELECT value FROM json_each(?))")
        params.append(json.dumps(scope.words))
    return (" AND ".join(clauses) or "1"), params


def review_queue(
    db: Database, scope: Scope, options: Mapping[FolderId, StudyOptions], end: int, now: int
) -> list[CardKey]:
    """Review cards due before `end`, lowest retrievability first. FSRS retrievability falls
    as elapsed time over stability grows (one decay for all cards), so SQL can order by it."""
    where, params = scope_where(scope, "c")
    rows = db.execute(
        f"SELECT c.word_id, c.folder_id, c.direction FROM card c JOIN word w ON w.id = c.word_id "
        f"WHERE {where} AND c.state = {CardState.REVIEW} AND c.due < ? AND w.meanings != '[]' "
        f"ORDER BY CAST(? - coalesce(c.last_review, 0) AS REAL) / max(c.stability, 0.01) DESC, "
        f"c.id",
        [*params, end, now],
    )
    default = default_options()
    return [(WordId(w), d) for w, f, d in rows if options.get(f, default).studies(d)]


def learning_cards(
    db: Database, scope: Scope, options: Mapping[FolderId, StudyOptions]
) -> dict[CardKey, int]:
    """Cards in (re)learning steps and when each is due again."""
    where, params = scope_where(scope, "c")
    rows = db.execute(
        f"SELECT c.word_id, c.folder_id, c.direction, c.due FROM card c "
        f"JOIN word w ON w.id = c.word_id WHERE {where} AND c.state IN "
        f"({CardState.LEARNING}, {CardState.RELEARNING}) AND w.meanings != '[]'",
        params,
    )
    default = default_options()
    return {(WordId(w), d): due for w, f, d, due in rows if options.get(f, default).studies(d)}


def new_queue(
    db: Database,
    scope: Scope,
    options: Mapping[FolderId, StudyOptions],
    limit: int,
    rows: Sequence[TreeRow],
) -> list[CardKey]:
    """Words never studied in a direction their folder studies, oldest first; every forward
    card before any reverse one, so a word's two sides are not asked back to back."""
    queue: list[CardKey] = []
    for direction in DIRECTIONS:
        if len(queue) >= limit:
            break
        where, params = scope_where(scope, "w")
        folders = _with_new(db, rows, options, direction)
        found = db.execute(
            f"SELECT w.id FROM word w WHERE {where} AND w.meanings != '[]' "
            f"AND w.folder_id IN (SELECT value FROM json_each(?)) AND NOT EXISTS "
            f"(SELECT 1 FROM card c WHERE c.word_id = w.id AND c.direction = ?) "
            f"ORDER BY w.id LIMIT ?",
            [*params, json.dumps(folders), direction, limit - len(queue)],
        )
        queue.extend((WordId(r[0]), direction) for r in found)
    return queue


def _with_new(
    db: Database,
    rows: Sequence[TreeRow],
    options: Mapping[FolderId, StudyOptions],
    direction: Direction,
) -> list[FolderId]:
    """Folders that study `direction` and may hold a word with no card for it: more words
    than cards (a superset: some of those words may have no meaning). One count over an index
    is cheaper than looking for a card of each of 100,000 words when few are new."""
    cards = dict(
        db.execute(
            "SELECT folder_id, count(*) FROM card WHERE direction = ? GROUP BY folder_id",
            (direction,),
        ).fetchall()
    )
    default = default_options()
    return [
        row.folder.id
        for row in rows
        if options.get(row.folder.id, default).studies(direction)
        and row.word_count > cards.get(row.folder.id, 0)
    ]


def done_today(db: Database, scope: Scope, start: int) -> tuple[int, int]:
    """(new cards introduced, reviews of review cards) since `start`, within the scope."""
    where, params = scope_where(scope, "c")
    row = db.first(
        f"SELECT sum(r.state_before = {CardState.NEW}), sum(r.state_before = "
        f"{CardState.REVIEW}) FROM review r JOIN card c ON c.id = r.card_id "
        f"WHERE r.reviewed_at >= ? AND {where}",
        [start, *params],
    )
    return (int(row[0] or 0), int(row[1] or 0)) if row else (0, 0)


def upcoming(db: Database, scope: Scope, now: int, until: int) -> tuple[int | None, int]:
    where, params = scope_where(scope, "c")
    row = db.first(
        f"SELECT min(due) FILTER (WHERE due > ?), count(*) FILTER (WHERE due <= ?) "
        f"FROM card c WHERE {where}",
        [now, until, *params],
    )
    return (row[0], int(row[1] or 0)) if row else (None, 0)


def without_meaning(db: Database, scope: Scope) -> int:
    """Words in the scope that cannot be studied because they have no meaning yet."""
    where, params = scope_where(scope, "w")
    return int(db.scalar(f"SELECT count(*) FROM word w WHERE {where} AND meanings = '[]'", params))


def progress_of(row: sqlite3.Row) -> Progress:
    return Progress(
        state=CardState(row["state"]),
        step=row["step"],
        stability=row["stability"],
        difficulty=row["difficulty"],
        due=row["due"],
        last_review=row["last_review"],
        reps=row["reps"],
        lapses=row["lapses"],
        last_day=row["last_day"],
    )


def study_card(db: Database, key: CardKey) -> StudyCard:
    word_id, direction = key
    word = db.first(f"SELECT *, {SEED_BASIS_SQL} AS basis FROM word w WHERE id = ?", (word_id,))
    if word is None:
        raise NotFound("That word is no longer in your collection.")
    card = db.first(
        "SELECT c.*, (SELECT r.study_day FROM review r WHERE r.card_id = c.id "
        "ORDER BY r.id DESC LIMIT 1) AS last_day "
        "FROM card c WHERE c.word_id = ? AND c.direction = ?",
        key,
    )
    progress = None
    if card is not None:
        try:
            progress = progress_of(card)
        except (ValueError, TypeError):
            progress = None  # a damaged row: studied again as new rather than crashing
    return StudyCard(
        word_id=WordId(word["id"]),
        direction=direction,
        folder_id=FolderId(word["folder_id"]),
        term=word["term"],
        meanings=tuple(json.loads(word["meanings"])),
        lang=word["lang"],
        card_id=None if card is None else int(card["id"]),
        progress=progress,
        seed_basis=word["basis"],
    )


def distractors(db: Database, card: StudyCard, count: int) -> list[str]:
    """Wrong answers for a choice question: other words' answers from the same folder first,
    then from anywhere, never equal to a right answer."""
    column = "json_extract(meanings, '$[0]')" if card.direction == "forward" else "term"
    right = {a.casefold() for a in card.answers}
    picked: list[str] = []
    for where, params in (
        ("folder_id = ?", [card.folder_id]),
        ("folder_id != ?", [card.folder_id]),
    ):
        rows = db.execute(
            f"SELECT {column} FROM word WHERE {where} AND id != ? AND meanings != '[]' "
            f"ORDER BY (id * 2654435761 + ?) % 4294967291 LIMIT ?",
            [*params, card.word_id, card.word_id, count * 4],
        )
        for (text,) in rows:
            if text and text.casefold() not in right and text not in picked:
                picked.append(text)
            if len(picked) == count:
                return picked
    return picked


def key_json(key: CardKey | None) -> str | None:
    return None if key is None else json.dumps([key[0], key[1]])


def parse_key(value: object) -> CardKey | None:
    """A card key stored as JSON [word id, direction], or None when it is not one."""
    if (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], int)
        and value[1] in ("forward", "reverse")
    ):
        direction: Direction = value[1]
        return (WordId(value[0]), direction)
    return None
