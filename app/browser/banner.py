"""The banner under the toolbar: what holds for as long as it is shown (this tab only follows
the one that saves, saving failed, edits could not be restored), with at most one button, to
save what it is about as a file."""

from __future__ import annotations

from typing import Any, Final, Literal

from app.browser.commands import Command
from app.browser.dom import data, replace_children
from app.browser.transfer import save_download
from app.text.nodes import h
from app.ui.update import Download

SAVE_ERROR: Final = "save-error"  # the kind of banner a save that works again takes down
# An "error" (edits that could not be restored) stays until the tab closes.
Kind = Literal["info", "error", "save-error"]


class Banner:
    def __init__(self, element: Any, commands: dict[str, Command]) -> None:
        self.element = element
        self._commands = commands  # the page's: where the banner's button registers

    def show(self, message: str, kind: Kind = "info") -> None:
        self.element.textContent = message
        self.element.dataset.kind = kind
        self.element.hidden = False

    def offer(self, label: str, download: Download) -> None:
        """A button in the banner that saves `download` (what the banner is about)."""
        self._commands["banner-download"] = lambda _id, _data: save_download(download)
        action = {"type": "button", "class": "small-button", "data-action": "banner-download"}
        button = h("button", action, label)
        replace_children(self.element, str(self.element.textContent), " ", button)

    def hide(self) -> None:
        self.element.hidden = True
        self.element.dataset.kind = ""

    @property
    def says_save_failed(self) -> bool:
        return data(self.element, "kind") == SAVE_ERROR
