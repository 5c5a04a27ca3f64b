"""A device that restarts (a reload, a phone closing the app) while it cannot reach the server.

The page keeps its document as the updates it was built from (static/sync.js `restore`, one
IndexedDB database per sync code) and starts the adapter on it. Started on an empty document
instead, the adapter writes every row afresh, and once the server's copy arrives each row's two
versions compete as wholes: one is dropped, and with it the edits made offline before the
restart. Here on pycrdt, a "server" document relays between two devices.
"""

from __future__ import annotations

import pytest

from app.inputs import NewFolder, NewWord, WordPatch
from app.store import Store
from app.store.db import Database
from app.sync.adapter import SyncAdapter
from app.sync.pairing import Pairing, new_code
from tests.study.helpers import Clock
from tests.sync.pycrdt_engine import PycrdtEngine


def _exchange(*engines: PycrdtEngine) -> None:
    states = [e.encode_state() for e in engines]
    for engine in engines:
        for state in states:
            engine.apply_update(state)


def _terms(store: Store) -> list[str]:
    return sorted(w.term for w in store.words(store.folders()[0].id))


def _restarted(store: Store, kept: bytes | None) -> tuple[SyncAdapter, PycrdtEngine]:
    """The page loading again: the same database, a new document (the kept one, if any)."""
    engine = PycrdtEngine()
    if kept is not None:
        engine.apply_update(kept)  # before the adapter observes the document, as in the page
    adapter = SyncAdapter(store, engine)
    adapter.start()
    return adapter, engine


@pytest.mark.parametrize("restarts", [1, 2])
def test_edits_made_offline_before_a_restart_reach_the_others(restarts: int) -> None:
    server = PycrdtEngine()
    stores = [Store(Database.open(), clock=Clock()) for _ in range(2)]
    engines = [PycrdtEngine() for _ in stores]
    adapters = [SyncAdapter(store, engine) for store, engine in zip(stores, engines, strict=True)]
    for adapter in adapters:
        adapter.start()
    folder = stores[0].create_folder(NewFolder(name="Spanish"))
    stores[0].add_word(NewWord(folder_id=folder.id, term="libro", meanings=["book"]))
    stores[0].add_word(NewWord(folder_id=folder.id, term="gato", meanings=["cat"]))
    _exchange(server, *engines)

    # Apart: one renames a word and restarts (maybe twice); two renames another.
    (libro,) = [w for w in stores[0].words(folder.id) if w.term == "libro"]
    stores[0].update_word(libro.id, WordPatch(term="librito"))
    for _ in range(restarts):
        adapters[0].close()
        adapters[0], engines[0] = _restarted(stores[0], engines[0].encode_state())
    (gato,) = [w for w in stores[1].words(stores[1].folders()[0].id) if w.term == "gato"]
    stores[1].update_word(gato.id, WordPatch(term="gatito"))

    _exchange(server, *engines)
    for store, adapter in zip(stores, adapters, strict=True):
        assert _terms(store) == ["gatito", "librito"]
        assert adapter.conflicts() == []


def test_each_sync_code_keeps_its_own_document() -> None:
    first, second = (Pairing.made("ws://127.0.0.1:8765", new_code()) for _ in range(2))
    assert first.document_name() != second.document_name()
    assert first.document_name() == Pairing.made("wss://other.example", first.code).document_name()
    assert first.document_name().startswith("lexical-sync-document-")
