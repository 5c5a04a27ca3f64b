"""The end of a study session on screen: cards, accuracy, time, new words, the words missed
(with the button that asks the Scholar about them), how the last session of the same scope went
and when the next reviews are due."""

from __future__ import annotations

from collections.abc import Sequence

from app.studying.past import last_time
from app.studying.summary import Summary, next_due
from app.text.counting import counted
from app.text.nodes import El, h
from app.ui.widgets import action


def render_summary(summary: Summary | None, excluded: int) -> El:
    """How the session went, what was missed and what comes next; or why there was nothing."""
    if summary is None or summary.cards == 0:
        return h(
            "section",
            {"class": "study-summary", "aria-labelledby": "summary-title"},
            h("h2", {"id": "summary-title"}, "Nothing to study right now"),
            h("p", None, _nothing_due(summary)),
            _excluded(excluded),
            h(
                "div",
                {"class": "form-actions"},
                action("Done", "study-end", None, **{"class": "primary"}),
            ),
        )
    accuracy = summary.accuracy or 0.0
    return h(
        "section",
        {"class": "study-summary", "aria-labelledby": "summary-title"},
        h("h2", {"id": "summary-title"}, "Session complete"),
        h(
            "ul",
            {"class": "summary-figures"},
            _figure("Cards", str(summary.cards)),
            _figure("Accuracy", f"{accuracy:.0%}"),
            _figure("Time", _duration(summary.time_ms)),
            _figure("New words learned", str(summary.new_learned)),
        ),
        _missed(summary.missed),
        None
        if summary.previous is None
        else h("p", {"id": "summary-last"}, last_time(summary.previous, summary.today)),
        h("p", None, next_due(summary)),
        _excluded(excluded),
        h(
            "div",
            {"class": "form-actions"},
            action("Ask the Scholar about the words I missed", "study-ask-scholar")
            if summary.missed
            else None,
            action("Done", "study-end", None, **{"class": "primary"}),
        ),
    )


def _figure(label: str, value: str) -> El:
    return h(
        "li",
        None,
        h("span", {"class": "figure-value"}, value),
        h("span", {"class": "figure-label"}, label),
    )


def _missed(missed: Sequence[str]) -> El:
    if not missed:
        return h("p", None, "You missed none. Well done.")
    return h(
        "div",
        None,
        h("h3", None, f"Missed ({len(missed):,})"),
        h("ul", {"class": "missed"}, (h("li", None, term) for term in missed)),
    )


def _nothing_due(summary: Summary | None) -> str:
    if summary is not None and summary.next_in_ms is not None:
        return "Every card here is done for now; come back when the next ones are due."
    return "There are no words to study here yet. Add words with meanings to this folder first."


def _excluded(count: int) -> El | None:
    if not count:
        return None
    excluded = counted(count, "word has no meaning yet and is", "words have no meaning yet and are")
    return h("p", {"class": "meta-line"}, f"{excluded} left out.")


def _duration(ms: int) -> str:
    seconds = round(ms / 1000)
    if seconds < 60:
        return f"{seconds} s"
    return f"{seconds // 60} min {seconds % 60} s"
