"""The spoken parts of the study card (Listening and Speaking modes): the Hear and Say it
controls with the line where listening reports, "Did you say …?", and what was heard.

Say it is held, not clicked (pointer or the M key): app/browser/study_voice.py listens to it
and fills `#study-listening` and `#study-where` (where the audio goes); everything else carries
`data-action` like the rest of the app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.study.spoken import Heard
from app.text.nodes import El, h
from app.ui.widgets import action

if TYPE_CHECKING:
    from app.studying.session import Turn

HIDDEN_PROMPT = "Listen, then answer."
SAY_IT_HINT = "Hold the button (or the M key) while you say the answer, then let go."
# What the listening line says when Say it was let go with nothing heard, by mode.
NOTHING_HEARD = {
    "speaking": "I didn't catch anything. Say it again, or press “I don't know”.",
    "listening": "I didn't catch anything. Say it again, or type it.",
}
YES_MEANS = (
    "Yes counts it as right with Hard suggested, because I couldn't hear it clearly; you can "
    "still choose Good."
)
SPOKEN_VERDICTS: dict[Heard, str] = {
    "right": "Correct",
    "near": "Counted as right: Hard is suggested, as I couldn't hear it clearly",
    "wrong": "Not quite",
    "empty": "No answer heard",
}


def voice_controls(turn: Turn) -> El:
    """Hear (again), Show prompt while it is hidden, and the held Say it button."""
    listening = turn.mode == "listening"
    return h(
        "div",
        {"class": "study-voice"},
        h(
            "div",
            {"class": "form-actions"},
            _with_key("Hear again" if listening else "Hear it", "study-hear", "R"),
            action("Show prompt", "study-show-prompt")
            if listening and not turn.prompt_shown
            else None,
            h(
                "button",
                {
                    "type": "button",
                    "id": "study-say",
                    "class": "study-say" if listening else "study-say primary",
                    "aria-keyshortcuts": "M",
                    "aria-describedby": "study-say-hint",
                },
                "Say it ",
                h("kbd", None, "M"),
            ),
        ),
        h("p", {"id": "study-say-hint", "class": "hint"}, SAY_IT_HINT),
        h("p", {"id": "study-where", "class": "hint"}),
        h("p", {"id": "study-listening", "class": "study-listening", "role": "status"}),
    )


def _with_key(label: str, name: str, key: str) -> El:
    return h(
        "button",
        {"type": "button", "data-action": name, "aria-keyshortcuts": key},
        f"{label} ",
        h("kbd", None, key),
    )


def confirm(turn: Turn) -> El | None:
    """ "Did you say …?" about a near miss: Yes takes it as right, No listens again."""
    heard = turn.heard
    if heard is None:
        return None
    return h(
        "div",
        {"class": "study-confirm", "role": "group", "aria-labelledby": "study-confirm-question"},
        h(
            "p",
            {"id": "study-confirm-question", "class": "study-confirm-question"},
            f"Did you say “{heard.matched}”?",
        ),
        h("p", None, f"I heard “{heard.said}”."),
        h(
            "div",
            {"class": "form-actions"},
            action("Yes", "study-confirm", None, **{"data-value": "yes", "id": "study-yes"}),
            action("No, listen again", "study-confirm", None, **{"data-value": "no"}),
        ),
        h("p", {"class": "hint"}, YES_MEANS),
    )


def spoken_verdict(turn: Turn, compared: El | None) -> El | None:
    """What was heard and how it was graded; a miss shows `compared`, what was heard and the
    answer on lines of their own."""
    heard = turn.heard
    if heard is None:
        return None
    # A near miss is only ever shown once the learner said Yes to it.
    return h(
        "div",
        {"class": "verdict-block"},
        h(
            "p",
            {"class": "verdict", "data-verdict": heard.grade.verdict, "role": "status"},
            SPOKEN_VERDICTS[heard.heard],
        ),
        compared
        if heard.heard == "wrong"
        else h("p", {"class": "heard"}, f"You said: “{heard.said}”"),
    )
