"""The save queue between the store and durable storage, and the status the UI shows for it.

Edits are persisted one at a time in the order they happened. The status says "Saved" only
when every edit so far has been written; a failed write (full disk, quota) stays at the head of
the queue and is retried, so later edits are never written out of order and nothing is lost
while the tab stays open.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from app.domain import LexicalError
from app.store.changes import Changeset

SaveState = Literal["saving", "saved", "error"]
RETRY_SECONDS = 5.0


@dataclass(frozen=True)
class SaveStatus:
    state: SaveState
    message: str


class SaveQueue:
    """Serialises `persist` calls and reports progress through `on_status`."""

    def __init__(
        self,
        persist: Callable[[Changeset], Awaitable[object]],
        on_status: Callable[[SaveStatus], None],
        *,
        retry_seconds: float = RETRY_SECONDS,
    ) -> None:
        self._persist = persist
        self._on_status = on_status
        self._retry = retry_seconds
        self._pending: deque[Changeset] = deque()
        self._worker: asyncio.Task[None] | None = None

    @property
    def pending(self) -> int:
        return len(self._pending)

    def push(self, changeset: Changeset) -> None:
        self._pending.append(changeset)
        self._on_status(SaveStatus("saving", "Saving…"))
        if self._worker is None or self._worker.done():
            self._worker = asyncio.ensure_future(self._drain())

    async def flush(self) -> None:
        """Wait until everything queued so far is written (or has failed once)."""
        if self._worker is not None:
            await asyncio.shield(self._worker)

    async def _drain(self) -> None:
        while self._pending:
            try:
                await self._persist(self._pending[0])
            except LexicalError as exc:
                self._on_status(
                    SaveStatus(
                        "error",
                        f"Not saved: {exc.message} Lexical retries every "
                        f"{self._retry:g} s; keep this tab open.",
                    )
                )
                await asyncio.sleep(self._retry)
                continue
            self._pending.popleft()
        self._on_status(SaveStatus("saved", "Saved"))
