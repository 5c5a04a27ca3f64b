"""Speaking mode answered through the user's provider on the real page: Chromium's fake
microphone plays an espeak-ng WAV of the answer, Say it is held with the real mouse while it
records (MediaRecorder), and the aimock emulator on loopback transcribes the upload. The
provider is set up in AI settings as a user does, and the request shows in the assistant's
usage figures.

Twice: in a page whose browser has no speech recognition (as Firefox), and in a page with
Chromium's own recogniser, untouched. Measured here (Debian Chromium 156, headless, fake
microphone): setting `phrases` fires `phrases-not-supported`, `start()` without them fires
`audio-capture`, so the ladder must give way to the provider within the same press."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from e2e.conftest import (
    ProviderGuard,
    guarded_context,
    launch_hearing,
    open_app,
    screenshot,
    spoken_wav,
)
from e2e.lexical_ui import (
    configure_ai,
    focus_outside_fields,
    open_assistant,
    set_folder_language,
    spanish_folder,
)
from e2e.test_study_voice import switch_to, verdict
from e2e.test_voice_provider import NO_RECOGNITION
from tests.llm.aimock import get_json, running_aimock

KEY = "test-key-study-voice"
MODEL = "lexical-chat-1"
ANSWER = "dog"  # what the WAV says: the answer to the first card, perro
FIXTURES: list[dict[str, Any]] = [
    {"match": {"endpoint": "transcription"}, "response": {"transcription": {"text": "Dog."}}},
    {"match": {"model": MODEL, "userMessage": "never asked"}, "response": {"content": "-"}},
]
# Each recorder the page makes, and since when it records: the test holds Say it until the
# looping WAV has played through once in the recording.
RECORDERS = """
window.__recorders = [];
const Recorder = window.MediaRecorder;
window.MediaRecorder = class extends Recorder {
  constructor(...args) { super(...args); window.__recorders.push(this); }
  start(...args) { this.startedAt = performance.now(); return super.start(...args); }
};
"""
HEARD_ONCE = """(ms) => window.__recorders.some(
  (r) => r.state === "recording" && performance.now() - r.startedAt > ms)"""


@pytest.fixture(scope="module")
def wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return spoken_wav(tmp_path_factory.mktemp("answer"), ANSWER)


def uploads(mock: str) -> int:
    journal = get_json(f"{mock}/__aimock/journal", KEY)
    return sum(1 for entry in journal if entry["path"].endswith("/audio/transcriptions"))


@pytest.fixture(scope="module")
def hearing(playwright: Playwright, wav: Path) -> Iterator[Browser]:
    browser = launch_hearing(playwright, wav)
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_aimock(FIXTURES, tmp_path_factory.mktemp("aimock"), KEY) as url:
        yield url


@pytest.fixture(params=["no recogniser", "Chromium's recogniser"])
def page(
    request: pytest.FixtureRequest, hearing: Browser, base_url: str, mock: str
) -> Iterator[Page]:
    guard = ProviderGuard(base_url, mock)
    context = guarded_context(hearing, guard)
    if request.param == "no recogniser":
        context.add_init_script(NO_RECOGNITION)
    context.add_init_script(RECORDERS)
    page = open_app(context, base_url)
    open_assistant(page)
    configure_ai(page, provider="OpenAI", base_url=f"{mock}/v1", key=KEY, model=MODEL)
    page.get_by_role("button", name="Close assistant").click()
    yield page
    context.close()
    assert not guard.outside, f"requests left the machine: {guard.outside}"
    assert not guard.errors, f"uncaught errors on the page: {guard.errors}"


def test_speaking_is_answered_through_the_providers_transcription(
    page: Page, mock: str, wav: Path
) -> None:
    spanish_folder(page)
    set_folder_language(page, "es")
    focus_outside_fields(page)
    page.keyboard.press("s")
    switch_to(page, "Speaking")
    expect(page.locator("#study-prompt")).to_have_text("perro")

    before = uploads(mock)
    page.get_by_role("button", name="Say it").hover()
    page.mouse.down()
    wav_ms = (wav.stat().st_size - 44) / (48_000 * 2) * 1000  # 16-bit mono samples
    page.wait_for_function(HEARD_ONCE, arg=wav_ms)
    expect(page.locator("#study-listening")).to_have_text("Listening… Release to send.")
    screenshot(page, "study-speaking-provider-listening")
    page.mouse.up()

    expect(verdict(page)).to_have_text("Correct")
    expect(page.get_by_text("You said: “Dog.”")).to_be_visible()
    screenshot(page, "study-speaking-provider")
    page.get_by_role("button", name="Good").click()
    where = "Your voice is recorded and sent to OpenAI with your key to be transcribed."
    expect(page.locator("#study-where")).to_have_text(where)  # in both browsers, from now on
    assert uploads(mock) == before + 1  # one press, one upload, whatever the browser refused

    panel = open_assistant(page)
    usage = panel.locator(".ai-usage")
    usage.locator("summary").click()
    # The transcription is the one request made (Test key is not counted).
    requests = usage.get_by_role("row", name="Requests").get_by_role("cell")
    expect(requests).to_have_text("1")
    screenshot(page, "study-speaking-provider-usage")
