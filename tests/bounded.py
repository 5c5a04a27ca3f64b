"""Running a call that must not hang: in a forked process, so that a call stuck in the regular
expression engine (which no signal or thread can interrupt) fails its test instead of stopping
the suite. The bound is a hang guard, many times what the call takes, never a speed target
(those are `make bench`'s)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

HANG_S = 20.0


def _run(conn: Any, func: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        conn.send(("ok", func(*args)))
    except BaseException as error:
        conn.send(("error", repr(error)))
    finally:
        conn.close()


def finishes(func: Callable[..., T], *args: Any, seconds: float = HANG_S) -> T:
    """`func(*args)`'s result; fails when it is still running after `seconds`."""
    context = multiprocessing.get_context("fork")
    receiving, sending = context.Pipe(duplex=False)
    process = context.Process(target=_run, args=(sending, func, args), daemon=True)
    process.start()
    sending.close()
    try:
        if not receiving.poll(seconds):
            raise AssertionError(f"{getattr(func, '__name__', func)} still ran after {seconds} s")
        kind, value = receiving.recv()
    finally:
        process.kill()
        process.join()
    if kind == "error":
        raise AssertionError(f"{getattr(func, '__name__', func)} raised {value}")
    return value  # type: ignore[no-any-return]
