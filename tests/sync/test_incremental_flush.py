"""A remote update is written by reading again only the rows it touched (adapter `_Reads`):
after each kind of update the database says what a read of the whole document would, so a
full flush finds nothing left to write."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.inputs import FolderPatch, NewFolder, NewNote, NewWord, WordPatch
from app.store import Store
from app.store.db import Database
from app.study.model import Rating
from app.study.options import StudyOptions
from app.studying.session import StudySession
from app.sync.adapter import SyncAdapter
from tests.study.helpers import Clock
from tests.sync.pycrdt_engine import PycrdtEngine


class Device:
    def __init__(self) -> None:
        self.clock = Clock()
        self.store = Store(Database.open(), clock=self.clock)
        self.engine = PycrdtEngine()
        self.adapter = SyncAdapter(self.store, self.engine)

    def folder(self, name: str) -> int:
        return int(next(f.id for f in self.store.folders() if f.name == name))

    def word(self, term: str) -> int:
        found = [w for f in self.store.folders() for w in self.store.words(f.id)]
        return int(next(w.id for w in found if w.term == term))

    def grade(self) -> None:
        session = StudySession.start(
            self.store, {"kind": "all"}, "flashcard", self.clock, lambda: 0
        )
        assert session.turn is not None
        session.reveal()
        session.grade(Rating.GOOD)


def _send(source: Device, target: Device) -> None:
    target.engine.apply_update(source.engine.encode_state())


def _assert_nothing_left(device: Device) -> None:
    written: list[object] = []
    unsubscribe = device.store.subscribe(written.append)
    device.adapter.flush(everything=True)
    unsubscribe()
    assert written == []


def _started() -> tuple[Device, Device]:
    one, two = Device(), Device()
    spanish = one.store.create_folder(NewFolder(name="Spanish"))
    one.store.create_folder(NewFolder(name="Verbs", parent_id=spanish.id))
    one.store.add_word(NewWord(folder_id=spanish.id, term="perro", meanings=["dog"]))
    one.store.add_note(NewNote(folder_id=spanish.id, title="Tips", body="say it"))
    for device in (one, two):
        device.adapter.start()
    _send(one, two)
    _send(two, one)
    return one, two


def _grade(one: Device, two: Device) -> None:
    one.grade()


def _edit_word(one: Device, two: Device) -> None:
    one.store.update_word(one.word("perro"), WordPatch(term="perrito", meanings=["puppy"]))


def _move_word(one: Device, two: Device) -> None:
    one.store.move_words([one.word("perro")], one.folder("Verbs"))


def _delete_folder(one: Device, two: Device) -> None:
    one.store.delete_folder(one.folder("Spanish"))


def _delete_folder_then_undo(one: Device, two: Device) -> None:
    one.store.delete_folder(one.folder("Spanish"))
    _send(one, two)
    one.store.undo()


def _move_folder_to_the_top(one: Device, two: Device) -> None:
    one.store.move_folder(one.folder("Verbs"), None)
    one.store.update_folder(one.folder("Verbs"), FolderPatch(color="red"))


def _new_folder_with_words(one: Device, two: Device) -> None:
    made = one.store.create_folder(NewFolder(name="Animals"))
    one.store.add_word(NewWord(folder_id=made.id, term="gato", meanings=["cat"]))
    one.store.move_words([one.word("perro")], made.id)


def _options(one: Device, two: Device) -> None:
    one.store.study.set_options(one.folder("Spanish"), StudyOptions(new_per_day=3))
    one.store.study.set_options(None, StudyOptions(retention=0.85))


def _graded_on_both(one: Device, two: Device) -> None:
    one.grade()
    two.clock.advance(minutes=5)
    two.grade()
    _send(two, one)


@pytest.mark.parametrize(
    "change",
    [
        _grade,
        _edit_word,
        _move_word,
        _delete_folder,
        _delete_folder_then_undo,
        _move_folder_to_the_top,
        _new_folder_with_words,
        _options,
        _graded_on_both,
    ],
)
def test_an_update_written_from_the_rows_it_touched_leaves_nothing_to_write(
    change: Callable[[Device, Device], None],
) -> None:
    one, two = _started()
    change(one, two)
    _send(one, two)
    for device in (one, two):
        _assert_nothing_left(device)
    words = [
        sorted((w.term, w.meanings) for f in d.store.folders() for w in d.store.words(f.id))
        for d in (one, two)
    ]
    assert words[0] == words[1]
    reviews = [d.store.study.db.scalar("SELECT count(*) FROM review") for d in (one, two)]
    assert reviews[0] == reviews[1]


def _collection(device: Device, words: int) -> None:
    spanish = device.store.create_folder(NewFolder(name="Spanish"))
    verbs = device.store.create_folder(NewFolder(name="Verbs", parent_id=spanish.id))
    for index in range(words):
        folder = verbs if index % 3 else spanish
        device.store.add_word(NewWord(folder_id=folder.id, term=f"w{index}", meanings=["m"]))
    device.grade()


def _held_first_sync(words: int) -> tuple[Device, Device]:
    """Device two paired and waiting with device one's whole collection to write."""
    one, two = Device(), Device()
    _collection(one, words)
    for device in (one, two):
        device.adapter.start()
    two.adapter.hold(True)
    _send(one, two)
    assert two.adapter.big()
    assert two.store.folders() == []
    return one, two


def test_a_first_sync_in_steps_writes_it_all_a_piece_at_a_time() -> None:
    one, two = _held_first_sync(250)
    labels: list[str] = []
    two.store.subscribe(lambda changeset: labels.append(changeset.label))
    steps = list(two.adapter.flush_steps())
    two.adapter.hold(False)
    assert len(steps) > 5
    done = [d for d, _ in steps]
    assert done == sorted(done)
    assert steps[-1][0] == steps[-1][1]
    assert len(labels) >= 3  # written in pieces, each its own change
    _assert_nothing_left(two)
    terms = [
        sorted(w.term for f in d.store.folders() for w in d.store.words(f.id)) for d in (one, two)
    ]
    assert terms[0] == terms[1]
    reviews = [d.store.study.db.scalar("SELECT count(*) FROM review") for d in (one, two)]
    assert reviews == [1, 1]


def test_edits_and_updates_between_the_steps_are_kept() -> None:
    one, two = _held_first_sync(250)
    steps = two.adapter.flush_steps()
    for _ in range(6):
        next(steps)
    # Part way: an edit here, and an update from the other device that waits.
    made = two.store.create_folder(NewFolder(name="Made here meanwhile"))
    one.store.update_folder(one.folder("Spanish"), FolderPatch(name="Español"))
    _send(one, two)
    for _ in steps:
        pass
    two.adapter.hold(False)
    two.adapter.flush()
    _send(two, one)
    names = [sorted(f.name for f in d.store.folders()) for d in (one, two)]
    assert names[0] == names[1] == ["Español", "Made here meanwhile", "Verbs"]
    assert two.store.folder(made.id).name == "Made here meanwhile"
    for device in (one, two):
        _assert_nothing_left(device)


def test_a_big_update_that_deletes_a_folder_and_adds_words_in_steps() -> None:
    one, two = Device(), Device()
    _collection(one, 250)
    for device in (one, two):
        device.adapter.start()
    _send(one, two)
    one.store.delete_folder(one.folder("Verbs"))
    for index in range(150):
        one.store.add_word(
            NewWord(folder_id=one.folder("Spanish"), term=f"n{index}", meanings=["m"])
        )
    two.adapter.hold(True)
    _send(one, two)
    assert two.adapter.big()
    for _ in two.adapter.flush_steps():
        pass
    two.adapter.hold(False)
    assert sorted(f.name for f in two.store.folders()) == ["Spanish"]
    assert two.store.word_count(two.folder("Spanish")) == one.store.word_count(
        one.folder("Spanish")
    )
    _assert_nothing_left(two)
