"""The study vocabulary: card directions, ratings, modes, per-folder options and card progress.

Plain data shared by the scheduler, the store's study queries and the session engine; the
per-folder options, validated with pydantic, are in app.study.options (decision 025). Times are
epoch milliseconds (UTC) like every other timestamp in the store.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import IntEnum
from typing import Literal, get_args

from app.domain import FolderId, WordId

Direction = Literal["forward", "reverse"]  # term -> meaning, meaning -> term
DIRECTIONS: tuple[Direction, ...] = get_args(Direction)
DIRECTION_LABELS: dict[Direction, str] = {
    "forward": "term → meaning",
    "reverse": "meaning → term",
}
Mode = Literal["flashcard", "typing", "choice", "listening", "speaking", "hands-free"]
MODES: tuple[Mode, ...] = get_args(Mode)
Directions = Literal["forward", "reverse", "both"]

MINUTE_MS = 60_000
DAY_MS = 86_400_000


class Rating(IntEnum):
    """The four answers FSRS knows, numbered as FSRS and Anki number them."""

    AGAIN = 1
    HARD = 2
    GOOD = 3
    EASY = 4

    @property
    def label(self) -> str:
        return self.name.title()


class CardState(IntEnum):
    """Where a card is in its life; NEW means no card row exists yet (never studied)."""

    NEW = 0
    LEARNING = 1
    REVIEW = 2
    RELEARNING = 3


DEFAULT_DAY_START_HOUR = 4


CardKey = tuple[WordId, Direction]
Weights = tuple[float, ...]  # FSRS-6's 21 parameters (validated in app.study.options)


# The SQL of a word's seed basis (alias `w`): its `seed` when it came from another device, else
# its local id (decision 040).
SEED_BASIS_SQL = "coalesce(w.seed, CAST(w.id AS TEXT))"


def card_seed(basis: str, direction: Direction) -> str:
    """What seeds a card's fuzz (app/study/scheduler.py): its word's seed basis and its
    direction, which name one card whenever and wherever it is reviewed or replayed. The basis
    is the word's local id, or, for a word that came from another device, the basis it has
    there (`word.seed`), so every device replays it with the same fuzz (decision 040)."""
    return f"{basis}:{direction}"


_UNIT = 2.0**-53  # a 53-bit integer times this is a double in [0, 1), as `random()` makes


def fuzz_draw(seed: str, reps: int) -> float:
    """The draw that places a card's next review interval in py-fsrs's fuzz range: decided by
    the card's seed (`card_seed`) and how many reviews it had before this one alone, so a
    grade, its undo and redo, and a replay anywhere draw alike (decision 036). The top 53 bits
    of a BLAKE2b digest of both, not a generator seeded with them: seeding a Mersenne Twister
    from a string took 7.7 us in the page, most of a card's replay (decision 045)."""
    digest = hashlib.blake2b(f"{seed}:{reps}".encode(), digest_size=8).digest()
    return (int.from_bytes(digest, "big") >> 11) * _UNIT


@dataclass(frozen=True, slots=True)
class Progress:
    """A card's schedule as stored: what FSRS needs plus the counters the stats show."""

    state: CardState
    step: int | None
    stability: float | None
    difficulty: float | None
    due: int
    last_review: int | None
    reps: int = 0
    lapses: int = 0
    # The study day of the last review (app/study/days.py): kept with each review, not with the
    # card, and read with it; None for a card without reviews.
    last_day: int | None = None


@dataclass(frozen=True, slots=True)
class StudyCard:
    """One card as the session shows it: the word's text and the card's stored progress."""

    word_id: WordId
    direction: Direction
    folder_id: FolderId
    term: str
    meanings: tuple[str, ...]
    lang: str
    card_id: int | None  # None while the card is new
    progress: Progress | None  # None while the card is new
    seed_basis: str  # the word's (card_seed)

    @property
    def key(self) -> CardKey:
        return (self.word_id, self.direction)

    @property
    def seed(self) -> str:
        return card_seed(self.seed_basis, self.direction)

    @property
    def state(self) -> CardState:
        return CardState.NEW if self.progress is None else self.progress.state

    @property
    def prompt(self) -> str:
        return self.term if self.direction == "forward" else "; ".join(self.meanings)

    @property
    def answers(self) -> tuple[str, ...]:
        return self.meanings if self.direction == "forward" else (self.term,)
