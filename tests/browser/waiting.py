"""Waiting in a browser test for what the code under test does on later turns of the loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


async def until(done: Callable[[], bool]) -> None:
    """Let the event loop run until `done()`, failing after a thousand turns."""
    for _ in range(1_000):
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError("never happened")
