"""The study screen: the card being asked in the session's mode, the grade buttons with their
next intervals, the session's counts and mode switcher, and the end-of-session summary.

Pure functions from the session engine's state to an element tree; buttons carry
`data-action` like the rest of the app, and the keys (Space, 1–4, Enter) are listed on the
buttons themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.study.compared import Piece, compared
from app.study.grading import Grade
from app.study.intervals import short_interval, spoken_interval
from app.study.model import DIRECTION_LABELS, MODES, Mode, Rating
from app.text.nodes import El, h
from app.ui.study_summary_view import render_summary
from app.ui.study_voice_view import HIDDEN_PROMPT, confirm, spoken_verdict, voice_controls
from app.ui.widgets import action

if TYPE_CHECKING:
    from app.studying.session import StudySession, Turn

MODE_LABELS: dict[Mode, str] = {
    "flashcard": "Flashcards",
    "typing": "Typing",
    "choice": "Choice",
    "listening": "Listening",
    "speaking": "Speaking",
    "hands-free": "Hands-free",
}
VERDICTS = {
    "exact": "Correct",
    "close": "Almost: a small slip",
    "wrong": "Not quite",
    "empty": "No answer given",
}


def render_study(session: StudySession, title: str, drill: El | None = None) -> El:
    """The study screen; `drill` is the hands-free drill's screen, shown instead of the card."""
    turn = session.turn
    if drill is not None:
        body = drill
    elif turn is None:
        body = render_summary(session.summary, session.excluded)
    else:
        body = _card(session, turn)
    return h(
        "div",
        {"class": "study", "data-phase": session.phase.value},
        _header(session, title),
        body,
    )


def _header(session: StudySession, title: str) -> El:
    counts = session.counts
    return h(
        "div",
        {"class": "study-head"},
        h("h1", {"id": "study-title"}, f"Studying {title}"),
        h(
            "ul",
            {"class": "study-counts", "aria-label": "Cards left"},
            _count("New", counts.new, "new"),
            _count("Learning", counts.learning, "learning"),
            _count("Review", counts.review, "review"),
        ),
        h(
            "div",
            {"class": "study-tools"},
            _mode_switcher(session.mode),
            action("Undo grade", "study-undo", None, **{"title": "Undo the last grade (Ctrl+Z)"}),
            action("End session", "study-end"),
        ),
    )


def _count(label: str, value: int, kind: str) -> El:
    return h(
        "li",
        {"class": "study-count", "data-kind": kind},
        f"{label} ",
        h("strong", None, str(value)),
    )


def _mode_switcher(current: Mode) -> El:
    return h(
        "div",
        {"class": "segmented", "role": "group", "aria-label": "Study mode"},
        (
            h(
                "button",
                {
                    "type": "button",
                    "data-action": "study-mode",
                    "data-value": mode,
                    "aria-pressed": "true" if mode == current else "false",
                },
                MODE_LABELS[mode],
            )
            for mode in MODES
        ),
    )


def _card(session: StudySession, turn: Turn) -> El:
    card = turn.card
    prompt_lang = card.lang if card.direction == "forward" else None
    phase = session.phase.value
    # Listening: the prompt is heard, not read, until answered or asked for.
    hidden = turn.mode == "listening" and not turn.prompt_shown and phase != "answered"
    return h(
        "section",
        {"class": "study-card", "aria-labelledby": "study-prompt", "data-mode": turn.mode},
        h("p", {"class": "study-direction"}, DIRECTION_LABELS[card.direction]),
        h(
            "p",
            {
                "id": "study-prompt",
                "class": "study-prompt hidden-prompt" if hidden else "study-prompt",
                "lang": None if hidden else prompt_lang or None,
            },
            HIDDEN_PROMPT if hidden else card.prompt,
        ),
        h("p", {"class": "notice", "role": "status"}, turn.notice) if turn.notice else None,
        _answered(session, turn) if phase == "answered" else None,
        confirm(turn) if phase == "confirming" else None,
        _question(turn) if phase != "answered" else None,
    )


def _question(turn: Turn) -> El:
    if turn.mode == "listening":
        return h("div", {"class": "study-question"}, voice_controls(turn), _typing(turn))
    if turn.mode == "speaking":
        reveal = h("div", {"class": "form-actions"}, action("I don't know", "study-reveal"))
        return h("div", {"class": "study-question"}, voice_controls(turn), reveal)
    if turn.mode == "typing":
        return _typing(turn)
    if turn.mode == "choice":
        return h(
            "div",
            {"class": "study-choices", "role": "group", "aria-label": "Choose the answer"},
            (
                action_with_key(str(i + 1), text, "study-choose", i)
                for i, text in enumerate(turn.choices)
            ),
        )
    return h(
        "div",
        {"class": "form-actions study-reveal"},
        h(
            "button",
            {
                "type": "button",
                "class": "primary",
                "data-action": "study-reveal",
                "id": "study-show",
            },
            "Show answer ",
            h("kbd", None, "Space"),
        ),
    )


def _typing(turn: Turn) -> El:
    return h(
        "form",
        {"class": "study-answer", "data-action": "study-answer", "aria-label": "Answer"},
        h("label", {"for": "study-typed"}, "Your answer"),
        h(
            "input",
            {
                "id": "study-typed",
                "name": "text",
                "autocomplete": "off",
                "autocapitalize": "off",
                "spellcheck": "false",
                "maxlength": 2000,
                "lang": turn.card.lang
                if turn.card.direction == "reverse" and turn.card.lang
                else None,
            },
        ),
        h(
            "div",
            {"class": "form-actions"},
            action("I don't know", "study-reveal"),
            h(
                "button",
                {"type": "submit", "class": "primary"},
                "Check ",
                h("kbd", None, "Enter"),
            ),
        ),
    )


def action_with_key(key: str, label: str, name: str, item_id: int) -> El:
    return h(
        "button",
        {"type": "button", "data-action": name, "data-id": item_id, "class": "choice"},
        h("kbd", None, key),
        " ",
        label,
    )


def _answered(session: StudySession, turn: Turn) -> El:
    card = turn.card
    answer_lang = card.lang if card.direction == "reverse" and card.lang else None
    return h(
        "div",
        {"class": "study-result"},
        _verdict(turn),
        h(
            "div",
            {"class": "study-answer-shown"},
            h("h2", {"class": "visually-hidden"}, "Answer"),
            h(
                "ol",
                {"class": "word-meanings", "lang": answer_lang},
                (h("li", None, a) for a in card.answers),
            )
            if len(card.answers) > 1
            else h("p", {"class": "study-answer-text", "lang": answer_lang}, card.answers[0]),
        ),
        _grade_buttons(session.intervals(), turn.suggested),
    )


def _verdict(turn: Turn) -> El | None:
    if turn.mode == "choice" and turn.chosen is not None:
        right = turn.suggested == Rating.GOOD
        picked = turn.choices[turn.chosen]
        text = "Correct" if right else f"Not quite: you chose “{picked}”"
        return h(
            "p",
            {"class": "verdict", "data-verdict": "exact" if right else "wrong", "role": "status"},
            text,
        )
    if turn.heard is not None:
        # A recogniser hears words, so what was heard is compared word by word.
        return spoken_verdict(turn, _compared(turn.heard.grade, "You said", words=True))
    if turn.verdict is not None:
        return h(
            "div",
            {"class": "verdict-block"},
            h(
                "p",
                {"class": "verdict", "data-verdict": turn.verdict.verdict, "role": "status"},
                VERDICTS[turn.verdict.verdict],
            ),
            # A slip is shown letter by letter; a wrong answer, word by word.
            _compared(turn.verdict, "You typed", words=turn.verdict.verdict == "wrong")
            if turn.verdict.verdict in ("close", "wrong")
            else None,
        )
    return None


def _compared(grade: Grade, label: str, *, words: bool) -> El:
    """What was typed (or heard) and the answer, each whole on a line of its own with the
    parts that differ marked (app.study.compared): read aloud or without styles, the lines are
    the two answers, never a mix of both. Marked words are <mark>, which screen readers
    announce; marked letters only look marked (underlined or highlighted, not by colour
    alone), as announcing them would break the word they are in."""
    sides = compared(grade.diff, words=words)
    tag = "mark" if words else "span"
    return h(
        "div",
        {"class": "diff", "role": "group", "aria-label": "Your answer compared with the right one"},
        _compared_line(label, sides.yours, tag, "diff-yours"),
        _compared_line("Answer", sides.answer, tag, "diff-answer"),
    )


def _compared_line(label: str, pieces: tuple[Piece, ...], tag: str, mark: str) -> El:
    return h(
        "p",
        {"class": "diff-line"},
        f"{label}: “",
        (h(tag, {"class": mark}, piece.text) if piece.differs else piece.text for piece in pieces),
        "”",
    )


def _grade_buttons(intervals: dict[Rating, int], suggested: Rating | None) -> El:
    return h(
        "div",
        {"class": "grades", "role": "group", "aria-label": "How well did you know it?"},
        (
            h(
                "button",
                {
                    "type": "button",
                    "class": "grade primary" if rating == suggested else "grade",
                    "data-action": "study-grade",
                    "data-id": int(rating),
                    "data-rating": rating.name.lower(),
                    "aria-keyshortcuts": str(int(rating)),
                },
                h("kbd", {"aria-hidden": "true"}, str(int(rating))),
                h("span", {"class": "grade-name"}, rating.label),
                # The short interval is seen; the same in words is what a screen reader says.
                h("span", {"class": "grade-interval"}, short_interval(intervals[rating])),
                h(
                    "span",
                    {"class": "visually-hidden"},
                    f", next {spoken_interval(intervals[rating])}"
                    + (", suggested" if rating == suggested else ""),
                ),
            )
            for rating in Rating
            if rating in intervals
        ),
    )
