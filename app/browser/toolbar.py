"""The toolbar's changing parts: Study with today's count, Undo and Redo named by what they
would take back, and the save status ("Saved" only once a change is on disk), which raises the
banner when saving fails and takes it down when saving works again."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import js

from app.browser.banner import SAVE_ERROR
from app.browser.dom import by_id, data
from app.saving import SaveStatus
from app.ui.folder_view import READ_ONLY_STUDY

if TYPE_CHECKING:
    from app.browser.banner import Banner
    from app.ui.controller import Controller


class Toolbar:
    def __init__(self, controller: Controller, banner: Banner) -> None:
        self.controller = controller
        self.banner = banner
        self.status = by_id("save-status")

    def refresh(self) -> None:
        store = self.controller.store
        due = self.controller.due_today()
        study = by_id("study-button")
        study.textContent = f"Study · {due.due:,} due" if due.due else "Study"
        if self.controller.read_only:
            study.setAttribute("aria-disabled", "true")
            study.title = READ_ONLY_STUDY
        else:
            study.removeAttribute("aria-disabled")
            study.title = f"Study everything: {due.due:,} due, {due.new:,} new today (S at home)"
        studying = self.controller.state.route.view == "study"
        for button_id, label, enabled in (
            # While studying, Undo takes back the last grade (the controller routes it).
            (
                "undo",
                "the last grade" if studying else store.undo_label,
                studying or store.can_undo,
            ),
            ("redo", store.redo_label, store.can_redo and not studying),
        ):
            button = by_id(button_id)
            button.disabled = not enabled or bool(self.controller.read_only) or store.busy
            verb = "Undo" if button_id == "undo" else "Redo"
            button.title = f"{verb}: {label}" if label else f"Nothing to {verb.lower()}"
            button.setAttribute("aria-label", f"{verb} {label}" if label else verb)

    def show_status(self, status: SaveStatus) -> None:
        if data(js.document.documentElement, "broken"):
            return  # static/boot.js: after an internal error no status can be trusted
        self.status.textContent = status.label
        self.status.dataset.state = status.state
        if status.state == "error":
            self.banner.show(status.message, SAVE_ERROR)
        elif self.banner.says_save_failed:
            self.banner.hide()

    def show_read_only(self) -> None:
        self.status.textContent = "Read-only"
        self.status.dataset.state = "idle"

    @contextmanager
    def busy(self) -> Iterator[None]:
        """The status shows that the page is busy (loading packages) while this lasts."""
        self.status.dataset.busy = "true"
        try:
            yield
        finally:
            self.status.dataset.busy = "false"

    @property
    def all_saved(self) -> bool:
        return data(self.status, "state") in ("saved", "idle")
