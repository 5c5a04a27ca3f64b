"""The save queue between the store and durable storage, and the status the UI shows for it.

Edits are persisted one at a time in the order they happened. The status says "Saved" only
when every edit so far has been written; a failed write (full disk, quota) stays at the head of
the queue and is retried, so later edits are never written out of order and nothing is lost
while the tab stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Literal

from app.domain import LexicalError
from app.store.changes import Changeset

SaveState = Literal["saving", "saved", "error"]
RETRY_SECONDS = 5.0
IDLE_SECONDS = 1.0


@dataclass(frozen=True)
class SaveStatus:
    """What the toolbar says about saving: a state for its styling and the sentence shown."""

    state: SaveState
    message: str  # the whole story; for an error, the reason and what Lexical does about it

    @property
    def label(self) -> str:
        """A word or two for the top bar (an error's reason goes in the banner)."""
        return "Not saved" if self.state == "error" else self.message


class SaveQueue:
    """Serialises `persist` calls and reports progress through `on_status`.

    `start` runs the writer task; the browser starts it eagerly, so the first write is
    already on its way to storage while the page redraws after the edit. `when_saved` is
    housekeeping (a snapshot) that runs once "Saved" is shown and editing has paused for
    `IDLE_SECONDS`, so it never delays "Saved" nor interrupts a burst of edits. `sleep` is
    how both waits pass (tests give a fake clock).
    """

    def __init__(
        self,
        persist: Callable[[Changeset], Awaitable[object]],
        on_status: Callable[[SaveStatus], None],
        *,
        when_saved: Callable[[], Awaitable[None]] | None = None,
        start: Callable[[Coroutine[Any, Any, None]], asyncio.Future[None]] = asyncio.ensure_future,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._persist = persist
        self._on_status = on_status
        self._when_saved = when_saved
        self._start = start
        self._sleep = sleep
        self._pending: deque[Changeset] = deque()
        self._worker: asyncio.Future[None] | None = None
        self._chore: asyncio.Future[None] | None = None
        self._chore_waiting = False
        self._on_written: list[Callable[[], None]] = []

    @property
    def pending(self) -> int:
        return len(self._pending)

    def push(self, changeset: Changeset) -> None:
        self._pending.append(changeset)
        self._on_status(SaveStatus("saving", "Saving…"))
        if self._chore is not None and self._chore_waiting:
            self._chore.cancel()  # still editing: the housekeeping waits for the next pause
        if self._worker is None or self._worker.done():
            self._worker = self._start(self._drain())

    def when_written(self, callback: Callable[[], None]) -> None:
        """Call `callback` on the loop's next turn once everything queued so far is written
        (so "Saved" is shown first, and a failing callback cannot stop the queue); a failing
        write keeps it waiting, as it keeps "Saved" waiting."""
        if self._pending:
            self._on_written.append(callback)
        else:
            asyncio.get_running_loop().call_soon(callback)

    async def flush(self) -> None:
        """Wait until everything queued so far is written (or has failed once) and any
        housekeeping that follows is done."""
        while running := [t for t in (self._worker, self._chore) if t and not t.done()]:
            await asyncio.wait(running)

    async def _drain(self) -> None:
        # A snapshot being written does not hold edits back: it writes a copy taken when it
        # began, piece by piece, and the log entries written meanwhile are kept past it.
        while self._pending:
            try:
                await self._persist(self._pending[0])
            except LexicalError as exc:
                self._on_status(
                    SaveStatus(
                        "error",
                        f"Not saved: {exc.message} Lexical retries every "
                        f"{RETRY_SECONDS:g} s; keep this tab open.",
                    )
                )
                await self._sleep(RETRY_SECONDS)
                continue
            self._pending.popleft()
        self._on_status(SaveStatus("saved", "Saved"))
        waiting, self._on_written = self._on_written, []
        for callback in waiting:
            asyncio.get_running_loop().call_soon(callback)
        # One housekeeping at a time: one still running is followed after the next edit.
        if self._when_saved is not None and (self._chore is None or self._chore.done()):
            self._chore = asyncio.ensure_future(self._housekeep(self._when_saved))

    async def _housekeep(self, chore: Callable[[], Awaitable[None]]) -> None:
        self._chore_waiting = True
        try:
            await self._sleep(IDLE_SECONDS)
        finally:
            self._chore_waiting = False
        # Every edit is in the log already: a failure here loses nothing, and the housekeeping
        # is tried again after the next edit.
        with contextlib.suppress(LexicalError):
            await chore()
