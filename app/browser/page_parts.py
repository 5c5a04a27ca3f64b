"""The page's methods that browser glue calls, one small Protocol each.

app.py's `Page` builds the glue (shortcuts, import, speech, the assistant, the drill…), so the
glue cannot import `Page` back without a circle. Each glue module instead types the page as a
Protocol of the members it uses, made of these and of the attributes it reads; `Page`
satisfies them all, and mypy checks that where `Page` hands itself over.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from app.ui.update import Update


class Runs(Protocol):
    def run(
        self, action: str, item_id: str | None = None, data: dict[str, str] | None = None
    ) -> None:
        """Do a `data-action` as a click or a form would."""


class Applies(Protocol):
    def apply(self, update: Update) -> None:
        """Show what the controller decided."""


class Spawns(Protocol):
    def spawn(self, work: Coroutine[Any, Any, None], *, now: bool = False) -> None:
        """Run `work` in the background, kept alive until it ends."""


class Toasts(Protocol):
    def show_toast(self, message: str, *, undo: bool = False) -> None:
        """Tell the user something in passing."""
