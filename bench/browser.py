"""Chromium for the bench: a server, fresh browser profiles with the in-page probe, seeding.

Each profile is a new user-data directory (empty HTTP cache, empty IndexedDB), the honest
"cold" start; a second page in the same profile is the "warm" one. Like the e2e suite, a run
fails on any request that leaves the machine and on any uncaught error in a page.
"""

from __future__ import annotations

import ast
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, Playwright

from app.store import Store
from app.store.durability import SLOTS, SnapshotRecord
from app.store.working_copy import PIECE_BYTES, BytesImage
from bench.server import DATA_PREFIX
from scripts import chromium, precache
from scripts.serve import ROOT

PROBE = Path(__file__).with_name("probe.js")
BOOT_TIMEOUT_MS = 180_000
BLANK = "blank.html"

# Writes a snapshot record the way app/browser/idb.py stores one (same database and stores).
SEED_JS = """async ({url, meta, names, piece, slots}) => {
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open(names.DB_NAME, names.DB_VERSION);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(names.SNAPSHOTS, {keyPath: "slot"});
      request.result.createObjectStore(names.OPS, {keyPath: "seq"});
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise((resolve, reject) => {
    // As the app writes a snapshot: its data in pieces, then the header that counts them; in
    // both slots, as in a collection saved a few times.
    const tx = db.transaction(names.SNAPSHOTS, "readwrite", {durability: "strict"});
    const store = tx.objectStore(names.SNAPSHOTS);
    const pieces = Math.max(1, Math.ceil(bytes.length / piece));
    for (const slot of slots) {
      for (let i = 0; i < pieces; i++) {
        store.put({slot: [slot, i], data: bytes.slice(i * piece, (i + 1) * piece)});
      }
      store.put({...meta, slot, pieces});
    }
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  db.close();
  return bytes.length;
}"""


def chromium_version() -> str:
    out = subprocess.run(
        [chromium.executable(), "--version"], capture_output=True, text=True, check=False
    )
    return out.stdout.strip().split(" built on")[0]


def _constants(path: Path, wanted: set[str]) -> dict[str, Any]:
    """The literal values of the module-level names `wanted` in the Python file `path`."""
    return {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in ast.parse(path.read_text()).body
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id in wanted
    }


def idb_names() -> dict[str, Any]:
    """DB_NAME, DB_VERSION and the store names, read from the app's IndexedDB adapter."""
    return _constants(
        ROOT / "app" / "browser" / "idb.py", {"DB_NAME", "DB_VERSION", "SNAPSHOTS", "OPS"}
    )


def app_packages() -> list[str]:
    """The packages the app loads at each start: those app/browser/packages.py loads with
    `loadPackage` right after the first screen (decision 028) and those it imports from
    static/build/packages.zip (scripts/build.py, decision 026). The bare pages load them all
    with `loadPackage` before they are ready."""
    base = precache.loaded_packages(ROOT / precache.PACKAGES)["BASE"]
    zipped = _constants(ROOT / "scripts" / "build.py", {"ZIPPED_PACKAGES"})["ZIPPED_PACKAGES"]
    return [*base, *zipped]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve(data_dir: Path) -> Iterator[str]:
    """Serve the app (and `data_dir` under /bench-data/) on loopback; yields the base URL."""
    (data_dir / BLANK).write_text("<!doctype html><title>bench</title>")
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "bench.server", "--port", str(port), "--data", str(data_dir)],
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=10)


@dataclass
class Profile:
    """One fresh Chromium profile; pages opened here share its cache and IndexedDB."""

    context: BrowserContext
    base_url: str
    also: tuple[str, ...] = ()  # other loopback servers the page may call (a provider emulator)
    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def watch(self, page: Page) -> None:
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def on_request(self, request: Any) -> None:
        url = str(request.url)
        allowed = (self.base_url + "/", *(f"{origin}/" for origin in self.also))
        if not url.startswith((*allowed, "data:", "blob:")):
            self.outside.append(url)

    def open(self, path: str) -> Page:
        """A new page at `path`, returned once it is ready (data-ready="true"); a renderer
        crash while it loads is tried once more (scripts/chromium.loaded)."""
        return chromium.loaded(self.context.new_page, lambda page: self._load(page, path), path)

    def _load(self, page: Page, path: str) -> None:
        page.goto(self.base_url + path)
        page.evaluate("ms => __bench.ready(ms)", BOOT_TIMEOUT_MS)

    def seed(self, store: Store, data_dir: Path, name: str) -> None:
        """Put `store` into IndexedDB as the app's snapshot (the same copy in both slots, as the
        app keeps two), so the app boots from it."""
        record = SnapshotRecord.of(0, 0, store)
        if not isinstance(record.data, BytesImage):
            raise TypeError("a store's own snapshot is Python bytes")
        (data_dir / name).write_bytes(record.data.data)
        page = self.context.new_page()
        page.goto(f"{self.base_url}{DATA_PREFIX}{BLANK}")
        args = {
            "url": DATA_PREFIX + name,
            "meta": record.as_row(),
            "names": idb_names(),
            "piece": PIECE_BYTES,
            "slots": list(SLOTS),
        }
        written = page.evaluate(SEED_JS, args)
        page.close()
        if written != record.length:
            raise SystemExit(f"bench: seeding wrote {written} bytes, expected {record.length}")

    def check(self) -> None:
        if self.outside:
            raise SystemExit(f"bench: requests left the machine: {self.outside[:5]}")
        if self.errors:
            raise SystemExit(f"bench: uncaught errors on the page: {self.errors[:5]}")


@contextmanager
def profile(
    playwright: Playwright,
    base_url: str,
    *,
    scripts: Sequence[Path] = (),
    flags: Sequence[str] = (),
    also: Sequence[str] = (),
) -> Iterator[Profile]:
    """A fresh profile with the probe, then `scripts` (init scripts, in order), Chromium started
    with `flags` as well, and requests allowed to the servers in `also` too."""
    user_data = tempfile.mkdtemp(prefix="lexical-bench-profile-")
    context = playwright.chromium.launch_persistent_context(
        user_data,
        executable_path=chromium.executable(),
        headless=True,
        args=[*chromium.FLAGS, *flags],
        viewport={"width": 1280, "height": 800},
    )
    try:
        for script in (PROBE, *scripts):
            context.add_init_script(path=str(script))
        session = Profile(context, base_url, tuple(also))
        context.on("page", session.watch)
        context.on("request", session.on_request)
        yield session
    finally:
        context.close()
        shutil.rmtree(user_data, ignore_errors=True)
    session.check()


class Heap:
    """Samples the page's memory: over CDP (Runtime.getHeapUsage) the V8 JS heap and the
    ArrayBuffer backing stores V8 counts, and from Pyodide the size of its WebAssembly memory
    (Python objects and the SQLite database), which that count leaves out."""

    def __init__(self, page: Page) -> None:
        self._page = page
        self._cdp = page.context.new_cdp_session(page)
        self.js: list[float] = []
        self.buffers: list[float] = []
        self.wasm: list[float] = []

    def sample(self, *, collect: bool = False) -> None:
        """One sample; `collect` runs V8's garbage collector first, so what is left is what
        something still holds."""
        if collect:
            self._cdp.send("HeapProfiler.collectGarbage")
        usage = self._cdp.send("Runtime.getHeapUsage")
        self.js.append(usage["usedSize"] / 1e6)
        self.buffers.append(usage.get("backingStorageSize", 0) / 1e6)
        self.wasm.append(float(self._page.evaluate("__bench.wasmMemory()")))
