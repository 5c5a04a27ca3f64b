"""Studying a folder with the keyboard only: every mode, reload mid-session, undo, summary."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page, expect

from e2e.accessibility import violations
from e2e.conftest import open_app, reload, screenshot
from e2e.lexical_ui import (
    add_word,
    create_folder,
    dialog,
    focus_outside_fields,
    set_theme,
    spanish_folder,
    tree,
    wait_saved,
)


def _prompt(app: Page) -> str:
    return app.locator("#study-prompt").inner_text()


def test_study_a_folder_by_keyboard_in_every_mode(app: Page) -> None:
    spanish_folder(app)
    expect(app.get_by_text("0 due · 6 new today")).to_be_visible()
    expect(tree(app).locator(".due-badge .new")).to_have_text("6")

    # S starts studying the open folder, flashcards first, oldest word first.
    focus_outside_fields(app)
    app.keyboard.press("s")
    expect(app.get_by_role("heading", name="Studying Spanish")).to_be_visible()
    expect(app.locator("#study-prompt")).to_have_text("perro")
    counts = app.get_by_label("Cards left")
    expect(counts).to_contain_text("New 6")
    problems = violations(app, "study question")
    focus_outside_fields(app)
    app.keyboard.press(" ")  # show the answer
    expect(app.locator(".study-answer-text")).to_have_text("dog")
    grades = app.get_by_role("group", name="How well did you know it?")
    easy = grades.get_by_role("button", name=re.compile(r"^Easy \d+ d ?, next in \d+ days$"))
    expect(easy).to_be_visible()
    good = grades.get_by_role(
        "button", name=re.compile(r"^Good 10 m ?, next in 10 minutes, suggested")
    )
    expect(good).to_be_visible()
    screenshot(app, "study-flashcard")
    problems += violations(app, "study answer")
    app.keyboard.press("4")  # Easy
    wait_saved(app)
    expect(app.locator("#study-prompt")).to_have_text("gato")
    expect(counts).to_contain_text("New 5")

    # Typing: a forgiving check with a diff, and the suggestion can be overridden.
    modes = app.get_by_role("group", name="Study mode")
    modes.get_by_role("button", name="Typing").press("Enter")  # focus it, then Enter
    answer = app.get_by_label("Your answer")
    expect(answer).to_be_focused()
    answer.fill("Kity")
    app.keyboard.press("Enter")
    expect(app.locator(".verdict")).to_have_text("Almost: a small slip")
    # Each answer whole on its own line, the slip marked: read as two words, not a mix.
    compared = app.get_by_role("group", name="Your answer compared with the right one")
    expect(compared.locator("p")).to_have_text(["You typed: “Kity”", "Answer: “kitty”"])
    expect(compared.locator(".diff-answer")).to_have_text(["t"])
    expect(compared).to_match_aria_snapshot(
        '- group "Your answer compared with the right one":\n'
        '  - paragraph: "You typed: “Kity”"\n'
        '  - paragraph: "Answer: “kitty”"'
    )
    screenshot(app, "study-typing")
    problems += violations(app, "study typing")
    app.keyboard.press("3")  # override Hard with Good
    wait_saved(app)
    expect(app.locator("#study-prompt")).to_have_text("casa")

    # Reload mid-session: the same card, the same counts.
    before = counts.inner_text()
    reload(app)
    expect(app.locator("#study-prompt")).to_have_text("casa")
    assert app.get_by_label("Cards left").inner_text() == before

    # Choice: four answers, keys pick one.
    modes.get_by_role("button", name="Choice").press("Enter")
    choices = app.get_by_role("group", name="Choose the answer")
    expect(choices.get_by_role("button")).to_have_count(4)
    right = choices.get_by_role("button", name="house")
    number = right.locator("kbd").inner_text()
    screenshot(app, "study-choice")
    problems += violations(app, "study choice")
    focus_outside_fields(app)
    app.keyboard.press(number)
    expect(app.locator(".verdict")).to_have_text("Correct")
    app.keyboard.press(" ")  # take the suggested grade (Good)
    wait_saved(app)
    expect(app.locator("#study-prompt")).to_have_text("libro")

    # Ctrl+Z takes back the last grade: casa is asked again, as it was.
    focus_outside_fields(app)
    app.keyboard.press("Control+z")
    expect(app.locator("#study-prompt")).to_have_text("casa")
    wait_saved(app)

    # Finish with flashcards, missing one.
    modes.get_by_role("button", name="Flashcards").press("Enter")
    missed = None
    while app.locator("#study-prompt").count():
        word = _prompt(app)
        focus_outside_fields(app)
        app.keyboard.press(" ")
        rating = "1" if word == "agua" and missed is None else "4"
        missed = missed or (word if rating == "1" else None)
        app.keyboard.press(rating)
        wait_saved(app)
    summary = app.get_by_role("region", name="Session complete")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("agua")
    screenshot(app, "study-summary")
    # With no AI provider yet, asking the Scholar says what is needed and opens AI settings.
    ask = summary.get_by_role("button", name="Ask the Scholar about the words I missed")
    ask.press("Enter")
    expect(app.locator("#toast")).to_contain_text("needs an AI provider")
    expect(dialog(app)).to_be_visible()
    app.keyboard.press("Escape")
    expect(dialog(app)).to_be_hidden()
    problems += violations(app, "study summary")
    set_theme(app, "dark")
    screenshot(app, "study-summary-dark")
    problems += violations(app, "study summary dark")
    summary.get_by_role("button", name="Done").press("Enter")
    expect(app.get_by_role("heading", name="🇪🇸 Spanish")).to_be_visible()
    assert problems == []


def test_study_a_search_set_options_and_a_read_only_tab(
    context: BrowserContext, base_url: str, app: Page
) -> None:
    spanish_folder(app)
    # Study options: checked, saved, and they change what is due.
    app.get_by_role("button", name="Study options…").click()
    box = dialog(app)
    box.get_by_label("Desired retention").fill("0.5")
    box.get_by_label("New words per day").fill("2")
    box.get_by_role("button", name="Save options").click()
    # The browser refuses it and says why (the app checks the same range again).
    assert not box.get_by_label("Desired retention").evaluate("field => field.checkValidity()")
    expect(box).to_be_visible()
    box.get_by_label("Desired retention").fill("0.95")
    box.get_by_label("Directions").select_option(label="Both (each direction is its own card)")
    box.get_by_role("button", name="Save options").click()
    expect(box).to_be_hidden()
    expect(app.get_by_text("0 due · 2 new today")).to_be_visible()

    # The last search option studies the words found.
    box = app.get_by_role("combobox", name="Search words, meanings and notes")
    box.fill("house")
    study = app.get_by_role("option", name=re.compile("^Study the words found"))
    expect(study).to_be_visible()
    study.click()
    expect(app.get_by_role("heading", name="Studying the words matching “house”")).to_be_visible()
    expect(app.locator("#study-prompt")).to_have_text("casa")
    wait_saved(app)

    # A second tab follows and cannot study: it says why.
    second = open_app(context, base_url)
    expect(second.get_by_text("Studying is off in this tab")).to_be_visible()
    for button in second.get_by_role("button", name="Study", exact=True).all():
        expect(button).to_be_disabled()  # aria-disabled, and the sentence says why
    focus_outside_fields(second)
    second.keyboard.press("s")  # the shortcut is refused with the same reason
    expect(second.locator("#toast")).to_contain_text("read-only")
    expect(second.locator("#study-prompt")).to_have_count(0)


def test_the_stats_page_after_studying(app: Page) -> None:
    spanish_folder(app)
    focus_outside_fields(app)
    app.keyboard.press("s")
    # Keys pressed before a card shows do nothing (the scheduler may still be loading): a CI
    # run lost all six grades that way, then ended an empty session.
    expect(app.get_by_role("heading", name="Studying Spanish")).to_be_visible()
    for rating in ("1", "3", "4", "4", "2", "4"):
        expect(app.locator("#study-prompt")).to_be_visible()
        focus_outside_fields(app)
        app.keyboard.press(" ")
        app.keyboard.press(rating)
        wait_saved(app)
    app.get_by_role("button", name="End session").click()
    expect(app.get_by_role("heading", name="Session complete")).to_be_visible()  # what was studied
    app.get_by_role("button", name="Done").click()
    expect(app.get_by_role("heading", name="🇪🇸 Spanish")).to_be_visible()

    app.get_by_role("link", name="Stats", exact=True).click()
    expect(app.get_by_role("heading", name="Stats: 🇪🇸 Spanish")).to_be_visible()
    charts = app.locator("[data-chart]")
    expect(charts.first).to_be_visible()
    # The chart library draws every chart (it loads only now), and each has a table too.
    expect(app.locator("[data-chart] canvas").first).to_be_visible()
    tables = app.get_by_text("Show as table")
    assert tables.count() == charts.count()
    tables.first.click()
    expect(app.get_by_role("table").first).to_be_visible()
    screenshot(app, "stats-light")
    problems = violations(app, "stats light")
    set_theme(app, "dark")
    # The charts redraw in the new theme's colours on the next frame.
    drawn = app.locator("[data-chart]:has(canvas)")
    expect(drawn.first).to_be_visible()
    expect(app.locator('[data-chart]:has(canvas):not([data-drawn-theme="dark"])')).to_have_count(0)
    screenshot(app, "stats-dark")
    problems += violations(app, "stats dark")
    # The whole collection is one step up the scope picker.
    app.get_by_role("navigation", name="Stats scope").get_by_role("link").first.click()
    expect(app.get_by_role("heading", name="Stats: Whole collection")).to_be_visible()
    assert problems == []


def test_a_wrong_answer_of_several_words_marks_the_words_that_differ(app: Page) -> None:
    create_folder(app, "Colours")
    add_word(app, "casa verde", ["green house"])
    focus_outside_fields(app)
    app.keyboard.press("s")
    app.get_by_role("group", name="Study mode").get_by_role("button", name="Typing").click()
    app.get_by_label("Your answer").fill("red house")
    app.keyboard.press("Enter")
    expect(app.locator(".verdict")).to_have_text("Not quite")
    compared = app.get_by_role("group", name="Your answer compared with the right one")
    expect(compared.locator("p")).to_have_text(["You typed: “red house”", "Answer: “green house”"])
    # What a screen reader meets: each answer in order, the differing words highlighted.
    expect(compared).to_match_aria_snapshot(
        '- group "Your answer compared with the right one":\n'
        "  - paragraph:\n"
        '    - text: "You typed: “"\n'
        "    - mark: red\n"
        "    - text: house”\n"
        "  - paragraph:\n"
        '    - text: "Answer: “"\n'
        "    - mark: green\n"
        "    - text: house”"
    )
    problems = []
    for theme in ("light", "dark"):
        set_theme(app, theme)
        screenshot(app, f"study-typing-wrong-{theme}")
        problems += violations(app, f"study typing wrong ({theme})")
    assert problems == []
