"""A fake `asyncio.sleep` for code that waits, so no real time passes in a test."""

from __future__ import annotations

import asyncio


class Sleeper:
    """Records every wait. A wait ends at once, like `asyncio.sleep(0)`; with `hold=True` it
    lasts until `wake()`, and `next_wait()` lets the test wait until the code starts one."""

    def __init__(self, *, hold: bool = False) -> None:
        self.waits: list[float] = []
        self._hold = hold
        self._started: asyncio.Queue[float] = asyncio.Queue()
        self._held: list[asyncio.Future[None]] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        self._started.put_nowait(seconds)
        if not self._hold:
            await asyncio.sleep(0)
            return
        woken = asyncio.get_running_loop().create_future()
        self._held.append(woken)
        await woken

    async def next_wait(self) -> float:
        """The length of the next wait the code starts (or has started since the last call)."""
        return await self._started.get()

    def wake(self) -> None:
        """End every wait going on now, as if its time had passed."""
        for woken in self._held:
            if not woken.done():  # a cancelled waiter has gone already
                woken.set_result(None)
        self._held.clear()
