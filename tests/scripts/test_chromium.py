"""A page whose renderer crashed while loading is loaded again, up to three loads in all, and
the log says what the machine had free; nothing else is retried."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Error

from scripts import chromium


@pytest.fixture(autouse=True)
def no_pause(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    pauses: list[float] = []
    monkeypatch.setattr(chromium.time, "sleep", pauses.append)
    return pauses


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


def test_a_crash_while_loading_is_tried_again_in_a_new_page_after_a_pause(
    capsys: pytest.CaptureFixture[str], no_pause: list[float]
) -> None:
    pages = Pages("Page.wait_for_function: Target crashed", "Target crashed")
    assert chromium.loaded(pages.new, pages.load, "/") == 3
    assert [page.closed for page in pages.made] == [True, True, False]  # crashed ones closed
    assert len(no_pause) == 2
    assert min(no_pause) > 0
    err = capsys.readouterr().err
    assert err.count("crashed while loading /") == 2
    # What the machine had free, for telling a crowded machine from a bug in the app.
    for free in ("memory available", "MiB free in /tmp", "load average"):
        assert free in err


def test_a_third_crash_fails() -> None:
    pages = Pages("Target crashed", "Target crashed", "Target crashed")
    with pytest.raises(Error, match="crashed"):
        chromium.loaded(pages.new, pages.load, "/")
    assert len(pages.made) == 3


def test_other_failures_are_not_retried() -> None:
    pages = Pages("Timeout 180000ms exceeded")
    with pytest.raises(Error, match="Timeout"):
        chromium.loaded(pages.new, pages.load, "/")
    assert pages.made == [1]


def test_any_step_a_crash_ended_is_made_again_from_its_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """What `make bench` does with a group of figures whose page crashed part way."""
    runs: list[int] = []

    def measure() -> str:
        runs.append(len(runs) + 1)
        if len(runs) == 1:
            raise Error("Locator.click: Target crashed")
        return "figures"

    assert chromium.again_if_crashed(measure, "a page of the voice group crashed") == "figures"
    assert runs == [1, 2]
    assert "a page of the voice group crashed (memory available" in capsys.readouterr().err
