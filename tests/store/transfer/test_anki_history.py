"""An Anki deck's review log comes along: each card's schedule rebuilt through the scheduler,
a review row per Anki review chained as live grades chain them, and every row that cannot be
used left out with a counted reason instead of failing the import."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import fsrs_rs_python
import genanki
import pytest

from app.inputs import NewFolder
from app.store import Store
from app.study import scheduler
from app.study.model import DAY_MS, MINUTE_MS, CardState, Rating, card_seed
from app.study.options import StudyOptions
from app.study.scheduler import replay, replayed
from tests.anki_decks import REVERSED, card_ids, edit_collection, make_apkg, with_revlog
from tests.store.helpers import make_store
from tests.store.transfer.studied import study_rows
from tests.store.transfer.workspaces import grade, parse, preview

T = 1_690_000_000_000  # 2023-07-22, before the test stores' clock (2023-11-14)
SPANISH = {"Spanish": [(["perro", "dog"], []), (["gato", "cat"], [])]}
# Learned in two steps, then reviewed over a month: a review card with a fuzzed interval.
LEARNED = [
    (Rating.GOOD, T, 0),
    (Rating.GOOD, T + 10 * MINUTE_MS, 0),
    (Rating.GOOD, T + DAY_MS, 1),
    (Rating.HARD, T + 4 * DAY_MS, 1),
    (Rating.EASY, T + 12 * DAY_MS, 1),
    (Rating.AGAIN, T + 40 * DAY_MS, 1),
    (Rating.GOOD, T + 40 * DAY_MS + 10 * MINUTE_MS, 2),
    (Rating.GOOD, T + 42 * DAY_MS, 1),
]


def _deck(
    reviews: list[tuple[Any, ...]], decks: Any = None, model: genanki.Model = REVERSED, **kw: Any
) -> bytes:
    package = make_apkg(decks or SPANISH, model=model)
    ids = card_ids(package)
    rows = [
        (at, ids[card] if isinstance(card, tuple) else card, *rest) for at, card, *rest in reviews
    ]
    return with_revlog(package, rows, **kw)


def _learned(card: tuple[str, int] = ("perro", 0), shift: int = 0) -> list[tuple[Any, ...]]:
    """LEARNED as revlog rows of `card`, `shift` ms later (revlog ids are unique)."""
    return [(at + shift, card, int(rating), 6_000, kind) for rating, at, kind in LEARNED]


def _imported(data: bytes, store: Store | None = None) -> tuple[Store, Any]:
    store = store or make_store()
    summary = store.import_parsed(parse("deck.apkg", data), "merge")
    return store, summary


def _card(store: Store, term: str, direction: str = "forward") -> Any:
    return store._db.first(
        "SELECT c.* FROM card c JOIN word w ON w.id = c.word_id WHERE w.term = ? AND direction = ?",
        (term, direction),
    )


def _reviews(store: Store, card_id: int) -> list[sqlite3.Row]:
    return store._db.all("SELECT * FROM review WHERE card_id = ? ORDER BY id", (card_id,))


@pytest.mark.parametrize("retention", [None, 0.8])
def test_a_reviewed_card_gets_the_schedule_the_scheduler_gives(retention: float | None) -> None:
    store = make_store()
    if retention is not None:  # the folder it lands in studies with its own retention
        spanish = store.create_folder(NewFolder(name="Spanish"))
        store.study.set_options(spanish.id, StudyOptions(retention=retention))
    history = [(rating, at) for rating, at, _ in LEARNED]
    _, summary = _imported(_deck(_learned()), store)
    card = _card(store, "perro")
    # The reviews fall on the study days of the importing device (UTC here, 4 a.m.), and the
    # fuzz is drawn from the card: the replay gives the same schedule every time.
    moments = [(rating, store.moment(0, at)) for rating, at in history]
    seed = card_seed(str(card["word_id"]), "forward")
    expected = replayed(moments, StudyOptions(retention=retention or 0.9), seed)
    assert replay(moments, StudyOptions(retention=retention or 0.9), seed) == expected[-1]
    assert (summary.cards, summary.reviews, summary.study_notes) == (1, len(LEARNED), [])
    last = expected[-1]
    assert last.state == CardState.REVIEW
    assert (last.reps, last.lapses) == (8, 1)
    assert (card["state"], card["step"], card["stability"], card["difficulty"]) == (
        *(int(last.state), last.step, last.stability, last.difficulty),
    )
    assert (card["due"], card["last_review"], card["reps"], card["lapses"]) == (
        *(last.due, last.last_review, last.reps, last.lapses),
    )
    assert (card["created_at"], card["updated_at"]) == (T, LEARNED[-1][1])
    reviews = _reviews(store, card["id"])
    assert [(r["rating"], r["reviewed_at"]) for r in reviews] == history
    assert {(r["mode"], r["duration_ms"], r["session_id"]) for r in reviews} == {
        ("anki", 6_000, None)
    }
    # Each review keeps the schedule before it, as a live grade does: nothing for the first.
    columns = ("state", "step", "stability", "difficulty", "due", "last_review")
    befores = [tuple(r[f"{name}_before"] for name in columns) for r in reviews]
    assert befores == [(0, None, None, None, None, None)] + [
        (int(p.state), p.step, p.stability, p.difficulty, p.due, p.last_review)
        for p in expected[:-1]
    ]


def test_undoing_grades_walks_an_imported_history_back_exactly() -> None:
    store, _ = _imported(_deck(_learned()))
    card = _card(store, "perro")
    session = store.study.start_session({"kind": "all"}, "flashcard")
    store._db.execute("UPDATE review SET session_id = ?", (session,))
    reviews = _reviews(store, card["id"])
    for review in reversed(reviews[1:]):
        store.study.undo_grade(session)
        now = _card(store, "perro")
        assert (now["state"], now["stability"], now["due"]) == (
            review["state_before"],
            review["stability_before"],
            review["due_before"],
        )
    assert store.study.undo_grade(session) is not None
    assert _card(store, "perro") is None


def test_a_reversed_note_brings_both_directions_to_one_word() -> None:
    reviews = [(T, ("perro", 0), 3, 4_000, 0), (T + 5, ("perro", 1), 1, 2_000, 0)]
    store, summary = _imported(_deck(reviews))
    assert (summary.new_words, summary.cards, summary.reviews) == (2, 2, 2)
    forward, reverse = _card(store, "perro"), _card(store, "perro", "reverse")
    assert forward["word_id"] == reverse["word_id"]
    assert _reviews(store, reverse["id"])[0]["rating"] == Rating.AGAIN


def test_manual_reschedules_are_left_out_and_counted() -> None:
    reviews = [
        *_learned()[:3],
        (T + 2 * DAY_MS, ("perro", 0), 0, 0, 4),  # "set due date": ease 0, type 4
        (T + 3 * DAY_MS, ("perro", 0), 3, 0, 4),  # type 4 whatever the ease
        (T + 4 * DAY_MS, ("gato", 0), 0, 0, 1),  # ease 0 whatever the type
    ]
    store, summary = _imported(_deck(reviews))
    assert (summary.cards, summary.reviews) == (1, 3)
    assert summary.study_notes == [
        "Left out of the study history: 3 reviews that only rescheduled a card by hand."
    ]
    assert _card(store, "gato") is None  # only manual rows: still new


def test_a_deck_without_a_review_log_imports_its_notes_alone() -> None:
    plain = make_apkg(SPANISH)  # genanki writes an empty revlog
    without = edit_collection(plain, lambda conn: conn.execute("DROP TABLE revlog"))
    for data in (plain, without):
        _, summary = _imported(data)
        assert (summary.new_words, summary.cards, summary.reviews) == (2, 0, 0)
        assert summary.study_notes == []


def test_a_huge_review_log_comes_along_whole() -> None:
    words = [([f"word {n}", f"meaning {n}"], []) for n in range(100)]
    package = make_apkg({"Big": words})
    ids = card_ids(package)
    # 100 cards with 500 reviews each, a day apart, 50,000 rows in all.
    rows = [
        (T - 600 * DAY_MS + day * DAY_MS + n, ids[(f"word {n}", 0)], 3 if day % 7 else 1, 8_000, 1)
        for n in range(100)
        for day in range(500)
    ]
    store, summary = _imported(with_revlog(package, rows))
    assert (summary.cards, summary.reviews) == (100, 50_000)
    assert store._db.scalar("SELECT count(*) FROM review WHERE mode = 'anki'") == 50_000
    assert store._db.scalar("SELECT sum(reps) FROM card") == 50_000


def test_the_import_reuses_what_the_preview_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def counted(*args: Any) -> Any:
        calls.append(1)
        return replayed(*args)

    monkeypatch.setattr(scheduler, "replayed", counted)
    store = make_store()
    parsed = parse("deck.apkg", _deck([*_learned(), *_learned(("gato", 1), shift=1)]))
    assert preview(store, parsed).cards == 2
    assert len(calls) == 2
    assert store.import_parsed(parsed, "merge").cards == 2
    assert len(calls) == 2


def test_malformed_review_rows_are_left_out_not_fatal() -> None:
    good = ("perro", 0)
    reviews = [
        (T, good, 3, 5_000, 0),
        (T + 1, None, 3, 0, 0),  # no card
        (T + 2, good, None, 0, 0),  # no ease
        (T + 3, good, "good", 0, 0),  # ease as text
        (T + 4, good, 7, 0, 1),  # no such ease
        (T + 5, good, 3, 0, 9),  # no such type
        (T + 6, good, 3, 0, None),  # no type
        ("yesterday", good, 3, 0, 1),  # a time that is not a number
        (float(T + 7), good, 3, 0, 1),  # nor a whole one
        (12_345, good, 3, 0, 1),  # 1970: a clock in seconds or none at all
        (T + 8, 424_242, 3, 0, 1),  # a card that is not in the deck
        (T + 9 * DAY_MS, good, 3, None, 1),  # no time spent: kept, as 0
        (T + 10 * DAY_MS, good, 3, -40, 1),  # negative: kept, as 0
        (T + 11 * DAY_MS, good, 4, 10**12, 1),  # over a day: kept, as a day
    ]
    store, summary = _imported(_deck(reviews, loose=True))
    assert summary.study_notes == [
        "Left out of the study history: 8 reviews with a damaged row; 1 review with an "
        "impossible date; 1 review of cards not in the file."
    ]
    card = _card(store, "perro")
    spent = [r["duration_ms"] for r in _reviews(store, card["id"])]
    assert spent == [5_000, 0, 0, DAY_MS]
    assert card["reps"] == 4


def test_reviews_dated_after_the_import_are_left_out() -> None:
    store = make_store()
    ahead = store.now() + DAY_MS
    reviews = [
        (T, ("perro", 0), 3, 0, 0),
        (ahead, ("perro", 0), 3, 0, 1),
        (ahead + 1, ("gato", 0), 3, 0, 0),
    ]
    _, summary = _imported(_deck(reviews), store)
    assert (summary.cards, summary.reviews) == (1, 1)
    assert summary.study_notes == [
        "Left out of the study history: 2 reviews dated after today (a clock that ran ahead)."
    ]


def test_suspended_and_buried_cards_keep_their_history_and_the_preview_says_so() -> None:
    package = make_apkg(SPANISH, model=REVERSED)
    ids = card_ids(package)
    reviews = [(T + n, ids[key], 3, 0, 0) for n, key in enumerate(ids)]
    queues = {
        ids[("perro", 0)]: (2, -1),  # suspended
        ids[("perro", 1)]: (2, -2),  # buried by the user
        ids[("gato", 0)]: (0, 0),  # reset to new: its history is over
    }
    parsed = parse("deck.apkg", with_revlog(package, reviews, queues=queues))
    assert parsed.remarks == [
        "2 cards are suspended or buried in Anki: their history comes along, and Lexical "
        "schedules them like any other."
    ]
    summary = preview(make_store(), parsed)
    assert (summary.cards, summary.reviews) == (3, 3)
    assert summary.study_notes == [
        "Left out of the study history: 1 card reset to new in Anki.",
        "2 reverse cards (meaning → term) come with their history: the new folders they land "
        "in study both directions.",
    ]


def _both_ways() -> bytes:
    """Both cards of both notes of a "Basic (and reversed card)" deck, each reviewed once."""
    package = make_apkg(SPANISH, model=REVERSED)
    return with_revlog(
        package, [(T + n, card, 3, 0, 0) for n, card in enumerate(card_ids(package).values())]
    )


def test_reverse_cards_with_history_are_studied_in_the_folder_the_import_creates() -> None:
    # Issue 26, item 3: they came in as reverse cards to a folder that studied forward only.
    store, summary = _imported(_both_ways())
    assert summary.study_notes == [
        "2 reverse cards (meaning → term) come with their history: the new folders they land "
        "in study both directions."
    ]
    spanish = next(r.folder for r in store.folder_tree() if r.folder.name == "Spanish")
    assert store.study.options_map()[spanish.id].directions == "both"
    # Undo takes the options back with the import.
    store.undo()
    assert store.study.db.scalar("SELECT count(*) FROM study_options") == 0


def test_reverse_cards_landing_in_a_folder_that_studies_forward_wait_and_the_preview_says_so() -> (
    None
):
    store = make_store()
    spanish = store.create_folder(NewFolder(name="Spanish"))
    summary = preview(store, parse("deck.apkg", _both_ways()))
    assert summary.study_notes == [
        "2 reverse cards (meaning → term) come into folders that study term → meaning only: "
        "they wait until the folder's Study options include both directions."
    ]
    store.import_parsed(parse("deck.apkg", _both_ways()), "merge")
    assert store.study.options_map()[spanish.id].directions == "forward"  # the learner's choice


def test_duplicate_notes_keep_the_longer_history() -> None:
    decks = {"Spanish": [(["perro", "dog"], []), (["Perro", "hound"], []), (["gato", "cat"], [])]}
    package = make_apkg(decks)
    ids = card_ids(package)
    short = [(T + n * DAY_MS, ids[("perro", 0)], 3, 0, 1) for n in range(2)]
    long = [(T + n * DAY_MS + 1, ids[("Perro", 0)], 3, 0, 1) for n in range(5)]
    store, summary = _imported(with_revlog(package, short + long))
    assert (summary.new_words, summary.updated_words, summary.cards, summary.reviews) == (
        2,
        0,
        1,
        5,
    )
    assert summary.study_notes == [
        "Left out of the study history: 1 card of duplicate notes (the longer history came along)."
    ]
    assert [r["reviewed_at"] for r in _reviews(store, _card(store, "perro")["id"])] == [
        at for at, *_ in long
    ]


def test_a_word_that_has_progress_here_keeps_it_and_a_second_import_adds_nothing() -> None:
    data = _deck([*_learned(), (T - 1, ("gato", 0), 3, 0, 0)])
    store = make_store()
    spanish = store.create_folder(NewFolder(name="spanish"))
    store.import_parsed(parse("plain.apkg", make_apkg(SPANISH)), "merge")
    gato = store.find_words("gato")[0]
    assert gato.folder_id == spanish.id
    grade(store, gato.id, "forward", Rating.EASY, T + DAY_MS)
    mine = _card(store, "gato")
    _, summary = _imported(data, store)
    assert (summary.new_words, summary.cards, summary.reviews) == (0, 1, len(LEARNED))
    assert summary.study_notes == [
        "Left out of the study history: 1 card of words that already have progress here "
        "(kept as it is)."
    ]
    assert dict(_card(store, "gato")) == dict(mine)
    before = study_rows(store)
    again = preview(store, parse("deck.apkg", data))
    assert not again.changes_anything
    assert again.cards == 0
    store.import_parsed(parse("deck.apkg", data), "merge")
    assert study_rows(store) == before


def test_a_later_cloze_deletion_has_no_direction_here() -> None:
    decks = {"Cloze": [(["{{c1::Paris}} is in {{c2::France}}", "geography"], [])]}
    package = make_apkg(decks, model=genanki.CLOZE_MODEL)
    ids = card_ids(package)
    reviews = [(T + n, card, 3, 0, 0) for n, card in enumerate(sorted(ids.values()))]
    store, summary = _imported(with_revlog(package, reviews))
    assert (summary.cards, summary.reviews) == (1, 1)
    assert summary.study_notes == [
        "Left out of the study history: 1 card of a third card type or a later cloze deletion."
    ]
    assert _card(store, "Paris is in France", "reverse") is None


def test_undoing_the_import_also_takes_grades_given_since() -> None:
    store, _ = _imported(_deck(_learned()))
    assert store.undo_label == f'Import "deck.apkg" (1 folder, 2 words, {len(LEARNED)} reviews)'
    perro = store.find_words("perro")[0]
    grade(store, perro.id, "forward", Rating.GOOD, store.now())
    grade(store, perro.id, "reverse", Rating.GOOD, store.now())
    store.undo()
    assert store._db.scalar("SELECT count(*) FROM card") == 0
    assert store._db.scalar("SELECT count(*) FROM review") == 0


SCHEDULER_LOADED = """
import sys
from app.store import Store
from app.store.transfer import read_import
from app.store.transfer.steps import run_steps
from tests.anki_decks import sample_deck
store = Store.open()
files = {"b.json": store.export("json"), "w.csv": b"term\\nhola\\n", "d.apkg": sample_deck()}
for name, data in files.items():
    run_steps(store.preview_import(run_steps(read_import(name, data)), "merge"))
print("fsrs" in sys.modules)
"""


def test_only_a_history_to_replay_loads_the_scheduler() -> None:
    # The browser loads py-fsrs on first use; importing a backup or a deck without a review
    # log must not need it.
    result = subprocess.run(
        [sys.executable, "-c", SCHEDULER_LOADED],
        cwd=Path(__file__).parents[3],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "False"


# Reviews at awkward hours: 23 h 17 min apart across the 4 a.m. rollover (two study days, not
# one 24-hour period), late evenings and early mornings, a lapse and a same-day relearning.
ROLLOVER = 1_690_000_000_000 - 1_690_000_000_000 % DAY_MS + 4 * 3_600_000  # 4 a.m. UTC
AWKWARD = [
    (Rating.GOOD, ROLLOVER - 3_600_000, 0),  # 3 a.m.: the study day before
    (Rating.GOOD, ROLLOVER - 3_600_000 + 10 * MINUTE_MS, 0),
    (Rating.GOOD, ROLLOVER + 22 * 3_600_000 + 17 * MINUTE_MS, 1),  # 23 h 17 min later
    (Rating.HARD, ROLLOVER + 3 * DAY_MS + MINUTE_MS, 1),
    (Rating.GOOD, ROLLOVER + 9 * DAY_MS - MINUTE_MS, 1),
    (Rating.AGAIN, ROLLOVER + 30 * DAY_MS + 20 * 3_600_000, 1),
    (Rating.GOOD, ROLLOVER + 30 * DAY_MS + 20 * 3_600_000 + 10 * MINUTE_MS, 2),
    (Rating.EASY, ROLLOVER + 32 * DAY_MS + 23 * 3_600_000, 1),
]


@pytest.mark.parametrize("history", [LEARNED, AWKWARD], ids=["learned", "awkward"])
def test_an_imported_card_carries_the_memory_state_fsrs_rs_gives(
    history: list[tuple[Rating, int, int]],
) -> None:
    # fsrs-rs, which Anki schedules with, counts the days between reviews in study days: the
    # card must carry the stability and difficulty Anki showed (issue 26, item 4).
    store, _ = _imported(
        _deck([(at, ("perro", 0), int(rating), 6_000, kind) for rating, at, kind in history])
    )
    card = _card(store, "perro")
    days = [store.moment(0, at).day for _, at, _ in history]
    oracle = fsrs_rs_python.FSRS(list(scheduler.scheduler(0.9).parameters))
    reviews = [
        fsrs_rs_python.FSRSReview(int(rating), day - previous)
        for (rating, _, _), day, previous in zip(history, days, [days[0], *days], strict=False)
    ]
    expected = oracle.memory_state(fsrs_rs_python.FSRSItem(reviews))
    assert card["stability"] == pytest.approx(expected.stability, rel=1e-4)
    assert card["difficulty"] == pytest.approx(expected.difficulty, rel=1e-4)
