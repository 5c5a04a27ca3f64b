"""Planning the study progress an import brings: which cards, reviews and study options come
along and under which ids, worked out with the rest of the plan (app.store.transfer.plan).

- A card goes to the word its own word became: a new word, or the word here it merged into. A
  word here that already has progress in that direction keeps it, and the file's card and its
  reviews stay behind: joining two logs would invent a history neither had.
- Cards of the file that land on the same word and direction (duplicate notes merged into one
  word) do not become two: the one with the longer history (more reviews) comes along, the
  first in the file on a tie.
- A backup's cards and reviews come as they are. An Anki history is replayed through the
  scheduler with the retention of the folder it lands in, each review keeping the schedule
  before it exactly as a live grade writes it, so undoing a grade and the stats work on it.
  Reviews dated after the import are left out (a clock that ran ahead).
- Study options fill folders (and the collection) that have none of their own; a replace
  takes the file's instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from app.ids import uuid7
from app.store.study_queries import COLLECTION
from app.store.transfer import Mode
from app.store.transfer.model import (
    CardHistory,
    CardItem,
    Reason,
    ReviewItem,
    StudyData,
    stamps,
)
from app.store.transfer.read import Existing
from app.store.transfer.steps import CHUNK, Progress, Steps
from app.store.transfer.study_rows import (
    CardValues,
    ReviewValues,
    card_values,
    options_row,
    review_values,
)
from app.study.days import Moment
from app.study.model import CardState, Direction, card_seed
from app.study.model import Progress as Schedule
from app.study.options import StudyOptions

ANKI_MODE = "anki"  # the review mode of an imported Anki review
FUTURE: Reason = ("review", "dated after today (a clock that ran ahead)")
KEPT: Reason = ("card", "of words that already have progress here (kept as it is)")
DUPLICATE: Reason = ("card", "of duplicate notes (the longer history came along)")
UNPLACED: Reason = ("card", "of words that were not imported")


@dataclass
class StudyPlan:
    cards: list[CardValues] = field(default_factory=list)
    reviews: list[ReviewValues] = field(default_factory=list)
    options: list[dict[str, Any]] = field(default_factory=list)
    replace_options: bool = False  # the file's options replace every row here
    left_out: Counter[Reason] = field(default_factory=Counter)
    woken: int = 0  # reverse cards whose new folder was set to study both directions
    waiting: int = 0  # reverse cards landing where only term -> meaning is studied
    stale_dues: bool = False  # cards copied with due dates of the old fuzz (decision 045)

    @property
    def notes(self) -> list[str]:
        """What stayed behind and why, as one sentence (none when everything came along)."""
        # Reviews before cards, the most frequent reason first, so the sentence reads the same
        # whatever order the file listed things in.
        counted = sorted(self.left_out.items(), key=lambda item: (item[0][0] != "review", -item[1]))
        parts = [
            f"{count:,} {noun}{'' if count == 1 else 's'} {rest}"
            for (noun, rest), count in counted
            if count
        ]
        notes = [f"Left out of the study history: {'; '.join(parts)}."] if parts else []
        if self.woken:
            notes.append(
                f"{_reverse(self.woken)} with {_its(self.woken)} history: the new folders "
                f"{_lands(self.woken)} in study both directions."
            )
        if self.waiting:
            notes.append(
                f"{_reverse(self.waiting)} into folders that study term → meaning only: "
                f"{_waits(self.waiting)} until the folder's Study options include both "
                "directions."
            )
        return notes


@dataclass(frozen=True)
class Landing:
    """Where the file's words and folders land: file word id -> (word id, folder id) here,
    file folder id -> folder id here, and the folder rows to create (parents first)."""

    words: Mapping[int, tuple[int, int]]
    folders: Mapping[int, int]
    new_folders: Sequence[Mapping[str, Any]]


class _Candidate(NamedTuple):
    length: int  # reviews that would come along
    word_id: int
    folder_id: int
    direction: Direction
    source: CardItem | CardHistory


def plan_study(
    study: StudyData | None, landing: Landing, existing: Existing, mode: Mode, now: Moment
) -> Steps[StudyPlan]:
    if study is None:
        return StudyPlan()
    return (yield from _Planner(study, landing, existing, mode, now).run())


@dataclass
class _Planner:
    study: StudyData
    landing: Landing
    existing: Existing
    mode: Mode
    now: Moment  # stamps rows without times; its clock counts the study days of Anki reviews
    plan: StudyPlan = field(default_factory=StudyPlan)

    def run(self) -> Steps[StudyPlan]:
        self.plan.left_out.update(self.study.left_out)
        chosen = self._choose()
        effective = _effective(self.landing.new_folders, self.existing)
        next_id = self.existing.next_card_id
        copied: dict[int, int] = {}  # file card id -> card id here
        total = sum(c.length for c in chosen)
        done = reported = 0
        for candidate in chosen:
            source = candidate.source
            if isinstance(source, CardItem) and self.mode == "replace":
                card_id = source.id  # a restore keeps the file's ids
            else:
                card_id, next_id = next_id, next_id + 1
            if isinstance(source, CardItem):
                self._copy(candidate, source, card_id)
                copied[source.id] = card_id
            else:
                self._replay(candidate, source, effective[candidate.folder_id], card_id)
            done += candidate.length
            if done - reported >= CHUNK:
                reported = done
                yield Progress("Rebuilding study progress", done, total)
        # In the file's order, so the log reads in the order it was written; a review keeps
        # its global id (one from an older file gets a new one).
        self.plan.reviews.extend(
            r._replace(card_id=copied[r.card_id], study_day=self._day(r), gid=r.gid or uuid7())
            for r in self.study.reviews
            if r.card_id in copied
        )
        self._options()
        self._wake_reverse(chosen, effective)
        return self.plan

    def _day(self, review: ReviewItem) -> int:
        """The study day a copied review keeps: its own, or (from an older backup) the day it
        falls on here."""
        day = review.study_day
        return self.now.day_of(review.reviewed_at) if day is None else day

    def _choose(self) -> list[_Candidate]:
        """One card per word and direction here: the longest history of those landing there."""
        left_out = self.plan.left_out
        reviews_of = Counter(review.card_id for review in self.study.reviews)
        sources: list[tuple[CardItem | CardHistory, int]] = [
            (card, reviews_of[card.id]) for card in self.study.cards
        ]
        for history in self.study.histories:
            usable = tuple(r for r in history.reviews if r[1] <= self.now.at)
            left_out[FUTURE] += len(history.reviews) - len(usable)
            if usable:
                sources.append((history._replace(reviews=usable), len(usable)))
        best: dict[tuple[int, Direction], _Candidate] = {}
        for source, length in sources:
            landed = self.landing.words.get(source.word_id)
            if landed is None:
                left_out[UNPLACED] += 1
                continue
            key = (landed[0], source.direction)
            if key in self.existing.cards:
                left_out[KEPT] += 1
                continue
            if key in best:
                left_out[DUPLICATE] += 1
                if length <= best[key].length:
                    continue
            best[key] = _Candidate(length, *landed, source.direction, source)
        return list(best.values())

    def _copy(self, candidate: _Candidate, card: CardItem, card_id: int) -> None:
        progress = Schedule(
            state=CardState(card.state),
            step=card.step,
            stability=card.stability,
            difficulty=card.difficulty,
            due=card.due,
            last_review=card.last_review,
            reps=card.reps,
            lapses=card.lapses,
        )
        self.plan.cards.append(_card(candidate, card_id, progress, stamps(card, self.now.at)))
        self.plan.stale_dues = self.plan.stale_dues or self.study.stale_dues

    def _replay(
        self, candidate: _Candidate, history: CardHistory, options: StudyOptions, card_id: int
    ) -> None:
        reviews = history.reviews
        # Anki keeps no study day with a review: each falls on the learner's days here.
        moments = [replace(self.now, at=at) for _, at, _ in reviews]
        basis = self.existing.seeds.get(candidate.word_id, str(candidate.word_id))
        seed = card_seed(basis, candidate.direction)
        key = (seed, len(reviews), options.retention, options.parameters)
        steps = self.study.replays.get(key)
        if steps is None:
            # Only an Anki history needs the scheduler: py-fsrs is loaded on first use in the
            # browser (app.browser.transfer loads it before reading an Anki package).
            from app.study.scheduler import replayed  # noqa: PLC0415

            grades = zip((rating for rating, _, _ in reviews), moments, strict=True)
            steps = replayed(grades, options, seed)
            self.study.replays[key] = steps
        before: Schedule | None = None
        for (rating, _, duration), moment, after in zip(reviews, moments, steps, strict=True):
            self.plan.reviews.append(
                review_values(card_id, int(rating), moment, duration, mode=ANKI_MODE, before=before)
            )
            before = after
        studied = (reviews[0][1], reviews[-1][1])  # created when first studied
        self.plan.cards.append(_card(candidate, card_id, steps[-1], studied))

    def _wake_reverse(
        self, chosen: list[_Candidate], effective: Mapping[int, StudyOptions]
    ) -> None:
        """Reverse cards that come with an Anki history are studied: a folder this import creates
        studies both directions when some land in it (an Anki "Basic (and reversed card)" deck
        is studied both ways there). In a folder that is already here they wait until it does,
        and the preview says so."""
        plan = self.plan
        # A backup's cards come with the options they were studied with there.
        landed = Counter(
            c.folder_id
            for c in chosen
            if c.direction == "reverse" and isinstance(c.source, CardHistory)
        )
        created = {row["id"] for row in self.landing.new_folders}
        for folder, count in landed.items():
            options = effective[folder]
            if options.studies("reverse"):
                continue
            if folder not in created:
                plan.waiting += count
                continue
            both = options.model_copy(update={"directions": "both"}).model_dump()
            plan.options.append(options_row(folder, both, self.now.at, self.now.at))
            plan.woken += count

    def _options(self) -> None:
        """A merge fills only folders without options of their own; a replace takes the
        file's."""
        plan = self.plan
        plan.replace_options = self.mode == "replace"
        taken = set() if plan.replace_options else set(self.existing.options)
        for item in self.study.options:
            folder = None if item.folder_id is None else self.landing.folders[item.folder_id]
            if (folder or COLLECTION) in taken:
                continue
            taken.add(folder or COLLECTION)
            options = item.options.model_dump(exclude_none=True)
            plan.options.append(options_row(folder, options, *stamps(item, self.now.at)))


def _card(
    candidate: _Candidate, card_id: int, progress: Schedule, times: tuple[int, int]
) -> CardValues:
    return card_values(
        card_id,
        candidate.word_id,
        candidate.folder_id,
        candidate.direction,
        progress,
        stamps=times,
    )


def _effective(
    new_folders: Sequence[Mapping[str, Any]], existing: Existing
) -> dict[int, StudyOptions]:
    """Each folder's options; a new folder inherits its parent's, as the app's options do."""
    effective = dict(existing.effective)
    for row in new_folders:
        effective[row["id"]] = effective.get(row["parent_id"], existing.base)
    return effective


def _reverse(count: int) -> str:
    """ "3 reverse cards (meaning → term) come", "1 reverse card (meaning → term) comes"."""
    if count == 1:
        return "1 reverse card (meaning → term) comes"
    return f"{count:,} reverse cards (meaning → term) come"


def _its(count: int) -> str:
    return "its" if count == 1 else "their"


def _lands(count: int) -> str:
    return "it lands" if count == 1 else "they land"


def _waits(count: int) -> str:
    return "it waits" if count == 1 else "they wait"
