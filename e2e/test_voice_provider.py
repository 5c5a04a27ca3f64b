"""Talking to the assistant where the browser has no speech recognition: the microphone is
recorded (MediaRecorder) and the user's provider transcribes it, on the real page.

Chromium's fake microphone plays an espeak-ng WAV; the page's SpeechRecognition is removed
before it loads, so the ladder (app/voice/ladder.py) picks the provider; the provider is the
aimock emulator on loopback, which answers `/v1/audio/transcriptions` and the chat request.
The talk button is held with the real mouse; the live level in the panel moves while the
microphone listens and is cleared once the turn is over.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.conftest import ProviderGuard, guarded_context, open_app, screenshot
from e2e.lexical_ui import configure_ai, open_assistant, tree_link
from e2e.meter import DRAWING, SPEAKING
from tests.llm.aimock import get_json, running_aimock

KEY = "test-key-provider-voice"
MODEL = "lexical-chat-1"
HEARD = "make a folder Cardiology"
NO_RECOGNITION = """
for (const name of ["SpeechRecognition", "webkitSpeechRecognition"]) {
  Object.defineProperty(window, name, { value: undefined, configurable: true });
}
"""
FIXTURES: list[dict[str, Any]] = [
    {"match": {"endpoint": "transcription"}, "response": {"transcription": {"text": HEARD}}},
    {
        "match": {"userMessage": HEARD, "hasToolResult": False},
        "response": {"toolCalls": [{"name": "CREATE_FOLDER", "arguments": {"name": "Cardiology"}}]},
    },
    {
        "match": {"userMessage": HEARD, "hasToolResult": True},
        "response": {"content": "I made the folder Cardiology."},
    },
    {"match": {"model": MODEL, "userMessage": "never asked"}, "response": {"content": "-"}},
]


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_aimock(FIXTURES, tmp_path_factory.mktemp("aimock"), KEY) as url:
        yield url


@pytest.fixture
def page(microphone_browser: Browser, base_url: str, mock: str) -> Iterator[Page]:
    guard = ProviderGuard(base_url, mock)
    context = guarded_context(microphone_browser, guard)
    context.add_init_script(NO_RECOGNITION)
    context.add_init_script(path=Path(__file__).with_name("synthesis_double.js"))
    page = open_app(context, base_url)
    open_assistant(page)
    configure_ai(page, provider="OpenAI", base_url=f"{mock}/v1", key=KEY, model=MODEL)
    yield page
    context.close()
    assert not guard.outside, f"requests left the machine: {guard.outside}"
    assert not guard.errors, f"uncaught errors on the page: {guard.errors}"


def test_the_provider_transcribes_a_held_turn_and_the_level_moves_meanwhile(
    page: Page, mock: str
) -> None:
    panel = page.locator("#assistant")
    expect(panel.get_by_text("sent to OpenAI with your key to be transcribed")).to_have_count(0)
    page.get_by_role("button", name="Hold to talk").hover()
    page.mouse.down()
    expect(panel.get_by_text("Your voice is recorded and sent to OpenAI")).to_be_visible()
    page.wait_for_function(SPEAKING, arg=None)  # the live level moves with the voice
    shown = json.dumps(page.evaluate(DRAWING)["bars"])
    page.wait_for_function(SPEAKING, arg=shown)
    screenshot(page, "voice-provider-listening")
    page.mouse.up()
    expect(tree_link(page, "Cardiology")).to_be_visible()
    expect(page.locator(".ai-question").last).to_have_text(f"You: {HEARD}")
    page.wait_for_function("window.__spoken.length >= 1")
    page.wait_for_function("window.__lexicalVisualiser.running === 0")
    expect(page.locator("#ai-voice")).to_have_attribute("data-listening", "false")
    uploads = [
        entry
        for entry in get_json(f"{mock}/__aimock/journal", KEY)
        if entry["path"].endswith("/audio/transcriptions")
    ]
    assert len(uploads) == 1
    usage = panel.locator(".ai-usage")
    usage.locator("summary").click()
    expect(usage.get_by_role("heading", name="Voice")).to_be_visible()

    # Talking again, then Escape: the recording is dropped, nothing more is sent.
    expect(page.locator("#toast")).to_be_hidden()
    page.get_by_role("button", name="Hold to talk").hover()
    page.mouse.down()
    page.wait_for_function(SPEAKING, arg=None)
    screenshot(page, "voice-mode")
    page.keyboard.press("Escape")
    page.mouse.up()
    expect(page.locator("#ai-voice")).to_have_attribute("data-listening", "false")
    page.wait_for_function("window.__lexicalVisualiser.running === 0")
    journal = get_json(f"{mock}/__aimock/journal", KEY)
    assert len([e for e in journal if e["path"].endswith("/audio/transcriptions")]) == 1
