"""Python's cycle collector, run in a task of its own instead of inside an event handler.

Left to itself the collector starts whenever enough objects have been allocated, which is
most often in the middle of an edit's handler: the bench's longest tasks while editing were a
20-40 ms edit with a 35 ms collection on top (Long Tasks beside `gc.callbacks` timings). Here
automatic collection is off; a timer checks every `CHECK_SECONDS` whether as many objects are
waiting as would have started it, and collects as it would have (the young generation and an
increment of the old), alone in its task. What startup made is frozen first: it lives as long
as the page, so no collection walks it again.
"""

from __future__ import annotations

import gc

from app.browser.timers import Timeout

CHECK_SECONDS = 1.0


class CollectBetweenTasks:
    def __init__(self) -> None:
        self._threshold = max(1, gc.get_threshold()[0])

    def start(self) -> None:
        gc.freeze()
        gc.disable()
        self._next()

    def _next(self) -> None:
        Timeout(CHECK_SECONDS, self._check)

    def _check(self) -> None:
        if gc.get_count()[0] >= self._threshold:
            gc.collect(1)
        self._next()
