"""Spending guards the user sets: requests per local day, and output tokens per request.

The count lives behind a tiny `CounterStore` (localStorage in the browser, a dict in tests)
and the day comes from an injectable clock, so the guard itself is pure. Every request sent
counts, whether it succeeds or not: a failed call can still cost. Listing models and testing
a key do not count.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Protocol

from app.llm.errors import ProviderError
from app.llm.messages import CancelSignal, ModelClient, ModelRequest, ModelResponse, TextSink


class CounterStore(Protocol):
    def read(self) -> tuple[str, int] | None: ...

    def write(self, day: str, count: int) -> None: ...


class MemoryCounter:
    def __init__(self) -> None:
        self.saved: tuple[str, int] | None = None

    def read(self) -> tuple[str, int] | None:
        return self.saved

    def write(self, day: str, count: int) -> None:
        self.saved = (day, count)


class SpendingGuard:
    def __init__(
        self,
        *,
        daily_requests: int,
        max_output_tokens: int,
        store: CounterStore,
        today: Callable[[], date] = date.today,
    ) -> None:
        self.daily_requests = daily_requests
        self.max_output_tokens = max_output_tokens
        self._store = store
        self._today = today

    def used_today(self) -> int:
        saved = self._store.read()
        return saved[1] if saved and saved[0] == self._today().isoformat() else 0

    def admit(self) -> None:
        """Count one request, or refuse it once today's cap is reached."""
        used = self.used_today()
        if used >= self.daily_requests:
            raise ProviderError(
                "daily_cap",
                f"You have used today's {self.daily_requests} requests to the model (your "
                "limit in Settings). It resets at midnight; raise the limit in Settings to go "
                "on now.",
            )
        self._store.write(self._today().isoformat(), used + 1)

    def capped(self, request: ModelRequest) -> ModelRequest:
        if request.max_output_tokens <= self.max_output_tokens:
            return request
        return request.model_copy(update={"max_output_tokens": self.max_output_tokens})


class GuardedClient:
    """A `ModelClient` whose every request passes the guard first."""

    def __init__(self, inner: ModelClient, guard: SpendingGuard) -> None:
        self.provider = inner.provider
        self.model = inner.model
        self._inner = inner
        self._guard = guard

    async def complete(
        self,
        request: ModelRequest,
        on_text: TextSink | None = None,
        cancel: CancelSignal | None = None,
    ) -> ModelResponse:
        self._guard.admit()
        return await self._inner.complete(self._guard.capped(request), on_text, cancel)

    async def list_models(self) -> list[str]:
        return await self._inner.list_models()
