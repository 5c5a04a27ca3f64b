"""A killed browser keeps every edit the app had reported as "Saved".

Chromium is started by hand on a profile folder so the test can SIGKILL the real process (no
unload handlers, no graceful IndexedDB shutdown), then started again on the same profile.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, Playwright, expect

from e2e.conftest import BOOT_TIMEOUT_MS, READY, Guard
from e2e.lexical_ui import add_word, create_folder, tree_link, wait_saved, word_item, words_heading
from scripts import chromium


@contextmanager
def _chromium(playwright: Playwright, profile: Path) -> Iterator[tuple[Browser, int]]:
    port_file = profile / "DevToolsActivePort"
    port_file.unlink(missing_ok=True)
    process = subprocess.Popen(
        [
            chromium.executable(),
            "--headless=new",
            *chromium.FLAGS,
            f"--user-data-dir={profile}",
            "--window-size=1280,800",  # the desktop layout (headless opens 800 px wide)
            "--remote-debugging-port=0",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while not port_file.exists() or not port_file.read_text().strip():
            assert time.monotonic() < deadline, "Chromium did not open its debugging port"
            time.sleep(0.1)
        port = port_file.read_text().split()[0]
        browser = playwright.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
        yield browser, process.pid
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


def _open(browser: Browser, guard: Guard, url: str) -> Page:
    context = browser.contexts[0]
    context.route("**/*", guard.route)
    page = context.new_page()
    guard.watch(page)
    page.goto(url)
    page.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)
    return page


def test_sigkill_after_saved_loses_nothing(
    playwright: Playwright, base_url: str, guard: Guard, tmp_path: Path
) -> None:
    profile = tmp_path / "profile"
    profile.mkdir()
    with _chromium(playwright, profile) as (browser, pid):
        page = _open(browser, guard, base_url + "/")
        create_folder(page, "Biology", emoji="🧬")
        for term in ("cell", "membrane", "nucleus"):
            add_word(page, term, [f"meaning of {term}"])
        page.get_by_role("button", name="Delete membrane").click()
        add_word(page, "ribosome", ["makes proteins"])
        wait_saved(page)
        # The process dies the instant "Saved" shows: nothing gets a chance to flush later.
        os.kill(pid, signal.SIGKILL)

    with _chromium(playwright, profile) as (browser, _pid):
        page = _open(browser, guard, base_url + "/")
        tree_link(page, "🧬 Biology").click()
        expect(words_heading(page, 3)).to_be_visible()
        for term in ("cell", "nucleus", "ribosome"):
            expect(word_item(page, term)).to_be_visible()
        expect(word_item(page, "membrane")).to_have_count(0)
        browser.close()
    assert not guard.outside, f"requests left the machine: {guard.outside}"
    assert not guard.errors, f"uncaught errors on the page: {guard.errors}"
