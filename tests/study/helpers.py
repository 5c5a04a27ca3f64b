"""Helpers for the study tests: a store on a clock the test moves, and a folder of words."""

from __future__ import annotations

from dataclasses import dataclass

from app.domain import Folder
from app.inputs import NewFolder, NewWord
from app.store import Store
from app.store.db import Database
from app.study.model import DAY_MS, MINUTE_MS

# 2026-11-23 12:00 UTC: the middle of a study day whatever the offset below.
NOON = 1_795_435_200_000


@dataclass
class Clock:
    now: int = NOON

    def __call__(self) -> int:
        return self.now

    def advance(self, *, minutes: float = 0, days: float = 0) -> None:
        self.now += round(minutes * MINUTE_MS + days * DAY_MS)


def make_store(clock: Clock) -> Store:
    return Store(Database.open(), clock=clock)


def folder_with_words(
    store: Store, name: str, words: list[tuple[str, list[str]]], parent: Folder | None = None
) -> Folder:
    folder = store.create_folder(NewFolder(name=name, parent_id=parent.id if parent else None))
    for term, meanings in words:
        store.add_word(NewWord(folder_id=folder.id, term=term, meanings=meanings))
    return folder


SPANISH = [
    ("perro", ["dog"]),
    ("gato", ["cat"]),
    ("casa", ["house", "home"]),
    ("libro", ["book"]),
    ("agua", ["water"]),
]


def assert_replays(store: Store) -> None:
    """Every card's stored schedule is exactly the replay of its log with its folder's options
    and its seed (decision 036)."""
    from app.study.scheduler import replay  # noqa: PLC0415 (py-fsrs, for the tests that need it)

    options = store.study.options_map()
    for card in store.study.logged_cards(None):
        assert replay(card.log, options[card.folder_id], card.seed) == card.progress
