"""Pronounce and the Voice dialog in the real page, over a scripted `speechSynthesis`.

Headless Chromium has no voices and its speak() fails, so the page gets a double before it
loads: it lists its voices late (as Chrome does, with `voiceschanged`), records every
utterance (text, lang, voice, rate, pitch) and fires start then end. Everything behind it is
the app as it ships.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from e2e.accessibility import violations
from e2e.conftest import open_app, screenshot
from e2e.lexical_ui import add_word, create_folder, dialog, set_folder_language, toast, word_item

SYNTHESIS_DOUBLE = Path(__file__).with_name("synthesis_double.js")


@pytest.fixture
def speaking(context: BrowserContext, base_url: str) -> Page:
    context.add_init_script(path=SYNTHESIS_DOUBLE)
    return open_app(context, base_url)


def spoken(page: Page, count: int) -> list[dict[str, Any]]:
    """The utterances so far, once there are `count` of them."""
    page.wait_for_function(f"window.__spoken.length >= {count}")
    said: list[dict[str, Any]] = page.evaluate("window.__spoken")
    assert len(said) == count, said
    return said


def test_words_are_pronounced_in_their_language(speaking: Page) -> None:
    app = speaking
    create_folder(app, "Spanish")
    add_word(app, "perro", ["dog"], lang="es")
    add_word(app, "ありがとう", ["thank you"], lang="ja")
    app.get_by_role("button", name="Pronounce perro").click()
    [said] = spoken(app, 1)
    assert (said["text"], said["lang"], said["voice"]) == ("perro", "es", "Spanish (Spain)")
    screenshot(app, "pronounce-word-row")

    # No Japanese voice: a sentence says so and what to do, never another language's voice.
    app.get_by_role("button", name="Pronounce ありがとう").click()
    expect(toast(app)).to_contain_text("Your browser has no Japanese voice.")
    expect(toast(app)).to_contain_text("let your AI provider speak (AI settings)")

    # P says the word whose row has the focus.
    word_item(app, "perro").get_by_role("button", name="Edit perro").focus()
    app.keyboard.press("p")
    assert spoken(app, 2)[1]["text"] == "perro"
    assert violations(app, "word rows with Pronounce") == []


def test_a_word_takes_its_folders_language(speaking: Page) -> None:
    app = speaking
    create_folder(app, "German")
    set_folder_language(app, "de")
    add_word(app, "Hund", ["dog"])
    app.get_by_role("button", name="Pronounce Hund").click()
    [said] = spoken(app, 1)
    assert (said["text"], said["lang"], said["voice"]) == ("Hund", "de", "German")


def test_the_voice_dialog_sets_the_voice_and_speed_used(speaking: Page) -> None:
    app = speaking
    create_folder(app, "Spanish")
    add_word(app, "gato", ["cat"], lang="es")
    app.get_by_role("button", name="Voice", exact=True).click()
    box = dialog(app)
    expect(box.get_by_role("heading", name="Voice")).to_be_visible()
    # A bad tag is explained in the form and nothing is saved.
    box.get_by_label("Speech language").fill("xx-not a tag")
    box.get_by_role("button", name="Save").click()
    expect(box.get_by_role("alert")).to_have_text(
        "Speech language must be a language tag such as en, es-MX or zh-Hant-TW."
    )
    box.get_by_label("Speech language").fill("es-MX")
    expect(box.get_by_role("alert")).to_be_hidden()  # the sentence was about the old text
    voice = box.get_by_label("Voice", exact=True)
    expect(voice.locator("option")).to_have_text(
        ["Automatic", "Spanish (Latin America)", "Spanish (Spain)"]
    )
    voice.select_option(label="Spanish (Latin America)")
    box.get_by_label("Speed").fill("1.5")
    expect(box.get_by_text("1.5×")).to_be_visible()
    expect(box.get_by_label("On this device only")).not_to_be_checked()
    screenshot(app, "voice-dialog")
    assert violations(app, "Voice dialog") == []

    box.get_by_role("button", name="Try it").click()
    [tried] = spoken(app, 1)
    assert tried["voice"] == "Spanish (Latin America)"
    assert tried["rate"] == 1.5
    assert tried["text"].startswith("¡Hola!")

    box.get_by_role("button", name="Save").click()
    expect(box).to_be_hidden()
    expect(toast(app)).to_have_text("Voice settings saved.")

    app.get_by_role("button", name="Pronounce gato").click()
    said = spoken(app, 2)[1]
    assert (said["text"], said["voice"], said["rate"]) == ("gato", "Spanish (Latin America)", 1.5)
