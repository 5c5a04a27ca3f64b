"""Python's cycle collector runs in a task of its own, never inside an event handler."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest

from app.browser import collector
from app.browser.collector import CollectBetweenTasks
from tests.browser import fakes


@pytest.fixture(autouse=True)
def collector_restored() -> Iterator[None]:
    yield
    gc.unfreeze()
    gc.enable()


def test_it_stops_collecting_inside_handlers_and_collects_from_its_own_timer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counts = iter([(10, 0, 0), (5_000, 0, 0), (3, 0, 0)])
    collected: list[int] = []
    monkeypatch.setattr(collector.gc, "get_count", lambda: next(counts))
    monkeypatch.setattr(collector.gc, "collect", lambda generation=2: collected.append(generation))

    async def scenario() -> None:
        CollectBetweenTasks().start()
        assert not gc.isenabled()
        fakes.timers.elapse()  # few new objects: nothing to do yet
        assert collected == []
        fakes.timers.elapse()  # enough for the collector's young generation
        assert collected == [1]
        fakes.timers.elapse()
        assert collected == [1]
        assert len(fakes.timers.pending) == 1  # it goes on checking

    asyncio.run(scenario())
