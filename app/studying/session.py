"""The study session engine: a state machine over one session's queue, fed by clicks, keys,
typed and spoken answers alike.

It decides what is asked next (learning cards that are due, then reviews with the lowest
retrievability, then new words up to the day's limit, then learning cards due within
`LEARN_AHEAD_MS`), grades through the scheduler and writes every grade at once, so a reload
resumes the same card with the same counts. It never touches the browser; time comes from the
injected clock, so tests drive it with a fixed one.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from app.domain import FolderId, LexicalError, NotFound
from app.store import Store
from app.store import study_queries as q
from app.store.study import SessionRow
from app.study.days import Moment, StudyDay, study_day
from app.study.grading import CompareOptions, Grade, grade_answer
from app.study.model import MINUTE_MS, CardKey, CardState, Mode, Rating, StudyCard
from app.study.options import DEFAULT_OPTIONS, StudyOptions
from app.study.scheduler import Outcome, graded, outcomes
from app.study.spoken import SpokenGrade, grade_spoken
from app.studying.summary import Summary, summarise

LEARN_AHEAD_MS = 20 * MINUTE_MS
CHOICES = 4
NOTHING_HEARD = "I didn't hear an answer, so nothing was graded. Hold Say it and try again."

Clock = Callable[[], int]
OffsetClock = Callable[[], int]  # local time minus UTC, in minutes, at this moment


class Phase(StrEnum):
    QUESTION = "question"  # the prompt is shown; waiting for a reveal, an answer or a pick
    CONFIRMING = "confirming"  # a spoken answer was nearly right: "Did you say …?"
    ANSWERED = "answered"  # the answer is shown; waiting for a grade
    DONE = "done"  # nothing left to study now: the summary


@dataclass(frozen=True, slots=True)
class Counts:
    new: int
    learning: int
    review: int


@dataclass
class Turn:
    """The card being asked and everything decided about it so far."""

    card: StudyCard
    shown_at: int
    outcomes: dict[Rating, Outcome]
    mode: Mode
    choices: tuple[str, ...] = ()
    typed: str | None = None
    chosen: int | None = None
    verdict: Grade | None = None
    suggested: Rating | None = None
    notice: str = ""
    heard: SpokenGrade | None = None  # the spoken answer, kept so the screen shows it
    prompt_shown: bool = False  # listening: the prompt is only heard until asked for


@dataclass
class Queue:
    reviews: deque[CardKey] = field(default_factory=deque)
    new: deque[CardKey] = field(default_factory=deque)
    learning: dict[CardKey, int] = field(default_factory=dict)

    def drop(self, key: CardKey) -> None:
        for line in (self.reviews, self.new):
            if line and line[0] == key:
                line.popleft()  # the usual case, and a search of 10,000 reviews otherwise
            elif key in line:
                line.remove(key)
        self.learning.pop(key, None)

    def next(self, now: int) -> CardKey | None:
        due_learning = sorted((due, key) for key, due in self.learning.items())
        if due_learning and due_learning[0][0] <= now:
            return due_learning[0][1]
        if self.reviews:
            return self.reviews[0]
        if self.new:
            return self.new[0]
        if due_learning and due_learning[0][0] <= now + LEARN_AHEAD_MS:
            return due_learning[0][1]
        return None

    @property
    def counts(self) -> Counts:
        return Counts(new=len(self.new), learning=len(self.learning), review=len(self.reviews))


class StudySession:
    """One session: start it with `start`, or `resume` the one a reload interrupted."""

    def __init__(
        self, store: Store, session: SessionRow, clock: Clock, utc_offset: OffsetClock
    ) -> None:
        self.store = store
        self.row = session
        self._clock = clock
        self._utc_offset = utc_offset
        self.mode: Mode = session.mode
        self.queue = Queue()
        self.turn: Turn | None = None
        self.summary: Summary | None = None
        self.options: dict[FolderId, StudyOptions] = {}
        self.excluded = 0  # words in scope left out for having no meaning
        self._load(session.current)

    @classmethod
    def start(
        cls,
        store: Store,
        scope: dict[str, Any],
        mode: Mode,
        clock: Clock,
        utc_offset: OffsetClock,
    ) -> StudySession:
        session_id = store.study.start_session(scope, mode)
        return cls(store, store.study.session(session_id), clock, utc_offset)

    @classmethod
    def resume(cls, store: Store, clock: Clock, utc_offset: OffsetClock) -> StudySession | None:
        row = store.study.open_session()
        return None if row is None else cls(store, row, clock, utc_offset)

    # --- state --------------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        turn = self.turn
        if turn is None:
            return Phase.DONE
        if turn.verdict is not None or turn.suggested is not None:
            return Phase.ANSWERED
        return Phase.CONFIRMING if turn.heard is not None else Phase.QUESTION

    @property
    def counts(self) -> Counts:
        return self.queue.counts

    @property
    def day(self) -> StudyDay:
        return study_day(self._clock(), self._utc_offset(), self.store.study.day_start_hour())

    def _moment(self) -> Moment:
        return self.store.moment(self._utc_offset(), self._clock())

    def _options(self, card: StudyCard) -> StudyOptions:
        return self.options.get(card.folder_id, DEFAULT_OPTIONS)

    def scope_options(self) -> StudyOptions:
        folder = self.row.scope.get("folder")
        if self.row.scope.get("kind") == "folder" and isinstance(folder, int):
            return self.options.get(FolderId(folder), DEFAULT_OPTIONS)
        return self.store.study.options_for(None)[0]

    def _load(self, current: CardKey | None) -> None:
        """Build the queue from storage: the same data gives the same queue, which is what
        makes a reload resume with the same counts."""
        now, day = self._clock(), self.day
        db, scope = self.store.study.db, self.store.study.scope(self.row.scope)
        self.options = self.store.study.options_map()
        limits = self.scope_options()
        introduced, reviewed = q.done_today(db, scope, day.start)
        new_limit = max(limits.new_per_day - introduced, 0)
        reviews = q.review_queue(db, scope, self.options, day.end, now)
        self.queue = Queue(
            reviews=deque(reviews[: max(limits.reviews_per_day - reviewed, 0)]),
            new=deque(q.new_queue(db, scope, self.options, new_limit, self.store.folder_tree())),
            learning=q.learning_cards(db, scope, self.options),
        )
        self.excluded = q.without_meaning(db, scope)
        known = current is not None and (
            current in self.queue.learning
            or current in self.queue.reviews
            or current in self.queue.new
        )
        self._present(current if known else self.queue.next(now))

    def _present(self, key: CardKey | None) -> None:
        if key is None:
            self.turn = None
            self.summary = summarise(self.store, self.row, self._clock(), self._utc_offset())
            return
        try:
            card = self.store.study.card(key)
        except NotFound:
            self.queue.drop(key)
            self._present(self.queue.next(self._clock()))
            return
        at = self._moment()
        self.turn = Turn(
            card, at.at, outcomes(card.progress, at, self._options(card), card.seed), self.mode
        )
        if self.mode == "choice":
            self._offer_choices(self.turn)

    def _offer_choices(self, turn: Turn) -> None:
        wrong = self.store.study.distractors(turn.card, CHOICES - 1)
        if not wrong:
            turn.mode = "flashcard"
            turn.notice = "There are no other words to choose from, so this one is a flashcard."
            return
        options = [turn.card.answers[0], *wrong]
        random.Random(f"{self.row.id}:{turn.card.key}").shuffle(options)
        turn.choices = tuple(options)

    # --- events -------------------------------------------------------------------------------

    def reveal(self) -> None:
        """Flashcards: show the answer (any mode: "I don't know" shows it too)."""
        turn = self._asking()
        turn.heard = None
        turn.suggested = Rating.GOOD if turn.mode == "flashcard" else Rating.AGAIN

    def answer(self, text: str) -> Grade:
        """Typing: grade what was typed; the suggested rating can still be overridden."""
        turn = self._asking()
        verdict = grade_answer(text, turn.card.answers, self._compare(turn.card))
        turn.heard = None
        self._answered(turn, text, verdict, Rating(verdict.suggested_rating))
        return verdict

    def answer_spoken(self, alternatives: Sequence[str]) -> SpokenGrade:
        """Listening and speaking: grade the recogniser's hearings of one answer. Nothing heard
        is never graded (the card stays asked, with a notice); a near miss waits for
        `confirm_spoken`; otherwise as typing, the suggestion still overridable."""
        turn = self._asking()
        spoken = self.hear(alternatives)
        turn.heard, turn.notice = None, ""
        if spoken.heard == "empty":
            turn.notice = NOTHING_HEARD
            return spoken
        turn.heard = spoken
        if spoken.heard != "near":
            self._answered(turn, spoken.said, spoken.grade, Rating(spoken.grade.suggested_rating))
        return spoken

    def hear(self, alternatives: Sequence[str]) -> SpokenGrade:
        """Grade the recogniser's hearings of an answer to the current card; changes nothing
        (the hands-free drill decides what follows)."""
        card = self._asking().card
        return grade_spoken(alternatives, card.answers, self._compare(card))

    def skip(self) -> None:
        """Leave the current card ungraded for the rest of this session (it stays due, so a
        later session asks it) and present the next; a reload resumes at that next card."""
        if self.turn is None:
            return
        self.queue.drop(self.turn.card.key)
        upcoming = self.queue.next(self._clock())
        self.store.study.update_session(self.row.id, current=upcoming)
        self._present(upcoming)

    def confirm_spoken(self, *, said_it: bool) -> None:
        """The answer to "Did you say …?". Yes counts it right, suggesting Hard: the recogniser
        could not hear it clearly, so the learner's word is taken but not rated Good unasked.
        No forgets what was heard, to listen again."""
        turn = self.turn
        if turn is None or turn.heard is None or self.phase != Phase.CONFIRMING:
            raise LexicalError("There is no spoken answer waiting to be confirmed.")
        if said_it:
            self._answered(turn, turn.heard.said, turn.heard.grade, Rating.HARD)
        else:
            turn.heard = None

    def show_prompt(self) -> None:
        """Listening: show the prompt that was only spoken (for whoever cannot hear it)."""
        if self.turn is not None:
            self.turn.prompt_shown = True

    def choose(self, index: int) -> bool:
        """Choice: pick one of the offered answers; returns whether it was right."""
        turn = self._asking()
        if not 0 <= index < len(turn.choices):
            raise LexicalError("Pick one of the answers shown.")
        turn.chosen = index
        right = turn.choices[index] == turn.card.answers[0]
        turn.suggested = Rating.GOOD if right else Rating.AGAIN
        return right

    def grade(self, rating: Rating | None = None) -> None:
        """Schedule the card with `rating` (default: the suggested one), save it, move on."""
        turn = self.turn
        if turn is None:
            raise LexicalError("There is no card to grade.")
        chosen = rating or turn.suggested
        if chosen is None:
            raise LexicalError("Show the answer first, then grade it.")
        at = self._moment()
        now = at.at
        # Computed again at the moment logged, not taken from the buttons: the schedule is then
        # the one a replay of the log gives. Only a study day ending in between changes it.
        after = graded(turn.card.progress, chosen, at, self._options(turn.card), turn.card.seed)
        key = turn.card.key
        self.queue.drop(key)
        if after.state in (CardState.LEARNING, CardState.RELEARNING):
            self.queue.learning[key] = after.due
        upcoming = self.queue.next(now)
        self.store.study.grade(
            self.row.id,
            turn.card,
            chosen,
            after,
            at=at,
            duration_ms=now - turn.shown_at,
            mode=turn.mode,
            next_card=upcoming,
        )
        self._present(upcoming)

    def undo(self) -> bool:
        """Take back the last grade of this session; False when there is none."""
        key = self.store.study.undo_grade(self.row.id)
        if key is None:
            return False
        self.summary = None
        self._load(key)
        return True

    def set_mode(self, mode: Mode) -> None:
        self.mode = mode
        self.store.study.update_session(self.row.id, current=self._key(), mode=mode)
        if self.turn is not None and self.phase in (Phase.QUESTION, Phase.CONFIRMING):
            self._present(self.turn.card.key)

    def finish(self) -> Summary:
        self.store.study.finish_session(self.row.id)
        self.turn = None
        self.summary = summarise(self.store, self.row, self._clock(), self._utc_offset())
        return self.summary

    # --- helpers ------------------------------------------------------------------------------

    def _key(self) -> CardKey | None:
        return None if self.turn is None else self.turn.card.key

    def _asking(self) -> Turn:
        """The turn waiting for an answer (a new one replaces a near miss being asked about)."""
        if self.turn is None or self.phase not in (Phase.QUESTION, Phase.CONFIRMING):
            raise LexicalError("That card is already answered; grade it to go on.")
        return self.turn

    @staticmethod
    def _answered(turn: Turn, said: str, verdict: Grade, suggested: Rating) -> None:
        turn.typed, turn.verdict, turn.suggested = said, verdict, suggested

    def _compare(self, card: StudyCard) -> CompareOptions:
        options = self.options.get(card.folder_id, DEFAULT_OPTIONS)
        return CompareOptions(
            accents_optional=options.accents_optional,
            articles_optional=options.articles_optional,
            lang=card.lang if card.direction == "reverse" else "",
        )

    def intervals(self) -> dict[Rating, int]:
        turn = self.turn
        return {} if turn is None else {r: o.interval_ms for r, o in turn.outcomes.items()}
