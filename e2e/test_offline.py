"""Offline use: after one visit Lexical starts and works with the network off, and a newly
deployed version is offered with a Reload that waits for every edit to be saved.

The service worker's own requests (precaching) go through the browser context like the page's,
so the conftest Guard's route sees them too; requests to other origins are never handled by
the worker and reach the Guard as the page's own requests. Both are checked here.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, Request, Response, Route, expect

from e2e.conftest import BOOT_TIMEOUT_MS, READY, ROOT, Guard, open_app, reload, screenshot
from e2e.lexical_ui import (
    add_word,
    create_folder,
    focus_outside_fields,
    heading,
    search_box,
    set_theme,
    tree_link,
    wait_saved,
    word_item,
)
from e2e.site_copy import build, copy_site, retitle
from scripts.precache import boot_files
from scripts.serve import Handler

CONTROLLED = "navigator.serviceWorker.controller !== null"
CACHES = "caches.keys()"
WORKER_TIMEOUT_MS = 60_000

# Keep a write transaction open on the operation log, as a slow disk would: the app's next
# save waits behind it (the status stays "Saving…") until window.releaseDisk() is called.
HOLD_THE_DISK = """() => new Promise((held) => {
  const open = indexedDB.open("lexical");
  open.onsuccess = () => {
    const db = open.result;
    const store = db.transaction("ops", "readwrite").objectStore("ops");
    let holding = true;
    window.releaseDisk = () => { holding = false; };
    const spin = () => { if (holding) store.count().onsuccess = spin; };
    spin();
    held();
  };
})"""


def offline_indicator(page: Page) -> Locator:
    return page.get_by_role("status").filter(has_text=re.compile("^Offline$"))


def update_banner(page: Page) -> Locator:
    return page.get_by_role("status").filter(has_text="A new version of Lexical is ready")


def installability_problems(context: BrowserContext, page: Page) -> list[str]:
    """What Chromium says stops it from offering to install the app (test profiles are
    incognito-like, which is not the app's doing), and any problem with the manifest."""
    devtools = context.new_cdp_session(page)
    found = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
    manifest = devtools.send("Page.getAppManifest")
    devtools.detach()
    problems = [e["errorId"] for e in found if e["errorId"] != "in-incognito"]
    return problems + [e["message"] for e in manifest["errors"]]


def test_starts_and_works_offline_after_one_visit(
    context: BrowserContext, base_url: str, guard: Guard
) -> None:
    booted: set[str] = set()
    from_worker: list[str] = []

    def seen(request: Request) -> None:
        path = request.url.removeprefix(base_url + "/")
        if request.service_worker is not None:
            from_worker.append(path)
        elif request.url.startswith(base_url + "/") and path:
            booted.add(path)

    def observe(route: Route) -> None:
        seen(route.request)
        route.fallback()  # on to the Guard

    context.route("**/*", observe)
    page = open_app(context, base_url)
    # Every file the page asked for while starting is in the generated precache list (the
    # worker's own script and its import are kept by the browser, not in the cache).
    assert booted - set(boot_files(ROOT)) - {"sw.js", "static/build/precache.js"} == set()

    create_folder(page, "Travel", emoji="🧳")
    add_word(page, "billete", ["ticket"])
    wait_saved(page)
    page.wait_for_function(CONTROLLED, timeout=WORKER_TIMEOUT_MS)
    assert installability_problems(context, page) == []
    # The worker fetched the precache through the context's routes, so the Guard saw it.
    assert "static/vendor/pyodide/pyodide.asm.wasm" in from_worker
    # Whatever the worker fetched from another origin would be stopped and reported too.
    [worker] = context.service_workers or [context.wait_for_event("serviceworker")]
    worker.evaluate("fetch('https://provider.example/v1/models').catch(() => null)")
    assert guard.outside == ["https://provider.example/v1/models"]
    guard.outside.clear()
    expect(offline_indicator(page)).to_be_hidden()

    wasm_from_worker: list[bool] = []  # per load: was the runtime's WebAssembly from the worker?

    def answered(response: Response) -> None:
        if response.url.endswith(".wasm"):
            wasm_from_worker.append(response.from_service_worker)

    page.on("response", answered)
    context.set_offline(True)
    expect(offline_indicator(page)).to_be_visible()
    page.reload()
    page.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)
    expect(heading(page, "🧳 Travel")).to_be_visible()
    expect(word_item(page, "billete")).to_be_visible()
    expect(offline_indicator(page)).to_be_visible()
    screenshot(page, "offline-light")
    set_theme(page, "dark")
    screenshot(page, "offline-dark")

    add_word(page, "pasaporte", ["passport"])
    wait_saved(page)
    page.reload()
    page.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)
    expect(word_item(page, "pasaporte")).to_be_visible()
    expect(word_item(page, "billete")).to_be_visible()
    expect(tree_link(page, "🧳 Travel")).to_have_accessible_name("🧳 Travel, 2 words")

    # What loads only when first used comes from the worker's cache too: the scheduler
    # (py-fsrs) when studying starts, and the chart library on the stats page.
    focus_outside_fields(page)
    page.keyboard.press("s")
    expect(page.locator("#study-prompt")).to_be_visible()
    focus_outside_fields(page)
    page.keyboard.press(" ")
    page.keyboard.press("3")
    wait_saved(page)
    page.get_by_role("button", name="End session").click()
    expect(page.get_by_role("heading", name="Session complete")).to_be_visible()  # what was studied
    page.get_by_role("button", name="Done").click()
    page.get_by_role("link", name="Stats", exact=True).click()
    expect(page.locator("[data-chart] canvas").first).to_be_visible()
    tree_link(page, "🧳 Travel").click()

    context.set_offline(False)
    expect(offline_indicator(page)).to_be_hidden()
    # Online, the browser fetches it itself (its HTTP cache keeps V8's compiled code). The
    # worker learns that the server answers from a probe it sends as the page is asked for;
    # a runtime asked for before the probe's answer comes from the worker's cache (slower,
    # never wrong). On a busy machine that race was lost once in a CI run: up to three starts.
    for _ in range(3):
        reload(page)
        if not wasm_from_worker[-1]:
            break
    assert wasm_from_worker[:2] == [True, True]
    assert wasm_from_worker[-1] is False
    online_loads = len(wasm_from_worker)

    # The server stops answering while the browser still says it is online (a host that is
    # down, a dead Wi-Fi): the app still starts, everything from the worker's cache.
    context.route("**/*", lambda route: route.abort("connectionrefused"))
    reload(page)
    expect(word_item(page, "pasaporte")).to_be_visible()
    assert wasm_from_worker[online_loads:] == [True]  # after however many online starts


class TestANewVersion:
    """A copy of the site on its own server, so the test can deploy a new build to it."""

    @pytest.fixture
    def site(self, tmp_path: Path) -> Path:
        site = copy_site(tmp_path / "site")
        build(site)
        return site

    @pytest.fixture
    def base_url(self, site: Path) -> Iterator[str]:
        handler = functools.partial(Handler, directory=str(site))
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        server.quiet = True  # type: ignore[attr-defined]
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{server.server_port}"
        server.shutdown()
        server.server_close()

    def test_is_offered_and_reloads_once_everything_is_saved(self, app: Page, site: Path) -> None:
        app.wait_for_function(CONTROLLED, timeout=WORKER_TIMEOUT_MS)
        [old_cache] = app.evaluate(CACHES)
        create_folder(app, "Inbox")
        add_word(app, "serendipity", ["a happy accident"])
        wait_saved(app)

        # Deploy: the page's title changes, and the build gives the cache a new version.
        retitle(site, "Lexical 2")
        build(site)
        app.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        expect(update_banner(app)).to_be_visible(timeout=WORKER_TIMEOUT_MS)
        screenshot(app, "update-banner-light")
        set_theme(app, "dark")
        screenshot(app, "update-banner-dark")
        set_theme(app, "light")

        # The message does not block: an edit still goes in, but the disk is slow to take it.
        app.evaluate(HOLD_THE_DISK)
        add_word(app, "petrichor", ["the smell of rain"])
        expect(app.locator("#save-status")).to_have_text("Saving…")

        # The Reload button is reachable with the keyboard: Tab on from the search box.
        reload = update_banner(app).get_by_role("button", name="Reload")
        search_box(app).focus()
        for _ in range(12):  # past the toolbar's buttons
            app.keyboard.press("Tab")
            if reload.evaluate("b => b === document.activeElement"):
                break
        expect(reload).to_be_focused()
        app.evaluate("window.oldWorker = navigator.serviceWorker.controller")
        app.keyboard.press("Enter")
        expect(reload).to_have_text("Reloading…")

        # While the edit is being written, the page stays and so does the worker serving it.
        assert app.evaluate("navigator.serviceWorker.controller === window.oldWorker")
        expect(app.locator("#save-status")).to_have_text("Saving…")

        loads: list[str] = []
        app.on("load", lambda page: loads.append(page.url))
        app.evaluate("window.releaseDisk()")
        expect(app).to_have_title("Lexical 2", timeout=WORKER_TIMEOUT_MS)
        app.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)
        assert len(loads) == 1
        [new_cache] = app.evaluate(CACHES)
        assert new_cache != old_cache
        expect(update_banner(app)).to_be_hidden()
        expect(word_item(app, "petrichor")).to_be_visible()
        expect(word_item(app, "serendipity")).to_be_visible()
