"""A cancelled timeout leaves nothing pending in the page; one not cancelled fires once."""

from __future__ import annotations

import asyncio

from app.browser.timers import Timeout
from tests.browser import fakes


def test_a_timeout_fires_once_after_its_delay() -> None:
    fired: list[str] = []

    async def scenario() -> None:
        timeout = Timeout(60, lambda: fired.append("late"))
        assert timeout.pending
        assert fired == []
        fakes.timers.elapse()
        assert not timeout.pending
        timeout.cancel()  # after it fired: nothing to do

    asyncio.run(scenario())
    assert fired == ["late"]
    assert fakes.timers.pending == {}
    assert fakes.live_proxies == []


def test_a_cancelled_timeout_is_cleared_at_once_and_never_fires() -> None:
    fired: list[str] = []

    async def scenario() -> None:
        timeout = Timeout(60, lambda: fired.append("late"))
        assert len(fakes.timers.pending) == 1
        timeout.cancel()
        timeout.cancel()
        assert fakes.timers.pending == {}
        assert fakes.live_proxies == []
        await asyncio.sleep(0)

    asyncio.run(scenario())
    assert fired == []
