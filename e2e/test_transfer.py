"""Import / Export through the real page: a JSON backup carried into a fresh browser, a CSV
imported after its preview and undone, an Anki deck made with genanki (with and without a
review history), and hostile files."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import genanki
import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from e2e.conftest import Guard, guarded_context, open_app, screenshot
from e2e.lexical_ui import (
    add_note,
    add_word,
    create_folder,
    dialog,
    heading,
    toast,
    tree,
    tree_link,
    wait_saved,
    word_item,
)
from tests.anki_decks import card_ids, make_apkg, newer_format_package, sample_deck, with_revlog

ONE_NOTE = "Learn the **phases** in order."


def open_transfer(page: Page) -> Locator:
    page.get_by_role("banner").get_by_role("button", name="Import / Export").click()
    box = dialog(page)
    expect(box.get_by_role("heading", name="Import / Export")).to_be_visible()
    return box


def choose_file(box: Locator, path: Path) -> Locator:
    """Pick a file to import and wait for its preview (or its refusal)."""
    box.get_by_label("Choose a file to import").set_input_files(str(path))
    outcome = box.get_by_role("form", name="Import preview").or_(box.get_by_role("alert"))
    expect(outcome).to_be_visible()
    return box.get_by_role("form", name="Import preview")


def expand(page: Page, name: str) -> None:
    toggle = tree(page).get_by_role("button", name=f"Expand {name}")
    if toggle.count():
        toggle.click()


@pytest.fixture
def fresh_context(browser: Browser, guard: Guard) -> Iterator[BrowserContext]:
    """A second browser profile (empty storage), under the same guard as the first."""
    ctx = guarded_context(browser, guard)
    yield ctx
    ctx.close()


def test_a_json_backup_restores_the_workspace_in_a_fresh_browser(
    app: Page, fresh_context: BrowserContext, base_url: str, tmp_path: Path
) -> None:
    create_folder(app, "Biology", emoji="🧬", colour="Green")
    create_folder(app, "Cells/Tissues", subfolder=True)
    add_word(app, "mitochondrion", ["powerhouse of the cell", "makes ATP"], notes="plural: -ia")
    add_word(app, "célula", ["cell"], lang="es-MX")
    add_note(app, "Exam tips", ONE_NOTE)
    wait_saved(app)

    box = open_transfer(app)
    expect(box.get_by_role("button", name="Download JSON backup")).to_be_focused()
    with app.expect_download() as info:
        box.get_by_role("button", name="Download JSON backup").click()
    backup = tmp_path / info.value.suggested_filename
    info.value.save_as(backup)
    assert re.fullmatch(r"lexical-\d{4}-\d{2}-\d{2}-backup\.json", backup.name)
    document = json.loads(backup.read_text())
    assert document["format"] == "lexical-backup"
    assert len(document["words"]) == 2
    downloads = {}
    for button, suffix in (
        ("Download SQLite database", ".sqlite"),
        ("Download CSV of words", ".csv"),
    ):
        with app.expect_download() as info:
            box.get_by_role("button", name=button).click()
        assert info.value.suggested_filename.endswith(suffix)
        downloads[suffix] = tmp_path / info.value.suggested_filename
        info.value.save_as(downloads[suffix])
    assert downloads[".sqlite"].read_bytes().startswith(b"SQLite format 3")

    other = open_app(fresh_context, base_url)
    expect(heading(other, "Welcome to Lexical")).to_be_visible()
    form = choose_file(open_transfer(other), backup)
    expect(form.get_by_role("radio", name=re.compile("^Merge"))).to_be_checked()
    form.get_by_role("radio", name=re.compile("^Replace")).check()
    expect(form.get_by_role("button", name="Replace my workspace")).to_be_visible()
    screenshots_in_both_themes(other, "transfer-backup-preview")
    form.get_by_role("button", name="Replace my workspace").click()
    expect(dialog(other)).to_be_hidden()
    expect(toast(other)).to_contain_text("Imported " + backup.name)

    expect(tree_link(other, "🧬 Biology")).to_have_accessible_name("🧬 Biology, 2 words")
    expand(other, "Biology")
    # (by exact name: a slash would end tree_link's regular expression)
    tree(other).get_by_role("link", name="Cells/Tissues, 2 words").click()
    expect(heading(other, "Cells/Tissues")).to_be_visible()
    expect(word_item(other, "mitochondrion").get_by_role("listitem")).to_have_text(
        ["powerhouse of the cell", "makes ATP"]
    )
    expect(word_item(other, "célula")).to_contain_text("es-MX")
    expect(other.get_by_role("region", name="Notes").locator("strong")).to_have_text("phases")
    # The database file of the same workspace merges in as nothing new.
    form = choose_file(open_transfer(other), downloads[".sqlite"])
    expect(form).to_contain_text("Lexical database · 2 folders, 2 words and 1 note")
    expect(form.get_by_role("button", name="Nothing to import")).to_be_disabled()
    dialog(other).get_by_role("button", name="Cancel").click()
    wait_saved(other)
    other.reload()
    other.wait_for_function("document.documentElement.dataset.ready === 'true'")
    expect(word_item(other, "mitochondrion")).to_be_visible()


def _set_theme(page: Page, theme: str) -> None:
    """Switch theme with the T shortcut (the header button sits behind the modal dialog)."""
    html = page.locator("html")
    if html.get_attribute("data-theme") != theme:
        dialog(page).get_by_role("button", name="Cancel").focus()
        page.keyboard.press("t")
    expect(html).to_have_attribute("data-theme", theme)


def screenshots_in_both_themes(page: Page, name: str) -> None:
    for theme in ("light", "dark"):
        _set_theme(page, theme)
        screenshot(page, f"{name}-{theme}")
    _set_theme(page, "light")


def test_a_csv_preview_shows_what_happens_then_imports_and_undoes(
    app: Page, tmp_path: Path
) -> None:
    create_folder(app, "Biology", emoji="🧬")
    add_word(app, "cell", ["unit of life"])
    wait_saved(app)
    words = tmp_path / "words.csv"
    words.write_text(
        "folder;term;meanings;notes\n"
        "Biology;cell;unit of life;\n"
        'Biology/Cells;nucleus;"holds the DNA\ncontrols the cell";\n'
        "Biology/Cells;;only a meaning;\n"
        "Chemistry/Acids\\/Bases;pH;acidity scale;0 to 14\n",
        encoding="utf-8-sig",
    )
    box = open_transfer(app)
    form = choose_file(box, words)
    expect(form.locator('[data-role="transfer-summary"]')).to_have_text(
        "Adds 3 folders and 2 words; skips 1 duplicate; leaves out 1 row with problems."
    )
    expect(
        form.get_by_role("region", name="Folders to create (3)").get_by_role("listitem")
    ).to_have_text(["Biology › Cells", "Chemistry", "Chemistry › Acids/Bases"])
    skipped = form.get_by_role("table", name="Skipped rows")
    expect(skipped.get_by_role("row").nth(1)).to_contain_text("2")
    expect(skipped.get_by_role("row").nth(2)).to_contain_text("5")
    expect(skipped).to_contain_text("Term must not be empty.")
    expect(form.get_by_role("table", name="First rows")).to_contain_text(
        "holds the DNA; controls the cell"
    )
    screenshots_in_both_themes(app, "transfer-csv-preview")

    form.get_by_role("button", name="Import").click()
    expect(dialog(app)).to_be_hidden()
    expect(toast(app)).to_contain_text("Imported words.csv. Added 3 folders and 2 words")
    expect(tree_link(app, "Chemistry")).to_be_visible()
    expect(tree_link(app, "🧬 Biology")).to_have_accessible_name("🧬 Biology, 2 words")
    wait_saved(app)

    app.get_by_role("banner").get_by_role("button", name=re.compile(r"^Undo Import")).click()
    expect(tree_link(app, "Chemistry")).to_have_count(0)
    expect(tree_link(app, "🧬 Biology")).to_have_accessible_name("🧬 Biology, 1 word")


def test_an_anki_deck_becomes_folders_and_words(app: Page, tmp_path: Path) -> None:
    deck = tmp_path / "biology.apkg"
    deck.write_bytes(sample_deck())
    form = choose_file(open_transfer(app), deck)
    expect(form).to_contain_text("Anki deck · 4 rows with a term, 3 folders")
    expect(form).to_contain_text("1 media file ignored.")
    screenshots_in_both_themes(app, "transfer-anki-preview")
    form.get_by_role("button", name="Import").click()
    expect(dialog(app)).to_be_hidden()
    expand(app, "Biology")
    tree_link(app, "Cells").click()
    expect(heading(app, "Cells")).to_be_visible()
    expect(word_item(app, "mitosis").get_by_role("listitem")).to_have_text(
        ["cell division", "into two cells"]
    )
    expect(word_item(app, "ribosome")).to_contain_text("makes proteins & more")
    expect(tree_link(app, "Spanish")).to_have_accessible_name("Spanish, 1 word")


def test_a_decks_fields_are_mapped_in_the_preview_and_homographs_keep_both_meanings(
    app: Page, tmp_path: Path
) -> None:
    fields = [{"name": n} for n in ("Key", "Wort", "Bedeutung", "Beispiel")]
    template = {"name": "Card 1", "qfmt": "{{Wort}}", "afmt": "{{Bedeutung}}"}
    model = genanki.Model(1_700_000_010, "Goethe B1", fields=fields, templates=[template])
    notes = [
        (["B1-CH01:1", "家", "(N) Familie; Zuhause", "Mein Zuhause."], []),
        (["B1-CH01:2", "人", "Mensch", "Ein Mensch."], []),
        (["B1-CH01:3", "家", "(Met) für Firmen, Schulen", "Eine Firma."], []),
    ]
    deck = tmp_path / "goethe.apkg"
    deck.write_bytes(make_apkg({"Goethe B1": notes}, model=model))
    form = choose_file(open_transfer(app), deck)
    expect(form.get_by_label("Key becomes")).to_have_value(re.compile(":skip$"))
    expect(form.get_by_label("Wort becomes")).to_have_value(re.compile(":term$"))
    expect(form).to_contain_text("Adds 1 folder and 2 words; adds the meanings of 1 row")
    expect(form.get_by_role("table", name="Merged rows")).to_contain_text("1 meaning added")
    form.get_by_label("Beispiel becomes").select_option(label="Leave out")
    expect(form.get_by_label("Beispiel becomes")).to_be_focused()
    form.get_by_label("Language of these words").fill("zh")
    expect(form.get_by_role("table", name="First rows")).to_contain_text("家")
    screenshot(app, "transfer-mapping")
    form.get_by_role("button", name="Import").click()
    expect(dialog(app)).to_be_hidden()
    expect(toast(app)).to_contain_text("Added 1 folder and 2 words")
    tree_link(app, "Goethe B1").click()
    expect(word_item(app, "家").get_by_role("listitem")).to_have_text(
        ["(N) Familie; Zuhause", "(Met) für Firmen, Schulen"]
    )
    expect(word_item(app, "家")).not_to_contain_text("Eine Firma.")


def test_an_anki_review_history_comes_along_before_anything_was_studied(
    app: Page, tmp_path: Path
) -> None:
    # py-fsrs is loaded on first use; reading a deck's history must load it, not fail.
    package = sample_deck()
    start = 1_690_000_000_000
    reviews = [(start + n, card, 3, 4_000, 0) for n, card in enumerate(card_ids(package).values())]
    reviews.append((start + 9, reviews[0][1], 0, 0, 4))  # a manual reschedule, left out
    deck = tmp_path / "studied.apkg"
    deck.write_bytes(with_revlog(package, reviews))
    form = choose_file(open_transfer(app), deck)
    expect(form).to_contain_text("brings the study progress of 4 cards (4 reviews)")
    expect(form).to_contain_text("1 review that only rescheduled a card by hand")
    screenshot(app, "transfer-anki-history-preview")
    form.get_by_role("button", name="Import").click()
    expect(dialog(app)).to_be_hidden()
    expect(toast(app)).to_contain_text("(4 reviews)")


def test_hostile_and_unreadable_files_say_why_and_change_nothing(app: Page, tmp_path: Path) -> None:
    create_folder(app, "Mine")
    add_word(app, "keep", ["me"])
    wait_saved(app)
    box = open_transfer(app)
    cases = {
        "garbage.apkg": (b"PK\x03\x04" + bytes(range(256)) * 20, "not a readable zip archive"),
        "newer.apkg": (newer_format_package(), "Support older Anki versions"),
        "backup.json": (
            b'{"format": "lexical-backup", "version": 1, "folders": [',
            "not valid JSON",
        ),
        "image.png": (b"\x89PNG\r\n\x1a\n" + bytes(100), "cannot import this kind of file"),
        "latin.csv": ("term\nolé\n".encode("latin-1"), "not UTF-8 text"),
        "fake.sqlite": (b"SQLite format 3\x00" + bytes(4000), "damaged"),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        choose_file(box, path)
        alert = box.get_by_role("alert")
        expect(alert).to_contain_text(f"{name} cannot be imported.")
        expect(alert).to_contain_text(message)
        expect(alert).to_contain_text("Nothing was changed.")
        if name == "newer.apkg":
            screenshot(app, "transfer-refused-light")
    box.get_by_role("button", name="Close").click()
    expect(tree_link(app, "Mine")).to_have_accessible_name("Mine, 1 word")
    expect(tree(app).get_by_role("link")).to_have_count(1)
