"""Warm start (decision 023): on a return visit the last screen is painted from its copy while
Python starts, inert and marked loading, then the real page replaces it. Python is held back
by holding the app's zip, so the copy stays long enough to look at; the service worker is off
so that every request reaches the test."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Route, expect

from e2e.conftest import BOOT_TIMEOUT_MS, READY, Guard, guarded_context, screenshot
from e2e.lexical_ui import add_word, create_folder, heading, wait_saved, word_item

APP_ZIP = "**/static/build/app.zip"
KEY = "lexical-last-screen"


@pytest.fixture
def context(browser: Browser, guard: Guard) -> Iterator[BrowserContext]:
    ctx = guarded_context(browser, guard, service_workers="block")
    yield ctx
    ctx.close()
    assert not guard.outside, f"requests left the machine: {guard.outside}"
    assert not guard.errors, f"uncaught errors on the page: {guard.errors}"


class Held:
    """Requests for the app's zip wait here until `release()` (and later ones go on at once)."""

    def __init__(self, page: Page) -> None:
        self.routes: list[Route] = []
        self.released = False
        page.route(APP_ZIP, self._hold)

    def _hold(self, route: Route) -> None:
        if self.released:
            route.fallback()
        else:
            self.routes.append(route)

    def release(self, page: Page) -> None:
        self.released = True
        for route in self.routes:
            route.fallback()
        page.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)


def copy(page: Page) -> Locator:
    return page.locator("[data-warm-copy]")


def boot_stages(page: Page) -> Locator:
    return page.get_by_role("progressbar", name="Loading progress")


def focus_can_enter_the_copy(page: Page) -> bool:
    """Whether focus lands in the copy, by the keyboard or by a script."""
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('[data-warm-copy]')"):
            return True
    return bool(
        page.evaluate("""() => {
            const field = document.querySelector('[data-warm-copy] a, [data-warm-copy] input');
            field.focus();
            return document.activeElement === field;
        }""")
    )


def test_the_last_screen_is_painted_inert_before_python_then_replaced(
    context: BrowserContext, base_url: str
) -> None:
    page = context.new_page()
    page.goto(base_url + "/")
    page.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)
    folder = create_folder(page, "Biology")
    add_word(page, "heart", ["pumps blood"])
    add_word(page, "lung", ["breathes"])
    wait_saved(page)

    held = Held(page)
    page.reload(wait_until="domcontentloaded")  # leaving the page keeps its screen
    expect(copy(page).get_by_text("pumps blood")).to_be_visible()
    expect(page.locator("#tree [data-warm-copy]").get_by_text("Biology")).to_be_visible()
    expect(boot_stages(page)).to_be_visible()
    expect(page.get_by_text("Opening Lexical")).to_be_visible()
    for region in copy(page).all():
        expect(region).to_have_attribute("inert", "")
        expect(region).to_have_attribute("aria-busy", "true")
    assert page.evaluate("document.documentElement.dataset.ready") is None
    assert page.evaluate("location.hash") == f"#/folder/{folder}"
    assert not focus_can_enter_the_copy(page)
    screenshot(page, "warm-start-copy")

    held.release(page)
    expect(copy(page)).to_have_count(0)
    expect(boot_stages(page)).to_have_count(0)
    expect(heading(page, "Biology")).to_be_visible()
    add_word(page, "kidney", ["filters blood"])
    expect(word_item(page, "heart")).to_be_visible()
    screenshot(page, "warm-start-ready")


def seed(context: BrowserContext, base_url: str, stored: object) -> None:
    """Have `stored` as the kept copy in every page the context opens."""
    value = json.dumps(json.dumps(stored))
    # Init scripts run in the new page's about:blank too, which has no storage.
    context.add_init_script(
        f"if (location.origin === {json.dumps(base_url)}) "
        f"localStorage.setItem({json.dumps(KEY)}, {value});"
    )


def seeded(context: BrowserContext, base_url: str, stored: object) -> tuple[Page, Held]:
    """The home page with `stored` as the kept copy, and Python held back."""
    seed(context, base_url, stored)
    page = context.new_page()
    held = Held(page)
    page.goto(base_url + "/", wait_until="domcontentloaded")
    return page, held


def test_a_copy_of_another_screen_is_not_painted(context: BrowserContext, base_url: str) -> None:
    main = ["h1", {}, ["Chemistry"]]
    stored = {"format": 1, "route": "#/folder/7", "tree": None, "main": main}
    page, _held = seeded(context, base_url, stored)
    expect(page.get_by_text("Loading the Python runtime")).to_be_visible()
    expect(page.get_by_text("Chemistry")).to_have_count(0)
    expect(copy(page)).to_have_count(0)


HOSTILE = [
    "div",
    {"onclick": "window.__ran = 'onclick'", "style": "position:fixed;inset:0"},
    [
        ["h1", {}, ["Hostile copy"]],
        ["img", {"src": "x", "onerror": "window.__ran = 'img'"}, []],
        ["script", {}, ["window.__ran = 'script'"]],
        ["a", {"href": "javascript:window.__ran='link'"}, ["a javascript: link"]],
        ["iframe", {"src": "javascript:parent.__ran='iframe'"}, []],
        ["p", {}, ["<img src=x onerror=\"window.__ran='text'\">"]],
    ],
]


def test_hostile_stored_content_paints_inert_and_runs_nothing(
    context: BrowserContext, base_url: str
) -> None:
    stored = {"format": 1, "route": "#/", "tree": None, "main": HOSTILE}
    page, held = seeded(context, base_url, stored)
    painted = copy(page)
    expect(painted.get_by_text("Hostile copy")).to_be_visible()
    expect(painted).to_have_attribute("inert", "")
    expect(painted.locator("img, script, iframe, [onclick], [style]")).to_have_count(0)
    expect(painted.get_by_text("a javascript: link")).not_to_have_attribute("href", re.compile("."))
    page.mouse.click(400, 300)
    assert page.evaluate("window.__ran") is None
    screenshot(page, "warm-start-hostile")
    held.release(page)
    expect(copy(page)).to_have_count(0)
    assert page.evaluate("window.__ran") is None


def test_a_startup_failure_takes_the_copy_away_and_says_so(
    context: BrowserContext, base_url: str, guard: Guard
) -> None:
    seed(
        context, base_url, {"format": 1, "route": "#/", "tree": None, "main": ["h1", {}, ["Home"]]}
    )
    context.route(APP_ZIP, lambda route: route.fulfill(status=500, body="server error"))
    page = context.new_page()
    page.goto(base_url + "/")
    error = page.get_by_role("alert").filter(has_text="Lexical could not start")
    expect(error).to_be_visible(timeout=BOOT_TIMEOUT_MS)
    expect(copy(page)).to_have_count(0)
    expect(page.get_by_text("Loading the Python runtime")).to_be_visible()
    screenshot(page, "warm-start-failed")
    guard.errors.clear()  # the failure is the point of this test
