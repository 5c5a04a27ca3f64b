"""Two tabs, one writer: the lock decides, the next tab takes over, edits reach the others."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import js

from app.browser.tabs import LOCK_NAME, EditChannel, WriterLock


def test_the_first_tab_writes_and_the_second_waits_its_turn() -> None:
    first, second = WriterLock(), WriterLock()
    assert asyncio.run(first.acquire_now())
    assert not asyncio.run(second.acquire_now())
    promoted: list[str] = []
    second.wait_for_turn(lambda: promoted.append("second"))
    assert promoted == []
    js.navigator.locks.release(LOCK_NAME)  # the writer tab closed
    assert promoted == ["second"]


def test_without_web_locks_the_tab_writes() -> None:
    js.navigator = SimpleNamespace()
    assert asyncio.run(WriterLock().acquire_now())


def test_saved_edits_reach_the_other_tabs_not_the_sender() -> None:
    writer_got: list[tuple[int, str]] = []
    follower_got: list[tuple[int, str]] = []
    writer = EditChannel(lambda seq, text: writer_got.append((seq, text)))
    EditChannel(lambda seq, text: follower_got.append((seq, text)))
    writer.send(7, '{"op": "add-word", "term": "cœur"}')
    assert follower_got == [(7, '{"op": "add-word", "term": "cœur"}')]
    assert writer_got == []
