"""The Stop button's signal: a `CancelSignal` that can also tell listeners at once.

Clients check `cancelled` between chunks, which is enough once bytes flow. A request that is
still waiting for its first byte, or a retry that is waiting out a delay, needs to hear about
Stop immediately: transports abort the request (the browser's AbortController) and the retry
policy cuts its wait short through `on_cancel`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from app.llm.errors import ProviderError
from app.llm.messages import CancelSignal
from app.tasks import start_now

T = TypeVar("T")
Listener = Callable[[], None]


class CancelToken:
    def __init__(self) -> None:
        self._cancelled = False
        self._listeners: list[Listener] = []

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        if self._cancelled:
            return
        self._cancelled = True
        listeners, self._listeners = self._listeners, []
        for listener in listeners:
            listener()

    def on_cancel(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` once when cancelled (now, if already); returns an unsubscribe."""
        if self._cancelled:
            listener()
            return lambda: None
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe


def stopped(partial: str = "") -> ProviderError:
    return ProviderError(
        "stopped",
        "Stopped. What arrived before you pressed Stop is kept.",
        partial=partial,
    )


async def unless_cancelled(work: Awaitable[T], cancel: CancelSignal | None) -> T:
    """Await `work`, but raise `stopped()` as soon as `cancel` fires (the work is cancelled).

    A plain `CancelSignal` cannot notify, so it is only checked before the work starts."""
    if cancel is not None and cancel.cancelled:
        _discard(work)
        raise stopped()
    if not isinstance(cancel, CancelToken):
        return await work
    # Started at once: a request goes out before whatever the loop has queued (the panel's
    # redraw), not after it.
    task = start_now(work) if isinstance(work, Coroutine) else asyncio.ensure_future(work)
    unsubscribe = cancel.on_cancel(lambda: _cancel_task(task))
    try:
        return await task
    except asyncio.CancelledError:
        if cancel.cancelled:
            raise stopped() from None
        raise
    finally:
        unsubscribe()


def _discard(work: Awaitable[object]) -> None:
    """Drop work that will never be awaited without a "never awaited" warning."""
    if isinstance(work, asyncio.Future):
        work.cancel()
        return
    close = getattr(work, "close", None)
    if callable(close):
        close()


def _cancel_task(task: asyncio.Future[Any]) -> None:
    task.cancel()
