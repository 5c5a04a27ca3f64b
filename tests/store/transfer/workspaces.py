"""Random workspaces for the import/export tests, built through the Store API so they hold only
what the app itself can make (names with slashes and backslashes, accents, emoji, colours,
grades given as the study screen gives them, study options)."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import strategies as st

from app.domain import COLOURS, FolderId, InvalidInput, LexicalError, WordId
from app.inputs import NewFolder, NewNote, NewWord
from app.store import Store
from app.store.db import Database
from app.store.migrations import migrate
from app.store.transfer import Mode, read_import
from app.store.transfer.parsed import ParsedImport
from app.store.transfer.plan import PlanSummary
from app.store.transfer.steps import run_steps
from app.study.model import MINUTE_MS, Direction, Rating
from app.study.options import DEFAULT_OPTIONS, StudyOptions
from app.study.scheduler import graded
from tests.store.helpers import dump, make_store

# One line, no control characters; slashes and backslashes test the CSV path escaping.
LINE = (
    st.lists(
        st.sampled_from([*"abcXYZ é/\\;,\"'|-=+@", "日本", "🧬", "\u00a0"]), min_size=1, max_size=8
    )
    .map("".join)
    .filter(str.strip)
)
TEXT = st.lists(st.sampled_from([*"ab é,;\"\n\t=+-@'", "\r\n"]), max_size=20).map("".join)
LANGS = st.sampled_from(["", "en", "es-MX", "zh-Hant-TW"])
START = 1_690_000_000_000  # before the test stores' clock, so every review is in the past


def grade(
    store: Store, word_id: int, direction: Direction, rating: Rating, at: int, *, seconds: int = 4
) -> None:
    """One grade as a session gives it, in UTC."""
    card = store.study.card((WordId(word_id), direction))
    moment = store.moment(0, at)
    store.study.grade(
        None,
        card,
        rating,
        graded(card.progress, rating, moment, DEFAULT_OPTIONS, card.seed),
        at=moment,
        duration_ms=seconds * 1000,
        mode="typing",
        next_card=None,
    )


@dataclass(frozen=True)
class Spec:
    folders: list[tuple[str, int | None, str, str]]  # name, parent index, emoji, colour
    words: list[
        tuple[int, str, list[str], str, str, str]
    ]  # folder, term, meanings, notes, lang, colour
    notes: list[tuple[int, str, str]]  # folder index, title, body
    grades: list[tuple[int, Direction, Rating]] = field(default_factory=list)  # word index
    options: list[tuple[int | None, float]] = field(default_factory=list)  # folder, retention


def specs(*, notes: bool = True, study: bool = False) -> st.SearchStrategy[Spec]:
    folder = st.tuples(
        LINE,
        st.one_of(st.none(), st.integers(0, 8)),
        st.sampled_from(["", "🧬", "🇪🇸"]),
        st.sampled_from(COLOURS),
    )
    word = st.tuples(
        st.integers(0, 8), LINE, st.lists(LINE, max_size=3), TEXT, LANGS, st.sampled_from(COLOURS)
    )
    note = st.tuples(st.integers(0, 8), LINE, TEXT)
    grade_ = st.tuples(
        st.integers(0, 12), st.sampled_from(["forward", "reverse"]), st.sampled_from(Rating)
    )
    option = st.tuples(st.one_of(st.none(), st.integers(0, 8)), st.sampled_from([0.8, 0.9, 0.95]))
    return st.builds(
        Spec,
        st.lists(folder, max_size=8),
        st.lists(word, max_size=12),
        st.lists(note, max_size=4) if notes else st.just([]),
        st.lists(grade_, max_size=10) if study else st.just([]),
        st.lists(option, max_size=3) if study else st.just([]),
    )


def build(spec: Spec) -> Store:
    """A store holding `spec`; commands the store refuses (duplicate names) are left out."""
    store = make_store()
    ids: list[FolderId] = []
    for name, parent, emoji, colour in spec.folders:
        parent_id = ids[parent % len(ids)] if parent is not None and ids else None
        with contextlib.suppress(LexicalError):
            ids.append(
                store.create_folder(
                    NewFolder(name=name, parent_id=parent_id, emoji=emoji, color=colour)
                ).id
            )
    if not ids:
        return store
    for index, term, meanings, notes, lang, colour in spec.words:
        with contextlib.suppress(LexicalError):
            store.add_word(
                NewWord(
                    folder_id=ids[index % len(ids)],
                    term=term,
                    meanings=meanings,
                    notes=notes,
                    lang=lang,
                    color=colour,
                )
            )
    for index, title, body in spec.notes:
        store.add_note(NewNote(folder_id=ids[index % len(ids)], title=title, body=body))
    words = [w.id for f in ids for w in store.words(f)]
    for number, (index, direction, rating) in enumerate(spec.grades):
        if words:  # an hour apart, so each card's grades come in time order
            grade(
                store, words[index % len(words)], direction, rating, START + number * 60 * MINUTE_MS
            )
    for folder, retention in spec.options:
        target = None if folder is None else ids[folder % len(ids)]
        store.study.set_options(target, StudyOptions(retention=retention))
    return store


def sample_store() -> Store:
    store = make_store()
    bio = store.create_folder(NewFolder(name="Biology", emoji="🧬", color="green"))
    cells = store.create_folder(NewFolder(name="Cells/Tissues", parent_id=bio.id))
    store.add_word(
        NewWord(
            folder_id=cells.id, term="mitosis", meanings=["cell division"], notes="n", lang="en"
        )
    )
    store.add_word(NewWord(folder_id=bio.id, term="célula", meanings=["cell"], color="red"))
    store.add_note(NewNote(folder_id=bio.id, title="Tips", body="**learn** the phases"))
    return store


def parse(name: str, data: bytes) -> ParsedImport:
    return run_steps(read_import(name, data))


def preview(store: Store, parsed: ParsedImport, mode: Mode = "merge") -> PlanSummary:
    return run_steps(store.preview_import(parsed, mode))


def assert_refused(name: str, data: bytes, message: str) -> None:
    """Importing `data` fails with `message` in a plain sentence, and the workspace is as before."""
    store = sample_store()
    before = dump(store)
    with pytest.raises(InvalidInput) as caught:
        parse(name, data)
    assert message in caught.value.message
    assert dump(store) == before


def backup(store: Store) -> dict[str, Any]:
    """The store's JSON backup, read back as data."""
    document: dict[str, Any] = json.loads(store.export("json"))
    return document


def database_at(version: int) -> bytes:
    """A database file at an older schema `version`, holding one folder named Old."""
    db = Database.open()
    migrate(db, target=version)
    db.execute(
        "INSERT INTO folder (id, parent_id, name, name_key, created_at, updated_at) "
        "VALUES (1, NULL, 'Old', 'old', 5, 6)"
    )
    return db.serialize()
