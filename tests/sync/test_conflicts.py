"""Conflicts shown and settled ("Changed on two devices: keep this / that", issue 27): every
device lists the same ones in words a person can choose between, and keeping either value
settles it on every device, whichever device chose."""

from __future__ import annotations

import pytest

from app.inputs import FolderPatch, NewFolder, NewWord, WordPatch
from app.store import Store
from app.store.db import Database
from app.study.options import StudyOptions
from app.sync.adapter import SyncAdapter
from app.sync.conflict_text import described
from app.sync.model import Conflict
from tests.study.helpers import Clock
from tests.sync.pycrdt_engine import PycrdtEngine


class Devices:
    def __init__(self, count: int = 2) -> None:
        self.stores: list[Store] = []
        self.adapters: list[SyncAdapter] = []
        self.engines: list[PycrdtEngine] = []
        self.heard = [0] * count
        for index in range(count):
            store = Store(Database.open(), clock=Clock())
            engine = PycrdtEngine()
            adapter = SyncAdapter(store, engine)
            adapter.on_conflicts(lambda index=index: self._heard(index))
            self.stores.append(store)
            self.engines.append(engine)
            self.adapters.append(adapter)

    def _heard(self, index: int) -> None:
        self.heard[index] += 1

    def exchange(self) -> None:
        states = [e.encode_state() for e in self.engines]
        for engine in self.engines:
            for state in states:
                engine.apply_update(state)

    def word(self, index: int, term_or_none: str | None = None) -> int:
        store = self.stores[index]
        (word,) = store.words(store.folders()[0].id)
        assert term_or_none in (None, word.term)
        return int(word.id)


def _term_conflict(devices: Devices) -> Conflict:
    folder = devices.stores[0].create_folder(NewFolder(name="Spanish"))
    devices.stores[0].add_word(NewWord(folder_id=folder.id, term="perro", meanings=["dog"]))
    devices.exchange()
    devices.stores[0].update_word(devices.word(0), WordPatch(term="perrito"))
    devices.stores[1].update_word(devices.word(1), WordPatch(term="can"))
    devices.exchange()
    (conflict,) = devices.adapters[0].conflicts()
    assert devices.adapters[1].conflicts() == [conflict]
    return conflict


@pytest.mark.parametrize("chooser", [0, 1])
@pytest.mark.parametrize("pick", ["kept", "other"])
def test_keeping_either_value_on_either_device_settles_it_everywhere(
    chooser: int, pick: str
) -> None:
    devices = Devices()
    conflict = _term_conflict(devices)
    assert devices.heard == [1, 1]
    value = conflict.kept if pick == "kept" else conflict.others[0]
    devices.adapters[chooser].keep(conflict, value)
    assert devices.adapters[chooser].conflicts() == []
    assert devices.stores[chooser].word(devices.word(chooser)).term == value
    devices.exchange()
    for index in range(2):
        assert devices.adapters[index].conflicts() == []
        assert devices.stores[index].word(devices.word(index)).term == value
    assert devices.heard == [2, 2]


def test_a_conflict_settled_here_and_written_again_there_meanwhile_is_no_conflict() -> None:
    devices = Devices()
    conflict = _term_conflict(devices)
    devices.adapters[0].keep(conflict, "perrito")
    devices.stores[1].update_word(devices.word(1), WordPatch(term="perrazo"))
    devices.exchange()
    # Two fresh writes made apart: a new conflict between them, never the old values back.
    (again,) = devices.adapters[0].conflicts()
    assert {again.kept, *again.others} == {"perrito", "perrazo"}
    assert devices.adapters[1].conflicts() == [again]


def test_three_devices_list_every_other_value_once() -> None:
    devices = Devices(3)
    folder = devices.stores[0].create_folder(NewFolder(name="Spanish"))
    devices.exchange()
    for index, name in enumerate(["Español", "Castellano", "Español"]):
        store = devices.stores[index]
        store.update_folder(store.folders()[0].id, FolderPatch(name=name))
    devices.exchange()
    conflicts = [adapter.conflicts() for adapter in devices.adapters]
    assert conflicts[0] == conflicts[1] == conflicts[2]
    (conflict,) = conflicts[0]
    assert sorted([conflict.kept, *conflict.others]) == ["Castellano", "Español"]
    assert folder.name == "Spanish"  # the name before: no value of its own in the conflict
    assert "Spanish" not in (conflict.kept, *conflict.others)


def test_conflicts_read_as_words_with_the_shown_value_first() -> None:
    devices = Devices()
    conflict = _term_conflict(devices)
    (shown,) = described(devices.adapters[1].doc, [conflict])
    assert shown.field == "term"
    assert shown.subject == f"Word “{conflict.kept}” in “Spanish”"
    assert [c.label for c in shown.choices] == [f"“{conflict.kept}”", f"“{conflict.others[0]}”"]
    assert [c.value for c in shown.choices] == [conflict.kept, conflict.others[0]]


def test_moves_colours_and_study_options_read_as_words() -> None:
    devices = Devices()
    one, two = devices.stores
    spanish = one.create_folder(NewFolder(name="Spanish"))
    one.create_folder(NewFolder(name="Verbs"))
    one.create_folder(NewFolder(name="Nouns"))
    devices.exchange()
    ids = [{f.name: f.id for f in store.folders()} for store in devices.stores]
    one.update_folder(ids[0]["Spanish"], FolderPatch(color="red"))
    two.update_folder(ids[1]["Spanish"], FolderPatch(color="blue"))
    one.move_folder(ids[0]["Verbs"], ids[0]["Spanish"])
    two.move_folder(ids[1]["Verbs"], ids[1]["Nouns"])
    one.study.set_options(spanish.id, StudyOptions(new_per_day=5))
    two.study.set_options(ids[1]["Spanish"], StudyOptions(new_per_day=30))
    devices.exchange()
    found = {
        c.field: c for c in described(devices.adapters[0].doc, devices.adapters[0].conflicts())
    }
    assert set(found) == {"colour", "place", "study options"}
    assert sorted(c.label for c in found["colour"].choices) == ["blue", "red"]
    assert sorted(c.label for c in found["place"].choices) == ["“Nouns”", "“Spanish”"]
    assert found["place"].subject == "Folder “Verbs”"
    assert sorted(c.label for c in found["study options"].choices) == [
        "30 new a day",
        "5 new a day",
    ]


def test_a_hostile_value_is_shown_clipped_and_clean() -> None:
    devices = Devices()
    conflict = Conflict("folders", "x", "name", "a\x00b" + "z" * 500, ("ok",))
    (shown,) = described(devices.adapters[0].doc, [conflict])
    label = shown.choices[0].label
    assert "\x00" not in label
    assert len(label) < 210
    assert label.endswith("…”")
    assert shown.subject == "Folder"  # a row not here yet
