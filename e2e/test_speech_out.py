"""Speech out where the browser has no working voice, on the real page: the synthesis double
(e2e/synthesis_double.js) plays the browsers measured in Debian's headless Chromium, no voices
at all with `speak()` failing "synthesis-failed", or a speech-dispatcher whose `speak()` never
answers. With a provider that speaks (the aimock emulator on loopback answers
`/v1/audio/speech`), Listening mode's prompt is played from the provider's audio; without
one, the hands-free drill and the assistant's spoken answers go on in text after one notice,
and nothing waits for a speech end that never comes."""

from __future__ import annotations

import base64
import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from e2e.conftest import Guard, ProviderGuard, open_app, screenshot, spoken_wav, with_speech_doubles
from e2e.lexical_ui import (
    COMPATIBLE,
    configure_ai,
    focus_outside_fields,
    open_assistant,
    set_folder_language,
    spanish_folder,
)
from tests.llm.aimock import get_json, running_aimock

KEY = "test-key-speech-out"
MODEL = "lexical-chat-1"
ANSWER = "The aorta is the main artery. It carries blood from the heart to the body."
FIXTURES: list[dict[str, Any]] = [
    {"match": {"userMessage": "what does aorta mean"}, "response": {"content": ANSWER}},
    {"match": {"model": MODEL, "userMessage": "never asked"}, "response": {"content": "-"}},
]
# Every toast shown (the page shows one at a time, each replacing the last), every playback
# started and whether it ended, and each phase the drill's screen went through, with when.
WATCH = """
window.__toasts = [];
window.__played = [];
window.__phases = [];
new MutationObserver((records) => {
  for (const r of records) {
    if (r.target.id === "toast" && [...r.addedNodes].some((n) => n.nodeType === Node.TEXT_NODE))
      window.__toasts.push(r.target.textContent);
  }
  const drill = document.querySelector(".drill");
  const phase = drill ? drill.dataset.phase || "finished" : "";
  const last = window.__phases[window.__phases.length - 1];
  if (phase && (!last || last[0] !== phase)) window.__phases.push([phase, performance.now()]);
}).observe(document, {subtree: true, childList: true, attributes: true});
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
  const played = {ended: false};
  window.__played.push(played);
  this.addEventListener("ended", () => { played.ended = true; }, {once: true});
  return play.call(this);
};
"""


def synthesis(context: BrowserContext, **options: str) -> None:
    """The speech doubles, the synthesis one behaving as `options` say, and the watchers."""
    context.add_init_script(f"window.__synthesisOptions = {json.dumps(options)};")
    context.add_init_script(WATCH)
    with_speech_doubles(context)


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("speech-out")
    audio = base64.b64encode(spoken_wav(folder, "perro").read_bytes()).decode()
    speech = {"match": {"endpoint": "speech"}, "response": {"audio": audio, "format": "wav"}}
    with running_aimock([*FIXTURES, speech], folder, KEY) as url:
        yield url


@pytest.fixture
def guard(base_url: str, mock: str) -> Guard:
    return ProviderGuard(base_url, mock)


def speech_requests(mock: str) -> list[dict[str, Any]]:
    journal = get_json(f"{mock}/__aimock/journal", KEY)
    return [entry for entry in journal if entry["path"].endswith("/audio/speech")]


def toasts(page: Page) -> list[str]:
    shown: list[str] = page.evaluate("window.__toasts")
    return shown


def spanish_study(page: Page) -> None:
    spanish_folder(page)
    set_folder_language(page, "es")
    focus_outside_fields(page)


@pytest.mark.parametrize(
    "voices",
    [
        "empty",  # Debian's headless Chromium: speak() is never even tried
        "listed",  # voices listed, but speak() fails: tried once, then straight to the provider
    ],
)
def test_listening_plays_the_prompt_through_the_provider(
    context: BrowserContext, base_url: str, mock: str, voices: str
) -> None:
    synthesis(context, voices=voices, speak="synthesis-failed")
    page = open_app(context, base_url)
    open_assistant(page)
    configure_ai(page, provider="OpenAI", base_url=f"{mock}/v1", key=KEY, model=MODEL)
    page.get_by_role("button", name="Close assistant").click()
    spanish_study(page)
    before = len(speech_requests(mock))
    page.keyboard.press("s")
    page.get_by_role("group", name="Study mode").get_by_role("button", name="Listening").click()
    expect(page.locator("#study-prompt")).to_have_text("Listen, then answer.")
    page.wait_for_function("window.__played.some((p) => p.ended)")  # the provider's audio
    assert len(speech_requests(mock)) == before + 1
    screenshot(page, f"speech-out-listening-provider-{voices}")
    page.get_by_role("button", name="Hear again").click()
    page.wait_for_function("window.__played.filter((p) => p.ended).length >= 2")
    assert len(speech_requests(mock)) == before + 2
    tried = page.evaluate("window.__spoken.map((u) => [u.text, u.outcome])")
    assert tried == ([] if voices == "empty" else [["perro", "synthesis-failed"]])
    assert not [t for t in toasts(page) if "voice" in t or "Speech" in t]


@pytest.mark.parametrize(
    ("browser_speech", "why", "handed"),
    [
        # Voices listed, as speech-dispatcher's: speak() never answers. The first prompt waits
        # for the engine to start; it is cancelled, and nothing is handed to it after.
        ({"speak": "hang"}, "Your browser's speech does not work here", ["hung"]),
        # Voices, none for Spanish prompts nor English feedback: two reasons, one notice.
        ({"voices": "other-languages"}, "Your browser has no Spanish voice", []),
    ],
    ids=["hung engine", "no voice for the languages"],
)
def test_without_speech_or_provider_the_drill_goes_on_in_text(
    context: BrowserContext,
    base_url: str,
    browser_speech: dict[str, str],
    why: str,
    handed: list[str],
) -> None:
    synthesis(context, **browser_speech)
    page = open_app(context, base_url)
    spanish_study(page)
    page.get_by_role("button", name="Hands-free").click()
    page.evaluate("window.__toasts = []")  # from here on
    page.get_by_role("button", name="Start").click()
    page.get_by_role("dialog").get_by_role("button", name="Start").click()

    heard = 0

    def say(text: str) -> None:
        nonlocal heard
        page.wait_for_function(f"window.__speech.listening && window.__speech.started > {heard}")
        heard = int(page.evaluate("window.__speech.started"))
        page.evaluate("text => window.__speech.say(text)", text)

    say("dog")
    expect(page.locator("#drill-said")).to_have_text("Right.")
    notice = page.locator("#toast")
    expect(notice).to_contain_text("Speech is off, so the drill goes on in text.")
    expect(notice).to_contain_text(why)
    screenshot(page, f"speech-out-drill-in-text-{'hung' if handed else 'no-voice'}")
    say("next")
    expect(page.locator("#drill-prompt")).to_have_text("gato")
    say("cat")
    expect(page.locator("#drill-said")).to_have_text("Right.")
    expect(page.locator(".drill")).not_to_have_attribute("data-phase", "saying")

    assert len(toasts(page)) == 1
    assert page.evaluate("window.__spoken.map((u) => u.outcome)") == handed
    phases: list[tuple[str, float]] = page.evaluate("window.__phases")
    saying = [
        (end - start) / 1000
        for (phase, start), (_next, end) in itertools.pairwise(phases)
        if phase == "saying"
    ]
    assert saying, phases
    assert saying[0] < 5.0  # the first prompt: at most the engine's 3 s to start, then on
    assert max(saying[1:], default=0.0) < 1.0, phases  # never waited for again
    if handed:
        assert page.evaluate("window.__synthesis.cancels") >= 1  # the hung one, let go
        screenshot(page, "speech-out-drill-second-card")


def test_a_spoken_answer_without_voices_or_provider_speech_is_shown_with_one_notice(
    context: BrowserContext, base_url: str, mock: str
) -> None:
    synthesis(context, voices="empty", speak="synthesis-failed")
    page = open_app(context, base_url)
    panel = open_assistant(page)
    # An OpenAI-compatible server without a speech model: it answers, it cannot speak.
    configure_ai(page, provider=COMPATIBLE, base_url=f"{mock}/v1", key=KEY, model=MODEL)
    page.evaluate("window.__toasts = []")  # from here on
    for turn in (1, 2):
        panel.get_by_role("button", name="Hold to talk").hover()
        page.mouse.down()
        page.wait_for_function("window.__speech.listening")
        page.evaluate("window.__speech.say('what does aorta mean')")
        page.mouse.up()
        expect(panel.locator(".ai-turn").nth(turn - 1)).to_contain_text(ANSWER)
        expect(page.locator("#ai-voice")).to_have_attribute("data-listening", "false")
        if turn == 1:
            notice = page.locator("#toast")
            expect(notice).to_contain_text("Speech is off, so answers are shown, not said.")
            expect(notice).to_contain_text("Your browser has no voices.")
            screenshot(page, "speech-out-answer-in-text")
    expect(page.locator("#ai-voice")).not_to_contain_text("Speaking")
    assert len(toasts(page)) == 1
    assert page.evaluate("window.__spoken") == []
