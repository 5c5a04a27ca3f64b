"""What the browser should do after an action: the one result type every action returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.store.transfer.steps import Steps
from app.text.nodes import El, Node


@dataclass(frozen=True)
class Download:
    """A file for the browser to offer as a download (an export)."""

    filename: str
    media_type: str
    data: bytes


@dataclass
class Update:
    """What the browser should do after an action. Empty means nothing visible changed."""

    tree: bool = False
    main: bool = False
    dialog: El | None = None
    close_dialog: bool = False
    navigate: str | None = None
    focus: str | None = None
    toast: str | None = None
    error: str | None = None
    patch: tuple[str, Node] | None = None  # (CSS selector, new content) inside the dialog
    offer_undo: bool = False  # the toast gets an Undo button (after deletions)
    replace_url: str | None = None  # correct the address without a new history entry
    download: Download | None = None
    counts: bool = False  # due counts changed: redraw them once the main panel is painted
    reveal: str | None = None  # CSS selector of a row to bring into view (a linked word)
    # Long work the action leaves (rescheduling many cards): the page drives it a slice at a
    # time once this update is drawn, shows how far it got, and applies the update it ends with.
    then: Steps[Update] | None = None


def changed(**kwargs: Any) -> Update:
    """An update after the collection changed: redraw the tree and the main panel."""
    return Update(tree=True, main=True, **kwargs)
