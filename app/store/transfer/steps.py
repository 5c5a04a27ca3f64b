"""Long jobs as generators of progress steps: the page repaints between chunks, tests just run
them to the end."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")
CHUNK = 2_000  # items handled between two progress steps


@dataclass(frozen=True)
class Progress:
    """Yielded between chunks of work so the page can repaint and show how far it got.
    `needs_scheduler`: the next steps replay a review history, so the page must load the
    study scheduler (py-fsrs, loaded on first use) before it goes on."""

    stage: str
    done: int
    total: int
    needs_scheduler: bool = False


Steps = Generator[Progress, None, T]


def run_steps(steps: Generator[object, None, T]) -> T:
    """Drive `steps` to the end without pausing (tests, small files); what it yields between
    chunks (progress, or a page update showing it) is let go."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            result: T = stop.value
            return result
