"""The save queue: in order, "Saved" only when everything is written, failures retried."""

from __future__ import annotations

import asyncio
from typing import Any

from app.domain import LexicalError
from app.saving import IDLE_SECONDS, RETRY_SECONDS, SaveQueue, SaveStatus
from app.store.changes import Changeset
from tests.fake_sleep import Sleeper


def changeset(label: str) -> Changeset:
    return Changeset(label=label, changes=[])


def test_saved_only_after_all_writes_in_order() -> None:
    written: list[str] = []
    statuses: list[SaveStatus] = []

    async def persist(cs: Changeset) -> None:
        await asyncio.sleep(0)
        written.append(cs.label)
        # While anything is still queued the UI must not claim "Saved".
        assert statuses[-1].state == "saving"

    async def run() -> None:
        queue = SaveQueue(persist, statuses.append)
        for label in "abc":
            queue.push(changeset(label))
        await queue.flush()
        assert queue.pending == 0

    asyncio.run(run())
    assert written == ["a", "b", "c"]
    assert statuses[-1].state == "saved"


def test_failure_is_reported_and_retried_without_reordering() -> None:
    written: list[str] = []
    statuses: list[SaveStatus] = []
    failures = {"a": 1}
    sleep = Sleeper()

    async def persist(cs: Changeset) -> None:
        if failures.get(cs.label):
            failures[cs.label] -= 1
            raise LexicalError("storage is full")
        written.append(cs.label)

    async def run() -> None:
        queue = SaveQueue(persist, statuses.append, sleep=sleep)
        queue.push(changeset("a"))
        queue.push(changeset("b"))
        await queue.flush()

    asyncio.run(run())
    assert written == ["a", "b"]
    [error] = [s for s in statuses if s.state == "error"]
    assert "storage is full" in error.message
    assert "retries every 5 s" in error.message
    assert error.label == "Not saved"
    assert sleep.waits == [RETRY_SECONDS]
    assert statuses[-1].state == "saved"
    assert statuses[-1].label == "Saved"


def test_housekeeping_runs_after_saved_and_edits_meanwhile_are_saved_too() -> None:
    written: list[str] = []
    statuses: list[SaveStatus] = []
    chores: list[str] = []

    async def persist(cs: Changeset) -> None:
        written.append(cs.label)

    async def run() -> None:
        queue: SaveQueue

        async def snapshot() -> None:
            chores.append(statuses[-1].state)  # "Saved" is already on screen
            if len(chores) == 1:
                queue.push(changeset("during"))
                raise LexicalError("snapshot failed")  # nothing lost: retried next time

        queue = SaveQueue(persist, statuses.append, when_saved=snapshot, sleep=Sleeper())
        queue.push(changeset("a"))
        await queue.flush()

    asyncio.run(run())
    assert written == ["a", "during"]
    assert chores == ["saved", "saved"]
    assert statuses[-1].state == "saved"


def test_housekeeping_waits_for_a_pause_and_the_writer_starts_through_the_factory() -> None:
    events: list[str] = []
    sleep = Sleeper(hold=True)

    async def persist(cs: Changeset) -> None:
        events.append(cs.label)

    async def snapshot() -> None:
        events.append("snapshot")

    def start(coro: Any) -> asyncio.Future[None]:
        events.append("start")
        return asyncio.ensure_future(coro)

    async def run() -> None:
        queue = SaveQueue(persist, lambda _s: None, when_saved=snapshot, start=start, sleep=sleep)
        queue.push(changeset("a"))
        assert await sleep.next_wait() == IDLE_SECONDS  # "a" is written; the pause begins
        queue.push(changeset("b"))  # within the pause: written at once, no snapshot between
        assert await sleep.next_wait() == IDLE_SECONDS
        assert events == ["start", "a", "start", "b"]
        sleep.wake()
        await queue.flush()

    asyncio.run(run())
    assert events == ["start", "a", "start", "b", "snapshot"]


def test_an_edit_during_housekeeping_is_saved_at_once_and_housekeeping_never_overlaps() -> None:
    written: list[str] = []
    statuses: list[SaveStatus] = []
    running: list[int] = []

    async def run() -> None:
        started, saved, release = asyncio.Event(), asyncio.Event(), asyncio.Event()

        async def persist(cs: Changeset) -> None:
            written.append(cs.label)
            if cs.label == "b":
                saved.set()

        async def snapshot() -> None:
            running.append(len(running) + 1)
            started.set()
            await release.wait()  # a snapshot written piece by piece, across many tasks
            running.pop()

        queue = SaveQueue(persist, statuses.append, when_saved=snapshot, sleep=Sleeper())
        queue.push(changeset("a"))
        await started.wait()
        queue.push(changeset("b"))
        await saved.wait()
        await asyncio.sleep(0)
        assert statuses[-1].state == "saved"  # before the snapshot has finished
        assert running == [1]  # and no second one started beside it
        release.set()
        await queue.flush()

    asyncio.run(run())
    assert written == ["a", "b"]
    assert running == []


def test_when_written_calls_back_after_saved_and_waits_through_failures() -> None:
    events: list[str] = []
    failures = {"b": 1}
    sleep = Sleeper()

    async def persist(cs: Changeset) -> None:
        await asyncio.sleep(0)
        if failures.get(cs.label):
            failures[cs.label] -= 1
            raise LexicalError("storage is full")
        events.append(f"wrote {cs.label}")

    async def run() -> None:
        queue = SaveQueue(persist, lambda s: events.append(s.state), sleep=sleep)
        queue.when_written(lambda: events.append("nothing was waiting"))
        await asyncio.sleep(0)
        queue.push(changeset("a"))
        queue.push(changeset("b"))
        queue.when_written(lambda: events.append("redraw"))
        await queue.flush()
        await asyncio.sleep(0)

    asyncio.run(run())
    # Called only once "b" is written after its retry, and after "Saved" is said.
    assert events == [
        "nothing was waiting",
        "saving",
        "saving",
        "wrote a",
        "error",
        "wrote b",
        "saved",
        "redraw",
    ]


def test_a_failing_callback_does_not_stop_the_queue() -> None:
    written: list[str] = []

    async def persist(cs: Changeset) -> None:
        written.append(cs.label)

    def broken() -> None:
        raise RuntimeError("a redraw failed")

    async def run() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, _context: None)
        queue = SaveQueue(persist, lambda _s: None)
        queue.push(changeset("a"))
        queue.when_written(broken)
        await queue.flush()
        await asyncio.sleep(0)
        queue.push(changeset("b"))
        await queue.flush()

    asyncio.run(run())
    assert written == ["a", "b"]
