"""Browser side of Import / Export: read a chosen file's bytes, drive the preview between
repaints with a progress bar, let the page paint "Importing…" before the import runs, and hand
exports to the browser as downloads (a Blob behind an object URL, clicked as `a.download`).
An Anki package's review history is replayed through the scheduler, so when the preview says it
needs it, py-fsrs is loaded (once, as studying loads it) before the preview goes on."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

import js
from pyodide.ffi import create_once_callable, to_js

from app.browser.commands import Command
from app.browser.dom import by_id, data, found, js_object, repaint, replace_children
from app.browser.page_parts import Applies, Runs, Spawns
from app.store.transfer import MAX_FILE_BYTES, load_readers
from app.store.transfer.steps import Progress
from app.ui.transfer_view import progress_view
from app.ui.update import Download

if TYPE_CHECKING:
    from app.browser.packages import LazyPackages
    from app.ui.controller import Controller

REVOKE_AFTER_MS = 60_000  # the download has long started by then


def save_download(download: Download) -> None:
    array = js.Uint8Array.new(len(download.data))
    array.assign(download.data)
    blob = js.Blob.new(to_js([array]), js_object(type=download.media_type))
    url = js.URL.createObjectURL(blob)
    link = js.document.createElement("a")
    link.href = url
    link.download = download.filename
    link.hidden = True
    js.document.body.appendChild(link)
    link.click()
    link.remove()
    js.setTimeout(create_once_callable(lambda: js.URL.revokeObjectURL(url)), REVOKE_AFTER_MS)


class TransferPage(Applies, Runs, Spawns, Protocol):
    """What import and export need of the page (app.py's Page, which builds the glue)."""

    controller: Controller
    study_runtime: LazyPackages
    commands: dict[str, Command]


class TransferGlue:
    def __init__(self, page: TransferPage) -> None:
        self.page = page
        self._task: asyncio.Future[None] | None = None
        self._readers_loaded = False
        page.commands["transfer"] = self.open

    def open(self, item_id: str | None, data: dict[str, str] | None) -> None:
        """The Import / Export dialog; once it is painted, the file readers load while the
        user picks a file."""
        self.page.apply(self.page.controller.dispatch("transfer", item_id, data))
        if not self._readers_loaded:
            self._readers_loaded = True
            self.page.spawn(self._load_readers())

    async def _load_readers(self) -> None:
        await repaint()
        load_readers()

    def on_change(self, event: Any) -> None:
        target = event.target
        if not hasattr(target, "getAttribute") or data(target, "file-action") is None:
            return
        files = target.files
        if not found(files) or files.length == 0:
            return
        if self._task is not None:
            self._task.cancel()
        self._task = asyncio.ensure_future(self._preview(files.item(0)))

    async def _preview(self, file: Any) -> None:
        name = str(file.name)
        actions = self.page.controller.transfer
        if file.size > MAX_FILE_BYTES:
            megabytes = f"{file.size / 1_048_576:,.0f} MB"
            limit = MAX_FILE_BYTES // 1_048_576
            message = f"It is {megabytes}; Lexical imports files of up to {limit} MB."
            self.page.apply(actions.refuse_file(name, message))
            return
        self._show(progress_view(name, Progress("Reading the file", 0, 1)))
        await repaint()
        try:
            data = (await file.arrayBuffer()).to_bytes()
        except Exception:  # moved or deleted since it was picked, no permission, no memory
            self.page.apply(actions.refuse_file(name, "The browser could not read this file."))
            return
        steps = actions.preview_file(name, data)
        while True:
            try:
                step = next(steps)
            except StopIteration as stop:
                self.page.apply(stop.value)
                return
            self._show(progress_view(name, step))
            if step.needs_scheduler and not await self._load_scheduler(name):
                return
            await asyncio.sleep(0)

    async def _load_scheduler(self, name: str) -> bool:
        try:
            await self.page.study_runtime.load()
        except Exception as exc:
            message = f"The study scheduler could not be loaded ({exc}). Reload and try again."
            self.page.apply(self.page.controller.transfer.refuse_file(name, message))
            return False
        return True

    def _show(self, node: Any) -> None:
        target = by_id("transfer-preview")
        if found(target):
            replace_children(target, node)

    def submit(self, form: Any, fields: dict[str, str]) -> None:
        """Import: say so on the button, let that paint, then run the (one-step) import."""
        button = form.querySelector('button[type="submit"]')
        label = str(button.textContent) if found(button) else ""
        if found(button):
            button.disabled = True
            button.textContent = "Importing…"
        self._task = asyncio.ensure_future(self._apply(button, label, fields))

    async def _apply(self, button: Any, label: str, fields: dict[str, str]) -> None:
        await repaint()
        self.page.run("transfer-apply", None, fields)
        if found(button) and button.isConnected:  # the dialog is still open: the import failed
            button.disabled = False
            button.textContent = label
