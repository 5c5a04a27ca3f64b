"""Long work in the page in slices of about SLICE_MS: a core step generator (app/store/transfer/
steps.py) is driven until a slice's time is up, then the page shows how far it got, paints and
answers input before the next slice. The core yields often and never reads a clock; the page
decides how much runs per task, so no task comes near the 50 ms a person notices."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Generator
from typing import TypeVar, cast

import js

T = TypeVar("T")
P = TypeVar("P")
SLICE_MS = 20.0  # well under 50 ms on a phone or a busy machine twice as slow as this one


async def sliced(
    steps: Generator[P, None, T],
    show: Callable[[P], None],
    cancelled: Callable[[], bool] = lambda: False,
) -> T | None:
    """Drive `steps` to its result, calling `show` with the latest step at the end of each
    slice; None (and `steps` closed) if `cancelled()` says so between slices."""
    started = js.performance.now()
    while True:
        try:
            step = next(steps)
        except StopIteration as stop:
            return cast("T", stop.value)
        if js.performance.now() - started < SLICE_MS:
            continue
        show(step)
        await asyncio.sleep(0)
        if cancelled():
            steps.close()
            return None
        started = js.performance.now()
