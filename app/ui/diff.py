"""What changed between two renders of one page region, so the browser touches only that.

Editing a word redraws a folder of hundreds of rows as a new element tree, but only that word's
row differs; rebuilding the whole DOM would cost far more than the edit. `diff` walks both
trees and returns the few replacements and appends that turn the old DOM into the new one.

Form controls keep live state the tree does not describe (typed text, an open <details>). One
drawn exactly as before is kept with that state, so a redraw for another reason (a word saved,
the due counts) leaves what the user typed elsewhere alone and costs the browser nothing. The
form whose action just ran is the exception (`the_form`): it is drawn afresh, so after "Add
word" the form comes back empty, as a full redraw would leave it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.text.nodes import LIVE_TAGS, El, Node

Path = tuple[int, ...]  # child indexes from the region's root element


@dataclass(frozen=True)
class Replace:
    """Put `node` in place of the node at `path`."""

    path: Path
    node: Node


@dataclass(frozen=True)
class Append:
    """Add `nodes` after the children of the node at `path`."""

    path: Path
    nodes: tuple[Node, ...]


Patch = Replace | Append
Fresh = Callable[[El], bool]  # which elements to draw afresh even if drawn the same way


def the_form(action: str, item_id: str | None) -> Fresh:
    """The form whose submission ran `action` on `item_id` (its data-action and data-id)."""
    return lambda el: (
        el.tag == "form"
        and el.attrs.get("data-action") == action
        and el.attrs.get("data-id") == item_id
    )


def diff(old: Node, new: Node, fresh: Fresh | None = None) -> list[Patch]:
    patches: list[Patch] = []
    _diff(old, new, (), patches, fresh or _nothing)
    return patches


def _nothing(_el: El) -> bool:
    return False


def _diff(old: Node, new: Node, path: Path, out: list[Patch], fresh: Fresh) -> None:
    if isinstance(old, str) or isinstance(new, str):
        if old != new:
            out.append(Replace(path, new))
        return
    if old is new and not new.live:  # a row reused as is (app.ui.folder_view)
        return
    if old.tag in LIVE_TAGS:
        if old != new or _holds(new, fresh):
            out.append(Replace(path, new))
        return
    if old.tag == new.tag and old.attrs == new.attrs and len(new.children) >= len(old.children):
        for index, (was, now) in enumerate(zip(old.children, new.children, strict=False)):
            _diff(was, now, (*path, index), out, fresh)
        if len(new.children) > len(old.children):
            out.append(Append(path, new.children[len(old.children) :]))
        return
    out.append(Replace(path, new))


def _holds(node: El, fresh: Fresh) -> bool:
    return fresh(node) or any(
        isinstance(child, El) and child.live and _holds(child, fresh) for child in node.children
    )
