"""The merge rules one at a time: a field edited on two devices apart is kept as a conflict on
both, texts merge, and moves that make a cycle resolve alike everywhere (decision 040)."""

from __future__ import annotations

from app.inputs import NewFolder, NewWord, WordPatch
from app.store import Store
from app.store.db import Database
from app.sync.adapter import SyncAdapter
from tests.study.helpers import Clock
from tests.sync.pycrdt_engine import PycrdtEngine


def _pair() -> tuple[list[Store], list[SyncAdapter], list[PycrdtEngine]]:
    stores, adapters, engines = [], [], []
    for _ in range(2):
        store = Store(Database.open(), clock=Clock())
        engine = PycrdtEngine()
        stores.append(store)
        engines.append(engine)
        adapters.append(SyncAdapter(store, engine))
    return stores, adapters, engines


def _exchange(engines: list[PycrdtEngine]) -> None:
    first, second = (e.encode_state() for e in engines)
    engines[1].apply_update(first)
    engines[0].apply_update(second)


def test_a_field_edited_on_two_devices_apart_is_kept_as_a_conflict_on_both() -> None:
    stores, adapters, engines = _pair()
    folder = stores[0].create_folder(NewFolder(name="Spanish"))
    word = stores[0].add_word(NewWord(folder_id=folder.id, term="perro", meanings=["dog"]))
    _exchange(engines)
    there = stores[1].words(stores[1].folders()[0].id)[0]
    stores[0].update_word(word.id, WordPatch(term="perrito", notes="small"))
    stores[1].update_word(there.id, WordPatch(term="can", notes="old word"))
    _exchange(engines)
    terms = {store.words(store.folders()[0].id)[0].term for store in stores}
    assert len(terms) == 1
    kept = terms.pop()
    for adapter in adapters:
        (conflict,) = adapter.conflicts()
        assert (conflict.field, conflict.kept) == ("term", kept)
        assert set(conflict.others) == {"perrito", "can"} - {kept}
    # Texts merge instead: both notes are there.
    notes = stores[0].words(stores[0].folders()[0].id)[0].notes
    assert "small" in notes
    assert "old word" in notes
    # Keeping one writes it again: the conflict is gone everywhere.
    stores[1].update_word(there.id, WordPatch(term="perrito"))
    _exchange(engines)
    assert adapters[0].conflicts() == adapters[1].conflicts() == []
    assert stores[0].word(word.id).term == "perrito"


def test_moves_made_apart_that_make_a_cycle_resolve_alike() -> None:
    stores, _, engines = _pair()
    a = stores[0].create_folder(NewFolder(name="a"))
    b = stores[0].create_folder(NewFolder(name="b"))
    _exchange(engines)
    there = {f.name: f.id for f in stores[1].folders()}
    stores[0].move_folder(a.id, b.id)
    stores[1].move_folder(there["b"], there["a"])
    _exchange(engines)
    trees = [
        sorted((f.name, f.parent_id and store.folder(f.parent_id).name) for f in store.folders())
        for store in stores
    ]
    assert trees[0] == trees[1]
    assert sum(parent is None for _, parent in trees[0]) == 1  # one move kept, no cycle
