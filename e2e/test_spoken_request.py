"""A spoken request to the Architect, heard by a real recogniser (issue 24), in a page like
Debian's Chromium (its own `SpeechRecognition` is left as it is and refuses: hints, then
`audio-capture`) and in one like Firefox (no `SpeechRecognition`), so holding the talk button
records the microphone and the provider transcribes it. The provider is e2e/transcriber.py
(pocketsphinx) set up in AI settings as a user would; it passes the chat on to the aimock
emulator, which scripts the Architect's turns.

The learner speaks through the scripted microphone of e2e/scripted_microphone.js (an espeak-ng
recording played into the stream getUserMedia hands out) while the button is held.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from e2e.conftest import ProviderGuard, guarded_context, open_app, screenshot
from e2e.lexical_ui import COMPATIBLE, configure_ai, open_assistant, tree_link
from e2e.scripted_microphone import SCRIPT, launch, record
from e2e.test_pronounce import SYNTHESIS_DOUBLE
from e2e.test_real_recogniser import set_speech_to_text
from e2e.test_voice_provider import NO_RECOGNITION
from e2e.transcriber import MODEL, Transcriber, running_transcriber
from tests.llm.aimock import running_aimock

KEY = "sk-local-spoken-request"
AORTA = "The aorta is the main artery that carries blood from the heart."
REQUEST = "make a folder called cardiology"
# What else the learner might have said: the recogniser chooses among these and the commands
# (e2e/transcriber.py `sentences`), as an open-vocabulary service would hear any of them.
OTHERS = ("what does aorta mean", "delete the folder spanish")
FIXTURES: list[dict[str, Any]] = [
    {
        "match": {"userMessage": REQUEST, "hasToolResult": False},
        "response": {"toolCalls": [{"name": "CREATE_FOLDER", "arguments": {"name": "Cardiology"}}]},
    },
    {
        "match": {"userMessage": REQUEST, "hasToolResult": True},
        "response": {"content": "I made the folder Cardiology."},
    },
    {"match": {"userMessage": "what does aorta mean"}, "response": {"content": AORTA}},
]


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    # The US voice: the US model heard none of these sentences in espeak-ng's British one.
    return record((REQUEST, *OTHERS), tmp_path_factory.mktemp("request"), voice="en-us")


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = launch(playwright)
    yield launched
    launched.close()


@pytest.fixture
def provider(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Transcriber]:
    with (
        running_aimock(FIXTURES, tmp_path_factory.mktemp("aimock"), KEY) as chat,
        running_transcriber(key=KEY, upstream=chat, sentences=(REQUEST, *OTHERS)) as server,
    ):
        yield server


@pytest.fixture(params=["chromium-recogniser", "no-recogniser"])
def page(
    request: pytest.FixtureRequest, browser: Browser, base_url: str, provider: Transcriber
) -> Iterator[Page]:
    """As Debian's Chromium (its recogniser refuses), or as Firefox (it has none)."""
    guard = ProviderGuard(base_url, provider.url)
    context = guarded_context(browser, guard)
    context.add_init_script(path=SCRIPT)
    context.add_init_script(path=SYNTHESIS_DOUBLE)
    if request.param == "no-recogniser":
        context.add_init_script(NO_RECOGNITION)
    try:
        page = open_app(context, base_url)
        open_assistant(page)
        url = f"{provider.url}/v1"
        configure_ai(page, provider=COMPATIBLE, base_url=url, key=KEY, model=MODEL)
        set_speech_to_text(page, MODEL)
        yield page
    finally:
        context.close()
    assert not guard.outside, f"requests left the machine: {guard.outside}"
    assert not guard.errors, f"uncaught errors on the page: {guard.errors}"


def test_a_spoken_request_is_heard_by_the_provider_and_done_by_the_architect(
    page: Page, provider: Transcriber, recordings: dict[str, str]
) -> None:
    open_assistant(page)
    page.get_by_role("button", name="Hold to talk").hover()
    page.mouse.down()
    # Chromium's recogniser refused (or there is none); the provider's recorder records, so
    # the bar says it listens.
    expect(page.locator("#ai-voice")).to_have_attribute("data-hearing", "true")
    expect(page.locator(".ai-voice-status")).to_have_text("Listening… Release to send.")
    page.evaluate("b64 => window.__mic.say(b64)", recordings[REQUEST])
    page.mouse.up()

    expect(tree_link(page, "Cardiology")).to_be_visible(timeout=20_000)
    expect(page.locator(".ai-question").last).to_have_text(f"You: {REQUEST}")
    expect(page.locator("#assistant")).to_contain_text("I made the folder Cardiology.")
    page.wait_for_function("window.__spoken.some(u => u.text.includes('Cardiology'))")
    screenshot(page, "voice-spoken-request")
    heard = [(r.status, r.text) for r in provider.requests]
    assert heard == [(200, REQUEST)]  # one recording, heard as said
    assert provider.requests[0].mime.startswith("audio/")


def test_a_hands_free_conversation_through_the_provider_listens_again_after_answering(
    page: Page, provider: Transcriber, recordings: dict[str, str]
) -> None:
    """Hands-free in the assistant where only the provider hears: each utterance is sent,
    a short silence sends the turn, and the answer is spoken with the microphone's sound
    going nowhere (it would be sent as the next turn); then it listens again."""
    panel = open_assistant(page)
    bar = page.locator("#ai-voice")
    page.get_by_role("button", name="Hands-free").click()
    # The detector's first frames came: what is said from now on is heard from its start.
    expect(bar).to_have_attribute("data-hearing", "true", timeout=20_000)
    page.evaluate("b64 => window.__mic.say(b64)", recordings[REQUEST])
    expect(tree_link(page, "Cardiology")).to_be_visible(timeout=20_000)
    page.wait_for_function("window.__spoken.some(u => u.text.includes('Cardiology'))")
    # Listening again once the answer is said, with a detector of its own: the microphone's
    # sound went nowhere while the answer was said.
    expect(bar).to_have_attribute("data-hearing", "true", timeout=20_000)
    page.evaluate("b64 => window.__mic.say(b64)", recordings["what does aorta mean"])
    expect(panel).to_contain_text(AORTA, timeout=20_000)
    screenshot(page, "voice-conversation-provider")
    page.keyboard.press("Escape")
    expect(page.locator("#ai-voice")).to_have_attribute("data-listening", "false")
    assert [r.text for r in provider.requests] == [REQUEST, "what does aorta mean"]
