"""The workspace's working copy is a file (decision 035): opened from an image, imaged at one
moment, rolled back like any database, deleted when let go of."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest

from app.domain import LexicalError
from app.inputs import NewFolder, NewWord
from app.store import Store
from app.store.durability import Durability
from app.store.results import BulkRow
from app.store.working_copy import PIECE_BYTES, BytesImage, WorkingCopies, piece_count, sha256_hex
from tests.store.test_durability import MemoryBackend


def _filled() -> Store:
    store = Store.open()
    folder = store.create_folder(NewFolder(name="Biology"))
    for n in range(50):
        store.add_word(NewWord(folder_id=folder.id, term=f"cell {n}", meanings=["x" * 500]))
    return store


def test_a_copy_opened_from_an_image_is_a_file_holding_the_same_collection(
    tmp_path: Path,
) -> None:
    source = _filled()
    copies = WorkingCopies(str(tmp_path))
    store = copies.open(BytesImage(source.snapshot()))
    assert Path(store.path).parent == tmp_path
    assert store.folders() == source.folders()
    assert store.search("cell 7") == source.search("cell 7")
    assert store._db.scalar("PRAGMA journal_mode") == "memory"


def test_an_image_is_the_moment_it_was_taken_and_reads_in_pieces(tmp_path: Path) -> None:
    copies = WorkingCopies(str(tmp_path))
    store = copies.open(BytesImage(_filled().snapshot()))
    image = copies.image(store)
    before = Path(store.path).read_bytes()
    store.create_folder(NewFolder(name="After"))
    assert image.length == len(before)
    assert piece_count(image) == max(1, -(-len(before) // PIECE_BYTES))
    assert b"".join(image.piece(i) for i in range(piece_count(image))) == before
    assert "After" not in [f.name for f in Store.from_snapshot(before).folders()]


def test_a_failed_step_rolls_back_in_the_file(tmp_path: Path) -> None:
    copies = WorkingCopies(str(tmp_path))
    store = copies.open(BytesImage(_filled().snapshot()))
    size = os.path.getsize(store.path)
    folder = store.folders()[0]

    def turn() -> None:
        with store.group("A turn that fails"):
            # More than SQLite's page cache holds, so that pages go to the file before the end.
            rows = [
                BulkRow(line=n, term=f"new {n}", meanings=["y" * 1500], status="ok")
                for n in range(2500)
            ]
            store.bulk_add(folder.id, rows)
            assert os.path.getsize(store.path) > size
            raise LexicalError("the model gave up")

    with pytest.raises(LexicalError):
        turn()
    assert store.word_count(folder.id) == 50
    assert os.path.getsize(store.path) == size
    assert store.quick_check()


def test_what_is_not_a_database_leaves_no_file(tmp_path: Path) -> None:
    copies = WorkingCopies(str(tmp_path))
    with pytest.raises(sqlite3.DatabaseError):
        copies.open(BytesImage(b"not a database" * 1000))
    assert list(tmp_path.iterdir()) == []


def test_letting_go_deletes_the_copy_and_a_new_collection_is_empty(tmp_path: Path) -> None:
    copies = WorkingCopies(str(tmp_path))
    store = copies.new()
    assert store.folders() == []
    copies.discard(store)
    assert list(tmp_path.iterdir()) == []


def test_a_reload_replaces_the_copy_and_leaves_one_file(tmp_path: Path) -> None:
    backend = MemoryBackend()
    copies = WorkingCopies(str(tmp_path))
    first = Durability(backend, copies=copies, snapshot_every=1)
    asyncio.run(first.boot())
    first.store.create_folder(NewFolder(name="Kept"))
    asyncio.run(first.snapshot())
    second = Durability(backend, copies=copies)
    asyncio.run(second.boot())
    first.close()
    assert [f.name for f in second.store.folders()] == ["Kept"]
    assert len(list(tmp_path.iterdir())) == 1
    assert sha256_hex(copies.image(second.store)) == sha256_hex(
        BytesImage(Path(second.store.path).read_bytes())
    )
