"""The app boots offline, shows it is loading until it is ready, and a first folder can be
created through the UI."""

import re

from playwright.sync_api import BrowserContext, Page, Route, expect

from e2e.conftest import BOOT_TIMEOUT_MS, READY


def test_boots_and_creates_a_folder(app: Page) -> None:
    expect(app.get_by_role("heading", name="Welcome to Lexical")).to_be_visible()
    app.get_by_role("button", name="Create your first folder").click()
    dialog = app.get_by_role("dialog")
    dialog.get_by_label("Name").fill("Biology")
    dialog.get_by_role("button", name="Create folder").click()
    expect(app.get_by_role("heading", level=1, name="Biology")).to_be_visible()
    expect(
        app.get_by_role("navigation", name="Folders").get_by_role("link", name="Biology")
    ).to_be_visible()
    expect(app.get_by_role("status").filter(has_text="Saved")).to_be_visible()


def test_until_the_app_is_ready_the_header_buttons_are_off_and_say_it_is_loading(
    context: BrowserContext, base_url: str
) -> None:
    page = context.new_page()
    held: list[Route] = []

    def hold(route: Route) -> None:  # a def: Playwright cannot wrap a builtin like list.append
        held.append(route)

    # The app's code waits until the checks below are done, however fast the machine is.
    page.route("**/app.zip", hold)
    with page.expect_request("**/app.zip"):
        page.goto(base_url)
    header = page.get_by_role("banner")
    expect(header.get_by_role("button", name="Keyboard shortcuts")).to_be_disabled()
    expect(header.get_by_role("button", name="Switch to dark theme")).to_be_disabled()
    expect(header.get_by_role("button", name="Import / Export")).to_be_disabled()
    expect(header.get_by_role("button", name="Study")).to_be_disabled()
    expect(header.get_by_role("status").filter(has_text="Loading…")).to_be_visible()
    expect(page.get_by_role("heading", name="Opening Lexical")).to_be_visible()
    expect(header.locator(".toolbar")).to_have_attribute("aria-busy", "true")
    (app_code,) = held
    app_code.fallback()
    page.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)
    expect(header.get_by_role("button", name="Keyboard shortcuts")).to_be_enabled()
    expect(header.get_by_role("button", name=re.compile("^Switch to"))).to_be_enabled()
    expect(header.get_by_role("button", name="Import / Export")).to_be_enabled()
    expect(header.locator(".toolbar")).not_to_have_attribute("aria-busy", "true")
