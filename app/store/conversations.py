"""The assistant's records: conversations with their messages, and the usage log.

These rows are not collection data. They are written apart from undo (`History.apart`), so an
Undo of an agent turn never deletes the conversation about it, yet they are logged and
snapshotted like every other row so a reload keeps them. Backups and exports leave them out
(`changes.AGENT_TABLES`). Message bodies are opaque JSON here: the agents layer owns their shape.
"""

from __future__ import annotations

import json
import sqlite3
import statistics
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NewType

from pydantic import BaseModel, ConfigDict

from app.domain import NotFound
from app.store.db import Database
from app.store.history import History

ConversationId = NewType("ConversationId", int)
Json = dict[str, Any]
USAGE_KEPT = 2_000  # newest usage rows kept; older ones are dropped as new ones arrive
TITLE_MAX = 80
# The `agent` of a voice turn's entry (app.voice.timings): the turn as the user lived it, from
# the end of speech to the end of the answer. Its model request is logged as an agent turn.
VOICE_TURN = "voice"
# The `agent` of provider transcription and speech requests (app.llm.audio.AudioKind).
AUDIO_REQUESTS = frozenset({"transcription", "speech"})


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)  # built on first use, not at startup


class ConversationInfo(_Row):
    id: ConversationId
    title: str
    agent: str
    refs: Json  # what "it" / "that folder" meant last (agents.references)
    created_at: int
    updated_at: int


class NewMessage(_Row):
    role: str
    agent: str
    status: str = "ok"  # "ok", "stopped" or "failed"
    body: Json
    steps: list[Json] = []


class StoredMessage(NewMessage):
    id: int
    created_at: int


class UsageEntry(_Row):
    conversation_id: int | None
    provider: str
    model: str
    agent: str
    tools: list[str]
    first_token_ms: int | None
    total_ms: int
    outcome: str  # "ok" or an error kind
    detail: str = ""
    speech_to_text_ms: int | None = None  # voice turns only, like first_audio_ms
    first_audio_ms: int | None = None


class UsageRecord(UsageEntry):
    created_at: int


class VoiceSummary(_Row):
    """Voice turns; each median is over the turns that have that timing."""

    turns: int
    succeeded: int
    success_rate: float  # 0..1
    median_speech_to_text_ms: int | None
    median_first_token_ms: int | None
    median_first_audio_ms: int | None
    median_total_ms: int | None
    recent_failures: list[UsageRecord]


class UsageSummary(_Row):
    """Provider requests (agent turns, transcription, speech); voice turns apart in `voice`."""

    count: int
    succeeded: int
    success_rate: float  # 0..1; 0 when nothing was logged
    median_ms: int | None  # agent turns only: a transcription's time is not an answer's
    median_first_token_ms: int | None
    recent_failures: list[UsageRecord]
    voice: VoiceSummary | None = None  # None when no voice turn was logged


def _title(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= TITLE_MAX else line[: TITLE_MAX - 1] + "…"


def _info(row: sqlite3.Row) -> ConversationInfo:
    return ConversationInfo.model_validate({**dict(row), "refs": json.loads(row["refs"])})


def _message(row: sqlite3.Row) -> StoredMessage:
    return StoredMessage.model_validate(
        {**dict(row), "body": json.loads(row["body"]), "steps": json.loads(row["steps"])}
    )


def _usage(row: sqlite3.Row) -> UsageRecord:
    return UsageRecord.model_validate({**dict(row), "tools": json.loads(row["tools"])})


def _median(values: Iterable[int | None]) -> int | None:
    """The median of the known values, or None when there are none."""
    known = [v for v in values if v is not None]
    return round(statistics.median(known)) if known else None


def _rate(part: Sequence[UsageRecord], whole: Sequence[UsageRecord]) -> float:
    return len(part) / len(whole) if whole else 0.0


def _voice_summary(turns: Sequence[UsageRecord], recent: int) -> VoiceSummary | None:
    if not turns:
        return None
    succeeded = [t for t in turns if t.outcome == "ok"]
    return VoiceSummary(
        turns=len(turns),
        succeeded=len(succeeded),
        success_rate=_rate(succeeded, turns),
        median_speech_to_text_ms=_median(t.speech_to_text_ms for t in turns),
        median_first_token_ms=_median(t.first_token_ms for t in turns),
        median_first_audio_ms=_median(t.first_audio_ms for t in turns),
        median_total_ms=_median(t.total_ms for t in turns),
        recent_failures=[t for t in turns if t.outcome != "ok"][:recent],
    )


class Conversations:
    """Queries and apart-from-undo writes over the conversation, message and usage tables."""

    def __init__(self, db: Database, history: History, clock: Callable[[], int]) -> None:
        self._db = db
        self._history = history
        self._clock = clock

    def recent(self, limit: int = 100) -> list[ConversationInfo]:
        """Conversations, the most recently used first."""
        rows = self._db.all(
            "SELECT * FROM conversation ORDER BY updated_at DESC, id DESC LIMIT ?", (limit,)
        )
        return [_info(r) for r in rows]

    def get(self, conversation_id: ConversationId) -> ConversationInfo:
        row = self._db.first("SELECT * FROM conversation WHERE id = ?", (conversation_id,))
        if row is None:
            raise NotFound("That conversation no longer exists.")
        return _info(row)

    def messages(self, conversation_id: ConversationId) -> list[StoredMessage]:
        rows = self._db.all(
            "SELECT * FROM message WHERE conversation_id = ? ORDER BY id", (conversation_id,)
        )
        return [_message(r) for r in rows]

    def recent_messages(self, conversation_id: ConversationId, limit: int) -> list[StoredMessage]:
        """The newest `limit` messages in order or, when none of them is the user's, all since
        the user's newest: what a window of history can be cut from without reading it all."""
        rows = self._db.all(
            "SELECT * FROM (SELECT * FROM message WHERE conversation_id = ? ORDER BY id DESC "
            "LIMIT ?) ORDER BY id",
            (conversation_id, limit),
        )
        if rows and all(r["role"] != "user" for r in rows):
            rows = self._db.all(
                "SELECT * FROM message WHERE conversation_id = ? AND id >= (SELECT max(id) "
                "FROM message WHERE conversation_id = ? AND role = 'user') ORDER BY id",
                (conversation_id, conversation_id),
            )
        return [_message(r) for r in rows]

    def start(self, first_text: str, agent: str) -> ConversationId:
        with self._history.apart("New conversation"):
            values = {"title": _title(first_text) or "Conversation", "agent": agent}
            return ConversationId(self._db.insert("conversation", values, self._clock()))

    def append(
        self, conversation_id: ConversationId, messages: Sequence[NewMessage], refs: Json
    ) -> None:
        """Add one turn's messages and remember its references, as one write."""
        current = self.get(conversation_id)
        now = self._clock()
        with self._history.apart("Conversation"):
            self._db.insert_many("message", [self._row(conversation_id, m) for m in messages], now)
            agent = messages[-1].agent if messages else current.agent
            self._db.update(
                "conversation", conversation_id, {"agent": agent, "refs": json.dumps(refs)}, now
            )

    @staticmethod
    def _row(conversation_id: ConversationId, message: NewMessage) -> Json:
        return {
            "conversation_id": conversation_id,
            "role": message.role,
            "agent": message.agent,
            "status": message.status,
            "body": json.dumps(message.body, ensure_ascii=False),
            "steps": json.dumps(message.steps, ensure_ascii=False),
        }

    def delete(self, conversation_id: ConversationId) -> None:
        self.get(conversation_id)
        with self._history.apart("Delete conversation"):
            self._db.execute("DELETE FROM message WHERE conversation_id = ?", (conversation_id,))
            self._db.execute("DELETE FROM conversation WHERE id = ?", (conversation_id,))

    def log_usage(self, entry: UsageEntry) -> None:
        values = {**entry.model_dump(), "tools": json.dumps(entry.tools)}
        with self._history.apart("Usage"):
            self._db.insert("usage", values, self._clock())
            self._db.execute(
                "DELETE FROM usage WHERE id <= (SELECT id FROM usage ORDER BY id DESC "
                "LIMIT 1 OFFSET ?)",
                (USAGE_KEPT,),
            )

    def usage(self, limit: int = USAGE_KEPT) -> list[UsageRecord]:
        """The newest usage entries first."""
        rows = self._db.all("SELECT * FROM usage ORDER BY id DESC LIMIT ?", (limit,))
        return [_usage(r) for r in rows]

    def usage_summary(self, recent: int = 5) -> UsageSummary:
        records = self.usage()
        requests = [r for r in records if r.agent != VOICE_TURN]
        agent_turns = [r for r in requests if r.agent not in AUDIO_REQUESTS]
        succeeded = [r for r in requests if r.outcome == "ok"]
        return UsageSummary(
            count=len(requests),
            succeeded=len(succeeded),
            success_rate=_rate(succeeded, requests),
            median_ms=_median(r.total_ms for r in agent_turns),
            median_first_token_ms=_median(r.first_token_ms for r in agent_turns),
            recent_failures=[r for r in requests if r.outcome != "ok"][:recent],
            voice=_voice_summary([r for r in records if r.agent == VOICE_TURN], recent),
        )
