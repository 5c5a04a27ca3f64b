"""Schema 8's global ids: existing rows get them, every insert path makes them, and a row keeps
its id through undo, redo, a reload and the operation log's replay (decision 040)."""

from __future__ import annotations

from app.domain import FolderId
from app.inputs import NewFolder, NewNote, NewWord, WordPatch
from app.store import Store
from app.store.db import Database
from app.store.migrations import migrate
from app.store.results import BulkRow
from app.study.model import Rating
from app.studying.session import StudySession
from tests.store.helpers import assert_index_in_sync, make_store
from tests.study.helpers import Clock
from tests.test_ids import TEXT

SYNCED = ("folder", "word", "note", "review")


def _gids(store: Store) -> dict[str, dict[int, str]]:
    db = store.study.db
    return {t: {r[0]: r[1] for r in db.all(f"SELECT id, gid FROM {t}")} for t in SYNCED}


def _graded(store: Store, clock: Clock) -> None:
    session = StudySession.start(store, {"kind": "all"}, "flashcard", clock, lambda: 0)
    assert session.turn is not None
    session.reveal()
    session.grade(Rating.GOOD)


def test_existing_rows_get_ids_counted_from_when_they_were_made() -> None:
    db = Database.open()
    migrate(db, target=7)
    db.execute("INSERT INTO folder VALUES (1, NULL, 'F', 'f', '', 'none', 1000, 1000, '')")
    db.execute(
        "INSERT INTO word VALUES (1, 1, 'Perro', 'perro', '[\"dog\"]', 'a *pet*', 'none', '', "
        "2000, 2000)"
    )
    db.execute("INSERT INTO note VALUES (1, 1, 'T', 'body', 3000, 3000)")
    db.execute(
        "INSERT INTO card VALUES (1, 1, 1, 'forward', 2, NULL, 3.0, 5.0, 9000, 4000, 1, 0, 4000, "
        "4000)"
    )
    db.execute(
        "INSERT INTO review VALUES (1, 1, NULL, 3, 4000, 0, 'flashcard', 0, NULL, NULL, NULL, "
        "NULL, NULL, 0)"
    )
    store = Store(db)
    gids = _gids(store)
    assert all(TEXT.fullmatch(gid) for table in gids.values() for gid in table.values())
    made = {t: int(gids[t][1].replace("-", "")[:12], 16) for t in SYNCED}
    assert made == {"folder": 1000, "word": 2000, "note": 3000, "review": 4000}
    assert db.scalar("SELECT seed FROM word") is None  # its cards keep their local seed
    assert_index_in_sync(store)
    assert [h.title for h in store.search("pet")] == ["Perro"]
    # The word's triggers came back: a move carries its card, a delete takes card and review.
    other = store.create_folder(NewFolder(name="G"))
    store.move_words([1], other.id)  # type: ignore[list-item]
    assert db.scalar("SELECT folder_id FROM card") == other.id
    store.delete_words([1])  # type: ignore[list-item]
    assert db.scalar("SELECT count(*) FROM review") == 0


def test_every_insert_path_makes_a_distinct_id() -> None:
    clock = Clock()
    store = Store(Database.open(), clock=clock)
    folder = store.create_folder(NewFolder(name="Spanish"))
    store.add_word(NewWord(folder_id=folder.id, term="perro", meanings=["dog"]))
    store.bulk_add(folder.id, [BulkRow(line=1, term="gato", meanings=["cat"], status="ok")])
    store.add_note(NewNote(folder_id=folder.id, title="Plurals"))
    _graded(store, clock)
    gids = _gids(store)
    assert {t: len(v) for t, v in gids.items()} == {"folder": 1, "word": 2, "note": 1, "review": 1}
    every = [gid for table in gids.values() for gid in table.values()]
    assert len(set(every)) == len(every)


def test_a_row_keeps_its_id_through_undo_redo_reload_and_the_log() -> None:
    store = make_store()
    logged: list[list[object]] = []
    store.subscribe(lambda changeset: logged.append(list(changeset.changes)))
    folder = store.create_folder(NewFolder(name="Spanish"))
    word = store.add_word(NewWord(folder_id=folder.id, term="perro", meanings=["dog"]))
    store.update_word(word.id, WordPatch(term="perrito"))
    before = _gids(store)
    store.undo()
    store.undo()
    assert _gids(store)["word"] == {}
    store.redo()
    store.redo()
    assert _gids(store) == before
    assert _gids(Store.from_snapshot(store.snapshot())) == before
    replayed = make_store()
    for changes in logged:
        replayed.apply_logged(changes)  # type: ignore[arg-type]
    assert _gids(replayed) == before
    store.delete_folder(FolderId(folder.id))
    store.undo()
    assert _gids(store) == before
