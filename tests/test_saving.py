"""The save queue: in order, "Saved" only when everything is written, failures retried."""

from __future__ import annotations

import asyncio

from app.domain import LexicalError
from app.saving import SaveQueue, SaveStatus
from app.store.changes import Changeset


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

    async def persist(cs: Changeset) -> None:
        if failures.get(cs.label):
            failures[cs.label] -= 1
            raise LexicalError("storage is full")
        written.append(cs.label)

    async def run() -> None:
        queue = SaveQueue(persist, statuses.append, retry_seconds=0)
        queue.push(changeset("a"))
        queue.push(changeset("b"))
        await queue.flush()

    asyncio.run(run())
    assert written == ["a", "b"]
    assert any(s.state == "error" and "storage is full" in s.message for s in statuses)
    assert statuses[-1].state == "saved"
