"""A learner who speaks to the hands-free drill through a scripted microphone: espeak-ng
recordings played into the MediaStream getUserMedia hands out (e2e/scripted_microphone.js),
for e2e/test_drill_provider.py and `make bench` (bench/drill_provider.py).

Chromium's own recogniser stays untouched: with these flags it refuses (hints, then
`audio-capture`), so the app's ladder falls to the provider rung, where static/vad.js hears
each recording the learner says and the app sends it to the transcription server.
"""

from __future__ import annotations

import base64
import subprocess
from collections.abc import Iterable
from pathlib import Path

from playwright.sync_api import Browser, Page, Playwright, expect

from scripts import chromium

SCRIPT = Path(__file__).with_suffix(".js")
# The microphone allowed, as a learner would allow it (Chromium's recogniser then says
# audio-capture, as measured), and audio played without a click, so the scripted microphone's
# own context runs.
FLAGS = (
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    "--autoplay-policy=no-user-gesture-required",
)


def launch(playwright: Playwright) -> Browser:
    """Debian's Chromium with the microphone allowed, for the scripted microphone."""
    return playwright.chromium.launch(
        executable_path=chromium.executable(), args=[*chromium.FLAGS, *FLAGS]
    )


def record(words: Iterable[str], folder: Path, voice: str = "en") -> dict[str, str]:
    """Each word said by espeak-ng, with a little silence before and after it, as base64 WAV."""
    said: dict[str, str] = {}
    for word in words:
        raw, padded = folder / f"{word}-raw.wav", folder / f"{word}.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-w", str(raw), word], check=True)
        subprocess.run(["sox", str(raw), str(padded), "pad", "0.2", "0.3"], check=True)
        said[word] = base64.b64encode(padded.read_bytes()).decode()
    return said


class Learner:
    """Says a word once the drill listens anew and hears the microphone, as a learner waits
    for it to say "Listening".

    The drill stops listening whenever it speaks and listens again with a new detector session
    once it is done, so each turn waits for a session newer than the one the last word went
    into: speaking into one that is closing lost the start of "skip" (heard as "good"). The new
    session's first frames reach the detector a little after it starts, and only then does the
    drill say it hears (data-hearing): a word said sooner lost its first 80-120 ms ("skip" was
    heard as "kitty" or "good")."""

    def __init__(self, page: Page, recordings: dict[str, str]) -> None:
        self.page, self.recordings = page, recordings
        self._spoken_into = 0  # the detector session the last word was said into

    def say(self, word: str) -> None:
        page = self.page
        page.wait_for_function(f"window.__mic.started > {self._spoken_into}")
        expect(page.locator(".drill")).to_have_attribute("data-hearing", "true")
        self._spoken_into = int(page.evaluate("window.__mic.started"))
        page.evaluate("b64 => window.__mic.say(b64)", self.recordings[word])

    def hears(self, text: str) -> None:
        expect(self.page.locator("#drill-said")).to_contain_text(text, timeout=15_000)
