"""An Anki deck's review log (`revlog`) as histories to replay (app.store.transfer.plan_study).

Each Anki card is one template of a note, numbered by `ord`: 0 becomes the word's forward card
(term → meaning), 1 its reverse card (the second card of a "Basic (and reversed card)" note).
Further templates, and cloze deletions after the first, have no direction in Lexical; their
history stays behind, counted. A card that Anki now shows as new was reset there, so it brings
no progress. Suspended and buried cards keep their history, and the preview says so.

A revlog row is `id` (the review time in ms), `cid` (the card), `ease` (the rating, 1-4), `time`
(ms spent) and `type` (0 learn, 1 review, 2 relearn, 3 filtered, 4 manual). Manual rows (type 4
or ease 0) only moved a due date, so they are not answers. Rows with something other than a
number where one belongs, or dated before 2000, are counted and skipped: the file is someone
else's, and one bad row must not cost the rest of the history.
"""

from __future__ import annotations

import math
import sqlite3
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from app.store.transfer import MAX_REVIEWS, MAX_TIMESTAMP
from app.store.transfer.foreign import tables
from app.store.transfer.model import CardHistory, Reason, StudyData
from app.store.transfer.steps import CHUNK, Progress, Steps
from app.study.model import DAY_MS, Direction, Rating

MIN_REVIEW_MS = 946_684_800_000  # 2000-01-01; Anki is from 2006, so earlier is a broken clock
SUSPENDED_OR_BURIED = frozenset({-1, -2, -3})  # Anki card queues
NEW_CARD = 0  # Anki card type
MANUAL: Reason = ("review", "that only rescheduled a card by hand")
DAMAGED: Reason = ("review", "with a damaged row")
IMPOSSIBLE: Reason = ("review", "with an impossible date")
ORPHAN: Reason = ("review", "of cards not in the file")
OTHER_TEMPLATE: Reason = ("card", "of a third card type or a later cloze deletion")
RESET: Reason = ("card", "reset to new in Anki")
NOT_IMPORTED: Reason = ("card", "of notes that were not imported")
Grade = tuple[Rating, int, int]  # rating, epoch ms, duration ms


def read_histories(
    conn: sqlite3.Connection,
    word_of_note: Mapping[int, int],
    cloze_models: set[str],
    remarks: list[str],
) -> Steps[StudyData]:
    """Every Anki card's usable reviews, by the word (`word_of_note`: note id -> word id of
    the file) and direction it becomes; a sentence for the preview goes into `remarks`."""
    study = StudyData()
    if "revlog" not in tables(conn):
        return study
    total = int(conn.execute("SELECT count(*) FROM revlog").fetchone()[0])
    if not total:  # a deck never studied: no cards to look at
        return study
    if total > MAX_REVIEWS:
        remarks.append(
            f"The review history has {total:,} reviews, more than the {MAX_REVIEWS:,} Lexical "
            "imports, so the notes come without it."
        )
        return study
    cards = {
        row[0]: row[1:]
        for row in conn.execute(
            "SELECT c.id, c.nid, c.ord, c.type, c.queue, n.mid FROM cards c "
            "LEFT JOIN notes n ON n.id = c.nid"
        )
    }
    grades = yield from _grades(conn, cards, study, total)
    suspended = 0
    for card, history in grades.items():
        note, ordinal, card_type, queue, model = cards[card]
        word = word_of_note.get(note)
        direction = _direction(ordinal, str(model) in cloze_models)
        if word is None:
            study.left_out[NOT_IMPORTED] += 1
        elif direction is None:
            study.left_out[OTHER_TEMPLATE] += 1
        elif card_type == NEW_CARD:
            study.left_out[RESET] += 1
        else:
            suspended += queue in SUSPENDED_OR_BURIED
            study.histories.append(CardHistory(word, direction, tuple(history)))
    if suspended:
        remarks.append(_suspended(suspended))
    return study


def _grades(
    conn: sqlite3.Connection, cards: Mapping[Any, Any], study: StudyData, total: int
) -> Steps[dict[Any, list[Grade]]]:
    """The usable revlog rows by Anki card, in time order; the others counted by reason."""
    grades: dict[Any, list[Grade]] = defaultdict(list)
    rows = conn.execute("SELECT id, cid, ease, time, type FROM revlog ORDER BY id")
    for number, (at, card, ease, spent, kind) in enumerate(rows, start=1):
        problem = _problem(at, card, ease, kind)
        if problem is None and card not in cards:
            problem = ORPHAN
        if problem is None:
            grades[card].append((Rating(ease), at, _duration(spent)))
        else:
            study.left_out[problem] += 1
        if number % CHUNK == 0:
            yield Progress("Reading the review history", number, total)
    return grades


def _problem(at: Any, card: Any, ease: Any, kind: Any) -> Reason | None:
    if not all(type(value) is int for value in (at, card, ease, kind)):
        return DAMAGED
    if kind == 4 or ease == 0:
        return MANUAL
    if not (1 <= ease <= 4 and 0 <= kind <= 3):
        return DAMAGED
    if not MIN_REVIEW_MS <= at <= MAX_TIMESTAMP:
        return IMPOSSIBLE
    return None


def _duration(spent: Any) -> int:
    """Milliseconds spent, within a day; anything unreadable counts as none."""
    if type(spent) not in (int, float) or math.isnan(spent):
        return 0
    return int(max(0, min(spent, DAY_MS)))


def _direction(ordinal: Any, cloze: bool) -> Direction | None:
    if ordinal == 0:
        return "forward"
    if ordinal == 1 and not cloze:
        return "reverse"
    return None


def _suspended(count: int) -> str:
    if count == 1:
        return (
            "1 card is suspended or buried in Anki: its history comes along, and Lexical "
            "schedules it like any other."
        )
    return (
        f"{count:,} cards are suspended or buried in Anki: their history comes along, and "
        "Lexical schedules them like any other."
    )
