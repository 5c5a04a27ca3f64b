"""Global ids and seed bases in the JSON backup and the SQLite export (backup format 5): a
restore keeps every row's gid and every card's fuzz, a merge takes a row whose gid is here for
that row, older backups still import exactly, and hostile gid fields are refused (decision 040).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.inputs import FolderPatch, NewFolder, NewNote, NewWord, WordPatch
from app.store import Store
from app.store.transfer import Mode
from app.store.transfer.model import GIDLESS_REVIEW_FIELDS, REVIEW_FIELDS
from app.study.model import DAY_MS, MINUTE_MS, Rating
from tests.store.helpers import dump, make_store
from tests.store.transfer.studied import study_rows
from tests.store.transfer.workspaces import (
    START,
    assert_refused,
    backup,
    grade,
    parse,
    sample_store,
)
from tests.study.helpers import assert_replays

SYNCED = ("folder", "word", "note", "review")


def _graded(*, foreign: bool = False) -> Store:
    """The sample store with both words graded under the options they are studied with, so
    every card is the replay of its log; with `foreign`, célula came from another device and
    its cards are seeded by its basis there."""
    store = sample_store()
    if foreign:
        store._db.execute("UPDATE word SET seed = '77' WHERE term = 'célula'")
    mitosis, cellula = (store.find_words(term)[0].id for term in ("mitosis", "célula"))
    grade(store, mitosis, "forward", Rating.GOOD, START)
    grade(store, mitosis, "forward", Rating.GOOD, START + 10 * MINUTE_MS)
    grade(store, mitosis, "forward", Rating.AGAIN, START + 3 * DAY_MS)
    grade(store, cellula, "reverse", Rating.EASY, START + DAY_MS)
    return store


def _gids(store: Store) -> dict[str, set[str]]:
    return {t: {r[0] for r in store._db.all(f"SELECT gid FROM {t}")} for t in SYNCED}


def _bases(store: Store) -> dict[str, str]:
    """Each word's gid -> its cards' seed basis."""
    rows = store._db.all("SELECT gid, coalesce(seed, CAST(id AS TEXT)) FROM word")
    return {r[0]: r[1] for r in rows}


def _crowded() -> Store:
    """A store whose words take the ids a file's words had, so a merge numbers them anew."""
    store = make_store()
    other = store.create_folder(NewFolder(name="Other"))
    for term in ("uno", "dos", "tres"):
        store.add_word(NewWord(folder_id=other.id, term=term, meanings=["n"]))
    return store


@pytest.mark.parametrize("kind", ["json", "sqlite"])
def test_a_restore_keeps_every_gid_seed_and_schedule(kind: str) -> None:
    original = _graded(foreign=True)
    restored = make_store()
    restored.import_parsed(parse(f"b.{kind}", original.export(kind)), "replace")
    assert _gids(restored) == _gids(original)
    assert _bases(restored) == _bases(original)
    # The columns as they were: NULL stays NULL where the basis is the word's own id.
    seeds = "SELECT id, seed FROM word ORDER BY id"
    assert restored._db.all(seeds) == original._db.all(seeds)
    assert study_rows(restored) == study_rows(original)
    assert_replays(restored)


@pytest.mark.parametrize("kind", ["json", "sqlite"])
def test_a_merge_under_new_ids_keeps_gids_and_the_cards_fuzz(kind: str) -> None:
    original = _graded(foreign=True)
    store = _crowded()
    before = _gids(store)
    store.import_parsed(parse(f"b.{kind}", original.export(kind)), "merge")
    mitosis = store.find_words("mitosis")[0].id
    assert mitosis != original.find_words("mitosis")[0].id  # a new local id...
    for table, gids in _gids(original).items():
        assert _gids(store)[table] == before[table] | gids
    bases = _bases(store)
    assert {g: bases[g] for g in _bases(original)} == _bases(original)  # ...the same basis
    assert_replays(store)


def test_a_merge_takes_a_row_whose_gid_is_here_for_that_row() -> None:
    original = _graded()
    data = original.export("json")
    store = make_store()
    store.import_parsed(parse("b.json", data), "replace")
    # Here the folder and the word were renamed, the word moved, and a note was added.
    biology = store.find_folders("Biology")[0]
    store.update_folder(biology.id, FolderPatch(name="Biologie"))
    mitosis = store.find_words("mitosis")[0]
    store.update_word(mitosis.id, WordPatch(term="Mitose"))
    store.move_words([mitosis.id], biology.id)
    store.add_note(NewNote(folder_id=biology.id, title="Mine"))
    before = dump(store), study_rows(store), _gids(store)
    summary = store.import_parsed(parse("b.json", data), "merge")
    # Nothing comes twice: the renamed folder, the moved word and its card are the file's.
    assert (summary.new_folders, summary.new_words, summary.new_notes, summary.cards) == (
        0,
        0,
        0,
        0,
    )
    assert (dump(store), study_rows(store), _gids(store)) == before


def _old(document: dict[str, Any], version: int) -> bytes:
    """`document` as a backup of `version` (2 to 4) writes it: no gids, no seeds."""
    for section in ("folders", "words", "notes"):
        for item in document[section]:
            item.pop("gid")
            item.pop("seed", None)
    fields = REVIEW_FIELDS[: -2 if version < 4 else -1]
    document["reviews"] = [r[: len(fields)] for r in document["reviews"]]
    document["review_fields"] = list(fields)
    document["version"] = version
    return json.dumps(document).encode()


@pytest.mark.parametrize("version", [2, 3, 4])
@pytest.mark.parametrize("mode", ["merge", "replace"])
def test_an_older_backup_imports_with_new_gids_and_its_ids_as_seed_bases(
    version: int, mode: Mode
) -> None:
    original = _graded()
    store = _crowded()
    store.import_parsed(parse("old.json", _old(backup(original), version)), mode)
    assert not _gids(store)["word"] & _gids(original)["word"]
    if mode == "merge":
        word = store.find_words("mitosis")[0].id
        old = original.find_words("mitosis")[0].id
        assert store._db.scalar("SELECT seed FROM word WHERE id = ?", (word,)) == str(old)
    assert study_rows(store)["cards"] == study_rows(original)["cards"]
    assert_replays(store)


def test_the_format_4_review_layout_is_still_known() -> None:
    assert list(GIDLESS_REVIEW_FIELDS) == [*REVIEW_FIELDS[:-1]]
    assert REVIEW_FIELDS[-1] == "gid"


def _with(section: str, index: int, **fields: Any) -> bytes:
    document = backup(_graded())
    if section == "reviews":
        review = dict(zip(REVIEW_FIELDS, document["reviews"][index], strict=True))
        document["reviews"][index] = list({**review, **fields}.values())
    else:
        document[section][index] = {**document[section][index], **fields}
    return json.dumps(document).encode()


def _twin(section: str) -> bytes:
    """A backup whose second item of `section` has the first one's gid."""
    document = backup(_graded())
    items = document[section]
    if section == "reviews":
        items[1][-1] = items[0][-1]
    else:
        items[1]["gid"] = items[0]["gid"]
    return json.dumps(document).encode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_with("folders", 0, gid=12), "folder 1 "),
        (_with("words", 0, gid=True), "word 1 "),
        (_with("notes", 0, gid="not-a-uuid"), "note 1 "),
        (_with("words", 1, gid="A" * 1_000_000), "word 2 "),
        (_with("words", 0, gid="0198C2A4-0000-7000-8000-000000000000"), "word 1 "),
        (_with("reviews", 0, gid=["x"]), "review 1 is not valid"),
        (_with("words", 0, seed="1:forward"), "word 1 "),
        (_with("words", 0, seed=""), "word 1 "),
        (_with("words", 0, seed=7), "word 1 "),
        (_twin("folders"), "folder 2 has the same global id as an earlier folder"),
        (_twin("words"), "word 2 has the same global id as an earlier word"),
        (_twin("reviews"), "review 2 has the same global id as an earlier review"),
    ],
)
def test_hostile_gid_and_seed_fields_refuse_the_backup(data: bytes, message: str) -> None:
    assert_refused("backup.json", data, message)
