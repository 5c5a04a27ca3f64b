"""The browser's part in studying: tell the core the local time zone, and the keys of the study
screen (Space, 1–4, Enter, R to hear the prompt; holding M to answer aloud is
app/browser/study_voice.py's). The scheduler's wheel loads on first use (packages.STUDY).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import js

from app.browser.page_parts import Runs

if TYPE_CHECKING:
    from app.ui.controller import Controller

# Space and Enter on these are their own click; the study keys leave them alone.
NOT_TO_STEAL = {"INPUT", "TEXTAREA", "SELECT", "BUTTON", "A", "SUMMARY"}


def local_utc_offset() -> int:
    """Local time minus UTC in minutes, now (it changes with daylight saving time)."""
    return -int(js.Date.new().getTimezoneOffset())


class StudyPage(Runs, Protocol):
    """What a study key needs of the page (app.py's Page, which builds this module's parts)."""

    controller: Controller
    dialog: Any


def study_key(page: StudyPage, key: str, target: Any) -> Callable[[], None] | None:
    """What a key does on the study screen, if anything: 1–4 pick an answer or grade, Space
    shows the answer (or takes the suggested grade); keys typed into a field are left alone,
    and Space or Enter on a focused button stays that button's own click."""
    if page.controller.state.route.view != "study" or page.dialog.open:
        return None
    session = page.controller.study.session
    turn = session.turn if session is not None else None
    if turn is None:
        return None
    answered = session is not None and session.phase.value == "answered"
    if key in ("r", "R") and turn.mode in ("listening", "speaking"):
        return lambda: page.run("study-hear")
    if key in ("1", "2", "3", "4"):  # text fields never get here (see Shortcuts)
        if answered:
            return lambda: page.run("study-grade", key)
        if turn.mode == "choice" and int(key) <= len(turn.choices):
            return lambda: page.run("study-choose", str(int(key) - 1))
        return None
    if key in (" ", "Enter") and str(target.tagName) not in NOT_TO_STEAL:
        if answered:
            return lambda: page.run("study-grade")
        if turn.mode == "flashcard":
            return lambda: page.run("study-reveal")
    return None
