"""Bounded retries with exponential backoff and jitter, honouring the provider's retry delay.

At most three tries in all. Only failures that clear with time are retried (rate limits,
server errors, timeouts); a bad key, an exhausted quota or a rejected request fail at once,
and so does anything after part of an answer was shown (that is a `stream_cut` the user
retries). A provider that asks for a longer wait than `longest_wait_s` is not waited for:
the user sees its message instead of a frozen panel. Waits go through an injectable `sleep`
and are announced through `on_wait(seconds, next_try)` so the UI can count down; Stop ends a
wait at once.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from app.llm.cancel import stopped, unless_cancelled
from app.llm.errors import ProviderError
from app.llm.messages import CancelSignal, ModelClient, ModelRequest, ModelResponse, TextSink

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]
OnWait = Callable[[float, int], None]  # (seconds to wait, number of the try that follows)


@dataclass(frozen=True)
class RetryPolicy:
    max_tries: int = 3
    base_delay_s: float = 1.0
    max_delay_s: float = 20.0
    longest_wait_s: float = 60.0

    def delay(self, tries_so_far: int, error: ProviderError, jitter: float) -> float | None:
        """Seconds to wait before the next try, or None to give up. `jitter` is in [0, 1)."""
        if not error.retryable or tries_so_far >= self.max_tries:
            return None
        if error.retry_after_s is not None:
            if error.retry_after_s > self.longest_wait_s:
                return None
            return error.retry_after_s * (1 + 0.1 * jitter)  # never sooner than asked
        backoff: float = self.base_delay_s * 2.0 ** (tries_so_far - 1)
        return min(self.max_delay_s, backoff * (0.5 + jitter))


async def with_retries(
    call: Callable[[], Awaitable[T]],
    *,
    policy: RetryPolicy = RetryPolicy(),
    sleep: Sleep = asyncio.sleep,
    on_wait: OnWait | None = None,
    cancel: CancelSignal | None = None,
    jitter: Callable[[], float] = random.random,
) -> T:
    tries = 0
    while True:
        if cancel is not None and cancel.cancelled:
            raise stopped()
        tries += 1
        try:
            return await call()
        except ProviderError as error:
            wait = policy.delay(tries, error, jitter())
            if wait is None:
                raise
        if on_wait is not None:
            on_wait(wait, tries + 1)
        await unless_cancelled(sleep(wait), cancel)


class RetryingClient:
    """A `ModelClient` that retries another one under a `RetryPolicy`."""

    def __init__(
        self,
        inner: ModelClient,
        *,
        policy: RetryPolicy = RetryPolicy(),
        sleep: Sleep = asyncio.sleep,
        on_wait: OnWait | None = None,
    ) -> None:
        self.provider = inner.provider
        self.model = inner.model
        self._inner = inner
        self._policy = policy
        self._sleep = sleep
        self.on_wait = on_wait  # the UI may point this at the panel that is asking

    async def complete(
        self,
        request: ModelRequest,
        on_text: TextSink | None = None,
        cancel: CancelSignal | None = None,
    ) -> ModelResponse:
        return await with_retries(
            lambda: self._inner.complete(request, on_text, cancel),
            policy=self._policy,
            sleep=self._sleep,
            on_wait=self.on_wait,
            cancel=cancel,
        )

    async def list_models(self) -> list[str]:
        return await with_retries(self._inner.list_models, policy=self._policy, sleep=self._sleep)
