"""The app boots offline and a first folder can be created through the UI."""

from playwright.sync_api import Page, expect


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
