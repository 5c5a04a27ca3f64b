"""The first screen is ready before pydantic-core, the package with compiled code the app loads
(app/browser/packages.py, decision 028): the collection shows and can be read at once, a dialog
opens at once, and an action that validates what it is given waits for the package, with the
toolbar busy, and then happens."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page, Route, expect

from e2e.conftest import open_app
from e2e.lexical_ui import dialog, heading, save_status, tree, wait_saved

WHEEL = "**/pydantic_core-*.whl"


def hold_back_the_wheel(context: BrowserContext) -> list[Route]:
    """The requests for pydantic-core's wheel, held until a test lets one go on."""
    held: list[Route] = []

    def hold(route: Route) -> None:  # Playwright marks its handlers: a bound method will not do
        held.append(route)

    context.route(WHEEL, hold)
    return held


def wait_until_asked(page: Page, held: list[Route]) -> None:
    for _ in range(200):  # a route's handler runs while Playwright waits
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1


def test_an_action_before_the_package_is_in_waits_for_it_then_happens(
    context: BrowserContext, base_url: str
) -> None:
    held = hold_back_the_wheel(context)
    page = open_app(context, base_url)  # ready, and then the wheel is asked for
    wait_until_asked(page, held)
    expect(page.get_by_role("button", name="Assistant")).to_be_disabled()

    # Opening the dialog validates nothing: it opens at once (issue 25: a dead first click).
    tree(page).get_by_role("button", name="+ New folder").click()
    box = dialog(page)
    expect(box).to_be_visible()
    box.get_by_label("Name").fill("Cardiology")
    box.get_by_role("button", name="Create folder").click()  # this waits for the package
    expect(save_status(page)).to_have_attribute("data-busy", "true")
    expect(heading(page, "Cardiology")).to_have_count(0)

    held[0].fallback()  # the wheel arrives
    expect(heading(page, "Cardiology")).to_be_visible()
    expect(save_status(page)).to_have_attribute("data-busy", "false")
    wait_saved(page)
    expect(page.get_by_role("button", name="Assistant")).to_be_enabled()


def test_a_package_that_cannot_load_is_said_and_the_collection_stays_readable(
    context: BrowserContext, base_url: str
) -> None:
    context.route(WHEEL, lambda route: route.abort())
    page = open_app(context, base_url)
    toast = page.locator("#toast")
    expect(toast).to_contain_text("Part of Lexical could not load (")
    expect(toast).to_contain_text("Reload the page to try again")
    expect(save_status(page)).to_have_attribute("data-busy", "false")
    expect(tree(page)).to_be_visible()


def test_a_start_on_the_stats_screen_draws_it_once_the_package_is_in(
    context: BrowserContext, base_url: str
) -> None:
    held = hold_back_the_wheel(context)
    page = open_app(context, base_url, "/#/stats")  # its figures need the study options
    wait_until_asked(page, held)
    expect(page.get_by_role("heading", level=1, name=re.compile("^Stats"))).to_have_count(0)
    held[0].fallback()
    expect(page.get_by_role("heading", level=1, name=re.compile("^Stats"))).to_be_visible()
