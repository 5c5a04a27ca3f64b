"""The stats page's figures on a fixed clock, from reviews written by the real grade command."""

from __future__ import annotations

import pytest

from app.domain import Folder, FolderId, NotFound, WordId
from app.store import Store
from app.store import stats_queries as sq
from app.store.study_queries import Scope
from app.study.model import DAY_MS, MINUTE_MS, CardState, Direction, Progress, Rating
from app.study.options import StudyOptions as Options
from app.studying.stats import DAYS, StudyStats, collect_stats
from tests.study.helpers import NOON, SPANISH, Clock, folder_with_words, make_store

HOUR = 60 * MINUTE_MS
TODAY = NOON - 8 * HOUR  # 04:00 UTC: where the study day holding NOON starts (UTC, 4 a.m.)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(clock: Clock) -> Store:
    return make_store(clock)


def grade(
    store: Store,
    term: str,
    rating: Rating,
    *,
    at: int,
    after: CardState = CardState.REVIEW,
    due: int | None = None,
    lapses: int = 0,
    direction: Direction = "forward",
) -> None:
    """Grade `term` at `at` with the store's own command, leaving its card in state `after`."""
    word = WordId(store.study.db.scalar("SELECT id FROM word WHERE term = ?", (term,)))
    card = store.study.card((word, direction))
    due = at + DAY_MS if due is None else due
    after_progress = Progress(after, None, 3.0, 5.0, due, at, 1, lapses)
    store.study.grade(
        None,
        card,
        rating,
        after_progress,
        at=store.moment(0, at),
        duration_ms=1,
        mode="flashcard",
        next_card=None,
    )


def stats(store: Store, clock: Clock, folder: Folder | None = None, offset: int = 0) -> StudyStats:
    return collect_stats(store, None if folder is None else folder.id, clock.now, offset)


def test_an_empty_collection_has_empty_figures(store: Store, clock: Clock) -> None:
    result = stats(store, clock)
    assert len(result.reviews) == DAYS
    assert result.total_reviews == 0
    assert [d.due for d in result.forecast] == [0] * DAYS
    assert result.retention == ()
    assert result.overall_retention is None
    assert result.states.total == 0
    assert (result.streak.current, result.streak.longest) == (0, 0)
    assert not result.streak.studied_today
    assert result.hardest == ()


def test_reviews_per_day_are_stacked_by_rating_on_study_days(store: Store, clock: Clock) -> None:
    folder_with_words(store, "Spanish", SPANISH)
    grade(store, "perro", Rating.AGAIN, at=NOON)
    grade(store, "gato", Rating.GOOD, at=NOON + HOUR)
    grade(store, "casa", Rating.GOOD, at=TODAY)  # 04:00: the first moment of today
    grade(store, "libro", Rating.EASY, at=TODAY - 1)  # 03:59: still yesterday
    grade(store, "agua", Rating.HARD, at=NOON - 2 * DAY_MS)
    grade(store, "perro", Rating.GOOD, at=TODAY - (DAYS - 1) * DAY_MS)  # the oldest day shown
    grade(store, "gato", Rating.EASY, at=TODAY - (DAYS - 1) * DAY_MS - 1)  # too old
    result = stats(store, clock)
    by_day = [d.by_rating for d in result.reviews]
    assert by_day[-1] == (1, 0, 2, 0)
    assert by_day[-2] == (0, 0, 0, 1)
    assert by_day[-3] == (0, 1, 0, 0)
    assert by_day[0] == (0, 0, 1, 0)
    assert result.total_reviews == 6
    assert [d.number for d in result.reviews] == list(
        range(result.today - DAYS + 1, result.today + 1)
    )


def test_the_forecast_counts_overdue_cards_today_and_skips_unstudied_directions(
    store: Store, clock: Clock
) -> None:
    spanish = folder_with_words(store, "Spanish", SPANISH)
    store.study.set_options(spanish.id, Options(directions="both"))
    grade(store, "perro", Rating.GOOD, at=NOON - 9 * DAY_MS, due=NOON - 3 * DAY_MS)  # overdue
    grade(store, "gato", Rating.GOOD, at=NOON, due=NOON + 10 * MINUTE_MS)  # later today
    grade(store, "casa", Rating.GOOD, at=NOON, due=TODAY + 3 * DAY_MS)  # in three days
    grade(store, "libro", Rating.GOOD, at=NOON, due=TODAY + DAYS * DAY_MS - 1)  # the last day
    grade(store, "agua", Rating.GOOD, at=NOON, due=TODAY + DAYS * DAY_MS)  # beyond the forecast
    grade(store, "agua", Rating.GOOD, at=NOON, due=NOON, direction="reverse")
    due = [d.due for d in stats(store, clock).forecast]
    assert (due[0], due[3], due[-1], sum(due)) == (3, 1, 1, 5)
    store.study.set_options(spanish.id, Options(directions="forward"))
    due = [d.due for d in stats(store, clock).forecast]
    assert (due[0], sum(due)) == (2, 4)  # the reverse card is set aside, not due


def test_true_retention_per_folder_against_its_desired_retention(
    store: Store, clock: Clock
) -> None:
    folder_with_words(store, "Spanish", SPANISH)
    german = folder_with_words(store, "German", [("Hund", ["dog"]), ("Katze", ["cat"])])
    folder_with_words(store, "Empty", [("x", ["y"])])
    store.study.set_options(german.id, Options(retention=0.8))
    for term in ("perro", "gato", "casa", "libro", "Hund", "Katze"):
        grade(store, term, Rating.GOOD, at=NOON - 20 * DAY_MS)  # new cards: not measured
    for term, rating in (("perro", Rating.GOOD), ("gato", Rating.HARD), ("casa", Rating.EASY)):
        grade(store, term, rating, at=NOON)
    grade(store, "libro", Rating.AGAIN, at=NOON, after=CardState.RELEARNING)
    grade(store, "libro", Rating.GOOD, at=NOON + HOUR)  # was relearning: not measured
    grade(store, "Hund", Rating.AGAIN, at=NOON)
    grade(store, "Katze", Rating.GOOD, at=NOON - DAYS * DAY_MS)  # before the window
    result = stats(store, clock)
    figures = [(r.name, r.reviews, r.passed, r.desired) for r in result.retention]
    assert figures == [("German", 1, 0, 0.8), ("Spanish", 4, 3, 0.9)]  # in the tree's order
    assert result.retention[1].retention == 0.75
    assert result.overall_retention == 3 / 5


def test_cards_by_state_count_new_words_per_studied_direction(store: Store, clock: Clock) -> None:
    spanish = folder_with_words(store, "Spanish", [*SPANISH, ("nada", [])])
    store.study.set_options(spanish.id, Options(directions="both"))
    grade(store, "perro", Rating.GOOD, at=NOON, after=CardState.LEARNING)
    grade(store, "gato", Rating.GOOD, at=NOON, after=CardState.REVIEW)
    grade(store, "gato", Rating.GOOD, at=NOON, after=CardState.REVIEW, direction="reverse")
    grade(store, "casa", Rating.AGAIN, at=NOON, after=CardState.RELEARNING)
    states = stats(store, clock).states
    # Five words with a meaning ("nada" has none) in two directions, four cards made.
    assert (states.new, states.learning, states.review, states.relearning) == (6, 1, 2, 1)
    store.study.set_options(spanish.id, Options(directions="forward"))
    states = stats(store, clock).states
    assert (states.new, states.learning, states.review, states.relearning) == (2, 1, 1, 1)


def test_the_streak_follows_local_study_days(store: Store, clock: Clock) -> None:
    folder_with_words(store, "Spanish", SPANISH)
    offset = 150  # UTC+2:30: today's study day starts at 01:30 UTC, 04:00 local
    start = NOON - 10 * HOUR - 30 * MINUTE_MS
    for days_ago in (1, 2, 3, 6, 7, 8, 9):
        grade(store, "perro", Rating.GOOD, at=start + 5 * MINUTE_MS - days_ago * DAY_MS)
    grade(store, "gato", Rating.GOOD, at=start - 8 * DAY_MS - 1)  # 03:59 local: day 9 again
    grade(store, "gato", Rating.GOOD, at=start - 10 * DAY_MS + 1)  # day 10: run of 5
    streak = stats(store, clock, offset=offset).streak
    assert (streak.current, streak.longest, streak.studied_today) == (3, 5, False)
    # In UTC the same moments fall on other days: 01:35 UTC is yesterday's study day there.
    assert stats(store, clock, offset=0).streak.current == 0
    grade(store, "casa", Rating.GOOD, at=start)
    streak = stats(store, clock, offset=offset).streak
    assert (streak.current, streak.studied_today) == (4, True)
    clock.advance(days=2)
    assert stats(store, clock, offset=offset).streak.current == 0


def test_the_hardest_cards_have_the_most_lapses_then_the_most_again(
    store: Store, clock: Clock
) -> None:
    spanish = folder_with_words(store, "Spanish", SPANISH)
    folder_with_words(store, "Hard <b>", [("<img src=x onerror=alert(1)>", ["m"])], spanish)
    for term, lapses, again in (
        ("perro", 2, 1),
        ("gato", 2, 3),
        ("casa", 5, 0),
        ("libro", 0, 4),  # never forgotten once learnt: not listed
        ("agua", 2, 1),
        ("<img src=x onerror=alert(1)>", 1, 0),
    ):
        for _ in range(again):
            grade(store, term, Rating.AGAIN, at=NOON, after=CardState.RELEARNING)
        grade(store, term, Rating.GOOD, at=NOON, lapses=lapses)
    grade(store, "perro", Rating.GOOD, at=NOON, lapses=1, direction="reverse")
    hardest = stats(store, clock).hardest
    assert [(w.term, w.direction, w.lapses, w.again) for w in hardest] == [
        ("casa", "forward", 5, 0),
        ("gato", "forward", 2, 3),
        ("agua", "forward", 2, 1),  # ties are in alphabetical order
        ("perro", "forward", 2, 1),
        ("<img src=x onerror=alert(1)>", "forward", 1, 0),
        ("perro", "reverse", 1, 0),
    ]
    assert hardest[-2].folder_name == "Hard <b>"


def test_a_folder_scope_covers_its_subfolders_only(store: Store, clock: Clock) -> None:
    spanish = folder_with_words(store, "Spanish", SPANISH[:2])
    verbs = folder_with_words(store, "Verbs", [("ser", ["be"])], spanish)
    german = folder_with_words(store, "German", [("Hund", ["dog"])])
    grade(store, "ser", Rating.GOOD, at=NOON - DAY_MS, lapses=1)
    grade(store, "ser", Rating.AGAIN, at=NOON, lapses=1)
    grade(store, "Hund", Rating.GOOD, at=NOON, lapses=2)
    spanish_stats = stats(store, clock, spanish)
    assert spanish_stats.total_reviews == 2
    assert spanish_stats.streak.current == 2
    assert spanish_stats.states.new == 2
    assert spanish_stats.states.review == 1
    assert [r.folder_id for r in spanish_stats.retention] == [verbs.id]
    assert [w.term for w in spanish_stats.hardest] == ["ser"]
    german_stats = stats(store, clock, german)
    assert german_stats.total_reviews == 1
    assert german_stats.streak.current == 1
    assert sum(d.due for d in german_stats.forecast) == 1
    assert stats(store, clock, verbs).states.new == 0
    assert stats(store, clock).total_reviews == 3


def test_a_missing_folder_is_not_found(store: Store, clock: Clock) -> None:
    gone = folder_with_words(store, "Gone", [])
    store.delete_folder(gone.id)
    with pytest.raises(NotFound):
        stats(store, clock, gone)


@pytest.mark.parametrize(("small", "through_cards"), [(0, True), (10**9, False)])
def test_a_folder_reads_the_same_through_its_cards_or_the_log(
    store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch, small: int, through_cards: bool
) -> None:
    spanish = folder_with_words(store, "Spanish", SPANISH)
    folder_with_words(store, "German", [("Hund", ["dog"])])
    for days_ago, term in enumerate(("perro", "gato", "Hund", "casa", "perro", "Hund")):
        grade(store, term, Rating(days_ago % 4 + 1), at=NOON - days_ago * DAY_MS, lapses=1)
    grade(store, "gato", Rating.AGAIN, at=NOON - 40 * DAY_MS)
    expected = stats(store, clock, spanish)
    monkeypatch.setattr(sq, "_SMALL", small)  # any share of the cards is small / large
    assert sq.reach(store.study.db, Scope((spanish.id,))).through_cards == through_cards
    assert stats(store, clock, spanish) == expected
    assert (expected.total_reviews, expected.streak.current, expected.streak.longest) == (4, 2, 2)


def test_a_month_of_reviews_is_read_from_the_time_index_alone(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Schema 5 widened review_by_time so that the month's queries never read the log's rows.
    db = store.study.db
    statements: list[tuple[str, object]] = []
    execute = db.execute
    monkeypatch.setattr(
        db,
        "execute",
        lambda sql, params=(): statements.append((sql, params)) or execute(sql, params),
    )
    for reach in (sq.reach(db, Scope()), sq.Reach(Scope((FolderId(1),)), through_cards=False)):
        sq.reviews_by_day(db, reach, NOON - 30 * DAY_MS, NOON)
        sq.retention_by_folder(db, reach, NOON - 30 * DAY_MS, NOON)
    assert len(statements) == 4
    for sql, params in statements:
        plan = " ".join(str(row["detail"]) for row in db.all(f"EXPLAIN QUERY PLAN {sql}", params))
        assert "SEARCH r USING COVERING INDEX review_by_time" in plan


@pytest.mark.parametrize("small", [1, 10**6])
def test_reviews_from_a_device_whose_clock_is_ahead_count_as_today(
    store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch, small: int
) -> None:
    # Another device whose clock runs a day (or a week) ahead syncs its reviews here: they
    # are in this device's future, yet they were made, and the page must count them, not
    # hide them until this clock catches up (issue 27: a clock a day off has no effect).
    monkeypatch.setattr(sq, "_SMALL", small)  # read through the cards, or through the log
    spanish = folder_with_words(store, "Spanish", SPANISH)
    grade(store, "perro", Rating.GOOD, at=NOON - 20 * DAY_MS)  # learnt: the next are measured
    grade(store, "gato", Rating.GOOD, at=NOON - 20 * DAY_MS)
    grade(store, "perro", Rating.GOOD, at=NOON)
    grade(store, "perro", Rating.AGAIN, at=NOON + DAY_MS)  # tomorrow, by this clock
    grade(store, "gato", Rating.EASY, at=NOON + 7 * DAY_MS)  # next week
    for scope in (None, spanish):
        result = stats(store, clock, scope)
        assert result.total_reviews == 5
        assert result.reviews[-1].by_rating == (1, 0, 1, 1)
        assert [f.reviews for f in result.retention] == [3]
        assert result.overall_retention == 2 / 3
        assert (result.streak.current, result.streak.longest) == (1, 1)
        assert result.streak.studied_today
