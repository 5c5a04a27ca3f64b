"""The assistant's records: conversations, messages and the usage log, kept apart from undo."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from app.domain import LexicalError, NotFound
from app.inputs import NewFolder
from app.store import Changeset, Store, queries
from app.store import conversations as conv
from app.store.conversations import ConversationId, NewMessage, UsageEntry
from app.store.durability import Durability
from tests.store.helpers import make_store
from tests.store.test_durability import MemoryBackend


def _turn(text: str) -> list[NewMessage]:
    return [
        NewMessage(role="user", agent="architect", body={"text": text}),
        NewMessage(
            role="assistant",
            agent="architect",
            body={"text": "Done."},
            steps=[{"text": "Created folder A", "link": {"kind": "folder", "id": 1}}],
        ),
    ]


def _usage(outcome: str = "ok", total_ms: int = 100, first: int | None = 40) -> UsageEntry:
    return UsageEntry(
        conversation_id=None,
        provider="gemini",
        model="m",
        agent="scholar",
        tools=["SEARCH_WORDS"],
        first_token_ms=first,
        total_ms=total_ms,
        outcome=outcome,
    )


def test_a_conversation_keeps_its_messages_refs_and_order(store: Store) -> None:
    first = store.conversations.start("  Make   a folder\n called A ", "architect")
    second = store.conversations.start("x" * 200, "scholar")
    store.conversations.append(first, _turn("Make a folder called A"), {"folder": 1})
    info = store.conversations.get(first)
    assert info.title == "Make a folder called A"
    assert info.refs == {"folder": 1}
    assert len(store.conversations.get(second).title) == conv.TITLE_MAX
    assert [c.id for c in store.conversations.recent()] == [first, second]
    stored = store.conversations.messages(first)
    assert [(m.role, m.body) for m in stored] == [
        ("user", {"text": "Make a folder called A"}),
        ("assistant", {"text": "Done."}),
    ]
    assert stored[1].steps[0]["link"] == {"kind": "folder", "id": 1}


def test_delete_removes_the_conversation_and_its_messages(store: Store) -> None:
    kept = store.conversations.start("keep", "scholar")
    gone = store.conversations.start("gone", "scholar")
    store.conversations.append(gone, _turn("gone"), {})
    store.conversations.append(kept, _turn("keep"), {})
    store.conversations.delete(gone)
    assert [c.id for c in store.conversations.recent()] == [kept]
    assert store.conversations.messages(gone) == []
    assert len(store.conversations.messages(kept)) == 2
    with pytest.raises(NotFound):
        store.conversations.delete(gone)
    with pytest.raises(NotFound):
        store.conversations.append(ConversationId(999), _turn("x"), {})


def test_conversation_writes_are_saved_but_never_undone(store: Store) -> None:
    seen: list[Changeset] = []
    store.subscribe(seen.append)
    store.create_folder(NewFolder(name="A"))
    conversation = store.conversations.start("hello", "architect")
    store.conversations.append(conversation, _turn("hello"), {})
    assert [c.label for c in seen] == ['Create folder "A"', "New conversation", "Conversation"]
    assert {ch.table for ch in seen[2].changes} == {"message", "conversation"}
    assert store.undo_label == 'Create folder "A"'
    store.undo()
    assert store.folders() == []
    assert len(store.conversations.messages(conversation)) == 2


def test_conversation_writes_are_refused_inside_an_undo_step(store: Store) -> None:
    conversation = store.conversations.start("hello", "architect")
    with store.group("Agent turn"):
        assert store.busy
        with pytest.raises(LexicalError, match="Finish the current step"):
            store.conversations.append(conversation, _turn("x"), {})
    assert not store.busy
    assert store.conversations.messages(conversation) == []


def test_a_read_only_store_refuses_conversation_writes() -> None:
    reader = Store.from_snapshot(make_store().snapshot(), read_only=True)
    with pytest.raises(LexicalError, match="read-only"):
        reader.conversations.start("hi", "scholar")


async def _write_and_reload() -> Store:
    backend = MemoryBackend()
    durability = Durability(backend)
    await durability.boot()
    store = durability.store
    pending: list[Changeset] = []
    store.subscribe(pending.append)
    conversation = store.conversations.start("hello", "scholar")
    store.conversations.append(conversation, _turn("hello"), {"word": 3})
    store.conversations.log_usage(_usage())
    for changeset in pending:
        await durability.persist(changeset)
    reloaded = Durability(backend)
    await reloaded.boot()
    return reloaded.store


def test_conversations_and_usage_survive_a_reload_through_the_log() -> None:
    store = asyncio.run(_write_and_reload())
    [info] = store.conversations.recent()
    assert info.refs == {"word": 3}
    assert len(store.conversations.messages(info.id)) == 2
    assert store.conversations.usage_summary().count == 1


def test_usage_summary_counts_rates_medians_and_recent_failures(store: Store) -> None:
    empty = store.conversations.usage_summary()
    assert (empty.count, empty.success_rate, empty.median_ms) == (0, 0.0, None)
    for entry in [
        _usage(total_ms=100),
        _usage("server", total_ms=900, first=None),
        _usage(total_ms=300, first=60),
        _usage("bad_key", total_ms=50, first=None),
    ]:
        store.conversations.log_usage(entry)
    summary = store.conversations.usage_summary(recent=5)
    assert (summary.count, summary.succeeded, summary.success_rate) == (4, 2, 0.5)
    assert summary.median_ms == 200
    assert summary.median_first_token_ms == 50
    assert [f.outcome for f in summary.recent_failures] == ["bad_key", "server"]
    assert summary.recent_failures[0].tools == ["SEARCH_WORDS"]


def test_the_usage_log_keeps_only_the_newest_entries(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(conv, "USAGE_KEPT", 3)
    for total in range(1, 6):
        store.conversations.log_usage(_usage(total_ms=total))
    assert [u.total_ms for u in store.conversations.usage()] == [5, 4, 3]


def test_query_only_refuses_every_write_and_then_restores_writing(store: Store) -> None:
    with store.query_only():
        assert store.folders() == []
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store.create_folder(NewFolder(name="Nope"))
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store.conversations.start("nope", "scholar")
    assert store.folders() == []
    assert not store.can_undo
    store.create_folder(NewFolder(name="Fine"))
    assert [f.name for f in store.folders()] == ["Fine"]


def test_conversation_writes_keep_the_cached_folder_tree(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.create_folder(NewFolder(name="A"))
    built: list[int] = []
    real = queries.folder_tree
    monkeypatch.setattr(queries, "folder_tree", lambda db: built.append(1) or real(db))
    store.folder_tree()
    conversation = store.conversations.start("hi", "scholar")
    store.conversations.append(conversation, _turn("hi"), {})
    store.conversations.log_usage(_usage())
    store.folder_tree()
    assert built == [1]
    store.create_folder(NewFolder(name="B"))
    assert [r.folder.name for r in store.folder_tree()] == ["A", "B"]
    assert built == [1, 1]


def _voice(
    outcome: str = "ok",
    *,
    stt: int | None = 200,
    first: int | None = 500,
    audio: int | None = 900,
    total: int = 3_000,
) -> UsageEntry:
    return UsageEntry(
        conversation_id=None,
        provider="gemini",
        model="m",
        agent=conv.VOICE_TURN,
        tools=[],
        speech_to_text_ms=stt,
        first_token_ms=first,
        first_audio_ms=audio,
        total_ms=total,
        outcome=outcome,
    )


def test_voice_turns_get_their_own_summary_with_medians_over_the_turns_that_have_them(
    store: Store,
) -> None:
    for entry in [
        _voice(stt=100, first=400, audio=800, total=2_000),
        _voice(stt=300, first=600, audio=1_000, total=4_000),
        _voice(stt=None, first=700, audio=None, total=3_500),  # typed, with spoken answer
        _voice("network", stt=None, first=None, audio=None, total=0),
    ]:
        store.conversations.log_usage(entry)
    voice = store.conversations.usage_summary().voice
    assert voice is not None
    assert (voice.turns, voice.succeeded, voice.success_rate) == (4, 3, 0.75)
    assert voice.median_speech_to_text_ms == 200
    assert voice.median_first_token_ms == 600
    assert voice.median_first_audio_ms == 900
    assert voice.median_total_ms == 2_750
    assert [f.outcome for f in voice.recent_failures] == ["network"]


def test_voice_timings_are_kept_with_the_entry(store: Store) -> None:
    store.conversations.log_usage(_voice(stt=120, audio=640))
    [record] = store.conversations.usage()
    assert (record.speech_to_text_ms, record.first_audio_ms) == (120, 640)


def test_without_voice_turns_there_is_no_voice_summary(store: Store) -> None:
    store.conversations.log_usage(_usage())
    assert store.conversations.usage_summary().voice is None


def test_voice_turns_and_audio_requests_leave_the_agent_medians_alone(store: Store) -> None:
    """Voice turns are not requests (their model request is logged as an agent turn), so the
    request figures leave them out. Transcription and speech are requests under the daily cap,
    so they count and their failures show, but their times are not agent answer times."""
    store.conversations.log_usage(_usage(total_ms=100, first=40))
    store.conversations.log_usage(_usage(total_ms=300, first=60))
    store.conversations.log_usage(_voice("server", total=9_000))
    for kind, ms in (("transcription", 5_000), ("speech", 7_000)):
        audio = _usage(total_ms=ms, first=None).model_copy(update={"agent": kind})
        store.conversations.log_usage(audio)
    store.conversations.log_usage(
        _usage("timeout", total_ms=8_000, first=None).model_copy(update={"agent": "speech"})
    )
    summary = store.conversations.usage_summary()
    assert (summary.count, summary.succeeded) == (5, 4)
    assert summary.median_ms == 200
    assert summary.median_first_token_ms == 50
    assert [(f.agent, f.outcome) for f in summary.recent_failures] == [("speech", "timeout")]
