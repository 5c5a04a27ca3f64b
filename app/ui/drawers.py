"""Which drawer is open on a narrow screen: the folder tree, the top bar's menu, or neither.

On phones and tablets the folder tree and the less used top-bar actions fold away; this is the
open/closed logic behind them, kept out of the browser so it is tested under CPython. At most
one drawer is open; choosing something in it, clicking outside it, Escape and going to another
place all close it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Drawer = Literal["folders", "menu"]
DRAWERS: tuple[Drawer, ...] = ("folders", "menu")


@dataclass
class Drawers:
    """Which drawer is open on a narrow screen (the folders or the menu), if any."""

    open: Drawer | None = None

    def toggle(self, drawer: Drawer) -> None:
        self.open = None if self.open == drawer else drawer

    def close(self) -> Drawer | None:
        """Close whatever is open; returns it, so its button can take the focus back."""
        closed, self.open = self.open, None
        return closed

    def click(self, *, toggle: Drawer | None, inside: Drawer | None, chose: bool) -> None:
        """A click anywhere: on a drawer's button, or `inside` a drawer (or neither), and
        `chose` when it picked something there (a folder, a menu action) rather than, say,
        expanding a branch of the tree."""
        if toggle is not None:
            self.toggle(toggle)
        elif self.open is not None and (inside != self.open or chose):
            self.open = None
