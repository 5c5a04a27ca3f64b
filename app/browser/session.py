"""Starting the workspace in this tab: load from IndexedDB, decide writer or follower, save edits.

The writer tab persists every edit through the save queue and broadcasts it; a follower applies
broadcast edits to its own copy, refuses changes, and becomes the writer (reloading the saved
state) when the writing tab closes.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import js

from app.browser.app import Page
from app.browser.dom import measured
from app.browser.idb import IndexedDbBackend
from app.browser.local_storage import mapping_memory
from app.browser.network import NetworkStatus
from app.browser.study import local_utc_offset
from app.browser.tabs import EditChannel, WriterLock
from app.browser.working_copy import BrowserCopies
from app.saving import SaveQueue, SaveStatus
from app.store.changes import Changeset
from app.store.durability import Durability
from app.store.oplog import CorruptEntryError, decode_entry
from app.tasks import start_now
from app.ui.controller import Controller
from app.ui.update import Download, Update

if TYPE_CHECKING:
    from app.browser.assistant import Assistant
    from app.browser.sync import Sync

UNRESTORED_FILE = "lexical-unrestored-edits.json"
READ_ONLY = (
    "Lexical is open in another tab, which is the one that saves changes. This tab follows it "
    "live and is read-only; close the other tab to edit here."
)


class Session:
    def __init__(
        self,
        backend: IndexedDbBackend,
        copies: BrowserCopies,
        durability: Durability,
        lock: WriterLock,
    ) -> None:
        self.backend = backend
        self.copies = copies
        self.durability = durability
        self.controller = Controller(
            durability.store, utc_offset=local_utc_offset, mappings=mapping_memory()
        )
        self.controller.due.paused = True  # the counts follow the first screen (Page.start)
        self.page = Page(self.controller)
        self.network = NetworkStatus(self.page.listen)
        self.lock = lock
        self.channel = EditChannel(self._on_broadcast)
        self.queue = SaveQueue(
            self._persist,
            self.page.toolbar.show_status,
            when_saved=self._snapshot_if_due,
            start=start_now,
        )
        self._followed = durability.seq
        self.assistant: Assistant | None = None
        self.sync: Sync | None = None

    async def _persist(self, changeset: Changeset) -> None:
        self.channel.send(*await self.durability.persist(changeset))

    async def _snapshot_if_due(self) -> None:
        # Looked up each time: a promoted tab replaces its durability object.
        if self.durability.snapshot_due:
            with measured("snapshot"):
                await self.durability.snapshot()

    async def attach_assistant(self) -> None:
        """Load the packages with compiled code, then add the AI assistant, once the collection
        is usable. Its code (agents, providers and their pydantic models) is about a third of
        the app's import time and nothing in the first screen needs it, so it is imported only
        now; its buttons stay disabled until then."""
        await asyncio.sleep(0)  # let the ready page paint first
        if not await self.page.loaded(self.page.packages):
            return
        with measured("speech"):
            self.page.attach_speech()
        from app.browser.assistant import Assistant  # noqa: PLC0415 (deferred: see above)

        with measured("assistant"):
            self.assistant = Assistant(self.page)
            self.assistant.start()
        self.page.assistant = self.assistant  # study answers through its provider too
        from app.browser.sync import Sync  # noqa: PLC0415 (after the first screen, as above)

        self.sync = Sync(self.page)
        self.sync.start(writer=self.controller.read_only is None)

    def become_writer(self) -> None:
        self.controller.read_only = None
        self.controller.store.subscribe(self.queue.push)
        self.page.when_written = self.queue.when_written
        self.controller.store.subscribe(lambda _changes: self.page.shortcuts.undo.changed())
        self.controller.store.subscribe(self.page.follow_moves)
        self.page.toolbar.show_status(SaveStatus("saved", "Saved"))
        self.page.replay_stale()

    def become_follower(self) -> None:
        self.controller.read_only = READ_ONLY
        self.page.banner.show(READ_ONLY)
        self.page.toolbar.show_read_only()
        self.page.apply(Update(main=True))  # the study buttons show they are off here
        self.lock.wait_for_turn(lambda: self.page.spawn(self._promote()))

    async def _promote(self) -> None:
        """The writer tab closed: reload what it saved and take over writing."""
        await self._reload()
        self.page.banner.hide()
        self.become_writer()
        if self.sync is not None:  # only the writer tab syncs: this one now
            self.sync.take_over()
        self.page.apply(Update(main=True))  # the controls that were off come back on
        self.page.show_toast("The other tab closed; this tab can now make changes.")

    async def _reload(self) -> None:
        durability = Durability(self.backend, copies=self.copies)
        await durability.boot()
        replaced, self.durability = self.durability, durability
        self.controller.store = durability.store
        self._followed = durability.seq
        self.page.apply(self.controller.refresh())
        replaced.close()

    def _on_broadcast(self, seq: int, text: str) -> None:
        if self.controller.read_only is None or seq <= self._followed:
            return
        try:
            if seq != self._followed + 1:
                raise CorruptEntryError("missed an edit")
            _, changeset = decode_entry(text)
        except CorruptEntryError:
            # Missed or damaged message: read everything again from storage.
            self.page.spawn(self._reload())
            return
        self.controller.store.apply_logged(changeset.changes)
        self._followed = seq
        self.page.apply(self.controller.refresh())


async def start(stage: Any) -> Session:
    """Open storage, load the workspace and show it; `stage(n)` reports boot progress."""
    lock = WriterLock()
    # Decide the writer before loading, so only one tab ever repairs or snapshots the store.
    is_writer = await lock.acquire_now()
    backend, copies = await asyncio.gather(IndexedDbBackend.open(), BrowserCopies.prepare())
    durability = Durability(backend, copies=copies)
    with measured("load-db"):
        report = await durability.boot()
    session = Session(backend, copies, durability, lock)
    stage(4)
    with measured("first-render"):
        session.page.start()
    if is_writer:
        session.become_writer()
    else:
        session.become_follower()
    if report.damaged:
        session.page.banner.show(report.message(), "error")
        if report.unrestored:
            session.page.banner.offer(
                "Download what could not be restored",
                Download(UNRESTORED_FILE, "application/json", report.unrestored_json()),
            )
    _request_persistence()
    return session


def _request_persistence() -> None:
    storage = getattr(js.navigator, "storage", None)
    if storage is not None and hasattr(storage, "persist"):
        storage.persist()
