"""Talking to the assistant in the real page: push-to-talk, conversation mode, answers spoken
sentence by sentence, a deletion confirmed by saying "yes" and another declined by "no".

The browser's recogniser and speech synthesis are scripted doubles (e2e/recognition_double.js,
e2e/synthesis_double.js) that fire the real events in the real order; the test says what the
user "said" through `window.__speech`. Everything behind them, the listening state machine, the
assistant and the aimock provider emulator on loopback, is real. The talk button is held with
the real mouse, as browsers only let a page use audio after a real gesture.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from e2e.accessibility import violations
from e2e.conftest import Guard, ProviderGuard, open_app, screenshot, with_speech_doubles
from e2e.lexical_ui import (
    add_word,
    configure_ai,
    create_folder,
    dialog,
    open_assistant,
    set_folder_language,
    toast,
    tree_link,
)
from tests.llm.aimock import get_json, running_aimock

HERE = Path(__file__).parent
KEY = "test-key-voice"
MODEL = "lexical-chat-1"
FOLDER_ANSWER = (
    "I made the folder **Cardiology**. It is empty for now. Say what to add and I will add it."
)
AORTA = "The aorta is the main artery. It carries blood from the heart to the body."
PERRO = "In Spanish, a dog is **perro**. Try it!"


def _answer(match: dict[str, Any], response: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"match": match, "response": response, **extra}


FIXTURES = [
    _answer(
        {"userMessage": "make a folder Cardiology", "hasToolResult": False},
        {"toolCalls": [{"name": "CREATE_FOLDER", "arguments": {"name": "Cardiology"}}]},
    ),
    _answer(
        {"userMessage": "make a folder Cardiology", "hasToolResult": True},
        {"content": FOLDER_ANSWER},
        chunkSize=10,
    ),
    *(
        _answer(
            {"userMessage": f"organise the folder {name}", "hasToolResult": False},
            {"toolCalls": [{"name": "DELETE_ITEM", "arguments": {"kind": "folder", "name": name}}]},
        )
        for name in ("Old", "Keep")
    ),
    _answer(
        {"userMessage": "organise the folder", "hasToolResult": True}, {"content": "All tidy."}
    ),
    _answer({"userMessage": "what does aorta mean"}, {"content": AORTA}, chunkSize=12),
    _answer({"userMessage": "how do I say dog"}, {"content": PERRO}, chunkSize=7),
    _answer({"model": MODEL, "userMessage": "never asked"}, {"content": "-"}),
]
THANKS = "ありがとう"  # Japanese: the synthesis double has no Japanese voice


def provider_speech(wav: bytes) -> dict[str, Any]:
    """The provider's speech for the Japanese word: a real, playable WAV."""
    audio = base64.b64encode(wav).decode()
    return {"match": {"endpoint": "speech"}, "response": {"audio": audio, "format": "wav"}}


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory, speech_wav: Path) -> Iterator[str]:
    fixtures = [*FIXTURES, provider_speech(speech_wav.read_bytes())]
    with running_aimock(fixtures, tmp_path_factory.mktemp("aimock"), KEY) as url:
        yield url


@pytest.fixture
def guard(base_url: str, mock: str) -> Guard:
    return ProviderGuard(base_url, mock)


@pytest.fixture
def talking(context: BrowserContext, base_url: str, mock: str) -> Page:
    with_speech_doubles(context)
    page = open_app(context, base_url)
    open_assistant(page)
    configure_ai(page, provider="OpenAI", base_url=f"{mock}/v1", key=KEY, model=MODEL)
    return page


def talk_button(page: Page) -> Locator:
    return page.get_by_role("button", name="Hold to talk")


def status(page: Page) -> Locator:
    return page.locator("#ai-voice-live .ai-voice-status")


def listening(page: Page) -> None:
    page.wait_for_function("window.__speech.listening")


def say(page: Page, text: str) -> None:
    page.evaluate("(text) => window.__speech.say(text)", text)


def spoken(page: Page) -> str:
    said: list[dict[str, Any]] = page.evaluate("window.__spoken")
    return " ".join(utterance["text"] for utterance in said)


def hold_to_talk(page: Page) -> None:
    talk_button(page).hover()
    page.mouse.down()
    listening(page)


def test_push_to_talk_makes_a_folder_and_the_answer_is_spoken(talking: Page) -> None:
    page = talking
    hold_to_talk(page)
    expect(status(page)).to_have_text("Listening… Release to send.")
    page.evaluate("window.__speech.hear('make a fol')")
    expect(page.locator(".ai-voice-interim")).to_have_text("make a fol")
    recognition = page.evaluate(
        "(({lang, continuous, interimResults, maxAlternatives}) =>"
        " ({lang, continuous, interimResults, maxAlternatives}))(window.__speech.last)"
    )
    assert recognition == {
        "lang": "en-US",
        "continuous": True,
        "interimResults": True,
        "maxAlternatives": 5,
    }
    say(page, "make a folder Cardiology")
    expect(page.locator(".ai-voice-transcript")).to_have_text("make a folder Cardiology")
    screenshot(page, "voice-listening")
    page.mouse.up()
    expect(tree_link(page, "Cardiology")).to_be_visible()
    page.wait_for_function("window.__spoken.length >= 3")
    assert spoken(page).startswith("I made the folder Cardiology. It is empty for now.")
    said: list[dict[str, Any]] = page.evaluate("window.__spoken")
    assert {utterance["lang"] for utterance in said} == {"en-US"}
    assert len(said) >= 3  # sentence by sentence, not the answer in one piece
    expect(page.locator("#ai-voice")).to_have_attribute("data-listening", "false")
    question = page.locator(".ai-question").last
    expect(question).to_have_text(re.compile("make a folder Cardiology"))


def test_a_collection_word_in_an_answer_is_said_in_its_own_language(talking: Page) -> None:
    page = talking
    create_folder(page, "Spanish")
    set_folder_language(page, "es")
    add_word(page, "perro", ["dog"])
    hold_to_talk(page)
    say(page, "how do I say dog")
    page.mouse.up()
    page.wait_for_function("window.__spoken.some(u => u.text.includes('Try it'))")
    said: list[dict[str, Any]] = page.evaluate("window.__spoken")
    assert [(u["text"], u["lang"], u["voice"]) for u in said] == [
        ("In Spanish, a dog is ", "en-US", "English (America)"),
        ("perro.", "es", "Spanish (Spain)"),
        ("Try it!", "en-US", "English (America)"),
    ]
    screenshot(page, "voice-word-language")


def test_a_spoken_deletion_is_confirmed_by_yes_and_another_declined_by_no(talking: Page) -> None:
    page = talking
    for name in ("Old", "Keep"):
        create_folder(page, name)
    for name, reply in (("Old", "yes"), ("Keep", "no")):
        hold_to_talk(page)
        say(page, f"organise the folder {name}")
        page.mouse.up()
        box = dialog(page)
        expect(box.get_by_text(f'Delete folder "{name}" (empty)')).to_be_visible()
        page.wait_for_function("window.__spoken.some(u => u.text.includes('Say yes'))")
        listening(page)  # asked aloud, then it listens for the answer
        say(page, reply)
        expect(box).to_be_hidden()
        page.evaluate("window.__spoken = []")
    expect(tree_link(page, "Old")).to_have_count(0)
    expect(tree_link(page, "Keep")).to_be_visible()


def test_an_unclear_reply_asks_again_and_escape_never_confirms(talking: Page) -> None:
    page = talking
    create_folder(page, "Old")
    hold_to_talk(page)
    say(page, "organise the folder Old")
    page.mouse.up()
    page.wait_for_function("window.__spoken.some(u => u.text.includes('Say yes'))")
    listening(page)
    page.evaluate("window.__spoken = []")
    say(page, "maybe later")
    page.wait_for_function("window.__spoken.some(u => u.text.startsWith('Say yes'))")
    listening(page)
    page.keyboard.press("Escape")  # stops the voice; the question stays on screen
    expect(page.locator("#ai-voice")).to_have_attribute("data-listening", "false")
    box = dialog(page)
    expect(box).to_be_visible()
    box.get_by_role("button", name="Cancel").click()
    expect(tree_link(page, "Old")).to_be_visible()


def test_conversation_mode_listens_again_after_answering(talking: Page) -> None:
    page = talking
    page.get_by_role("button", name="Hands-free").click()
    expect(page.get_by_role("button", name="Hands-free")).to_have_attribute("aria-pressed", "true")
    listening(page)
    say(page, "what does aorta mean")
    expect(status(page)).to_contain_text("Sending in")  # the countdown after a silence
    page.wait_for_function("window.__spoken.length >= 2")
    page.wait_for_function("window.__speech.started >= 2 && window.__speech.listening")
    assert spoken(page).startswith("The aorta is the main artery.")
    expect(status(page)).to_contain_text("Listening")
    screenshot(page, "voice-conversation")
    assert not violations(page, "assistant panel with voice")
    page.keyboard.press("Escape")
    expect(page.locator("#ai-voice")).to_have_attribute("data-listening", "false")
    expect(page.get_by_role("button", name="Hands-free")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#assistant")).to_be_visible()  # Escape stopped the voice, not the panel


def test_a_blocked_microphone_says_how_to_allow_it(talking: Page) -> None:
    page = talking
    hold_to_talk(page)
    page.evaluate("window.__speech.fail('not-allowed')")
    page.mouse.up()
    expect(status(page)).to_contain_text("The microphone is blocked for this site")
    page.keyboard.down("Control")
    page.keyboard.down("m")
    listening(page)
    page.keyboard.up("m")
    page.keyboard.up("Control")
    expect(status(page)).to_contain_text("didn't catch anything")


def test_a_word_without_a_browser_voice_is_spoken_by_the_provider(talking: Page, mock: str) -> None:
    page = talking
    create_folder(page, "Japanese")
    add_word(page, THANKS, ["thank you"], lang="ja")
    page.get_by_role("button", name=f"Pronounce {THANKS}").click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('audio')].some((a) => a.ended)"
        " || performance.getEntriesByType('resource').some((r) => r.name.endsWith('/audio/speech'))"
    )
    speech = [
        entry
        for entry in get_json(f"{mock}/__aimock/journal", KEY)
        if entry["path"].endswith("/audio/speech")
    ]
    assert len(speech) == 1
    expect(toast(page)).not_to_contain_text("no Japanese voice")
    assert not [u for u in page.evaluate("window.__spoken") if u["text"] == THANKS]
