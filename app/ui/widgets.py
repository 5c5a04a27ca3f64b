"""Small pieces every view builds with: action buttons the browser dispatches, a form's error
slot, the colour select, the titled panels of the main view, and a preview table's scrolling
box."""

from __future__ import annotations

from collections.abc import Sequence

from app.domain import COLOURS
from app.text.nodes import Child, El, Node, h


def action(label: str, name: str, item_id: int | None = None, **attrs: str) -> El:
    """A button that the browser dispatches to the controller as `name` with `data-id`."""
    return h(
        "button",
        {"type": "button", "data-action": name, "data-id": item_id, **attrs},
        label,
    )


def form_error() -> El:
    return h(
        "p", {"class": "form-error", "data-role": "form-error", "role": "alert", "hidden": True}
    )


def colour_select(name: str, selected: str, label_id: str) -> El:
    return h(
        "select",
        {"name": name, "id": label_id},
        (h("option", {"value": c, "selected": c == selected}, c.title()) for c in COLOURS),
    )


def block(block_id: str, title: str, button: El | None, *body: Child) -> El:
    """A titled panel of the main view, with an optional small button in its heading."""
    heading: list[Node] = [title]
    if button is not None:
        heading += [h("span", {"class": "spacer"}), button]
    return h(
        "section",
        {"class": "block", "aria-labelledby": block_id},
        h("h2", {"id": block_id}, heading),
        *body,
    )


def small_button(label: str, name: str, item_id: int | None) -> El:
    return action(label, name, item_id, **{"class": "small-button"})


def table_box(label: str, headers: Sequence[str], rows: Child) -> El:
    """A preview table in a box that scrolls on its own (a wide table on a phone, a long one
    anywhere), focusable so the arrow keys can scroll it too."""
    return h(
        "div",
        {"class": "preview-scroll", "role": "region", "aria-label": label, "tabindex": 0},
        h(
            "table",
            {"class": "preview-table", "aria-label": label},
            h("thead", None, h("tr", None, (h("th", None, x) for x in headers))),
            h("tbody", None, rows),
        ),
    )
