"""A card's schedule is a pure function of its review log (issue 26, decision 036): for any
grades at any times (near study-day boundaries, with the time zone changing, across undos and
reloads), the stored schedule equals the replay of the logged reviews, exactly, and the fuzz
that spreads reviews is drawn from the card, so a replay anywhere gives the same due dates."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from random import Random

import fsrs.scheduler
import pytest
from fsrs import Card, State
from fsrs import Rating as FsrsRating
from hypothesis import given, settings
from hypothesis import strategies as st

from app.store import Store
from app.store.db import Database
from app.study.days import moment
from app.study.model import (
    DAY_MS,
    MINUTE_MS,
    CardKey,
    CardState,
    Progress,
    Rating,
    StudyCard,
    fuzz_draw,
)
from app.study.options import DEFAULT_OPTIONS
from app.study.scheduler import graded, outcomes, replay, scheduler
from app.studying.session import StudySession
from tests.study.helpers import NOON, SPANISH, Clock, folder_with_words

Step = tuple[str, int, int]
steps = st.lists(
    st.one_of(
        # A grade given `seconds` after the card was shown (up to a day and a half).
        st.tuples(st.just("grade"), st.integers(1, 4), st.integers(0, 36 * 3600)),
        st.tuples(st.just("undo"), st.just(0), st.just(0)),
        st.tuples(st.just("reload"), st.just(0), st.just(0)),
        # Whole days less a minute: the near-boundary times of a learner who studies at one hour.
        st.tuples(st.just("wait"), st.integers(1, 60 * 24 * 40), st.just(0)),
        st.tuples(st.just("wait"), st.integers(1, 30).map(lambda d: d * 24 * 60 - 1), st.just(0)),
        # Travel and daylight saving: the learner's UTC offset changes.
        st.tuples(st.just("zone"), st.sampled_from([-480, -300, 0, 60, 120, 330, 840]), st.just(0)),
    ),
    max_size=30,
)


def _stored(store: Store) -> dict[CardKey, tuple[StudyCard, Progress]]:
    found = {}
    for row in store.study.db.all("SELECT word_id, direction FROM card"):
        key = (row["word_id"], row["direction"])
        card = store.study.card(key)
        assert card.progress is not None
        found[key] = (card, card.progress)
    return found


@settings(max_examples=60, deadline=None)
@given(steps)
def test_the_stored_schedule_is_the_replay_of_the_logged_reviews(plan: list[Step]) -> None:
    clock = Clock(NOON - 8 * 3_600_000)  # 4 a.m. UTC: a day boundary at offset 0
    zone = [0]
    store = Store(Database.open(), clock=clock)
    folder = folder_with_words(store, "Spanish", SPANISH[:3])
    scope = {"kind": "folder", "folder": folder.id}
    session = StudySession.start(store, scope, "flashcard", clock, lambda: zone[0])
    for action, value, seconds in plan:
        if action == "grade" and session.turn is not None:
            session.reveal()
            clock.now += seconds * 1000
            session.grade(Rating(value))
        elif action == "undo":
            session.undo()
        elif action == "reload":
            store = Store(Database.from_bytes(store.snapshot()), clock=clock)
            session = StudySession.resume(store, clock, lambda: zone[0]) or session
        elif action == "zone":
            zone[0] = value
        elif action == "wait":
            clock.advance(minutes=value)
            session = StudySession.resume(store, clock, lambda: zone[0]) or session
            if session.turn is None:
                session = StudySession.start(store, scope, "flashcard", clock, lambda: zone[0])
    for key, (card, progress) in _stored(store).items():
        assert replay(store.study.history(key), DEFAULT_OPTIONS, card.seed) == progress


def test_a_grade_is_scheduled_at_the_moment_it_is_logged() -> None:
    # Issue 26's steps: Easy on a new word; shown a minute before it is due, N days later,
    # and graded Good a minute after, on the study day after the one it was shown on.
    clock = Clock(NOON)
    store = Store(Database.open(), clock=clock)
    folder = folder_with_words(store, "Spanish", SPANISH[:1])
    scope = {"kind": "folder", "folder": folder.id}
    session = StudySession.start(store, scope, "flashcard", clock, lambda: 0)
    session.reveal()
    session.grade(Rating.EASY)
    key = next(iter(_stored(store)))
    due = _stored(store)[key][1].due
    clock.now = due - MINUTE_MS
    session = StudySession.start(store, scope, "flashcard", clock, lambda: 0)
    # From the card's own day: make the grade land past the 4 a.m. boundary.
    boundary = moment(clock.now, 0, 4)
    clock.now = (boundary.day + 1) * DAY_MS - boundary.shift - MINUTE_MS
    session = StudySession.start(store, scope, "flashcard", clock, lambda: 0)
    assert session.turn is not None
    shown = session.turn.outcomes[Rating.GOOD].progress
    session.reveal()
    clock.advance(minutes=2)
    session.grade(Rating.GOOD)
    card = store.study.card(key)
    assert card.progress == replay(store.study.history(key), DEFAULT_OPTIONS, card.seed)
    # The day that ended in between counts: the stored stability is not the one shown.
    assert shown.last_day is not None
    assert card.progress is not None
    assert card.progress.last_day == shown.last_day + 1
    assert card.progress.stability != shown.stability


def _review(days_ago: int) -> Progress:
    at = NOON - days_ago * DAY_MS
    return Progress(CardState.REVIEW, None, 40.0, 5.0, NOON, at, 3, 0, moment(at, 0, 4).day)


def test_the_fuzz_is_drawn_from_the_card_and_its_review_count() -> None:
    now = moment(NOON, 0, 4)
    progress = _review(40)
    first = graded(progress, Rating.GOOD, now, DEFAULT_OPTIONS, "7:forward")
    assert graded(progress, Rating.GOOD, now, DEFAULT_OPTIONS, "7:forward") == first
    # The same schedule, as shown on the buttons, as graded, and after an undo.
    assert outcomes(progress, now, DEFAULT_OPTIONS, "7:forward")[Rating.GOOD].progress == first
    dues = {
        graded(progress, Rating.GOOD, now, DEFAULT_OPTIONS, f"{i}:forward").due for i in range(200)
    }
    assert len(dues) > 3  # spread over nearby days, as fuzz is for


@pytest.mark.parametrize("draw", [0.0, 0.37, 0.5, 0.999])
def test_the_fuzz_keeps_py_fsrs_ranges(draw: float, monkeypatch: pytest.MonkeyPatch) -> None:
    # py-fsrs itself, drawing `draw`, against ours seeded to draw the same.
    at = datetime.fromtimestamp(NOON / 1000, tz=UTC)
    card = Card(state=State.Review, step=None, stability=40.0, difficulty=5.0, due=at)
    card.last_review = at - timedelta(days=40)
    monkeypatch.setattr(fsrs.scheduler, "random", lambda: draw)
    theirs = fsrs.Scheduler(desired_retention=0.9).review_card(card, FsrsRating.Good, at)[0]
    monkeypatch.undo()
    ours = scheduler(0.9)
    ours.draw = lambda: draw
    assert ours.review_card(card, FsrsRating.Good, at)[0].due == theirs.due


def test_the_fuzz_draw_is_a_hash_of_the_card_and_its_review_count() -> None:
    # Decision 045: BLAKE2b of "seed:reps", its top 53 bits as a fraction; not a Mersenne
    # Twister seeded from the string (7.7 us a draw in the page against 1.3 us).
    digest = hashlib.blake2b(b"7:forward:3", digest_size=8).digest()
    assert fuzz_draw("7:forward", 3) == (int.from_bytes(digest, "big") >> 11) / 2**53
    assert fuzz_draw("7:forward", 3) != Random("7:forward:3").random()
    draws = [fuzz_draw(f"{i}:forward", 3) for i in range(2_000)]
    assert all(0.0 <= d < 1.0 for d in draws)
    assert 0.45 < sum(draws) / len(draws) < 0.55


def test_a_live_grade_draws_the_hashed_fuzz(monkeypatch: pytest.MonkeyPatch) -> None:
    # py-fsrs drawing the card's hashed draw gives what a live grade stores.
    progress = _review(40)
    at = datetime.fromtimestamp(NOON / 1000, tz=UTC)
    card = Card(state=State.Review, step=None, stability=40.0, difficulty=5.0, due=at)
    card.last_review = at - timedelta(days=40)
    monkeypatch.setattr(fsrs.scheduler, "random", lambda: fuzz_draw("7:forward", progress.reps))
    theirs = fsrs.Scheduler(desired_retention=0.9).review_card(card, FsrsRating.Good, at)[0]
    monkeypatch.undo()
    ours = graded(progress, Rating.GOOD, moment(NOON, 0, 4), DEFAULT_OPTIONS, "7:forward")
    assert ours.due == round(theirs.due.timestamp() * 1000)
