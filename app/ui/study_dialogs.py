"""The study options dialog: retention, daily limits, directions and answer checking for a
folder (inherited by its subfolders) or for the whole collection, plus the day's start hour;
and the notice shown before the first hands-free session."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import ValidationError

from app.domain import FolderId
from app.study.options import StudyOptions
from app.study.training import MINIMUM_ITEMS
from app.text.nodes import El, Node, h
from app.ui.widgets import action, form_error

if TYPE_CHECKING:
    from app.studying.fitting import Comparison

# Each number field's name and range, as the form shows them (the model enforces the same).
RANGES = {
    "retention": ("Desired retention", "0.70", "0.99"),
    "new_per_day": ("New words per day", "0", "9,999"),
    "reviews_per_day": ("Reviews per day", "0", "99,999"),
}
DIRECTION_CHOICES = (
    ("forward", "Term → meaning"),
    ("reverse", "Meaning → term"),
    ("both", "Both (each direction is its own card)"),
)


def options_message(exc: ValidationError) -> str:
    """pydantic's complaint about a field, worded for this form."""
    parts = []
    for error in exc.errors():
        field = str(error["loc"][0]) if error["loc"] else ""
        if field in RANGES:
            name, low, high = RANGES[field]
            parts.append(f"{name} must be from {low} to {high}.")
        else:
            parts.append("Choose one of the directions offered.")
    return " ".join(parts)


def _field(label: str, field_id: str, control: El, hint: str = "") -> list[Node]:
    nodes: list[Node] = [h("label", {"for": field_id}, label), control]
    if hint:
        nodes.append(h("p", {"class": "hint", "id": f"{field_id}-hint"}, hint))
    return nodes


def _number(field_id: str, name: str, value: float, *, low: float, high: float, step: str) -> El:
    return h(
        "input",
        {
            "id": field_id,
            "name": name,
            "type": "number",
            "min": f"{low:g}",
            "max": f"{high:g}",
            "step": step,
            "required": True,
            "value": f"{value:g}",
            "aria-describedby": f"{field_id}-hint",
        },
    )


def _check(field_id: str, name: str, label: str, checked: bool) -> El:
    return h(
        "label",
        {"class": "check", "for": field_id},
        h("input", {"type": "checkbox", "id": field_id, "name": name, "checked": checked}),
        f" {label}",
    )


def options_dialog(
    folder_id: FolderId | None,
    folder_name: str | None,
    options: StudyOptions,
    *,
    own: bool,
    day_start_hour: int,
    fit_items: int = 0,
) -> El:
    title = f"Study options: {folder_name}" if folder_name else "Study options for everything"
    grid: list[Node] = [
        *_field(
            "Desired retention",
            "study-retention",
            _number(
                "study-retention", "retention", options.retention, low=0.7, high=0.99, step="0.01"
            ),
            "How likely you want to be to remember a word when it is asked (0.70 to 0.99). "
            "Higher means more reviews.",
        ),
        *_field(
            "New words per day",
            "study-new",
            _number("study-new", "new_per_day", options.new_per_day, low=0, high=9999, step="1"),
            "Counted across this folder and its subfolders.",
        ),
        *_field(
            "Reviews per day",
            "study-reviews",
            _number(
                "study-reviews",
                "reviews_per_day",
                options.reviews_per_day,
                low=0,
                high=99999,
                step="1",
            ),
            "A cap on reviews in a day; the rest wait for the next day.",
        ),
        *_field(
            "Directions",
            "study-directions",
            h(
                "select",
                {"id": "study-directions", "name": "directions"},
                (
                    h("option", {"value": value, "selected": value == options.directions}, text)
                    for value, text in DIRECTION_CHOICES
                ),
            ),
        ),
    ]
    if folder_id is None:
        grid += _field(
            "A new study day starts at",
            "study-day-start",
            _number("study-day-start", "day_start_hour", day_start_hour, low=0, high=23, step="1"),
            "Hour of the day, in your local time (4 means 4 a.m.).",
        )
    if folder_id is None:
        source: Node = "Every folder uses these unless it (or a folder above it) sets its own."
    elif own:
        source = h(
            "span",
            None,
            "This folder sets its own options; its subfolders use them unless they set theirs. ",
            action("Use the parent's options instead", "study-options-inherit", folder_id),
        )
    else:
        source = "These come from the folder above (or the collection); saving gives this "
        source += "folder and its subfolders their own."
    return h(
        "div",
        None,
        h("h2", {"id": "dialog-title"}, title),
        h(
            "form",
            {"data-action": "save-study-options", "data-id": folder_id, "class": "study-options"},
            h("p", {"class": "hint"}, source),
            h("div", {"class": "form-grid"}, grid),
            h(
                "fieldset",
                None,
                h("legend", None, "Checking typed answers"),
                _check(
                    "study-accents",
                    "accents_optional",
                    "Accents are optional (cafe counts as café)",
                    options.accents_optional,
                ),
                _check(
                    "study-articles",
                    "articles_optional",
                    "Leading articles are optional (the, to, el, la, der…)",
                    options.articles_optional,
                ),
            ),
            form_error(),
            h(
                "div",
                {"class": "form-actions"},
                action("Cancel", "close-dialog"),
                h("button", {"type": "submit", "class": "primary"}, "Save options"),
            ),
        ),
        _fit_section(folder_id, options, fit_items),
    )


def _fit_section(folder_id: FolderId | None, options: StudyOptions, items: int) -> El:
    """FSRS's parameters fitted to the learner's own reviews (decision 037)."""
    fitted = options.parameters is not None
    status = (
        "Scheduling with parameters fitted to your own reviews."
        if fitted
        else "Scheduling with FSRS-6's default parameters, fitted to many learners."
    )
    enough = items >= MINIMUM_ITEMS
    if enough:
        hint = (
            f"Fit them to the {items:,} reviews here (each word's first one aside, in this folder "
            "and its subfolders): you see how well each set predicts what you remembered "
            "before choosing."
        )
    else:
        hint = (
            f"A fit needs {MINIMUM_ITEMS:,} reviews here besides each word's first; there are "
            f"{items:,} so far. With fewer, FSRS's optimiser keeps the default parameters."
        )
    fit = h(
        "button",
        {
            "type": "button",
            "data-action": "study-fit",
            "data-id": folder_id,
            "disabled": not enough,
        },
        "Fit to my reviews",
    )
    buttons: list[Node] = [fit]
    if fitted:
        buttons.append(action("Back to the default parameters", "study-use-parameters", folder_id))
    return h(
        "section",
        {"class": "study-fit", "aria-labelledby": "study-fit-title"},
        h("h3", {"id": "study-fit-title"}, "Your memory, measured"),
        h("p", None, status),
        h("p", {"class": "hint"}, hint),
        h("div", {"class": "form-actions"}, buttons),
        h("div", {"id": "study-fit", "role": "status", "aria-live": "polite"}),
    )


def fit_progress_view(text: str) -> El:
    """While the optimiser runs: what it does, and Cancel."""
    return h("p", None, text, " ", action("Cancel", "study-fit-cancel"))


def fit_result_view(folder_id: FolderId | None, comparison: Comparison) -> El:
    """The fit's parameters against those in use, on the same reviews, and the choice."""
    before, after = comparison.before, comparison.after
    better = after.log_loss < before.log_loss
    verdict = (
        "The fitted parameters predict what you remembered better than those in use."
        if better
        else "The fitted parameters predict what you remembered no better than those in use."
    )
    return h(
        "form",
        {"data-action": "study-use-parameters", "data-id": folder_id, "class": "fit-result"},
        h("p", None, f"How well each set predicted your recall over {after.reviews:,} reviews:"),
        h(
            "table",
            {"aria-label": "Parameters in use and fitted (lower is better)"},
            h("tr", None, h("th", None, ""), h("th", None, "In use"), h("th", None, "Fitted")),
            h(
                "tr",
                None,
                h("th", None, "Log loss"),
                h("td", None, f"{before.log_loss:.4f}"),
                h("td", None, f"{after.log_loss:.4f}"),
            ),
            h(
                "tr",
                None,
                h("th", None, "RMSE"),
                h("td", None, f"{before.rmse:.2%}"),
                h("td", None, f"{after.rmse:.2%}"),
            ),
        ),
        h("p", None, verdict),
        _workload_table(comparison),
        h(
            "input",
            {
                "type": "hidden",
                "name": "parameters",
                "value": ",".join(repr(w) for w in comparison.weights),
            },
        ),
        h(
            "div",
            {"class": "form-actions"},
            h(
                "button",
                {"type": "submit", "class": "primary" if better else None},
                "Use these parameters",
            ),
        ),
    )


def _workload_table(comparison: Comparison) -> El:
    """The reviews a day each set would ask over the coming year at the desired retention."""
    before, after = comparison.workload_before, comparison.workload_after
    retention = f"{before.retention:.0%}"
    return h(
        "div",
        None,
        h(
            "p",
            None,
            f"Reviews a day over the coming year at your desired retention, {retention}, for "
            f"your {before.cards:,} studied cards (new words not counted), as each set would "
            "schedule them:",
        ),
        h(
            "table",
            {"aria-label": f"Reviews a day at {retention} retention"},
            h("tr", None, h("th", None, ""), h("th", None, "In use"), h("th", None, "Fitted")),
            h(
                "tr",
                None,
                h("th", None, "Reviews a day"),
                h("td", None, _per_day(before.per_day)),
                h("td", None, _per_day(after.per_day)),
            ),
        ),
    )


def _per_day(reviews: float) -> str:
    return f"{reviews:,.1f}" if reviews < 10 else f"{reviews:,.0f}"


WAKE_UNSUPPORTED = "This browser cannot keep the screen awake, so this setting does nothing here."


def drill_notice(*, awake: bool, wake_supported: bool, where: str) -> El:
    """Before the first hands-free session: how to use it safely and where the audio goes,
    and whether to keep the screen awake during sessions."""
    return h(
        "div",
        None,
        h("h2", {"id": "dialog-title"}, "Before you study hands-free"),
        h(
            "form",
            {"data-action": "drill-accept", "class": "drill-notice"},
            h(
                "p",
                None,
                "The session is spoken and heard, so you never need to look at the screen. "
                "Do not use it as a reason to look at it while driving or doing anything "
                "else that needs your eyes.",
            ),
            h("p", None, where),
            _check("drill-awake", "awake", "Keep the screen awake during sessions", awake),
            None if wake_supported else h("p", {"class": "hint"}, WAKE_UNSUPPORTED),
            h(
                "div",
                {"class": "form-actions"},
                action("Cancel", "close-dialog"),
                h("button", {"type": "submit", "class": "primary", "id": "drill-accept"}, "Start"),
            ),
        ),
    )
