"""The "Changed on two devices" dialog and the toolbar button that opens it (issue 27).

Both versions of a field two devices changed while apart are kept (app/sync/model.py) and the
newest is shown for now; here each is listed with a button to keep it, so nothing is dropped
without the learner seeing it.
"""

from __future__ import annotations

from app.sync.conflict_text import DescribedConflict
from app.text.counting import counted
from app.text.nodes import El, h
from app.ui.widgets import action

TITLE = "Changed on two devices"


def conflicts_button_text(count: int) -> str:
    return f"{count:,} to check"


def conflicts_button_label(count: int) -> str:
    return f"{conflicts_button_text(count)}: {counted(count, 'field')} {TITLE.lower()}"


def conflicts_dialog(conflicts: list[DescribedConflict], message: str = "") -> El:
    """Each conflict with its values, the one shown now first; `message` says what just
    happened (settled on another device meanwhile, say)."""
    if conflicts:
        intro = (
            "These were changed on two devices while they were apart. Both versions are kept "
            "until you choose; every device shows the first for now."
        )
        body: El = h("ul", {"class": "conflict-list"}, (_item(c) for c in conflicts))
    else:
        intro = "Nothing to check: every device agrees."
        body = h("p", None)
    return h(
        "div",
        None,
        h("h2", {"id": "dialog-title"}, TITLE),
        h("p", None, intro),
        h("p", {"class": "form-error", "role": "alert", "id": "conflicts-message"}, message),
        body,
        h("div", {"class": "form-actions"}, action("Close", "close-dialog")),
    )


def _item(conflict: DescribedConflict) -> El:
    choices = [
        action(
            f"Keep {choice.label}" + (" (shown now)" if index == 0 else ""),
            "sync-keep",
            None,
            **{"data-id": conflict.key, "data-value": str(index), "class": "conflict-choice"},
        )
        for index, choice in enumerate(conflict.choices)
    ]
    return h(
        "li",
        {"class": "conflict"},
        h("p", None, h("strong", None, conflict.subject), f": the {conflict.field}"),
        h(
            "div",
            {
                "class": "conflict-choices",
                "role": "group",
                "aria-label": f"{conflict.subject}: the {conflict.field}",
            },
            *choices,
        ),
    )
