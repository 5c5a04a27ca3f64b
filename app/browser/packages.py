"""The Pyodide packages the app loads with loadPackage, after the first screen, once each.

A wheel with a shared library cannot be imported from a zip (decision 026), so these come from
the self-hosted, sha256-pinned Pyodide lock. Nothing on the first screen needs one
(tests/test_boundaries.py), so the page is ready before any of them loads, and whatever needs
one waits for it (decision 028). scripts/precache.py and scripts/build.py read these lists.
"""

from __future__ import annotations

import asyncio

import pyodide_js
from pyodide.ffi import create_proxy

from app.browser.dom import measured

# pydantic's compiled core: input rules, settings, imports and the assistant. It starts loading
# as soon as the first screen is painted (Session.attach_assistant).
BASE = ["pydantic-core"]
# py-fsrs, the scheduler: loaded by the first study action or a reload on the study screen.
STUDY = ["fsrs"]
# segno, which draws the pairing QR code (app/ui/qr_view.py): loaded when a paired device's Sync
# dialog first shows it.
QR = ["segno"]


class LazyPackages:
    """Some packages, loaded the first time anything asks for them."""

    def __init__(self, names: list[str], failure: str) -> None:
        self.names = names
        self.failure = failure  # what the user is told if they cannot load, before the reason
        self.ready = False
        self._loading: asyncio.Future[None] | None = None

    async def load(self) -> None:
        """Whoever asks while they load waits for that same load; a load that failed fails
        everyone waiting for it, and the next one to ask tries again."""
        if self.ready:
            return
        if self._loading is None:
            self._loading = asyncio.ensure_future(self._load())
        loading = self._loading
        try:
            await asyncio.shield(loading)
        except Exception:
            if self._loading is loading:
                self._loading = None
            raise

    async def _load(self) -> None:
        # loadPackage reports a failure (a wheel that did not arrive, a wrong hash) to this
        # callback and still resolves: a failure must fail the load, not leave it "ready".
        errors: list[str] = []
        report = create_proxy(lambda message: errors.append(str(message)))
        try:
            with measured(f"load:{'+'.join(self.names)}"):  # when they are in, for make bench
                await pyodide_js.loadPackage(self.names, checkIntegrity=True, errorCallback=report)
        finally:
            report.destroy()
        if errors:
            raise PackageError(" ".join(errors))
        self.ready = True


class PackageError(Exception):
    """Pyodide could not load a package: its own words."""
