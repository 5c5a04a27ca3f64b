"""Retries: which failures, how often, how long between, and Stop during a wait."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.llm.cancel import CancelToken
from app.llm.errors import ErrorKind, ProviderError
from app.llm.retry import RetryPolicy, with_retries


class Clock:
    """A fake sleep that records each wait and can press Stop while waiting."""

    def __init__(self, stop_on_wait: CancelToken | None = None) -> None:
        self.waits: list[float] = []
        self.announced: list[tuple[float, int]] = []
        self._stop = stop_on_wait

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        if self._stop is not None:
            self._stop.cancel()
            await asyncio.Event().wait()  # a real wait would go on; Stop must end it

    def on_wait(self, seconds: float, next_try: int) -> None:
        self.announced.append((seconds, next_try))


def failing(
    *errors: ProviderError, then: str = "ok"
) -> tuple[Callable[[], Awaitable[str]], list[int]]:
    calls: list[int] = []
    queue = list(errors)

    async def call() -> str:
        calls.append(1)
        if queue:
            raise queue.pop(0)
        return then

    return call, calls


def error(kind: ErrorKind, retry_after: float | None = None) -> ProviderError:
    return ProviderError(kind, f"{kind} happened.", retry_after_s=retry_after)


def run(call: Callable[[], Awaitable[str]], clock: Clock, **options: object) -> str:
    return asyncio.run(
        with_retries(call, sleep=clock.sleep, on_wait=clock.on_wait, jitter=lambda: 0.5, **options)  # type: ignore[arg-type]
    )


def test_a_rate_limit_then_success_waits_as_long_as_the_provider_asked() -> None:
    clock = Clock()
    call, calls = failing(error("rate_limited", retry_after=7))
    assert run(call, clock) == "ok"
    assert len(calls) == 2
    assert clock.waits == [pytest.approx(7.35)]
    assert clock.announced == [(pytest.approx(7.35), 2)]


def test_server_errors_back_off_exponentially_and_stop_after_three_tries() -> None:
    clock = Clock()
    call, calls = failing(error("server"), error("timeout"), error("server"))
    with pytest.raises(ProviderError) as caught:
        run(call, clock)
    assert caught.value.kind == "server"
    assert len(calls) == 3
    assert clock.waits == [1.0, 2.0]
    assert [n for _, n in clock.announced] == [2, 3]


@pytest.mark.parametrize(
    "kind", ["bad_key", "permission", "quota", "bad_request", "stream_cut", "offline", "daily_cap"]
)
def test_failures_that_time_will_not_fix_are_never_retried(kind: ErrorKind) -> None:
    clock = Clock()
    call, calls = failing(error(kind, retry_after=1))
    with pytest.raises(ProviderError):
        run(call, clock)
    assert len(calls) == 1
    assert clock.waits == []


def test_a_provider_asking_for_a_very_long_wait_is_not_waited_for() -> None:
    clock = Clock()
    call, calls = failing(error("rate_limited", retry_after=3600))
    with pytest.raises(ProviderError):
        run(call, clock)
    assert len(calls) == 1
    assert clock.waits == []


def test_stop_during_a_wait_ends_it_at_once_without_another_try() -> None:
    token = CancelToken()
    clock = Clock(stop_on_wait=token)
    call, calls = failing(error("server"))
    with pytest.raises(ProviderError) as caught:
        run(call, clock, cancel=token)
    assert caught.value.kind == "stopped"
    assert len(calls) == 1


def test_nothing_is_tried_once_stopped() -> None:
    token = CancelToken()
    token.cancel()
    call, calls = failing()
    with pytest.raises(ProviderError) as caught:
        run(call, Clock(), cancel=token)
    assert caught.value.kind == "stopped"
    assert calls == []


@given(
    tries=st.integers(min_value=1, max_value=5),
    jitter=st.floats(min_value=0, max_value=0.999),
    after=st.one_of(st.none(), st.floats(min_value=0, max_value=120)),
)
def test_waits_are_bounded_and_never_shorter_than_asked(
    tries: int, jitter: float, after: float | None
) -> None:
    policy = RetryPolicy()
    wait = policy.delay(tries, error("rate_limited", retry_after=after), jitter)
    if tries >= policy.max_tries or (after is not None and after > policy.longest_wait_s):
        assert wait is None
        return
    assert wait is not None
    if after is None:
        assert 0 < wait <= policy.max_delay_s
    else:
        assert after <= wait <= after * 1.1
