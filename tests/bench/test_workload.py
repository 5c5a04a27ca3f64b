"""The bench's generated workload: the sizes asked for, nested folders, many scripts, and a
bulk paste the app accepts in full."""

from __future__ import annotations

import pytest

from app.store import Changeset, Store
from app.store.bulk import parse_bulk
from app.store.durability import SNAPSHOT_BYTES
from app.store.oplog import encode_entry
from bench.workload import MAX_DEPTH, Size, Workload, build


@pytest.fixture(scope="module")
def workload() -> Workload:
    return build(Size.scaled(2_000, 50))


def test_it_has_the_words_and_folders_asked_for(workload: Workload) -> None:
    tree = workload.store.folder_tree()
    assert len(tree) == 50
    assert sum(row.word_count for row in tree) == 2_000
    assert workload.store.word_count(workload.big_folder) == workload.size.big_folder == 100
    assert workload.store.word_count(workload.inbox) == 0


def test_folders_nest_up_to_four_deep_and_the_widest_has_subfolders(workload: Workload) -> None:
    depths = {row.depth + 1 for row in workload.store.folder_tree()}
    assert max(depths) == MAX_DEPTH
    assert workload.store.children(workload.widest_folder)


def test_words_are_varied_unicode_with_meanings_and_some_notes(workload: Workload) -> None:
    words = [w for f in workload.store.folders() for w in workload.store.words(f.id, 0, 10_000)]
    terms = [w.term for w in words]
    assert any(not t.isascii() for t in terms)
    assert any(any("\u0400" <= c <= "\u04ff" for c in t) for t in terms)  # Cyrillic
    assert min(map(len, terms)) <= 3
    assert max(map(len, terms)) >= 30
    assert all(1 <= len(w.meanings) <= 4 for w in words)
    assert 0.05 < sum(1 for w in words if w.notes) / len(words) < 0.2
    assert any(workload.store.notes(f.id) for f in workload.store.folders())


def test_the_edit_folder_is_an_ordinary_one(workload: Workload) -> None:
    assert workload.edit_folder not in (workload.big_folder, workload.inbox)
    assert workload.store.word_count(workload.edit_folder) >= 20


def test_queries_and_bulk_text_fit_the_size(workload: Workload) -> None:
    assert len(workload.queries) == workload.size.queries
    assert all(q.strip() for q in workload.queries)
    preview = parse_bulk(workload.bulk_text)
    assert len(preview.rows) == workload.size.bulk == 5_000
    assert preview.count("ok") == 5_000


def test_the_bulk_paste_logs_enough_that_a_snapshot_follows(workload: Workload) -> None:
    """The large scenario waits for the snapshot a big log brings (bench/scenarios.py)."""
    store = Store.from_snapshot(workload.store.snapshot())
    logged: list[Changeset] = []
    store.subscribe(logged.append)
    store.bulk_add(workload.inbox, parse_bulk(workload.bulk_text).rows)
    assert len(encode_entry(1, logged[-1])) > SNAPSHOT_BYTES


def test_the_same_size_gives_the_same_workload(workload: Workload) -> None:
    again = build(workload.size)
    assert again.queries == workload.queries
    assert again.bulk_text == workload.bulk_text
    assert [f.name for f in again.store.folders()] == [f.name for f in workload.store.folders()]
