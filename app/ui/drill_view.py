"""The hands-free drill's screen: large type that follows what is said, for eyes as well as ears.

The prompt, what was heard, what the app said, the grade, the cards left and one status line
(app/drill/machine.py's `DrillView`), a slot where the browser says where recognition runs, and
the buttons that stand in for voice commands. Before the drill begins, one big button starts
(or resumes) it: browsers let a page speak and use the microphone only after a click. Once
finished, the study summary and what was said about it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.drill import lines
from app.study.model import Mode
from app.text.counting import counted
from app.text.nodes import El, h
from app.ui.study_summary_view import render_summary
from app.ui.study_view import MODE_LABELS
from app.ui.widgets import action

if TYPE_CHECKING:
    from app.drill.machine import DrillView
    from app.drill.where import Listening
    from app.studying.summary import Summary

START_HINT = (
    "Browsers let a page speak and listen only after a click, so this one click is needed. "
    "From then on, say the answers and commands: no look or touch is needed."
)
COMMANDS = (
    "Say: repeat, slower, skip, I don't know, what does it mean, again, hard, good, easy, "
    "undo, pause, resume, stop."
)
CANNOT_STATUS = "Hands-free cannot listen here."
DRILL_ACTION = "drill"  # a button standing in for a spoken command, its command as the value
OTHER_MODES: tuple[Mode, ...] = ("listening", "speaking", "typing")  # when it cannot listen


def render_drill(
    view: DrillView,
    *,
    prompt_lang: str | None,
    resumed: bool,
    listening: Listening | None,
    summary: Summary | None,
    excluded: int,
) -> El:
    """The drill screen for `view`; `resumed` after a reload (the start button resumes);
    `listening` says where recognition runs, or why it cannot (then other modes are offered
    instead of the start button)."""
    if view.phase == "finished":
        return h(
            "section",
            {"class": "drill drill-finished", "aria-label": "Hands-free session"},
            _said(view),
            render_summary(summary, excluded),
        )
    return h(
        "section",
        {
            "class": "drill",
            "aria-labelledby": "drill-prompt",
            "data-phase": view.phase,
            "data-listening": "true" if view.listening else "false",
            "data-hearing": "true" if view.hearing else "false",
        },
        h(
            "p",
            {"class": "drill-status", "id": "drill-status", "role": "status"},
            CANNOT_STATUS if _blocked(view, listening) else view.status,
        ),
        h("p", {"class": "drill-prompt", "id": "drill-prompt", "lang": prompt_lang}, view.prompt),
        _follow(view) if view.phase != "ready" else _start(resumed, listening),
        _cannot(listening.sentence)
        if listening is not None and view.phase == "paused" and _blocked(view, listening)
        else None,
        h("p", {"class": "drill-progress"}, _left(view)),
        h(
            "p",
            {"class": "drill-where meta-line", "id": "drill-where"},
            None if listening is None or _blocked(view, listening) else listening.sentence,
        ),
        _offline(listening),
        None
        if _blocked(view, listening)
        else h("p", {"class": "drill-commands meta-line"}, COMMANDS),
        None if view.phase == "ready" else _buttons(view),
    )


def _blocked(view: DrillView, listening: Listening | None) -> bool:
    """Not begun (or paused) and it cannot listen here: other modes are offered."""
    return view.phase in ("ready", "paused") and listening is not None and not listening.can


def _start(resumed: bool, listening: Listening | None) -> El:
    if listening is not None and not listening.can:  # `_blocked`
        return _cannot(listening.sentence)
    label = "Resume hands-free" if resumed else "Start"
    return h(
        "div",
        {"class": "drill-start"},
        h(
            "button",
            {
                "type": "button",
                "class": "primary drill-start-button",
                "id": "drill-start",
                "data-action": "drill-begin",
                "aria-describedby": "drill-start-hint",
            },
            label,
        ),
        h("p", {"class": "meta-line", "id": "drill-start-hint"}, START_HINT),
    )


def _cannot(why: str) -> El:
    """Why hands-free cannot listen here, and the modes that work without it."""
    return h(
        "div",
        {"class": "drill-cannot"},
        h("p", {"id": "drill-cannot", "role": "alert"}, why),
        h(
            "div",
            {
                "class": "drill-buttons",
                "id": "drill-modes",
                "role": "group",
                "aria-labelledby": "drill-cannot",
            },
            (
                action(f"Switch to {MODE_LABELS[mode]}", "study-mode", None, **{"data-value": mode})
                for mode in OTHER_MODES
            ),
        ),
    )


def _offline(listening: Listening | None) -> El | None:
    if listening is None or not listening.offline:
        return None
    return h(
        "p", {"class": "drill-offline", "id": "drill-offline", "role": "status"}, listening.offline
    )


def _follow(view: DrillView) -> El:
    """What was heard and said, and the grade: everything spoken is also shown."""
    return h(
        "dl",
        {"class": "drill-follow"},
        _line("Heard", view.heard or "…", "drill-heard"),
        _line("Said", view.said or "…", "drill-said"),
        _line("Grade", view.grade or "…", "drill-grade"),
    )


def _said(view: DrillView) -> El:
    return h("p", {"class": "drill-said drill-summary-said", "id": "drill-said"}, view.said)


def _line(label: str, value: str, value_id: str) -> El:
    return h(
        "div",
        {"class": "drill-line"},
        h("dt", None, label),
        h("dd", {"id": value_id}, value),
    )


def _left(view: DrillView) -> str:
    counts = view.counts
    left = counts.new + counts.learning + counts.review
    return f"{counted(left, 'card')} left"


def _buttons(view: DrillView) -> El:
    paused = view.phase == "paused" or view.status in (lines.PAUSED, lines.PAUSED_DEAF)
    pause = ("Resume", "resume") if paused else ("Pause", "pause")
    return h(
        "div",
        {"class": "drill-buttons", "role": "group", "aria-label": "Hands-free controls"},
        action(pause[0], DRILL_ACTION, None, **{"data-value": pause[1], "id": "drill-pause"}),
        action("Repeat", DRILL_ACTION, None, **{"data-value": "repeat"}),
        action(
            "Undo",
            DRILL_ACTION,
            None,
            **{"data-value": "undo", "aria-keyshortcuts": "Control+Z", "title": "Undo (Ctrl+Z)"},
        ),
        action("Stop", DRILL_ACTION, None, **{"data-value": "stop"}),
    )
