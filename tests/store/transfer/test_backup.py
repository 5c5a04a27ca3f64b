"""The JSON backup: its documented shape, exact round trips, and refusal of bad files."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings

from app.domain import MAX_FOLDER_DEPTH, InvalidInput
from app.inputs import NewFolder
from app.store.transfer import ExportKind
from app.store.transfer.backup import MAX_JSON_NESTING, VERSION, _too_deep
from tests.store.helpers import assert_index_in_sync, dump, make_store
from tests.store.transfer.studied import study_rows
from tests.store.transfer.workspaces import (
    Spec,
    assert_refused,
    backup,
    build,
    parse,
    preview,
    sample_store,
    specs,
)


def without_stamp(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k != "exported_at"}


def test_the_backup_has_the_documented_shape() -> None:
    document = backup(sample_store())
    assert list(document) == [
        *("format", "version", "exported_at", "contains", "review_fields"),
        *("folders", "words", "notes", "cards", "reviews", "study_options"),
    ]
    assert document["format"] == "lexical-backup"
    assert document["version"] == 6
    assert document["contains"] == [
        *("folders", "words", "notes", "cards", "reviews", "study_options"),
    ]
    assert document["exported_at"].endswith("Z")
    assert set(document["folders"][0]) == {
        *("id", "parent_id", "name", "emoji", "color", "lang", "created_at", "updated_at"),
        "gid",
    }
    word = next(w for w in document["words"] if w["term"] == "mitosis")
    assert word["meanings"] == ["cell division"]
    assert word["lang"] == "en"
    assert word["seed"] == str(word["id"])  # the effective basis, never null
    assert set(document["notes"][0]) == {
        *("id", "folder_id", "title", "body", "created_at", "updated_at", "gid"),
    }


def test_one_item_per_line_keeps_it_readable() -> None:
    text = sample_store().export("json").decode()
    assert '\n{"id": 2, "parent_id": 1, "name": "Cells/Tissues"' in text
    assert "\\u" not in text  # accents and emoji stay readable


def test_tables_outside_the_explicit_list_are_never_exported() -> None:
    store = sample_store()
    # A future settings table holding a key: neither export may carry it.
    store._db.execute("CREATE TABLE setting (name TEXT, value TEXT)")
    store._db.execute("INSERT INTO setting VALUES ('gemini_key', 'AIza-secret')")
    assert b"AIza-secret" not in store.export("json")
    assert b"AIza-secret" not in store.export("sqlite")
    assert b"AIza-secret" not in store.export("csv")


def test_restore_into_an_empty_store_is_exact_and_one_undo_step() -> None:
    original = sample_store()
    parsed = parse("backup.json", original.export("json"))
    restored = make_store()
    summary = restored.import_parsed(parsed, "replace")
    assert (summary.new_folders, summary.new_words, summary.new_notes) == (2, 2, 1)
    assert without_stamp(backup(restored)) == without_stamp(backup(original))
    assert restored.undo_label == 'Restore "backup.json" (2 folders, 2 words, 1 note)'
    restored.undo()
    assert restored.folders() == []


@settings(max_examples=40, deadline=None)
@given(specs(study=True))
def test_json_round_trip_property(spec: Spec) -> None:
    original = build(spec)
    restored = make_store()
    restored.import_parsed(parse("b.json", original.export("json")), "replace")
    assert without_stamp(backup(restored)) == without_stamp(backup(original))
    assert study_rows(restored) == study_rows(original)
    assert_index_in_sync(restored)


@settings(max_examples=30, deadline=None)
@given(specs(study=True), specs(study=True))
def test_merging_the_same_backup_twice_adds_nothing_the_second_time(
    mine: Spec, theirs: Spec
) -> None:
    store = build(mine)
    mine_cards = study_rows(store)["cards"]
    parsed = parse("b.json", build(theirs).export("json"))
    store.import_parsed(parsed, "merge")
    after = study_rows(store)["cards"]
    assert all(card in after for card in mine_cards)  # progress here is never touched
    before = dump(store), study_rows(store)
    again = preview(store, parsed)
    assert not again.changes_anything
    store.import_parsed(parsed, "merge")
    assert (dump(store), study_rows(store)) == before


@pytest.mark.parametrize("kind", ["json", "sqlite"])
def test_a_folders_default_language_round_trips(kind: ExportKind) -> None:
    original = make_store()
    german = original.create_folder(NewFolder(name="German", lang="de"))
    original.create_folder(NewFolder(name="Verbs", parent_id=german.id))
    restored = make_store()
    restored.import_parsed(parse(f"b.{kind}", original.export(kind)), "replace")
    assert [(f.name, f.lang) for f in restored.folders()] == [("German", "de"), ("Verbs", "")]


def test_an_older_backup_without_folder_languages_still_loads() -> None:
    document = backup(sample_store())
    for folder in document["folders"]:
        del folder["lang"]
    document["version"] = 2
    restored = make_store()
    restored.import_parsed(parse("old.json", json.dumps(document).encode()), "replace")
    assert [f.lang for f in restored.folders()] == ["", ""]


def test_replace_over_existing_data_says_what_goes_and_undo_brings_it_back() -> None:
    store = sample_store()
    before = dump(store)
    other = make_store()
    other.create_folder(NewFolder(name="Spanish"))
    parsed = parse("other.json", other.export("json"))
    summary = preview(store, parsed, "replace")
    assert summary.removed == (2, 2, 1)
    assert summary.folder_paths == ["Spanish"]
    store.import_parsed(parsed, "replace")
    assert [f.name for f in store.folders()] == ["Spanish"]
    store.undo()
    assert dump(store) == before
    assert_index_in_sync(store)


def _document(**changes: Any) -> bytes:
    document = backup(sample_store())
    document.update(changes)
    return json.dumps(document).encode()


def _folders(*items: dict[str, Any]) -> bytes:
    return _document(folders=list(items), words=[], notes=[])


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"{not json", "not valid JSON (line 1"),
        (sample_store().export("json")[:-40], "not valid JSON"),
        (b"[1, 2, 3]", "not a Lexical backup"),
        (b'{"format": "something-else"}', "not a Lexical backup"),
        (_document(version=VERSION + 1), "newer version of Lexical"),
        (_document(version="1"), "no valid version"),
        (_document(words=None), '"words" is missing'),
        (b"\xff\xfe\x00\x00garbage", "UTF-16"),
        (b'{"format": "lexical-backup", "x": "\xe9"}', "not UTF-8 text (byte 0xE9 on line 1"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"a": ' * 201 + b"1" + b"}" * 201, "nested too deeply"),
        (b'{"format": "lexical-backup", "version": 1' + b"1" * 100_000 + b"}", "number too long"),
        (_folders({"id": 1, "name": "  "}), "folder 1 is not valid: Name must not be empty"),
        (_folders({"id": 1, "name": "a\x07b"}), "control characters"),
        (_folders({"id": 1, "name": "x", "color": "plaid"}), "Colour"),
        (_folders({"id": True, "name": "x"}), "Id"),
        (_folders({"id": 1, "name": "x", "created_at": -5}), "Created at"),
        (_folders({"id": 1, "name": "x", "evil": 1}), "Evil"),
        (_folders({"id": 1, "name": "a"}, {"id": 1, "name": "b"}), "two folders with id 1"),
        (_folders({"id": 1, "parent_id": 7, "name": "a"}), "folder 7, which is not in the file"),
        (
            _folders(
                {"id": 1, "parent_id": 2, "name": "a"}, {"id": 2, "parent_id": 1, "name": "b"}
            ),
            "in a loop",
        ),
        (
            _folders(*({"id": i, "parent_id": i - 1 or None, "name": "d"} for i in range(1, 70))),
            f"more than {MAX_FOLDER_DEPTH} levels",
        ),
        (
            _document(words=[{"folder_id": 99, "term": "x"}]),
            "word 1 is in folder 99, which is not in the file",
        ),
        (_document(words=[{"folder_id": 1, "term": "x", "meanings": "a"}]), "Meanings"),
        (_document(notes=[{"folder_id": 1, "title": ""}]), "note 1 is not valid: Title"),
    ],
)
def test_bad_backups_are_refused_with_a_clear_message_and_change_nothing(
    data: bytes, message: str
) -> None:
    assert_refused("backup.json", data, message)


def test_nesting_is_measured_outside_strings_up_to_the_limit() -> None:
    def nested(levels: int) -> str:
        return '{"a": ' * levels + "1" + "}" * levels

    assert not _too_deep(nested(MAX_JSON_NESTING))
    assert _too_deep(nested(MAX_JSON_NESTING + 1))
    assert _too_deep("[" * (MAX_JSON_NESTING + 1))  # never closed: the parser still recurses
    text = json.dumps({"note": "[" * 10_000 + '"{\\' * 500, "é": ["]" * 9, "ok"]})
    assert not _too_deep(text)
    assert not _too_deep(json.dumps([[[]]] * 1000))


def test_a_backup_that_is_not_utf8_is_not_told_about_spreadsheets() -> None:
    with pytest.raises(InvalidInput) as caught:
        parse("backup.json", b'{"format": "lexical-backup", "x": "\xe9"}')
    assert caught.value.message.endswith("Save it as UTF-8 and try again.")
