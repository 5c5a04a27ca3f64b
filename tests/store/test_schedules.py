"""Writing many schedules at once (app/store/schedules.py): the changes it makes itself are
exactly what the capture triggers would have recorded for the same write, so the operation
log, the other tab and a replay at boot see a reschedule as they see any write; and a card
graded after its log was read is left as the grade made it, for the caller to replay again."""

from __future__ import annotations

from contextlib import nullcontext

import pytest

from app.store import Store
from app.store import schedules as module
from app.store.changes import take_captured
from app.store.db import Database
from app.store.schedules import Row, write_schedules
from app.study.options import StudyOptions
from app.studying.reschedule import reschedule
from tests.study.helpers import Clock
from tests.study.test_reschedule import FITTED, _studied


def _new_schedules(store: Store) -> tuple[list[str], list[tuple[Row, Row]]]:
    logs = store.study.card_logs(None)
    # Any new values will do: a stability a little higher, a due a day later, a lapse more.
    return logs.fields, [
        (row, (*read[:2], read[2] * 1.1, read[3], read[4] + 86_400_000, *read[5:7], read[7] + 1))
        for row, read in zip(logs.rows, logs.stored, strict=True)
    ]


def test_the_changes_written_are_what_the_triggers_capture(monkeypatch: pytest.MonkeyPatch) -> None:
    store, _ = _studied(Clock())
    take_captured(store.study.db)
    image = store.snapshot()
    ours, theirs = (Store(Database.from_bytes(image)) for _ in range(2))
    made, moved = write_schedules(ours.study.db, *_new_schedules(ours), 123)
    monkeypatch.setattr(module, "uncaptured", lambda *_: nullcontext())
    write_schedules(theirs.study.db, *_new_schedules(theirs), 123)
    captured = take_captured(theirs.study.db)
    assert moved == []
    assert len(made) == len(captured) > 0
    assert sorted(made, key=lambda c: c.new["id"]) == sorted(captured, key=lambda c: c.new["id"])  # type: ignore[index]
    assert take_captured(ours.study.db) == []  # nothing recorded twice
    assert ours.snapshot() == theirs.snapshot()


def test_a_reschedule_is_logged_for_the_other_tab_and_keeps_the_trigger() -> None:
    store, folder = _studied(Clock())
    seen = []
    store.subscribe(seen.append)
    store.study.set_options(folder, StudyOptions(parameters=FITTED))
    moved = reschedule(store, folder)
    rescheduled = [c for c in seen if c.label == "Reschedule"]
    assert len(rescheduled) == 1
    assert len(rescheduled[0].changes) == moved > 0
    # The capture trigger is back: a later write to a card is captured as before.
    store.study.db.execute("UPDATE card SET reps = reps WHERE id = 1")
    assert [c.table for c in take_captured(store.study.db)] == ["card"]


def test_a_card_changed_since_it_was_read_is_left_for_the_caller() -> None:
    store, _ = _studied(Clock())
    fields, planned = _new_schedules(store)
    graded = planned[0][0][0]
    # Any change to the row counts: here only its folder (a word moved), by a trigger.
    store.study.db.execute("UPDATE card SET folder_id = folder_id + 1 WHERE id = ?", (graded,))
    take_captured(store.study.db)
    before = store.study.db.first("SELECT * FROM card WHERE id = ?", (graded,))
    assert store.study.set_schedules(fields, planned) == [graded]
    assert dict(store.study.db.first("SELECT * FROM card WHERE id = ?", (graded,))) == dict(before)  # type: ignore[arg-type]
