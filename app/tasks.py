"""Starting Python work at once, instead of on a later turn of the loop: from a browser event,
or from a coroutine whose request should leave before whatever the loop has queued."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def start_now(coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    """Run `coro` up to its first wait right away (an edit's log write, a request to the
    model, is then already on its way while the page redraws). JS event handlers run without
    a running loop under Pyodide's stack switching, so the WebLoop is registered first (as it
    does itself before each callback it runs)."""
    loop = asyncio.get_event_loop()
    if sys.version_info < (3, 12):  # the unit tests' CPython: no eager tasks, start it soon
        return loop.create_task(coro)
    if asyncio._get_running_loop() is None:
        asyncio._set_running_loop(loop)
    return asyncio.Task(coro, loop=loop, eager_start=True)
