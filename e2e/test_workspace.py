"""Folders, subfolders and words through the UI: create, edit, move, delete, undo, validation."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from e2e.conftest import screenshot
from e2e.lexical_ui import (
    add_form,
    add_word,
    create_folder,
    dialog,
    focus_outside_fields,
    heading,
    toast,
    tree,
    tree_link,
    wait_saved,
    word_item,
    words_heading,
)


def toolbar_undo(page: Page):
    return page.get_by_role("banner").get_by_role("button", name=re.compile(r"^Undo"))


def breadcrumbs(page: Page):
    return page.get_by_role("navigation", name="Breadcrumbs")


def test_folder_tree_words_edit_delete_and_undo(app: Page) -> None:
    create_folder(app, "Biology", emoji="🧬", colour="Green")
    expect(tree_link(app, "🧬 Biology")).to_be_visible()
    expect(tree_link(app, "🧬 Biology")).to_have_attribute("aria-current", "page")

    # A subfolder from the folder page; the dialog says where it goes.
    app.get_by_role("button", name="+ New subfolder").click()
    expect(dialog(app).get_by_role("heading", name="New folder in Biology")).to_be_visible()
    dialog(app).get_by_label("Name").fill("Cells")
    dialog(app).get_by_role("button", name="Create folder").click()
    expect(heading(app, "Cells")).to_be_visible()

    # Breadcrumbs show Home › 🧬 Biology › Cells, the last one being the current page.
    crumbs = breadcrumbs(app).get_by_role("link")
    expect(crumbs).to_have_text(["Home", "🧬 Biology", "Cells"])
    expect(crumbs.last).to_have_attribute("aria-current", "page")
    # The tree shows Cells nested and expanded under Biology.
    expect(tree(app).get_by_role("button", name="Collapse Biology")).to_have_attribute(
        "aria-expanded", "true"
    )
    expect(tree_link(app, "Cells")).to_have_attribute("aria-current", "page")

    add_word(app, "mitochondrion", ["powerhouse of the cell", "organelle with its own DNA"])
    add_word(app, "célula", ["cell"], lang="es-mx")
    add_word(app, "ribosome", ["makes proteins"])
    expect(words_heading(app, 3)).to_be_visible()
    expect(add_form(app).get_by_label("Term")).to_have_value("")  # the form comes back empty
    expect(app.get_by_text("0 subfolders · 3 words · 0 notes")).to_be_visible()

    mito = word_item(app, "mitochondrion")
    expect(mito.get_by_role("listitem")).to_have_text(
        ["powerhouse of the cell", "organelle with its own DNA"]
    )
    celula = word_item(app, "célula")
    # The language tag is normalised and shown, and the term is marked up in that language.
    expect(celula).to_contain_text("es-MX")
    expect(celula.get_by_text("célula", exact=True)).to_have_attribute("lang", "es-MX")
    # The sidebar count follows: Biology counts the words of its subfolders.
    expect(tree_link(app, "🧬 Biology")).to_have_accessible_name("🧬 Biology, 3 words")

    # Inline edit: Edit -> change -> Save word. A word half-typed into the add form meanwhile
    # stays there.
    add_form(app).get_by_label("Term").fill("nucle")
    app.get_by_role("button", name="Edit mitochondrion").click()
    form = app.get_by_role("form", name="Edit mitochondrion")
    expect(form.get_by_label("Term")).to_be_focused()
    expect(form.get_by_label("Term")).to_have_value("mitochondrion")
    form.get_by_label("Meanings (one per line)").fill("powerhouse of the cell\nsite of respiration")
    form.get_by_role("button", name="Save word").click()
    expect(form).to_be_hidden()
    expect(mito.get_by_role("listitem")).to_have_text(
        ["powerhouse of the cell", "site of respiration"]
    )
    expect(add_form(app).get_by_label("Term")).to_have_value("nucle")

    # Delete, then Undo with the toolbar button.
    app.get_by_role("button", name="Delete ribosome").click()
    expect(word_item(app, "ribosome")).to_have_count(0)
    expect(words_heading(app, 2)).to_be_visible()
    expect(toast(app)).to_contain_text("Deleted ribosome")
    toolbar_undo(app).click()
    expect(word_item(app, "ribosome")).to_be_visible()
    expect(words_heading(app, 3)).to_be_visible()

    # Delete again, then Undo with Ctrl+Z (focus outside text fields first: the form takes focus).
    app.get_by_role("button", name="Delete ribosome").click()
    expect(word_item(app, "ribosome")).to_have_count(0)
    focus_outside_fields(app)
    app.keyboard.press("Control+z")
    expect(word_item(app, "ribosome")).to_be_visible()
    expect(toast(app)).to_contain_text("Undid")
    # And redo with Ctrl+Shift+Z.
    focus_outside_fields(app)
    app.keyboard.press("Control+Shift+z")
    expect(word_item(app, "ribosome")).to_have_count(0)
    wait_saved(app)


def test_folder_rename_move_and_delete_with_undo(app: Page) -> None:
    create_folder(app, "Biology", emoji="🧬")
    create_folder(app, "Cells", subfolder=True)
    add_word(app, "nucleus", ["holds the DNA"])
    create_folder(app, "Chemistry", colour="Blue")

    # Rename via Edit.
    app.get_by_role("button", name="Edit", exact=True).click()
    box = dialog(app)
    expect(box.get_by_role("heading", name="Edit Chemistry")).to_be_visible()
    expect(box.get_by_label("Name")).to_have_value("Chemistry")
    expect(box.get_by_label("Colour")).to_have_value("blue")
    box.get_by_label("Name").fill("Organic chemistry")
    box.get_by_label("Emoji").fill("🧪")
    box.get_by_role("button", name="Save").click()
    expect(box).to_be_hidden()
    expect(heading(app, "🧪 Organic chemistry")).to_be_visible()
    expect(tree_link(app, "🧪 Organic chemistry")).to_be_visible()
    expect(tree(app).get_by_role("link", name=re.compile(r"^Chemistry"))).to_have_count(0)

    # Move Cells into Organic chemistry with the "Move to…" dialog.
    tree_link(app, "Cells").click()
    expect(heading(app, "Cells")).to_be_visible()
    app.get_by_role("button", name="Move to…").click()
    box = dialog(app)
    expect(box.get_by_role("heading", name="Move Cells to…")).to_be_visible()
    target = box.get_by_label("Destination")
    # A folder cannot go inside itself: Cells is not offered.
    expect(target.get_by_role("option")).to_have_text(
        ["(Top level)", "🧬 Biology", "🧪 Organic chemistry"]
    )
    target.select_option(label="🧪 Organic chemistry")
    box.get_by_role("button", name="Move here").click()
    expect(box).to_be_hidden()
    expect(toast(app)).to_contain_text("Moved Cells to Organic chemistry")
    expect(breadcrumbs(app).get_by_role("link")).to_have_text(
        ["Home", "🧪 Organic chemistry", "Cells"]
    )
    expect(tree_link(app, "🧬 Biology")).to_have_accessible_name("🧬 Biology, 0 words")
    expect(tree_link(app, "🧪 Organic chemistry")).to_have_accessible_name(
        "🧪 Organic chemistry, 1 word"
    )

    # Delete a non-empty folder: the dialog lists what goes; Cancel keeps everything.
    tree_link(app, "🧪 Organic chemistry").click()
    expect(heading(app, "🧪 Organic chemistry")).to_be_visible()
    app.get_by_role("button", name="Delete", exact=True).click()
    box = dialog(app)
    expect(box.get_by_role("heading", name="Delete 🧪 Organic chemistry?")).to_be_visible()
    expect(box.get_by_role("listitem")).to_have_text(["1 subfolder", "1 word"])
    expect(box.get_by_role("button", name="Delete folder and contents")).to_be_focused()
    box.get_by_role("button", name="Cancel").click()
    expect(box).to_be_hidden()
    expect(heading(app, "🧪 Organic chemistry")).to_be_visible()
    expect(tree_link(app, "🧪 Organic chemistry")).to_be_visible()

    # Confirm deletes it and everything inside; we land on the parent (home).
    app.get_by_role("button", name="Delete", exact=True).click()
    dialog(app).get_by_role("button", name="Delete folder and contents").click()
    expect(dialog(app)).to_be_hidden()
    expect(heading(app, "Your collection")).to_be_visible()
    expect(tree_link(app, "🧪 Organic chemistry")).to_have_count(0)
    expect(tree_link(app, "Cells")).to_have_count(0)
    expect(app.get_by_text("1 folder · 0 words")).to_be_visible()

    # Undo restores the folder, its subfolder and the word.
    toolbar_undo(app).click()
    expect(tree_link(app, "🧪 Organic chemistry")).to_have_accessible_name(
        "🧪 Organic chemistry, 1 word"
    )
    tree_link(app, "🧪 Organic chemistry").click()
    # The tree counts the subfolder's word; the folder says both, so the two agree.
    expect(app.get_by_text("1 subfolder · 0 words (1 with subfolders) · 0 notes")).to_be_visible()
    app.get_by_role("main").get_by_role("link", name="Cells").click()
    expect(word_item(app, "nucleus")).to_be_visible()
    wait_saved(app)


def test_bad_input_shows_a_message_and_writes_nothing(app: Page) -> None:
    create_folder(app, "Spanish", emoji="🇪🇸")
    wait_saved(app)
    undo = toolbar_undo(app)
    expect(undo).to_have_accessible_name('Undo Create folder "Spanish"')
    form = add_form(app)
    alert = form.get_by_role("alert")
    expect(alert).to_be_hidden()

    # A truly empty term is stopped by the browser's own required-field check.
    form.get_by_role("button", name="Add word").click()
    assert form.get_by_label("Term").evaluate("el => el.validity.valueMissing")

    # A blank (spaces only) term reaches the app, which explains the problem in the form.
    form.get_by_label("Term").fill("   ")
    form.get_by_label("Meanings (one per line)").fill("something")
    form.get_by_role("button", name="Add word").click()
    expect(alert).to_be_visible()
    expect(alert).to_have_text(re.compile(r"Term must not be empty"))

    # A malformed language tag.
    form.get_by_label("Term").fill("hola")
    expect(form.get_by_label("Language")).to_be_hidden()  # folded away until asked for
    form.get_by_text("Notes, language and colour").click()
    form.get_by_label("Language").fill("not a tag!")
    form.get_by_role("button", name="Add word").click()
    expect(alert).to_have_text(re.compile(r"must be a language tag such as en, es-MX"))

    # A term pasted far too long is refused with its length, never cut short and saved.
    form.get_by_label("Term").fill("x" * 1_000_000)
    form.get_by_role("button", name="Add word").click()
    expect(alert).to_have_text(re.compile(r"at most 200 characters \(it has 1,000,000\)"))
    form.get_by_label("Term").fill("hola")

    # Nothing was written: no words, the undo history still ends at the folder, no toast of an add.
    expect(words_heading(app, 0)).to_be_visible()
    expect(app.get_by_text("No words yet.")).to_be_visible()
    expect(undo).to_have_accessible_name('Undo Create folder "Spanish"')
    # What the user typed is kept, so they can fix it.
    expect(form.get_by_label("Term")).to_have_value("hola")

    # Fixing the tag lets it through, and the message goes away.
    form.get_by_label("Language").fill("es")
    form.get_by_role("button", name="Add word").click()
    expect(word_item(app, "hola")).to_be_visible()
    expect(add_form(app).get_by_role("alert")).to_be_hidden()

    # A folder with an empty (blank) name is refused inside the dialog too.
    tree(app).get_by_role("button", name="+ New folder").click()
    box = dialog(app)
    box.get_by_label("Name").fill("  ")
    box.get_by_role("button", name="Create folder").click()
    expect(box.get_by_role("alert")).to_have_text(re.compile(r"Name must not be empty"))
    box.get_by_label("Emoji").fill("abc")
    box.get_by_label("Name").fill("Letters")
    box.get_by_role("button", name="Create folder").click()
    expect(box.get_by_role("alert")).to_have_text(re.compile(r"Emoji must be an emoji"))
    # Cancel would lose what was typed, so it asks first.
    box.get_by_role("button", name="Cancel").click()
    box.get_by_role("group", name="Discard what you typed?").get_by_role(
        "button", name="Discard"
    ).click()
    expect(box).to_be_hidden()
    expect(tree(app).get_by_role("link")).to_have_count(1)


def test_closing_bulk_paste_asks_before_discarding_the_pasted_text(app: Page) -> None:
    create_folder(app, "Spanish")
    app.get_by_role("button", name="Bulk paste…").click()
    box = dialog(app)
    text = box.get_by_label("Lines to add")
    text.fill("perro - dog\ngato - cat")
    question = box.get_by_role("group", name="Discard the pasted text?")

    # Esc asks instead of closing; keeping the text leaves everything as it was.
    app.keyboard.press("Escape")
    expect(question).to_be_visible()
    expect(box).to_be_visible()
    question.get_by_role("button", name="Keep editing").click()
    expect(question).to_be_hidden()
    expect(text).to_have_value("perro - dog\ngato - cat")
    expect(text).to_be_focused()

    # Cancel asks too; Discard closes the dialog and adds nothing.
    box.get_by_role("button", name="Cancel").click()
    question.get_by_role("button", name="Discard").click()
    expect(box).to_be_hidden()
    expect(app.get_by_text("No words yet.")).to_be_visible()


def test_typing_on_after_enter_lands_in_the_next_word(app: Page) -> None:
    """Issue 25: keys typed right after Enter went into the submitted form, and were wiped
    when it came back empty ("quick05" saved as "uick05", a whole word lost). Typed as a
    fast typist does (40 ms a key) on a CPU slowed four times."""
    create_folder(app, "Fast")
    cdp = app.context.new_cdp_session(app)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    add_form(app).get_by_label("Term").focus()
    typed = [f"quick{n:02}" for n in range(20)]
    for term in typed:
        app.keyboard.type(term, delay=40)
        app.keyboard.press("Enter")
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    expect(words_heading(app, 20)).to_be_visible(timeout=30_000)
    for term in typed:
        expect(word_item(app, term)).to_have_count(1)
    expect(add_form(app).get_by_label("Term")).to_have_value("")
    expect(add_form(app).get_by_label("Term")).to_be_focused()


def test_a_word_refused_after_enter_comes_back_into_the_form(app: Page) -> None:
    create_folder(app, "Refused")
    form = add_form(app)
    form.get_by_label("Term").fill("ok")
    form.get_by_label("Meanings").fill("x" * 2_001)
    form.get_by_label("Term").press("Enter")
    expect(form).to_contain_text("must each be at most 2,000 characters")
    expect(form.get_by_label("Term")).to_have_value("ok")
    expect(form.get_by_label("Meanings")).to_have_value("x" * 2_001)


def test_a_pasted_line_of_a_megabyte_is_previewed_with_its_problem(app: Page) -> None:
    """Issue 25: one 1 MB line pasted into Bulk paste froze the page for minutes."""
    create_folder(app, "Big")
    focus_outside_fields(app)
    app.keyboard.press("b")
    box = dialog(app)
    box.get_by_label("Lines to add").focus()
    app.keyboard.insert_text("huge - " + "x" * 1_000_000)  # as a paste arrives
    expect(box.get_by_text("0 to add · 0 duplicates · 1 with problems")).to_be_visible()
    expect(box.get_by_role("table", name="Preview")).to_contain_text(
        "✗ The meanings must each be at most 2,000 characters (one has 1,000,000)."
    )
    app.keyboard.press("Control+a")
    app.keyboard.insert_text("small - fine")  # the page still answers at once
    expect(box.get_by_text("1 to add · 0 duplicates · 0 with problems")).to_be_visible()


def test_bulk_paste_previews_adds_only_good_lines_and_undoes_in_one_step(app: Page) -> None:
    create_folder(app, "Biology", emoji="🧬")
    add_word(app, "mitochondrion", ["powerhouse of the cell"])
    wait_saved(app)

    app.get_by_role("button", name="Bulk paste…").click()
    box = dialog(app)
    expect(box.get_by_role("heading", name="Bulk paste into Biology")).to_be_visible()
    text = box.get_by_label("Lines to add")
    expect(text).to_be_focused()
    expect(box.get_by_text("The preview appears here as you type or paste.")).to_be_visible()
    expect(box.get_by_role("button", name="Add words")).to_be_visible()
    text.fill(
        "photosynthesis - making food from light; uses chlorophyll\n"
        "osmosis\twater crossing a membrane\n"
        "\n"
        "Mitochondrion - a duplicate of an existing word\n"
        ": a meaning without a term\n"
    )
    expect(box.get_by_text("2 to add · 1 duplicate · 1 with problems")).to_be_visible()
    table = box.get_by_role("table", name="Preview")
    rows = table.get_by_role("row")
    expect(rows).to_have_count(5)  # header + 4 non-blank lines
    expect(rows.nth(1)).to_contain_text("photosynthesis")
    expect(rows.nth(1)).to_contain_text("making food from light; uses chlorophyll")
    expect(rows.nth(1)).to_contain_text("✓ add")
    expect(rows.nth(2)).to_contain_text("osmosis")
    expect(rows.nth(2)).to_contain_text("water crossing a membrane")
    expect(rows.nth(3)).to_contain_text("Already in this folder.")
    expect(rows.nth(4)).to_contain_text("✗ The term must not be empty.")
    # Line numbers refer to the pasted text (the blank line counts).
    expect(rows.nth(3).get_by_role("cell").first).to_have_text("4")

    # The submit button counts what it will add.
    box.get_by_role("button", name="Add 2 words").click()
    expect(box).to_be_hidden()
    expect(toast(app)).to_contain_text("Added 2 words, skipped 2")
    expect(words_heading(app, 3)).to_be_visible()
    expect(word_item(app, "photosynthesis").get_by_role("listitem")).to_have_text(
        ["making food from light", "uses chlorophyll"]
    )
    expect(word_item(app, "osmosis")).to_be_visible()
    expect(word_item(app, "Mitochondrion")).to_have_count(0)

    # One undo removes the whole paste, and only the paste.
    toolbar_undo(app).click()
    expect(words_heading(app, 1)).to_be_visible()
    expect(word_item(app, "photosynthesis")).to_have_count(0)
    expect(word_item(app, "osmosis")).to_have_count(0)
    expect(word_item(app, "mitochondrion")).to_be_visible()
    wait_saved(app)


def test_a_folders_language_is_taken_by_the_words_added_in_it_and_its_subfolders(
    app: Page,
) -> None:
    create_folder(app, "German")
    app.get_by_role("button", name="Edit", exact=True).click()
    box = dialog(app)
    language = box.get_by_label("Language")
    expect(language).to_have_value("")
    expect(language).to_have_accessible_description(re.compile("New words here"))
    # A bad tag is explained in the form, as for a word, and nothing is saved.
    language.fill("German")
    box.get_by_role("button", name="Save").click()
    expect(box.get_by_role("alert")).to_have_text(
        re.compile(r"Language must be a language tag such as en, es-MX")
    )
    language.fill("DE")
    screenshot(app, "folder-language-dialog")
    box.get_by_role("button", name="Save").click()
    expect(box).to_be_hidden()

    create_folder(app, "Verbs", subfolder=True)
    form = add_form(app)
    form.get_by_text("Notes, language and colour").click()
    expect(form.get_by_label("Language")).to_have_attribute("placeholder", "Folder default: de")
    screenshot(app, "folder-language-word-form")
    add_word(app, "gehen", ["to go"])
    expect(word_item(app, "gehen")).to_contain_text("de")
    expect(word_item(app, "gehen").locator("[lang=de]")).to_have_text("gehen")
    add_word(app, "go", ["gehen"], lang="en")
    expect(word_item(app, "go").locator("[lang=en]")).to_have_text("go")
