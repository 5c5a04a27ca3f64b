"""Cards scheduled again from their own reviews, as their folders' options now say (issue 26):
after fitted parameters are put to use, or taken back, and after a word or a folder moves to
where other options schedule it. A card's schedule is the replay of its
log (decision 036), so this writes exactly what studying with these options from the start
would have left, later grades included."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence

from app.domain import FolderId
from app.store import Store
from app.store.changes import Change
from app.store.queries import moved_placement
from app.store.schedules import clear_stale
from app.store.study_queries import COLLECTION
from app.store.transfer.steps import Progress, Steps, run_steps
from app.study.fast_replay import Replayer, replayer
from app.study.model import card_seed
from app.study.options import DEFAULT_OPTIONS, StudyOptions

# Cards read and replayed, then written, between two steps: each about 20-50 ms in the page
# (which runs steps for about 20 ms a task: app/browser/slices.py); each write also puts the
# card table's capture trigger aside and back, so smaller batches cost more in all.
BATCH = 1_000


def schedules_differ(before: StudyOptions, after: StudyOptions) -> bool:
    """Whether cards studied with `before` would be scheduled otherwise with `after`: only the
    retention and the parameters enter a schedule (the rest says what is asked, and how)."""
    return _scheduling(before.model_dump()) != _scheduling(after.model_dump())


def rescheduled_by(store: Store, changes: Iterable[Change]) -> int:
    """`rescheduling_by` at once."""
    return run_steps(rescheduling_by(store, changes))


def rescheduling_by(store: Store, changes: Iterable[Change]) -> Steps[int]:
    """After an undo or redo: reschedule the folders whose options `changes` changed in a way
    that moves schedules (row 0, the collection's: every card), a chunk at a time."""
    moved = 0
    for change in changes:
        if change.table != "study_options":
            continue
        old, new = (_stored(row) for row in (change.old, change.new))
        if _scheduling(old) != _scheduling(new):
            row_id = (change.new or change.old or {}).get("id")
            folder = FolderId(row_id) if isinstance(row_id, int) and row_id != COLLECTION else None
            moved += yield from rescheduling(store, folder)
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


def rescheduling_stale(store: Store) -> Steps[int]:
    """Replay every card, as the page does once when `store.schedules_stale` says stored due
    dates may be of the fuzz before decision 045's (a collection from schema 8 or an older
    backup imported), then clear the mark. A grade given meanwhile is replayed too."""
    moved = yield from rescheduling(store, None)
    clear_stale(store.study.db)
    return moved


def rescheduled_after_moves(store: Store, changes: Iterable[Change]) -> int:
    """After words or folders moved, or a move was undone or redone: replay the cards that
    changed folder, and the moved folders that, having no options of their own, now inherit
    other scheduling. Moved cards are replayed even between folders that schedule alike: an
    undo writes back the card's whole row from before the move, and the grades given since
    must stay in its schedule."""
    moves = [change for change in changes if moved_placement(change)]
    if not moves:  # most writes (every piece of a first sync): no options to read
        return 0
    options = store.study.options_map()
    collection, _ = store.study.options_for(None)
    own = store.study.own_options()

    def of(folder: object) -> StudyOptions:
        return options.get(FolderId(folder), collection) if isinstance(folder, int) else collection

    cards: set[int] = set()
    folders: list[FolderId] = []
    for change in moves:
        assert change.old is not None
        assert change.new is not None
        if change.table == "card":
            cards.add(int(str(change.new["id"])))
            continue
        folder = FolderId(int(str(change.new["id"])))
        if folder not in own and schedules_differ(of(change.old["parent_id"]), of(folder)):
            folders.append(folder)
    moved = reschedule(store, None, sorted(cards)) if cards else 0
    return moved + sum(reschedule(store, folder) for folder in folders)


def _replayer(options: Mapping[FolderId, StudyOptions], folder: int) -> Replayer:
    chosen = options.get(FolderId(folder), DEFAULT_OPTIONS)
    return replayer(chosen.retention, chosen.parameters)


def reschedule(store: Store, folder_id: FolderId | None, cards: Sequence[int] = ()) -> int:
    """Replay every card of a folder and its subfolders (None: everywhere), or only `cards`,
    with its folder's options and write those whose schedule changes; returns how many did."""
    return run_steps(rescheduling(store, folder_id, cards))


def rescheduling(store: Store, folder_id: FolderId | None, cards: Sequence[int] = ()) -> Steps[int]:
    """`reschedule` a batch of cards at a time (only `cards` of them, if given): each batch's
    logs read, replayed and written before the next, so the page can answer in between. A
    card graded or moved after its batch was read is left by the write and replayed again
    from its new log at the end. The page holds back options changes while this runs (the
    cards of later batches would otherwise get the options read at the start)."""
    ids = list(cards) or store.study.logged_card_ids(folder_id)
    options = store.study.options_map()
    replayers: dict[int, Replayer] = {}
    count, again = 0, []
    for start in range(0, len(ids), BATCH):
        logs = store.study.card_logs(folder_id, ids[start : start + BATCH])
        starts, reviews, stored = logs.starts, logs.reviews, logs.stored
        changed = []
        for i, folder in enumerate(logs.folders):
            chosen = replayers.get(folder)
            if chosen is None:
                chosen = replayers[folder] = _replayer(options, folder)
            after = chosen.schedule(reviews[starts[i] : starts[i + 1]], card_seed(*logs.seeds[i]))
            if after != stored[i]:
                changed.append((logs.rows[i], after))
        done = Progress("Rescheduling", min(start + BATCH, len(ids)), len(ids))
        yield done  # replayed: a grade given now is found by the write
        moved = store.study.set_schedules(logs.fields, changed)
        count += len(changed) - len(moved)
        again += moved
        yield done  # written
    if again:  # graded or moved since their batch was read: their logs are read again
        count += yield from rescheduling(store, folder_id, again)
    return count
