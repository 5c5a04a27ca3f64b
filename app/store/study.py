"""Writes for studying: grades, undoing a grade, study sessions and per-folder options.

Grades and sessions are written apart from the edit undo stack (`History.apart`): they are
saved, logged and broadcast like edits, but Ctrl+Z on the workspace never takes one back.
A grade is undone by its own command, which restores the schedule the review log kept, so it
works after a reload too (decision 011). Options are edits, undone like any other.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

from app.domain import Folder, FolderId, LexicalError, NotFound, WordId
from app.store import study_queries as q
from app.store.db import Database
from app.store.history import History
from app.store.schedules import CardLogs, Row, card_logs, write_schedules
from app.study.days import Moment, ReviewLog
from app.study.model import (
    MODES,
    SEED_BASIS_SQL,
    CardKey,
    CardState,
    Mode,
    Progress,
    Rating,
    StudyCard,
    card_seed,
)
from app.study.options import DEFAULT_OPTIONS, StudyOptions

# The schedule a review keeps as it was before the grade (review column = card column + _before).
SCHEDULE = ("state", "step", "stability", "difficulty", "due", "last_review")


@dataclass(frozen=True, slots=True)
class SessionRow:
    id: int
    scope: dict[str, Any]
    mode: Mode
    current: CardKey | None
    started_at: int
    finished_at: int | None


@dataclass(frozen=True, slots=True)
class ReviewRow:
    word_id: WordId
    direction: str
    term: str
    rating: Rating
    reviewed_at: int
    duration_ms: int
    was_new: bool


@dataclass(frozen=True, slots=True)
class LoggedCard:
    """A card, its schedule as stored and the review log it is the replay of."""

    id: int
    key: CardKey
    folder_id: FolderId
    progress: Progress
    log: ReviewLog
    seed: str  # what seeds its fuzz (card_seed)


def _progress_values(progress: Progress) -> dict[str, Any]:
    values = asdict(progress)
    values["state"] = int(progress.state)
    del values["last_day"]  # kept with the review (app/study/days.py)
    return values


class Study:
    """Study reads and writes over one database (the SQL of the reads is in `study_queries`)."""

    def __init__(
        self,
        db: Database,
        history: History,
        clock: Callable[[], int],
        folders: Callable[[], Sequence[Folder]],
    ) -> None:
        self._db = db
        self._history = history
        self._clock = clock
        self._folders = folders  # depth first, kept by the store until a folder changes

    # --- reads --------------------------------------------------------------------------------

    def options_map(self) -> dict[FolderId, StudyOptions]:
        """Every folder's options after inheritance."""
        return q.effective_options(self._folders(), q.stored_options(self._db))

    def own_options(self) -> set[FolderId]:
        """The folders that set their own options (the rest inherit them)."""
        return {FolderId(i) for i in q.stored_options(self._db) if i != q.COLLECTION}

    def options_for(self, folder_id: FolderId | None) -> tuple[StudyOptions, bool]:
        """A folder's options (None: the collection's) and whether it sets them itself."""
        stored = q.stored_options(self._db)
        if folder_id is None:
            own = stored.get(q.COLLECTION)
            return own or DEFAULT_OPTIONS, own is not None
        return self.options_map().get(folder_id, DEFAULT_OPTIONS), folder_id in stored

    def day_start_hour(self) -> int:
        return q.day_start_hour(self._db)

    def subtree(self, folder_id: FolderId) -> list[FolderId]:
        return q.subtree(self._folders(), folder_id)

    def card(self, key: CardKey) -> StudyCard:
        return q.study_card(self._db, key)

    def history(self, key: CardKey) -> ReviewLog:
        """The card's review log in the order it was written, each grade at its moment and
        study day: what its schedule is the replay of (app/study/scheduler.py)."""
        logs = self._histories("c.word_id = ? AND c.direction = ?", list(key))
        return next(iter(logs.values()), [])

    def histories(self, folder_id: FolderId | None) -> list[ReviewLog]:
        """The review log of every card of a folder and its subfolders (None: everywhere)."""
        return list(self._histories(*self._folder_where(folder_id)).values())

    def history_batches(
        self, folder_id: FolderId | None, size: int
    ) -> Iterator[tuple[int, int, list[ReviewLog]]]:
        """The review logs of a folder's cards and its subfolders' (None: everywhere), `size`
        cards at a time, each batch with how many cards are done and of how many: read a batch
        at a time, so the page can answer in between."""
        where, params = self._folder_where(folder_id)
        ids = [row[0] for row in self._db.execute(f"SELECT c.id FROM card c WHERE {where}", params)]
        ids.sort()
        for start in range(0, len(ids), size):
            batch = json.dumps(ids[start : start + size])
            logs = self._histories("c.id IN (SELECT value FROM json_each(?))", [batch])
            yield min(start + size, len(ids)), len(ids), list(logs.values())

    def logged_cards(self, folder_id: FolderId | None) -> list[LoggedCard]:
        """Every card of a folder and its subfolders (None: everywhere) with its review log."""
        where, params = self._folder_where(folder_id)
        logs = self._histories(where, params)
        rows = self._db.execute(
            f"SELECT c.*, (SELECT r.study_day FROM review r WHERE r.card_id = c.id "
            f"ORDER BY r.id DESC LIMIT 1) AS last_day, {SEED_BASIS_SQL} AS basis FROM card c "
            f"JOIN word w ON w.id = c.word_id WHERE {where} ORDER BY c.id",
            params,
        )
        return [
            LoggedCard(
                r["id"],
                (r["word_id"], r["direction"]),
                r["folder_id"],
                q.progress_of(r),
                logs.get(r["id"], []),
                card_seed(r["basis"], r["direction"]),
            )
            for r in rows
        ]

    def studied(self) -> bool:
        """Whether any card has been studied (has a schedule) in this collection."""
        return bool(self._db.scalar("SELECT EXISTS (SELECT 1 FROM card)"))

    def training_items(self, folder_id: FolderId | None) -> int:
        """How many training items a fit of the folder's parameters would have: one per
        review after each card's first (app/study/training.py)."""
        where, params = self._folder_where(folder_id)
        found = self._db.first(
            f"SELECT count(*) AS reviews, count(DISTINCT r.card_id) AS cards FROM review r "
            f"JOIN card c ON c.id = r.card_id WHERE {where}",
            params,
        )
        return 0 if found is None else int(found["reviews"]) - int(found["cards"])

    def logged_card_ids(self, folder_id: FolderId | None) -> list[int]:
        """The ids of a folder's cards and its subfolders' (None: everywhere) that have
        reviews, in order."""
        where, params = self._folder_where(folder_id)
        sql = (
            f"SELECT c.id FROM card c WHERE {where} "
            "AND EXISTS (SELECT 1 FROM review r WHERE r.card_id = c.id) ORDER BY c.id"
        )
        return [row[0] for row in self._db.tuples(sql, params)]

    def card_logs(self, folder_id: FolderId | None, cards: Sequence[int] = ()) -> CardLogs:
        """Every card with reviews of a folder and its subfolders (None: everywhere), or only
        `cards` of them, with its log as plain numbers (app/store/schedules.py)."""
        where, params = self._folder_where(folder_id)
        if cards:
            where = f"{where} AND c.id IN (SELECT value FROM json_each(?))"
            params = [*params, json.dumps(list(cards))]
        return card_logs(self._db, where, params)

    def set_schedules(
        self, fields: Sequence[str], schedules: Sequence[tuple[Row, Row]]
    ) -> list[int]:
        """Write cards' schedules (the card's row as read with `card_logs`, its new schedule
        columns) as their logs give them now: outside undo, like grades, since they follow
        from the log and the options. Returns the cards not written, changed since read."""
        if not schedules:
            return []
        with self._history.apart("Reschedule") as recorded:
            changes, moved = write_schedules(self._db, fields, schedules, self._clock())
            recorded.extend(changes)
        return moved

    def _folder_where(self, folder_id: FolderId | None) -> tuple[str, list[str]]:
        scope = q.Scope() if folder_id is None else q.Scope(folders=tuple(self.subtree(folder_id)))
        return q.scope_where(scope, "c")

    def _histories(self, where: str, params: list[Any]) -> dict[int, ReviewLog]:
        rows = self._db.tuples(
            "SELECT r.card_id, r.rating, r.reviewed_at, r.study_day FROM review r "
            f"JOIN card c ON c.id = r.card_id WHERE {where} ORDER BY r.card_id, r.id",
            params,
        )
        return {
            card: [(Rating(r[1]), Moment.logged(r[2], r[3])) for r in group]
            for card, group in groupby(rows, key=itemgetter(0))
        }

    def distractors(self, card: StudyCard, count: int) -> list[str]:
        return q.distractors(self._db, card, count)

    def scope(self, scope: dict[str, Any]) -> q.Scope:
        """The folders or words a session's stored scope names."""
        kind = scope.get("kind")
        if kind == "folder":
            return q.Scope(folders=tuple(self.subtree(FolderId(int(scope.get("folder", 0))))))
        if kind == "words":
            return q.Scope(words=tuple(WordId(int(w)) for w in scope.get("words", [])))
        return q.Scope()

    def upcoming(self, scope: dict[str, Any], now: int, until: int) -> tuple[int | None, int]:
        """When the scope's next card falls due after `now`, and how many are due by `until`."""
        return q.upcoming(self._db, self.scope(scope), now, until)

    @property
    def db(self) -> Database:
        """For the queue queries of `study_queries`, which the session engine runs."""
        return self._db

    # --- sessions -----------------------------------------------------------------------------

    def open_session(self) -> SessionRow | None:
        """The session left unfinished (a reload or a closed tab), if any."""
        row = self._db.first(
            "SELECT * FROM study_session WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1"
        )
        return None if row is None else self._session(row)

    def session(self, session_id: int) -> SessionRow:
        row = self._db.first("SELECT * FROM study_session WHERE id = ?", (session_id,))
        if row is None:
            raise NotFound("That study session is not here any more.")
        return self._session(row)

    @staticmethod
    def _session(row: Any) -> SessionRow:
        try:
            scope = json.loads(row["scope"])
            current = q.parse_key(json.loads(row["current"])) if row["current"] else None
        except ValueError:
            scope, current = {}, None
        mode: Mode = row["mode"] if row["mode"] in MODES else "flashcard"
        return SessionRow(
            id=int(row["id"]),
            scope=scope if isinstance(scope, dict) else {},
            mode=mode,
            current=current,
            started_at=int(row["started_at"]),
            finished_at=row["finished_at"],
        )

    def start_session(self, scope: dict[str, Any], mode: Mode) -> int:
        now = self._clock()
        with self._history.apart("Start studying"):
            # Only one session is open at a time: starting another ends the old one.
            self._db.execute(
                "UPDATE study_session SET finished_at = ?, updated_at = ? "
                "WHERE finished_at IS NULL",
                (now, now),
            )
            values = {"scope": json.dumps(scope), "mode": mode, "started_at": now}
            return self._db.insert("study_session", values, now)

    def update_session(
        self, session_id: int, *, current: CardKey | None = None, mode: Mode | None = None
    ) -> None:
        values: dict[str, Any] = {"current": q.key_json(current)}
        if mode is not None:
            values["mode"] = mode
        with self._history.apart("Studying"):
            self._db.update("study_session", session_id, values, self._clock())

    def finish_session(self, session_id: int) -> None:
        now = self._clock()
        with self._history.apart("Finish studying"):
            self._db.update("study_session", session_id, {"finished_at": now, "current": None}, now)

    def reviews(self, session_id: int) -> list[ReviewRow]:
        rows = self._db.all(
            "SELECT c.word_id, c.direction, w.term, r.rating, r.reviewed_at, r.duration_ms, "
            "r.state_before = 0 AS was_new FROM review r JOIN card c ON c.id = r.card_id "
            "JOIN word w ON w.id = c.word_id WHERE r.session_id = ? ORDER BY r.id",
            (session_id,),
        )
        return [
            ReviewRow(
                word_id=WordId(r["word_id"]),
                direction=r["direction"],
                term=r["term"],
                rating=Rating(r["rating"]),
                reviewed_at=r["reviewed_at"],
                duration_ms=r["duration_ms"],
                was_new=bool(r["was_new"]),
            )
            for r in rows
        ]

    def earlier_sessions(self, session_id: int, limit: int) -> list[tuple[int, int]]:
        """The `limit` newest sessions before `session_id` over the same scope that graded
        something: (id, started_at), newest first."""
        rows = self._db.all(
            "SELECT s.id, s.started_at FROM study_session s WHERE s.id < ? "
            "AND s.scope = (SELECT scope FROM study_session WHERE id = ?) "
            "AND EXISTS (SELECT 1 FROM review r WHERE r.session_id = s.id) "
            "ORDER BY s.id DESC LIMIT ?",
            (session_id, session_id, limit),
        )
        return [(int(r["id"]), int(r["started_at"])) for r in rows]

    def newest_session(self) -> SessionRow | None:
        """The last session started, open or finished."""
        row = self._db.first("SELECT * FROM study_session ORDER BY id DESC LIMIT 1")
        return None if row is None else self._session(row)

    def recent_misses(self, sessions: int) -> list[tuple[int, list[str]]]:
        """The newest `sessions` sessions with grades: when each started and the terms graded
        Again in it, newest session first."""
        rows = self._db.all(
            "SELECT s.id, s.started_at, w.term, min(r.id) AS first FROM study_session s "
            "JOIN review r ON r.session_id = s.id AND r.rating = 1 "
            "JOIN card c ON c.id = r.card_id JOIN word w ON w.id = c.word_id "
            "WHERE s.id IN (SELECT DISTINCT session_id FROM review WHERE session_id IS NOT NULL "
            "ORDER BY session_id DESC LIMIT ?) GROUP BY s.id, w.term ORDER BY s.id DESC, first",
            (sessions,),
        )
        result: dict[int, tuple[int, list[str]]] = {}
        for row in rows:
            result.setdefault(row["id"], (row["started_at"], []))[1].append(row["term"])
        return list(result.values())

    # --- grades -------------------------------------------------------------------------------

    def grade(
        self,
        session_id: int | None,
        card: StudyCard,
        rating: Rating,
        after: Progress,
        *,
        at: Moment,
        duration_ms: int,
        mode: str,
        next_card: CardKey | None,
    ) -> None:
        """Record one grade given at `at`: the card's new schedule, the review (with its study
        day), and the session's next card, in one write."""
        before = self._db.first("SELECT * FROM card WHERE word_id = ? AND direction = ?", card.key)
        now = self._clock()
        with self._history.apart(f"Grade {card.term}"):
            if before is None:
                values = {
                    "word_id": card.word_id,
                    "folder_id": card.folder_id,
                    "direction": card.direction,
                    **_progress_values(after),
                }
                card_id = self._db.insert("card", values, now)
            else:
                card_id = int(before["id"])
                self._db.update("card", card_id, _progress_values(after), now)
            review = {
                "card_id": card_id,
                "session_id": session_id,
                "rating": int(rating),
                "reviewed_at": at.at,
                "duration_ms": max(0, min(duration_ms, 86_400_000)),
                "mode": mode,
                **{f"{name}_before": None if before is None else before[name] for name in SCHEDULE},
                "study_day": at.day,
            }
            if before is None:
                review["state_before"] = int(CardState.NEW)
            self._db.execute(
                f"INSERT INTO review ({', '.join(review)}) VALUES ({', '.join('?' * len(review))})",
                list(review.values()),
            )
            if session_id is not None:
                current = q.key_json(next_card)
                self._db.update("study_session", session_id, {"current": current}, now)

    def undo_grade(self, session_id: int) -> CardKey | None:
        """Take back the session's newest grade, restoring the card's schedule exactly as it
        was; the card becomes the session's current one again. None when nothing is left."""
        last = self._db.first(
            "SELECT r.*, c.word_id, c.direction, c.reps, c.lapses FROM review r "
            "JOIN card c ON c.id = r.card_id WHERE r.session_id = ? ORDER BY r.id DESC LIMIT 1",
            (session_id,),
        )
        if last is None:
            return None
        key = q.parse_key([last["word_id"], last["direction"]])
        with self._history.apart("Undo grade"):
            self._db.execute("DELETE FROM review WHERE id = ?", (last["id"],))
            if last["state_before"] == CardState.NEW:
                self._db.execute("DELETE FROM card WHERE id = ?", (last["card_id"],))
            else:
                lapsed = last["state_before"] == CardState.REVIEW and last["rating"] == Rating.AGAIN
                values = {name: last[f"{name}_before"] for name in SCHEDULE}
                values |= {
                    "reps": max(last["reps"] - 1, 0),
                    "lapses": max(last["lapses"] - lapsed, 0),
                }
                self._db.update("card", last["card_id"], values, self._clock())
            self._db.update(
                "study_session", session_id, {"current": q.key_json(key)}, self._clock()
            )
        return key

    # --- progress as a whole (the Architect's reset tool) ---------------------------------

    def cards_in(self, scope: q.Scope) -> int:
        """How many cards (studied word directions) the scope holds."""
        where, params = q.scope_where(scope, "c")
        return int(self._db.scalar(f"SELECT count(*) FROM card c WHERE {where}", params))

    def forget(self, scope: q.Scope, label: str) -> int:
        """Make every card of the scope new again, with its review history: one undo step."""
        where, params = q.scope_where(scope, "c")
        with self._history.step(label):
            ids = f"SELECT c.id FROM card c WHERE {where}"
            self._db.execute(f"DELETE FROM review WHERE card_id IN ({ids})", params)
            return int(self._db.execute(f"DELETE FROM card WHERE id IN ({ids})", params).rowcount)

    def due_now(self, scope: q.Scope, label: str) -> int:
        """Make every card of the scope due now, keeping what was learned: one undo step."""
        where, params = q.scope_where(scope, "c")
        now = self._clock()
        with self._history.step(label):
            cursor = self._db.execute(
                f"UPDATE card SET due = ?, updated_at = ? WHERE id IN "
                f"(SELECT c.id FROM card c WHERE {where}) AND due > ?",
                [now, now, *params, now],
            )
            return int(cursor.rowcount)

    # --- options ------------------------------------------------------------------------------

    def set_options(self, folder_id: FolderId | None, options: StudyOptions | None) -> None:
        """Give a folder (None: the whole collection) its own options, or None to inherit."""
        row_id = q.COLLECTION if folder_id is None else folder_id
        now = self._clock()
        with self._history.step("Study options"):
            if options is None:
                self._db.execute("DELETE FROM study_options WHERE id = ?", (row_id,))
                return
            data = options.model_dump()
            if row_id == q.COLLECTION:
                data["day_start_hour"] = q.day_start_hour(self._db)
            self._upsert_options(row_id, data, now)

    def set_day_start_hour(self, hour: int) -> None:
        if not 0 <= hour <= 23:
            raise LexicalError("The day starts at an hour from 0 to 23.")
        stored = q.stored_options(self._db).get(q.COLLECTION)
        data = {**(stored.model_dump() if stored else {}), "day_start_hour": hour}
        with self._history.step("Study day start"):
            self._upsert_options(q.COLLECTION, data, self._clock())

    def _upsert_options(self, row_id: int, data: dict[str, Any], now: int) -> None:
        self._db.execute(
            "INSERT INTO study_options (id, options, created_at, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET options = excluded.options, "
            "updated_at = excluded.updated_at",
            (row_id, json.dumps(data), now, now),
        )
