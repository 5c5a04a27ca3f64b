"""One writer tab: a second tab is read-only, follows edits live, and takes over when the first
closes."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page, expect

from e2e.conftest import open_app, reload
from e2e.lexical_ui import (
    add_form,
    add_word,
    create_folder,
    heading,
    save_status,
    toast,
    wait_saved,
    word_item,
    words_heading,
)


def test_second_tab_is_read_only_follows_live_and_takes_over(
    context: BrowserContext, base_url: str, app: Page
) -> None:
    first = app
    folder = create_folder(first, "Biology", emoji="🧬")
    add_word(first, "osmosis", ["water crossing a membrane"])
    wait_saved(first)

    second = open_app(context, base_url, f"/#/folder/{folder}")
    banner = second.get_by_role("alert").filter(has_text="open in another tab")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("read-only")
    expect(save_status(second)).to_have_text("Read-only")
    expect(word_item(second, "osmosis")).to_be_visible()
    # The first tab stays the writer and shows no banner.
    expect(first.get_by_role("alert").filter(has_text="open in another tab")).to_have_count(0)

    # An edit in the first tab shows up in the second, live.
    add_word(first, "diffusion", ["spreading out"])
    expect(word_item(second, "diffusion")).to_be_visible()
    expect(words_heading(second, 2)).to_be_visible()
    create_folder(first, "Cells", subfolder=True)
    expect(
        second.get_by_role("main").get_by_role("link", name=re.compile(r"^Cells"))
    ).to_be_visible()
    expect(second.get_by_role("button", name="Expand Biology")).to_be_visible()

    # The second tab refuses to write and says why, in the form. (Playwright will not click an
    # aria-disabled control by itself; a person can, so the clicks are forced.)
    form = add_form(second)
    form.get_by_label("Term").fill("mitosis")
    expect(form.get_by_role("button", name="Add word")).to_have_attribute("aria-disabled", "true")
    form.get_by_role("button", name="Add word").click(force=True)
    expect(form.get_by_role("alert")).to_contain_text("open in another tab")
    expect(word_item(second, "mitosis")).to_have_count(0)
    # Undo is off and dialogs that would change things do not open.
    expect(
        second.get_by_role("banner").get_by_role("button", name=re.compile("^Undo"))
    ).to_be_disabled()
    # Buttons that would change things look off, and a click says why instead of nothing.
    delete = second.get_by_role("button", name="Delete osmosis")
    expect(delete).to_have_attribute("aria-disabled", "true")
    delete.click(force=True)
    expect(toast(second)).to_contain_text("read-only")
    expect(word_item(second, "osmosis")).to_be_visible()
    bulk = second.get_by_role("button", name="Bulk paste…")
    expect(bulk).to_have_attribute("aria-disabled", "true")
    bulk.click(force=True)
    expect(second.get_by_role("dialog")).to_be_hidden()
    expect(second.get_by_role("button", name="+ New folder")).to_have_attribute(
        "aria-disabled", "true"
    )
    expect(word_item(first, "mitosis")).to_have_count(0)

    # The first tab closes: the second takes over and can write.
    first.close()
    expect(toast(second)).to_contain_text("this tab can now make changes")
    expect(banner).to_be_hidden()
    expect(save_status(second)).to_have_text("Saved")
    expect(heading(second, "🧬 Biology")).to_be_visible()
    expect(second.get_by_role("button", name="Bulk paste…")).not_to_have_attribute(
        "aria-disabled", "true"
    )
    add_word(second, "mitosis", ["cell division"])
    wait_saved(second)
    reload(second)
    expect(word_item(second, "mitosis")).to_be_visible()
    expect(word_item(second, "diffusion")).to_be_visible()
    expect(
        second.get_by_role("main").get_by_role("link", name=re.compile(r"^Cells"))
    ).to_be_visible()
