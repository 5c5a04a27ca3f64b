"""Sync in the page (decision 041): the "Sync…" dialog, and the writer tab's link to the server.

Nothing here loads before the first screen: the session starts it after the assistant, and only
when this device is paired are static/sync.js and the Yjs bundle imported. The adapter
(app/sync/adapter.py) then keeps the store and a Yjs document in step, and y-websocket's
provider keeps the document in step with the server's room (the sync code). Only the writer
tab syncs: a following tab sees remote edits through the operation log like any other.

A page opened from a pairing link (the QR code another device shows, decision 042), or whose
address changes to one, opens the dialog with the link's server and code filled in, and takes
the link out of the address bar and the history at once: the code is the collection's secret.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any, Protocol

import js
from pyodide.ffi import create_proxy

from app.browser.commands import Command, plain
from app.browser.dom import by_id, found, replace_children
from app.browser.local_storage import get, put
from app.browser.packages import QR, LazyPackages
from app.browser.page_parts import Spawns
from app.browser.slices import sliced
from app.domain import InvalidInput
from app.sync.conflict_text import DescribedConflict, conflict_key, described
from app.sync.pairing import (
    CONNECT_KEY,
    PAIRING_KEY,
    Pairing,
    ProviderStatus,
    new_code,
    read_pairing,
    status_help,
    status_label,
)
from app.sync.pairing_link import ALREADY_PAIRED, pairing_link, read_pairing_link
from app.ui.conflicts_view import conflicts_button_label, conflicts_button_text, conflicts_dialog
from app.ui.sync_view import QR_ID, pairing_qr, qr_unavailable, sync_dialog

if TYPE_CHECKING:
    from app.sync.adapter import SyncAdapter


class SyncPage(Spawns, Protocol):
    dialog: Any
    commands: dict[str, Command]
    controller: Any
    study_runtime: LazyPackages

    def apply(self, update: Any) -> None: ...

    def listen(self, target: Any, event: str, handler: Any, *, capture: bool = False) -> None: ...

    async def loaded(self, *needed: LazyPackages) -> bool: ...


class Sync:
    def __init__(self, page: SyncPage) -> None:
        self.page = page
        self.adapter: SyncAdapter | None = None
        self.provider: Any = None
        self._proxies: list[Any] = []
        self.status = by_id("sync-status")
        self.conflicts_button = by_id("sync-conflicts")
        self._listed: dict[str, DescribedConflict] = {}  # what the conflicts dialog shows
        self._catching_up: float | None = None  # how far a first sync has got, while it runs
        self._provider_state = ("connecting", False)
        self._provider = ProviderStatus()  # offline from a lost connection until one opens
        self._connected = False  # connect runs once per page
        self.qr_runtime = LazyPackages(QR, "The QR code could not be drawn")

    def start(self, *, writer: bool) -> None:
        """Enable the dialog; when paired and this tab writes, connect."""
        self.page.commands.update(
            {
                "sync-settings": plain(self.open),
                "sync-pair": lambda _item, data: self.pair(data or {}),
                "sync-unpair": plain(self.unpair),
                "sync-conflicts": plain(self._show_conflicts),
                "sync-keep": lambda key, data: self.keep(key, (data or {}).get("value")),
            }
        )
        by_id("sync-button").disabled = False
        if writer:
            self.take_over()
        self._offer_from_address()
        # A link opened in a tab already showing Lexical changes only the fragment.
        self.page.listen(js.window, "hashchange", lambda _event: self._offer_from_address())

    def take_over(self) -> None:
        """This tab writes (from the start, or since the writer tab closed): when paired,
        connect."""
        pairing = read_pairing(get(PAIRING_KEY))
        if pairing is not None and not self._connected:
            self._connected = True
            self.page.spawn(self.connect(pairing))

    def _offer_from_address(self) -> None:
        """If a pairing link opened this page, show what it offers (or what is wrong with it)."""
        try:
            offered = read_pairing_link(str(js.location.hash or ""))
        except InvalidInput as error:
            self._forget_link()
            self._show(str(error))
            return
        if offered is None:
            return
        self._forget_link()
        paired = read_pairing(get(PAIRING_KEY))
        if paired is None:
            self._show(offered=offered)
        else:
            self._show("" if paired == offered else ALREADY_PAIRED)

    def _forget_link(self) -> None:
        # replaceState, not `location.hash = ""`: no history entry keeps the code, and no
        # hashchange redraws the page.
        js.history.replaceState(js.history.state, "", f"{js.location.pathname}{js.location.search}")

    def _show(self, error: str = "", offered: Pairing | None = None) -> None:
        pairing = read_pairing(get(PAIRING_KEY))
        replace_children(self.page.dialog, sync_dialog(pairing, new_code(), error, offered))
        if not self.page.dialog.open:
            self.page.dialog.showModal()
        if pairing is not None:
            self.page.spawn(self._draw_qr(pairing))

    async def _draw_qr(self, pairing: Pairing) -> None:
        """The pairing link as a QR code, in its place in the dialog once segno is in."""
        drawn = await self.page.loaded(self.qr_runtime)
        place = by_id(QR_ID)
        if not found(place):  # another dialog took its place meanwhile
            return
        # The page's own address, so a copy served under a sub-path links to itself.
        link = pairing_link(f"{js.location.origin}{js.location.pathname}", pairing)
        replace_children(place, *(pairing_qr(link) if drawn else qr_unavailable()))

    def open(self) -> None:
        self._show()

    def pair(self, data: dict[str, str]) -> None:
        try:
            pairing = Pairing.made(data.get("server", ""), data.get("code", ""))
        except InvalidInput as error:
            self._show(str(error))
            return
        put(PAIRING_KEY, pairing.text())
        # A running page's connect-src can only narrow: the next load allows the server.
        put(CONNECT_KEY, pairing.connect_list())
        js.location.reload()

    def unpair(self) -> None:
        pairing = read_pairing(get(PAIRING_KEY))
        if pairing is not None:
            js.indexedDB.deleteDatabase(pairing.document_name())
        put(PAIRING_KEY, None)
        put(CONNECT_KEY, None)
        js.location.reload()

    async def connect(self, pairing: Pairing) -> None:
        # A card is the replay of its reviews: the adapter needs py-fsrs, loaded after the
        # first screen like everything here.
        if not await self.page.loaded(self.page.study_runtime):
            return
        from app.browser.yjs_engine import YjsEngine, load_module  # noqa: PLC0415 (only when paired)
        from app.sync.adapter import SyncAdapter  # noqa: PLC0415 (needs py-fsrs, loaded above)

        module = await load_module()
        engine = YjsEngine(module)
        # The document as this device last had it, before anything observes it: started
        # empty, every row written into it afresh would compete whole with the server's copy.
        await module.restore(engine.doc, pairing.document_name())
        self._show_status("connecting", synced=False)
        self.adapter = SyncAdapter(self.page.controller.store, engine)
        self.adapter.store.subscribe(self._redraw_remote)
        self.adapter.on_conflicts(self._conflicts_changed)
        adapter = self.adapter
        adapter.on_big(lambda: self.page.spawn(self._catch_up(adapter.flush_steps())))
        self._proxies.append(create_proxy(self._provider_said))
        # Connected first, so each piece the start puts in goes out as an update of its own
        # rather than all in one message when the connection opens.
        self.provider = module.connect(pairing.server, pairing.code, engine.doc, self._proxies[0])
        await self._catch_up(adapter.start_steps())

    def _conflicts_changed(self) -> None:
        count = len(self.adapter.conflicts()) if self.adapter is not None else 0
        self.conflicts_button.hidden = count == 0
        self.conflicts_button.textContent = conflicts_button_text(count)
        self.conflicts_button.setAttribute("aria-label", conflicts_button_label(count))
        if self.page.dialog.open and found(by_id("conflicts-message")):
            self._show_conflicts()

    def _show_conflicts(self, message: str = "") -> None:
        if self.adapter is None:
            return
        shown = described(self.adapter.doc, self.adapter.conflicts())
        self._listed = {item.key: item for item in shown}
        replace_children(self.page.dialog, conflicts_dialog(shown, message))
        if not self.page.dialog.open:
            self.page.dialog.showModal()

    def keep(self, key: str | None, index: str | None) -> None:
        """Keep the value the learner chose, as the dialog showed it: a value written
        meanwhile on another device does not change what the button said."""
        listed = self._listed.get(key or "")
        chosen = int(index) if index is not None and index.isdigit() else -1
        if self.adapter is None or listed is None or not 0 <= chosen < len(listed.choices):
            return
        now = {conflict_key(c): c for c in self.adapter.conflicts()}
        if listed.key not in now:
            self._show_conflicts("That one was settled on another device meanwhile.")
            return
        choice = listed.choices[chosen]
        self.adapter.keep(now[listed.key], choice.value)
        self._show_conflicts(f"Kept {choice.label}: {listed.subject}, the {listed.field}.")

    async def _catch_up(self, steps: Generator[tuple[int, int], None, None]) -> None:
        """Run the start, or write a big update (a first sync), in slices, saying how far it
        got, so the page answers meanwhile; redrawn once at the end, not after every piece."""
        adapter = self.adapter
        if adapter is None:
            return
        self._catching_up = 0.0
        try:
            await sliced(steps, self._caught_up_to)
        finally:
            self._catching_up = None
            self._show_status(*self._provider_state)
            self.page.apply(self.page.controller.refresh())
            adapter.resume()  # what came meanwhile

    def _caught_up_to(self, step: tuple[int, int]) -> None:
        done, total = step
        self._catching_up = done / total if total else 0.0
        self._show_status(*self._provider_state)

    def _redraw_remote(self, changeset: Any) -> None:
        # Written from the document: nothing else redraws it (a first sync, once at its end).
        if changeset.label == "Synced" and self._catching_up is None:
            self.page.apply(self.page.controller.refresh())

    def _provider_said(self, state: str, synced: bool) -> None:
        self._show_status(*self._provider.seen(str(state), bool(synced)))

    def _show_status(self, state: str, synced: bool) -> None:
        self._provider_state = (str(state), bool(synced))
        self.status.hidden = False
        self.status.textContent = status_label(str(state), bool(synced), self._catching_up)
        self.status.title = status_help(str(state))
        self.status.dataset.state = str(state)
