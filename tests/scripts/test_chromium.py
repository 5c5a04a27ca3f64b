"""A page whose renderer crashed while loading is loaded once more; nothing else is retried."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Error

from scripts import chromium


class StandInPage(int):
    """A numbered page that can be closed."""

    closed = False

    def close(self) -> None:
        self.closed = True


class Pages:
    """Hands out numbered stand-in pages; loading fails with `failures`, one per load."""

    def __init__(self, *failures: str) -> None:
        self.failures = list(failures)
        self.made: list[StandInPage] = []

    def new(self) -> Any:
        self.made.append(StandInPage(len(self.made) + 1))
        return self.made[-1]

    def load(self, _page: Any) -> None:
        if self.failures:
            raise Error(self.failures.pop(0))


def test_a_crash_while_loading_is_tried_once_more_in_a_new_page(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pages = Pages("Page.wait_for_function: Target crashed")
    assert chromium.loaded(pages.new, pages.load, "/") == 2
    assert pages.made[0].closed  # the crashed one is not left open
    assert "crashed while loading /" in capsys.readouterr().err


def test_a_second_crash_fails() -> None:
    pages = Pages("Target crashed", "Target crashed")
    with pytest.raises(Error, match="crashed"):
        chromium.loaded(pages.new, pages.load, "/")


def test_other_failures_are_not_retried() -> None:
    pages = Pages("Timeout 180000ms exceeded")
    with pytest.raises(Error, match="Timeout"):
        chromium.loaded(pages.new, pages.load, "/")
    assert pages.made == [1]
