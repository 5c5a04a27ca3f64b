"""A browser timeout that is gone the moment it is cancelled.

Pyodide's event loop schedules `call_later` with `setTimeout` and never clears it: a cancelled
handle stays pending in the page, with its callback, until its delay runs out. Timeouts that
are set often and nearly always cancelled (a request's idle timeout, set again for every chunk
of a streamed answer; how long an utterance may take) use this instead, so a hundred spoken
turns leave nothing behind.
"""

from __future__ import annotations

from collections.abc import Callable

import js
from pyodide.ffi import create_once_callable


class Timeout:
    """Call `callback` once after `seconds`, unless `cancel()` comes first."""

    def __init__(self, seconds: float, callback: Callable[[], None]) -> None:
        self._callback: Callable[[], None] | None = callback
        self._proxy = create_once_callable(self._fire)
        self._id = js.setTimeout(self._proxy, max(seconds, 0.0) * 1000)

    @property
    def pending(self) -> bool:
        return self._callback is not None

    def _fire(self) -> None:
        callback, self._callback = self._callback, None  # the once-callable frees itself
        if callback is not None:
            callback()

    def cancel(self) -> None:
        """Clear it (safe after it fired, and twice)."""
        if self._callback is None:
            return
        self._callback = None
        js.clearTimeout(self._id)
        self._proxy.destroy()
