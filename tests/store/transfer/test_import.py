"""Recognising files, the merge and replace rules, undo, and imports at scale."""

from __future__ import annotations

import json

import pytest

from app.domain import MEANINGS_MAX, InvalidInput
from app.inputs import NewFolder
from app.store import Changeset, transfer
from app.store.transfer import foreign, sources
from app.store.transfer.model import WordItem
from app.store.transfer.plan import merged_word
from app.store.transfer.read import ExistingWord
from app.store.transfer.steps import run_steps
from tests.store.helpers import assert_index_in_sync, dump, make_store
from tests.store.transfer.workspaces import parse, sample_store


@pytest.mark.parametrize(
    ("name", "data", "kind"),
    [
        ("backup.json", sample_store().export("json"), "backup"),
        ("backup.txt", sample_store().export("json"), "backup"),  # recognised by its content
        ("copy.bin.db", sample_store().export("sqlite"), "database"),
        ("renamed.csv", sample_store().export("sqlite"), "database"),
        ("words.csv", sample_store().export("csv"), "csv"),
        ("words.tsv", b"term\tmeaning\nhola\thello\n", "csv"),
        ("words.txt", b"hola - hello\n", "csv"),
    ],
)
def test_files_are_recognised_by_content_then_name(name: str, data: bytes, kind: str) -> None:
    assert parse(name, data).kind == kind


def test_unknown_and_oversized_files_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InvalidInput, match="cannot import this kind of file"):
        parse("photo.png", b"\x89PNG\r\n")
    monkeypatch.setattr(sources, "MAX_FILE_BYTES", 10)
    with pytest.raises(InvalidInput, match="Lexical imports files of up to 0 MB"):
        parse("words.csv", b"a,b\nc,d\ne,f\n")


def test_a_file_that_keeps_sqlite_busy_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(foreign, "STEP", 1)
    monkeypatch.setattr(foreign, "BUDGET", 100)
    with pytest.raises(InvalidInput, match="damaged and cannot be read \\(interrupted\\)"):
        parse("x.sqlite", sample_store().export("sqlite"))


def _word(**fields: object) -> WordItem:
    return WordItem.model_validate({"folder_id": 1, "term": "t", **fields})


def test_a_merged_word_gains_what_is_new_and_loses_nothing() -> None:
    current = ExistingWord(1, ["a", "b"], "old note", "none", "")
    change = merged_word(current, _word(meanings=["B", "c"], notes="new", lang="en", color="red"))
    assert change == {
        "id": 1,
        "meanings": ["a", "b", "c"],
        "notes": "old note\n\nnew",
        "lang": "en",
        "color": "red",
    }
    kept = ExistingWord(1, ["a"], "old note and new", "blue", "es")
    assert merged_word(kept, _word(meanings=["A"], notes="new", lang="en", color="red")) is None
    full = ExistingWord(1, [f"m{i}" for i in range(MEANINGS_MAX)], "", "none", "")
    assert merged_word(full, _word(meanings=["extra"])) is None


def test_replace_keeps_the_file_ids_so_links_keep_working() -> None:
    original = sample_store()
    store = make_store()
    store.create_folder(NewFolder(name="Will go"))
    store.import_parsed(parse("b.json", original.export("json")), "replace")
    assert [(w.id, w.term) for w in store.words(store.folders()[0].id)] == [
        (w.id, w.term) for w in original.words(original.folders()[0].id)
    ]


def test_a_backup_without_word_ids_gets_fresh_ones_past_the_kept_ones() -> None:
    document = json.loads(sample_store().export("json"))
    document["words"][0].pop("id")
    store = make_store()
    store.import_parsed(parse("b.json", json.dumps(document).encode()), "replace")
    ids = sorted(row[0] for row in dump(store)["word"])
    assert len(ids) == 2
    assert len(set(ids)) == 2


def test_an_import_is_one_step_written_to_listeners_once() -> None:
    store = sample_store()
    seen: list[Changeset] = []
    store.subscribe(seen.append)
    store.import_parsed(parse("w.csv", b"folder,term\nNew,a\nNew,b\n"), "merge")
    assert len(seen) == 1
    assert seen[0].label == 'Import "w.csv" (1 folder, 2 words)'
    assert {c.table for c in seen[0].changes} == {"folder", "word"}


def test_importing_nothing_new_records_no_step() -> None:
    store = sample_store()
    parsed = parse("b.json", store.export("json"))
    label = store.undo_label
    summary = store.import_parsed(parsed, "merge")
    assert not summary.changes_anything
    assert store.undo_label == label


def test_tens_of_thousands_of_words_import_and_undo_in_bulk() -> None:
    rows = "".join(f"Folder {i % 300}/Sub {i % 7},term {i},meaning {i}\n" for i in range(30_000))
    parsed = parse("big.csv", ("folder,term,meanings\n" + rows).encode())
    store = sample_store()
    before = dump(store)
    summary = store.import_parsed(parsed, "merge")
    assert (summary.new_folders, summary.new_words) == (300 + 2100, 30_000)
    assert_index_in_sync(store)
    assert store.search("term 29999")[0].title == "term 29999"
    store.undo()
    assert dump(store) == before
    assert_index_in_sync(store)
    store.redo()
    assert store.word_count(store.find_folders("Sub 3")[0].id) > 0


def test_preview_reports_progress_in_steps() -> None:
    rows = "".join(f"t{i},m\n" for i in range(5_000))
    steps = transfer.read_import("w.csv", ("term,meanings\n" + rows).encode())
    progress = []
    while True:
        try:
            progress.append(next(steps))
        except StopIteration as stop:
            parsed = stop.value
            break
    assert progress
    assert progress[-1].total >= 5_000
    assert len(run_steps(make_store().preview_import(parsed, "merge")).sample) == 20
