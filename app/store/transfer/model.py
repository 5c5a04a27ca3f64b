"""The portable workspace every import and export goes through, and its limits.

Each file format (JSON backup, SQLite database, CSV, Anki) is read into a validated `Workspace`
of folders, words and notes with file-local ids (held by a `ParsedImport`, app/store/transfer/
parsed.py, with the rows that could not be read and why).
Study progress comes along as `StudyData`: exact card, review and option rows from a backup, or
Anki review histories that are replayed once the folders they land in are known.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Annotated, Literal, NamedTuple, Protocol

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationInfo,
    field_validator,
)

from app.domain import Colour
from app.inputs import Emoji, Lang, Meanings, Name, Text
from app.store.transfer import MAX_ID, MAX_TIMESTAMP
from app.study.model import DAY_MS, CardState, Direction, Rating, Weights
from app.study.model import Progress as Schedule
from app.study.options import StudyOptions

Id = Annotated[StrictInt, Field(ge=1, le=MAX_ID)]
Timestamp = Annotated[StrictInt, Field(ge=0, le=MAX_TIMESTAMP)]
# Study days from the epoch a timestamp can fall on, with a day's margin for the time zone.
StudyDayNumber = Annotated[StrictInt, Field(ge=-1, le=MAX_TIMESTAMP // DAY_MS + 1)]
Count = Annotated[StrictInt, Field(ge=0, le=MAX_ID)]
Step = Annotated[StrictInt, Field(ge=0, le=1_000)]
# py-fsrs keeps stability above 0 and difficulty within 1..10; anything else was not written by it.
Stability = Annotated[StrictFloat, Field(gt=0, allow_inf_nan=False)]
Difficulty = Annotated[StrictFloat, Field(ge=1, le=10, allow_inf_nan=False)]
LEARNING_STATES = (CardState.LEARNING, CardState.RELEARNING)
# A row's global id (decision 040) as the app writes it: lowercase UUID text. The length bound
# comes first, so a hostile megabyte string is refused without being matched.
Gid = Annotated[
    StrictStr,
    Field(
        min_length=36,
        max_length=36,
        pattern=r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
    ),
]
# What seeds a word's card fuzz (app/study/model.py card_seed): a local id as text on the device
# the word came from. No ":" (card_seed joins basis and direction with it) and no spaces.
SeedBasis = Annotated[StrictStr, Field(max_length=64, pattern=r"^[0-9A-Za-z-]{1,64}$")]


class _Item(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _Stamped(Protocol):
    @property
    def created_at(self) -> int | None: ...

    @property
    def updated_at(self) -> int | None: ...


def stamps(item: _Stamped, now: int) -> tuple[int, int]:
    """An item's (created, updated) times: a missing creation time is the import's, a missing
    update time the creation time."""
    created = item.created_at if item.created_at is not None else now
    return created, item.updated_at if item.updated_at is not None else created


class FolderItem(_Item):
    id: Id
    parent_id: Id | None = None
    name: Name
    emoji: Emoji = ""
    color: Colour = "none"
    lang: Lang = ""  # absent before backup version 3
    created_at: Timestamp | None = None  # None: stamped when imported
    updated_at: Timestamp | None = None
    gid: Gid | None = None  # absent before backup version 5: a new one is made


class WordItem(_Item):
    id: Id | None = None  # kept by a replace restore, so links to words keep working
    folder_id: Id
    term: Name
    meanings: Meanings = []
    notes: Text = ""
    color: Colour = "none"
    lang: Lang = ""
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    gid: Gid | None = None
    # The seed basis of its cards (from backup version 5); absent: its `id` in the file, which is
    # what seeded them where it was exported (read.seed_basis).
    seed: SeedBasis | None = None
    line: int | None = Field(default=None, exclude=True)  # where it came from, for messages


class NoteItem(_Item):
    id: Id | None = None
    folder_id: Id
    title: Name
    body: Text = ""
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    gid: Gid | None = None


class CardItem(_Item):
    """A studied card: its word (an `id` of a word in the file), direction and schedule."""

    id: Id
    word_id: Id
    direction: Direction
    state: Annotated[StrictInt, Field(ge=1, le=3)]  # learning, review, relearning
    step: Step | None = None
    stability: Stability
    difficulty: Difficulty
    due: Timestamp
    last_review: Timestamp | None = None
    reps: Count = 0
    lapses: Count = 0
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None

    @field_validator("step")
    @classmethod
    def _learning_has_a_step(cls, step: int | None, info: ValidationInfo) -> int | None:
        # The scheduler cannot move a (re)learning card on without knowing its step.
        if step is None and info.data.get("state") in LEARNING_STATES:
            raise ValueError("is required for a card in (re)learning")
        return step


class ReviewItem(NamedTuple):
    """One grade of the review log, with the card's schedule as it was before (state 0: new).

    A tuple, not a model: a history of a million reviews is ordinary, and a backup writes each
    as an array in this field order (docs/backup-format.md)."""

    card_id: Id
    rating: Annotated[StrictInt, Field(ge=1, le=4)]
    reviewed_at: Timestamp
    duration_ms: Annotated[StrictInt, Field(ge=0, le=DAY_MS)]
    mode: Annotated[StrictStr, Field(pattern=r"^[a-z][a-z-]{0,31}$")]
    state_before: Annotated[StrictInt, Field(ge=0, le=3)]
    step_before: Step | None
    stability_before: Stability | None
    difficulty_before: Difficulty | None
    due_before: Timestamp | None
    last_review_before: Timestamp | None
    # The learner's study day of the review (app/study/days.py). Backups before format 4 have
    # none: the importing device's study days are taken, as Anki takes them for its log.
    study_day: StudyDayNumber | None = None
    # Its global id (from format 5); absent: a new one is made when it is written.
    gid: Gid | None = None

    def schedule_fits(self) -> bool:
        """Whether the schedule kept before the grade is one a grade could have left: none
        for a new card, else stability, difficulty and due (and a step while learning)."""
        kept = (self.stability_before, self.difficulty_before, self.due_before)
        if self.state_before == CardState.NEW:
            return all(v is None for v in (*kept, self.step_before, self.last_review_before))
        learning = self.state_before in LEARNING_STATES
        return None not in kept and (self.step_before is not None or not learning)


REVIEW_FIELDS: tuple[str, ...] = ReviewItem._fields
GIDLESS_REVIEW_FIELDS = REVIEW_FIELDS[:-1]  # a review as format 4 lists it
DAYLESS_REVIEW_FIELDS = REVIEW_FIELDS[:-2]  # a review as backups before format 4 list it
# Every layout a reader accepts, newest first.
KNOWN_REVIEW_FIELDS = (REVIEW_FIELDS, GIDLESS_REVIEW_FIELDS, DAYLESS_REVIEW_FIELDS)


class StoredOptions(StudyOptions):
    """A folder's study options as stored; the collection's row also keeps the day's start."""

    day_start_hour: Annotated[StrictInt, Field(ge=0, le=23)] | None = None


class OptionsItem(_Item):
    folder_id: Id | None = None  # None: the collection's own options
    options: StoredOptions
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None


class CardHistory(NamedTuple):
    """An Anki card's usable reviews (rating, epoch ms, duration ms) in time order, replayed
    into a schedule once the folder it lands in, and so its retention, is known."""

    word_id: int
    direction: Direction
    reviews: tuple[tuple[Rating, int, int], ...]


# Why part of a history stayed behind: the noun counted and the rest of the phrase, as in
# ("review", "rescheduled by hand") -> "12 reviews rescheduled by hand".
Reason = tuple[Literal["review", "card"], str]


@dataclass(frozen=True)
class StudyData:
    """Study progress that comes with a file. `histories` (Anki) are replayed when planned;
    `left_out` counts what was not brought along and why."""

    cards: list[CardItem] = field(default_factory=list)
    reviews: list[ReviewItem] = field(default_factory=list)
    options: list[OptionsItem] = field(default_factory=list)
    histories: list[CardHistory] = field(default_factory=list)
    left_out: Counter[Reason] = field(default_factory=Counter)
    # The cards' due dates were drawn with the fuzz before decision 045 (a backup before
    # version 6, a database before schema 9): importing them marks the schedules stale.
    stale_dues: bool = False
    # Replays by (word id, direction, reviews, retention): the preview fills it and the import,
    # which plans again, reuses it. Replaying is most of the work, and the import blocks the page.
    replays: dict[tuple[str, int, float, Weights | None], list[Schedule]] = field(
        default_factory=dict
    )


@dataclass(frozen=True)
class Workspace:
    """Folders parents-first, then words and notes, all pointing at folder ids of this file.
    `study` is None when the file has no study section at all (CSV, a version 1 backup)."""

    folders: list[FolderItem] = field(default_factory=list)
    words: list[WordItem] = field(default_factory=list)
    notes: list[NoteItem] = field(default_factory=list)
    study: StudyData | None = None


class _Result(BaseModel):
    model_config = ConfigDict(frozen=True)


class SkippedRow(_Result):
    """A row or item left out, with where it was (`line`) and why in plain words."""

    line: int | None
    term: str
    reason: str
