"""The hands-free drill by voice alone where the browser's recogniser refuses (issue 24): a
real Chromium whose own `SpeechRecognition` refuses hints and then says `audio-capture`, the
voice activity detector of static/vad.js in the page, and the loopback pocketsphinx server of
e2e/transcriber.py as the learner's OpenAI-compatible provider, set up in AI settings as a user
would. Every answer and command is an espeak-ng recording, recognised for real.

Chromium's fake capture device plays one file for the whole browser, so the learner's turns
cannot be timed with it; the microphone here is a MediaStream the test speaks into (a Web Audio
destination fed the recordings, handed out by getUserMedia). Everything after it is the real
path: the detector, one WAV per utterance, the upload, the recogniser, the drill.
"""

from __future__ import annotations

import base64
import subprocess
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from e2e.conftest import ProviderGuard, guarded_context, open_app, screenshot
from e2e.lexical_ui import (
    COMPATIBLE,
    configure_ai,
    focus_outside_fields,
    open_assistant,
    spanish_folder,
)
from e2e.test_pronounce import SYNTHESIS_DOUBLE
from e2e.test_real_recogniser import set_speech_to_text
from e2e.transcriber import MODEL, Transcriber
from e2e.transcriber import transcriber as transcriber  # noqa: PLC0414 (its fixture)
from scripts import chromium

# getUserMedia hands out a clone of one Web Audio stream, so each opening is a live track
# that the app may stop; `__mic.say(wav)` plays a recording into it and resolves when played.
SCRIPTED_MICROPHONE = """
(() => {
  const mic = { opened: 0, said: 0 };
  let context = null, destination = null;
  function ready() {
    if (context === null) {
      context = new AudioContext({ sampleRate: 48000 });
      destination = context.createMediaStreamDestination();
      // A real microphone's noise floor (about -60 dBFS), never digital silence.
      const noise = context.createBuffer(1, 48000, 48000);
      const samples = noise.getChannelData(0);
      for (let i = 0; i < samples.length; i++) samples[i] = (Math.random() * 2 - 1) * 0.002;
      const floor = context.createBufferSource();
      floor.buffer = noise;
      floor.loop = true;
      floor.connect(destination);
      floor.start();
    }
    return context.resume();
  }
  if (!navigator.mediaDevices) return;  // not a secure context (about:blank)
  navigator.mediaDevices.getUserMedia = async () => {
    await ready();
    mic.opened += 1;
    return new MediaStream(destination.stream.getAudioTracks().map((track) => track.clone()));
  };
  mic.say = async (b64) => {
    await ready();
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const buffer = await context.decodeAudioData(bytes.buffer);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(destination);
    await new Promise((done) => { source.onended = done; source.start(); });
    mic.said += 1;
  };
  // Each detector session is an AudioWorkletNode whose port is closed when it stops: the
  // live ones are counted, so the learner speaks only once the drill's detector listens
  // (loading it takes a second or two the first time).
  const Node = window.AudioWorkletNode;
  mic.detecting = 0;
  window.AudioWorkletNode = class extends Node {
    constructor(...args) {
      super(...args);
      mic.detecting += 1;
      const close = this.port.close.bind(this.port);
      this.port.close = () => { mic.detecting -= 1; close(); };
    }
  };
  window.__mic = mic;
})();
"""
WORDS = ("dog", "house", "repeat", "skip", "undo", "stop")


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each word said by espeak-ng, with a little silence before it, as base64 WAV."""
    folder = tmp_path_factory.mktemp("words")
    said: dict[str, str] = {}
    for word in WORDS:
        raw, padded = folder / f"{word}-raw.wav", folder / f"{word}.wav"
        subprocess.run(["espeak-ng", "-v", "en", "-w", str(raw), word], check=True)
        subprocess.run(["sox", str(raw), str(padded), "pad", "0.2", "0.3"], check=True)
        said[word] = base64.b64encode(padded.read_bytes()).decode()
    return said


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    # The microphone allowed, as a learner would allow it (Chromium's recogniser then says
    # audio-capture, as measured), and audio played without a click, so the scripted
    # microphone's own context runs.
    launched = playwright.chromium.launch(
        executable_path=chromium.executable(),
        args=[
            *chromium.FLAGS,
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            "--autoplay-policy=no-user-gesture-required",
        ],
    )
    yield launched
    launched.close()


class Learner:
    """Says a word once the drill listens (and its detector has had a moment to start)."""

    def __init__(self, page: Page, recordings: dict[str, str]) -> None:
        self.page, self.recordings = page, recordings

    def say(self, word: str) -> None:
        page = self.page
        expect(page.locator(".drill")).to_have_attribute("data-listening", "true")
        page.wait_for_function("window.__mic.detecting > 0")
        page.wait_for_timeout(200)  # the worklet's first frames reach the worker
        page.evaluate("b64 => window.__mic.say(b64)", self.recordings[word])

    def hears(self, text: str) -> None:
        expect(self.page.locator("#drill-said")).to_contain_text(text, timeout=15_000)


@pytest.fixture
def page(browser: Browser, base_url: str, transcriber: Transcriber) -> Iterator[Page]:
    guard = ProviderGuard(base_url, transcriber.url)
    context = guarded_context(browser, guard)
    context.add_init_script(SCRIPTED_MICROPHONE)
    context.add_init_script(path=SYNTHESIS_DOUBLE)
    page = open_app(context, base_url)
    open_assistant(page)
    configure_ai(page, provider=COMPATIBLE, base_url=f"{transcriber.url}/v1", key="", model=MODEL)
    set_speech_to_text(page, MODEL)
    page.get_by_role("button", name="Close assistant").click()
    spanish_folder(page)
    focus_outside_fields(page)
    yield page
    context.close()
    assert not guard.outside, f"requests left the machine: {guard.outside}"
    assert not guard.errors, f"uncaught errors on the page: {guard.errors}"


def test_a_hands_free_session_through_the_provider_by_voice_alone(
    page: Page, transcriber: Transcriber, recordings: dict[str, str]
) -> None:
    page.get_by_role("button", name="Hands-free").click()
    page.get_by_role("button", name="Start").click()
    page.get_by_role("dialog").get_by_role("button", name="Start").click()
    learner = Learner(page, recordings)
    expect(page.locator("#drill-prompt")).to_have_text("perro")

    learner.say("dog")  # right
    learner.hears("Right.")
    expect(page.locator("#drill-heard")).to_have_text("dog")
    where = page.locator("#drill-where")  # Chromium's recogniser refused: the provider hears
    expect(where).to_contain_text("sent to the server at 127.0.0.1")
    expect(where).to_contain_text("Only what you say is recorded")
    screenshot(page, "drill-provider-right")
    expect(page.locator("#drill-prompt")).to_have_text("gato", timeout=10_000)

    learner.say("house")  # wrong (casa's answer)
    learner.hears("The answer is cat.")
    learner.say("undo")  # while the grade may still be changed: taken back, asked again
    learner.hears("Undone.")
    expect(page.locator("#drill-prompt")).to_have_text("gato")
    learner.say("repeat")
    page.wait_for_function("window.__spoken.filter(u => u.text === 'gato').length >= 3")
    learner.say("skip")
    expect(page.locator("#drill-prompt")).to_have_text("casa")

    # Silence is prompted, never graded, and nothing is sent for it.
    sent = len(transcriber.requests)
    learner.hears("Say repeat, or I don't know.")
    assert len(transcriber.requests) == sent
    learner.say("house")
    learner.hears("Right.")

    expect(page.locator("#drill-prompt")).to_have_text("libro", timeout=10_000)
    learner.say("dog")  # wrong (perro's answer)
    learner.hears("The answer is book.")
    learner.say("stop")
    expect(page.get_by_role("heading", name="Session complete")).to_be_visible(timeout=15_000)
    expect(page.locator("#drill-said")).to_contain_text("You studied 3 cards")
    screenshot(page, "drill-provider-summary")

    heard = [r.text for r in transcriber.requests]
    assert heard == ["dog", "house", "undo", "repeat", "skip", "house", "dog", "stop"]
    assert all(r.mime == "audio/wav" for r in transcriber.requests)  # one WAV per utterance
    assert all(r.status == 200 for r in transcriber.requests)
