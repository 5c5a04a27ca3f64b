"""Cards scheduled again from their own reviews, as their folders' options now say (issue 26):
after fitted parameters are put to use, or taken back, and after a word or a folder moves to
where other options schedule it. A card's schedule is the replay of its
log (decision 036), so this writes exactly what studying with these options from the start
would have left, later grades included."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import replace

from app.domain import FolderId, WordId
from app.store import Store
from app.store.changes import Change
from app.store.queries import moved_placement
from app.store.study_queries import COLLECTION
from app.study.options import DEFAULT_OPTIONS, StudyOptions
from app.study.scheduler import replay


def schedules_differ(before: StudyOptions, after: StudyOptions) -> bool:
    """Whether cards studied with `before` would be scheduled otherwise with `after`: only the
    retention and the parameters enter a schedule (the rest says what is asked, and how)."""
    return _scheduling(before.model_dump()) != _scheduling(after.model_dump())


def rescheduled_by(store: Store, changes: Iterable[Change]) -> int:
    """After an undo or redo: reschedule the folders whose options `changes` changed in a way
    that moves schedules (row 0, the collection's: every card)."""
    moved = 0
    for change in changes:
        if change.table != "study_options":
            continue
        old, new = (_stored(row) for row in (change.old, change.new))
        if _scheduling(old) != _scheduling(new):
            row_id = (change.new or change.old or {}).get("id")
            folder = FolderId(row_id) if isinstance(row_id, int) and row_id != COLLECTION else None
            moved += reschedule(store, folder)
    return moved


def _stored(row: Mapping[str, object] | None) -> dict[str, object]:
    """A study_options row's options as stored (JSON); none, or unreadable, as nothing set. A
    folder without a row takes its parent's, which this cannot tell apart, so it errs towards
    rescheduling."""
    text = None if row is None else row.get("options")
    try:
        found = json.loads(text) if isinstance(text, str) else {}
    except ValueError:
        found = {}
    return found if isinstance(found, dict) else {}


def _scheduling(options: Mapping[str, object]) -> tuple[object, object]:
    parameters = options.get("parameters")
    kept = tuple(parameters) if isinstance(parameters, list | tuple) else None
    return options.get("retention", DEFAULT_OPTIONS.retention), kept


def rescheduled_after_moves(store: Store, changes: Iterable[Change]) -> int:
    """After words or folders moved, or a move was undone or redone: replay the cards that
    changed folder, and the moved folders that, having no options of their own, now inherit
    other scheduling. Moved cards are replayed even between folders that schedule alike: an
    undo writes back the card's whole row from before the move, and the grades given since
    must stay in its schedule."""
    options = store.study.options_map()
    collection, _ = store.study.options_for(None)
    own = store.study.own_options()

    def of(folder: object) -> StudyOptions:
        return options.get(FolderId(folder), collection) if isinstance(folder, int) else collection

    words: set[WordId] = set()
    folders: list[FolderId] = []
    for change in changes:
        if not moved_placement(change):
            continue
        assert change.old is not None
        assert change.new is not None
        if change.table == "card":
            words.add(WordId(int(str(change.new["word_id"]))))
            continue
        folder = FolderId(int(str(change.new["id"])))
        if folder not in own and schedules_differ(of(change.old["parent_id"]), of(folder)):
            folders.append(folder)
    moved = reschedule(store, None, words=sorted(words)) if words else 0
    return moved + sum(reschedule(store, folder) for folder in folders)


def reschedule(
    store: Store, folder_id: FolderId | None, *, words: list[WordId] | None = None
) -> int:
    """Replay every card of a folder and its subfolders (None: everywhere), or of `words`,
    with its folder's options and write those whose schedule changes; returns how many did."""
    options = store.study.options_map()
    changed = []
    for card in store.study.logged_cards(folder_id, words):
        if not card.log:  # a card without reviews has nothing to replay
            continue
        after = replay(card.log, options.get(card.folder_id, DEFAULT_OPTIONS), card.seed)
        if replace(after, last_day=None) != replace(card.progress, last_day=None):
            changed.append((card.id, after))
    store.study.set_schedules(changed)
    return len(changed)
