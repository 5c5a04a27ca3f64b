"""Study values survive capture, the operation log, replay, undo and a reload bit for bit
(issue 26, item 2). SQLite's JSON functions write a REAL with 15 significant digits, which
turned 208.03389382921952 into 208.03389382922 after a reload."""

from __future__ import annotations

import asyncio
import math
import struct

from hypothesis import example, given
from hypothesis import strategies as st

from app.inputs import NewFolder, NewWord
from app.store import Changeset, Store
from app.store.changes import apply, take_captured
from app.store.durability import Durability
from app.store.oplog import decode_entry, encode_entry
from tests.store.test_durability import MemoryBackend

# Any finite double a schedule could hold, subnormals and the extremes included.
doubles = st.floats(allow_nan=False, allow_infinity=False)


def bits(value: object) -> bytes:
    assert isinstance(value, float)
    return struct.pack("<d", value)


def _add_card(store: Store) -> int:
    """A word and its card as studying makes it (new: no schedule yet)."""
    folder = store.create_folder(NewFolder(name="Biology"))
    word = store.add_word(NewWord(folder_id=folder.id, term="cell", meanings=["unit of life"]))
    return store._db.insert(
        "card",
        {"word_id": word.id, "folder_id": folder.id, "direction": "forward", "state": 0, "due": 0},
        0,
    )


def _card_store() -> tuple[Store, int]:
    store = Store.open()
    card = _add_card(store)
    take_captured(store._db)
    return store, card


def _schedule(store: Store, card: int) -> tuple[object, object]:
    row = store._db.first("SELECT stability, difficulty FROM card WHERE id = ?", (card,))
    assert row is not None
    return row["stability"], row["difficulty"]


@given(doubles, doubles)
# Doubles SQLite's `quote` writes one unit in the last place off (Pyodide's 3.39, Debian's 3.40).
@example(0.0, 9.380307590849321e-289)
@example(9.724857539203139, 5e-324)
def test_a_captured_change_carries_each_real_exactly(stability: float, difficulty: float) -> None:
    store, card = _card_store()
    store._db.execute(
        "UPDATE card SET stability = ?, difficulty = ? WHERE id = ?", (stability, difficulty, card)
    )
    [change] = take_captured(store._db)
    # What the database holds (SQLite keeps no sign on a zero), exactly, in the change,
    stored = [bits(v) for v in _schedule(store, card)]
    assert change.new is not None
    assert [bits(change.new["stability"]), bits(change.new["difficulty"])] == stored
    # and through the log's text into another copy of the database.
    _, logged = decode_entry(encode_entry(1, Changeset("grade", [change])))
    replica, _ = _card_store()
    apply(replica._db, logged.changes)
    assert [bits(v) for v in _schedule(replica, card)] == stored


def test_a_null_schedule_is_captured_as_null() -> None:
    store, card = _card_store()
    store._db.execute("UPDATE card SET stability = NULL, difficulty = NULL WHERE id = ?", (card,))
    [change] = take_captured(store._db)
    assert change.new is not None
    assert change.new["stability"] is None
    assert change.new["difficulty"] is None


def test_a_reload_from_the_log_keeps_the_schedule_the_grade_wrote() -> None:
    backend = MemoryBackend()
    durability = Durability(backend, snapshot_every=1000)
    asyncio.run(durability.boot())
    store = durability.store
    pending: list[Changeset] = []
    store.subscribe(pending.append)
    card = _add_card(store)
    exact = (208.03389382921952, 5.123456789012345 * math.pi)
    store._db.execute("UPDATE card SET stability = ?, difficulty = ? WHERE id = ?", (*exact, card))
    pending.append(Changeset("grade", take_captured(store._db)))
    for changeset in pending:
        asyncio.run(durability.persist(changeset))
    reloaded = Durability(backend)
    asyncio.run(reloaded.boot())
    assert [bits(v) for v in _schedule(reloaded.store, card)] == [bits(v) for v in exact]
