"""Study progress in the JSON backup and the SQLite database: exact round trips, older files,
the merge rules for progress and options, and refusal of study items that do not fit."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.inputs import NewFolder, NewWord
from app.store.transfer import Mode
from app.store.transfer.model import REVIEW_FIELDS
from app.study.model import DAY_MS, Rating
from app.study.options import StudyOptions
from tests.store.helpers import assert_index_in_sync, dump, make_store
from tests.store.transfer.studied import studied_store, study_rows
from tests.store.transfer.workspaces import (
    START,
    assert_refused,
    backup,
    database_at,
    grade,
    parse,
    preview,
    sample_store,
)


def test_the_backup_holds_cards_reviews_and_options_but_not_sessions() -> None:
    store = studied_store()
    store.study.start_session({"kind": "all"}, "flashcard")
    document = backup(store)
    assert document["review_fields"] == list(REVIEW_FIELDS)
    assert "study_session" not in document
    assert "sessions" not in document
    (forward,) = (c for c in document["cards"] if c["direction"] == "forward")
    assert set(forward) == {
        *("id", "word_id", "direction", "state", "step", "stability", "difficulty", "due"),
        *("last_review", "reps", "lapses", "created_at", "updated_at"),
    }
    assert (forward["reps"], forward["lapses"]) == (3, 1)
    assert len(document["reviews"]) == 4
    first = dict(zip(REVIEW_FIELDS, document["reviews"][0], strict=True))
    assert first["card_id"] == forward["id"]
    assert first["state_before"] == 0
    assert first["mode"] == "typing"
    assert first["duration_ms"] == 4000
    options = {o["folder_id"]: o["options"] for o in document["study_options"]}
    assert options[None]["day_start_hour"] == 5
    assert options[1]["retention"] == 0.85
    assert options[1]["directions"] == "both"
    # One array per line without spaces: a million reviews stay under the file limit.
    text = store.export("json").decode()
    assert f"\n[{forward['id']},3,{START}," in text


@pytest.mark.parametrize("kind", ["json", "sqlite"])
def test_restore_brings_back_identical_study_rows(kind: str) -> None:
    original = studied_store()
    restored = make_store()
    summary = restored.import_parsed(parse(f"b.{kind}", original.export(kind)), "replace")
    assert (summary.cards, summary.reviews, summary.new_options) == (2, 4, 2)
    assert study_rows(restored) == study_rows(original)
    assert restored.undo_label == f'Restore "b.{kind}" (2 folders, 2 words, 1 note, 4 reviews)'
    # The restored log still undoes a grade exactly: mitosis's last review (a lapse) gives
    # back the schedule it kept, as a session's undo would.
    mitosis = restored.find_words("mitosis")[0].id
    card_id = restored.study.card((mitosis, "forward")).card_id
    session = restored.study.start_session({"kind": "all"}, "flashcard")
    restored._db.execute("UPDATE review SET session_id = ? WHERE card_id = ?", (session, card_id))
    reviews = study_rows(original)["reviews"]
    lapse = max((r for r in reviews if r[0] == "mitosis"), key=lambda r: r[3])
    restored.study.undo_grade(session)
    card = restored.study.card((mitosis, "forward")).progress
    assert card is not None
    assert (card.reps, card.lapses) == (2, 0)
    assert (int(card.state), card.step, card.stability, card.difficulty) == lapse[6:10]
    assert (card.due, card.last_review) == lapse[10:]
    restored.undo()
    assert study_rows(restored)["cards"] == []


def test_a_version_1_backup_is_still_read_and_leaves_the_collection_options_alone() -> None:
    document = backup(sample_store())
    for key in ("cards", "reviews", "study_options", "review_fields"):
        document.pop(key)
    document["version"] = 1
    document["contains"] = ["folders", "words", "notes"]
    parsed = parse("old.json", json.dumps(document).encode())
    assert parsed.workspace.study is None
    store = studied_store()
    summary = preview(store, parsed, "replace")
    assert (summary.removed, summary.removed_cards) == ((2, 2, 1), 2)
    store.import_parsed(parsed, "replace")
    rows = study_rows(store)
    assert rows["cards"] == rows["reviews"] == []
    assert rows["day_start"] == [(5,)]
    assert [name for name, *_ in rows["options"]] == [""]  # Biology's went with the folder


def test_replace_over_progress_removes_it_and_undo_brings_it_back() -> None:
    store = studied_store()
    before = (dump(store), study_rows(store))
    store.import_parsed(parse("b.json", make_store().export("json")), "replace")
    assert study_rows(store)["cards"] == []
    assert study_rows(store)["options"] == []
    store.undo()
    # Undo goes through SQLite's json_object, which keeps 15 significant digits of a REAL.
    assert (dump(store), _close(study_rows(store))) == (before[0], _close(before[1]))
    assert_index_in_sync(store)


def _close(rows: dict[str, list[tuple[Any, ...]]]) -> dict[str, list[tuple[Any, ...]]]:
    return {
        name: [tuple(float(f"{v:.12g}") if isinstance(v, float) else v for v in r) for r in rs]
        for name, rs in rows.items()
    }


def test_merge_keeps_progress_here_and_brings_the_rest() -> None:
    theirs = studied_store()
    extra = theirs.add_word(
        NewWord(folder_id=theirs.find_folders("Biology")[0].id, term="osmosis", meanings=["w"])
    )
    grade(theirs, extra.id, "forward", Rating.HARD, START + 5 * DAY_MS)
    grade(theirs, theirs.find_words("mitosis")[0].id, "reverse", Rating.GOOD, START)
    mine = sample_store()
    mine_mitosis = mine.find_words("mitosis")[0].id
    grade(mine, mine_mitosis, "forward", Rating.EASY, START + 9 * DAY_MS)
    mine_before = study_rows(mine)["cards"]
    parsed = parse("theirs.json", theirs.export("json"))
    summary = mine.import_parsed(parsed, "merge")
    # mitosis forward is mine and stays; mitosis reverse, célula reverse and osmosis come.
    assert (summary.new_words, summary.cards, summary.reviews) == (1, 3, 3)
    assert summary.study_notes == [
        "Left out of the study history: 1 card of words that already have progress here "
        "(kept as it is)."
    ]
    rows = study_rows(mine)
    assert [c for c in rows["cards"] if c[:2] == ("mitosis", "forward")] == mine_before
    assert {c[:2] for c in rows["cards"]} == {
        *(("mitosis", "forward"), ("mitosis", "reverse")),
        *(("célula", "reverse"), ("osmosis", "forward")),
    }
    theirs_rows = study_rows(theirs)
    assert [r for r in rows["reviews"] if r[0] == "osmosis"] == [
        r for r in theirs_rows["reviews"] if r[0] == "osmosis"
    ]
    # Options fill what had none here: Biology's and the collection's both came.
    assert sorted(rows["options"], key=repr) == sorted(theirs_rows["options"], key=repr)
    again = preview(mine, parsed)
    assert not again.changes_anything
    assert again.cards == 0
    before = dump(mine), study_rows(mine)
    mine.import_parsed(parsed, "merge")
    assert (dump(mine), study_rows(mine)) == before


def test_merge_never_overwrites_options_set_here() -> None:
    mine = make_store()
    biology = mine.create_folder(NewFolder(name="biology"))
    mine.study.set_options(biology.id, StudyOptions(retention=0.95))
    mine.study.set_options(None, StudyOptions(new_per_day=3))
    mine.import_parsed(parse("t.json", studied_store().export("json")), "merge")
    options = {name: o for name, o, *_ in study_rows(mine)["options"]}
    assert options["biology"].retention == 0.95
    assert options[""].new_per_day == 3
    assert mine.study.day_start_hour() == 4  # the collection's row was mine, day start and all


def test_csv_stays_words_only() -> None:
    text = studied_store().export("csv").decode("utf-8-sig")
    assert text.splitlines()[0] == "folder,term,meanings,notes,lang,color"
    assert "0.85" not in text
    assert str(START) not in text


def _with(**changes: Any) -> bytes:
    document = backup(studied_store())
    for key, value in changes.items():
        section, _, index = key.partition("__")
        if index:
            document[section][int(index)] = value
        else:
            document[section] = value
    return json.dumps(document).encode()


def _card(**fields: Any) -> dict[str, Any]:
    card = backup(studied_store())["cards"][0]
    return {**card, **fields}


def _review(**fields: Any) -> list[Any]:
    review = dict(zip(REVIEW_FIELDS, backup(studied_store())["reviews"][0], strict=True))
    return list({**review, **fields}.values())


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_with(cards__0=_card(word_id=99)), "card 1 is of word 99, which is not in the file"),
        (_with(cards__1=_card(id=7)), "two forward cards for word 1"),
        (_with(cards__0=_card(state=0)), "card 1 is not valid: State"),
        (_with(cards__0=_card(stability=-1.0)), "card 1 is not valid: Stability"),
        (_with(cards__0=_card(direction="sideways")), "card 1 is not valid: Direction"),
        (_with(cards__0=_card(colour="red")), "card 1 is not valid: Colour"),
        (_with(reviews__0=_review(rating=5)), "review 1 is not valid: Rating"),
        (_with(cards__0=_card(state=1, step=None)), "Step is required for a card in (re)learning"),
        (_with(reviews__0=_review(stability_before=2.5)), "review 1 keeps a schedule from before"),
        (_with(reviews__1=_review(state_before=2)), "review 2 keeps a schedule from before"),
        (_with(reviews__0=_review(card_id=99)), "review 1 is of card 99, which is not in"),
        (_with(reviews__0=_review(reviewed_at="yesterday")), "review 1 is not valid: Reviewed"),
        (_with(reviews__0=[1, 2, 3]), "review 1 is not valid"),
        (_with(reviews__0={"card_id": 1}), "review 1 is not valid"),
        (_with(review_fields=["rating", "card_id"]), '"review_fields" are not the ones'),
        (_with(reviews=None), '"reviews" is missing'),
        (
            _with(study_options__0={"folder_id": 42, "options": {}}),
            "study options for folder 42, which is not in the file",
        ),
        (
            _with(study_options__1={"folder_id": None, "options": {}}),
            "study options for the collection twice",
        ),
        (
            _with(study_options__0={"folder_id": None, "options": {"retention": 2}}),
            "study option 1 is not valid: Options retention",
        ),
    ],
)
def test_bad_study_items_refuse_the_backup(data: bytes, message: str) -> None:
    assert_refused("backup.json", data, message)


def test_a_database_from_before_study_progress_has_none() -> None:
    parsed = parse("old.sqlite", database_at(3))
    assert parsed.workspace.study is None
    assert [f.name for f in parsed.workspace.folders] == ["Old"]


@pytest.mark.parametrize("version", [5, 6])
@pytest.mark.parametrize("mode", ["merge", "replace"])
def test_cards_of_a_backup_from_before_the_hashed_fuzz_are_replayed(
    version: int, mode: Mode
) -> None:
    # Decision 045: due dates of backups before version 6 were drawn with the old fuzz; the
    # page replays every card once the import is done (app/studying/reschedule.py).
    document = backup(studied_store())
    document["version"] = version
    store = make_store()
    store.import_parsed(parse("old.json", json.dumps(document).encode()), mode)
    assert store.schedules_stale == (version < 6)


def test_cards_of_a_database_from_before_the_hashed_fuzz_are_replayed() -> None:
    old = studied_store()
    old.study.db.execute("DROP TABLE stale_schedules")
    old.study.db.execute("PRAGMA user_version = 8")
    store = make_store()
    store.import_parsed(parse("old.sqlite", old.snapshot()), "replace")
    assert store.schedules_stale
    store = make_store()
    store.import_parsed(parse("new.sqlite", studied_store().snapshot()), "replace")
    assert not store.schedules_stale
