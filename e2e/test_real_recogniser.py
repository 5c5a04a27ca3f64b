"""Speaking mode graded from what a real recogniser heard (issue 24): the page has no speech
recognition of its own, Chromium's fake microphone plays an espeak-ng recording, Say it is
held with the real mouse while MediaRecorder records, and the upload goes to the
OpenAI-compatible server set up in AI settings as a user would set it up: the loopback
pocketsphinx server of e2e/transcriber.py, which hears among the words the app sends as hints.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from app.ui.study_voice_view import NOTHING_HEARD
from e2e.conftest import (
    ProviderGuard,
    guarded_context,
    launch_hearing,
    open_app,
    screenshot,
    spoken_wav,
)
from e2e.lexical_ui import (
    COMPATIBLE,
    configure_ai,
    dialog,
    focus_outside_fields,
    open_assistant,
    set_folder_language,
    spanish_folder,
)
from e2e.test_study_voice import switch_to, verdict
from e2e.test_study_voice_provider import HEARD_ONCE, RECORDERS
from e2e.test_voice_provider import NO_RECOGNITION
from e2e.transcriber import MODEL, Transcriber
from e2e.transcriber import transcriber as transcriber  # noqa: PLC0414 (its fixture)

ANSWER = "dog"  # what the microphone says: the answer to the first card, perro
LEAD_S, TAIL_S = 0.3, 1.0  # silence around the word in the recording played


@pytest.fixture(scope="module")
def wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The answer said once, with silence around it."""
    folder = tmp_path_factory.mktemp("answer")
    said, played = spoken_wav(folder, ANSWER), folder / "played.wav"
    subprocess.run(["sox", said, played, "pad", str(LEAD_S), str(TAIL_S)], check=True)
    return played


@pytest.fixture(scope="module")
def hearing(playwright: Playwright, wav: Path) -> Iterator[Browser]:
    # `%noloop`: each time the page opens the microphone the word plays once, then silence, so
    # a recording holds the word once (a loop would give "dog dog" or half a word).
    browser = launch_hearing(playwright, Path(f"{wav}%noloop"))
    yield browser
    browser.close()


def set_speech_to_text(page: Page, model: str) -> None:
    """Name the server's speech-to-text model under Voice in AI settings."""
    page.get_by_role("button", name="AI settings").first.click()
    box = dialog(page)
    box.get_by_label("Speech to text").fill(model)
    box.get_by_role("button", name="Save").click()
    expect(box).to_be_hidden()


def use_transcriber(page: Page, transcriber: Transcriber, *, gemini: bool = False) -> None:
    """Set the transcriber up as the provider in AI settings, as a user would: an
    OpenAI-compatible server (or, `gemini`, Gemini's API at its address), with the server's key
    if it has one, its model for chat and for speech to text."""
    open_assistant(page)
    if gemini:
        url = f"{transcriber.url}/v1beta"
        configure_ai(page, provider="Gemini", base_url=url, key=transcriber.key, model=MODEL)
    else:
        url = f"{transcriber.url}/v1"
        configure_ai(page, provider=COMPATIBLE, base_url=url, key=transcriber.key, model=MODEL)
    set_speech_to_text(page, MODEL)
    page.get_by_role("button", name="Close assistant").click()


@contextmanager
def speaking(browser: Browser, base_url: str, transcriber: Transcriber) -> Iterator[Page]:
    """The app in `browser`, without speech recognition, its provider the transcriber set up
    in AI settings, studying the Spanish folder in Speaking mode at its first card, perro."""
    guard = ProviderGuard(base_url, transcriber.url)
    context = guarded_context(browser, guard)
    try:
        context.add_init_script(NO_RECOGNITION)
        context.add_init_script(RECORDERS)
        page = open_app(context, base_url)
        use_transcriber(page, transcriber)
        spanish_folder(page)
        set_folder_language(page, "es")
        focus_outside_fields(page)
        page.keyboard.press("s")
        switch_to(page, "Speaking")
        expect(page.locator("#study-prompt")).to_have_text("perro")
        yield page
    finally:
        context.close()
    assert not guard.outside, f"requests left the machine: {guard.outside}"
    assert not guard.errors, f"uncaught errors on the page: {guard.errors}"


@pytest.fixture
def page(hearing: Browser, base_url: str, transcriber: Transcriber) -> Iterator[Page]:
    with speaking(hearing, base_url, transcriber) as page:
        yield page


def played_ms(wav: Path) -> float:
    return (wav.stat().st_size - 44) / (48_000 * 2) * 1000  # 16-bit mono samples


def say_it(page: Page, ms: float) -> None:
    """Hold Say it with the mouse until it has recorded for `ms`, then let go."""
    page.get_by_role("button", name="Say it").hover()
    page.mouse.down()
    page.wait_for_function(HEARD_ONCE, arg=ms)
    page.mouse.up()


def test_speaking_is_graded_from_what_pocketsphinx_heard(
    page: Page, transcriber: Transcriber, wav: Path
) -> None:
    say_it(page, played_ms(wav))
    expect(verdict(page)).to_have_text("Correct")
    expect(page.get_by_text(f"You said: “{ANSWER}”")).to_be_visible()
    screenshot(page, "real-recogniser-speaking")

    (upload,) = transcriber.requests
    assert (upload.status, upload.text, upload.model) == (200, ANSWER, MODEL)
    assert upload.mime == "audio/webm"
    assert upload.prompt is not None
    assert upload.prompt.split(", ")[0] == ANSWER  # the card's answer first
    assert ANSWER in upload.phrases
    assert upload.audio_seconds * 1000 > played_ms(wav) - 100

    # The next card: the microphone says "dog" again, now a wrong answer, heard as such.
    page.keyboard.press("3")
    expect(page.locator("#study-prompt")).to_have_text("gato")
    say_it(page, played_ms(wav))
    expect(verdict(page)).to_have_text("Not quite")
    expect(page.get_by_text(f"You said: “{ANSWER}”")).to_be_visible()
    expect(page.get_by_text("Answer: “cat”")).to_be_visible()
    screenshot(page, "real-recogniser-speaking-wrong")
    wrong = transcriber.requests[-1]
    assert wrong.prompt is not None
    assert wrong.prompt.startswith("cat, kitty, ")
    assert (wrong.number, wrong.text) == (2, ANSWER)


def test_a_rate_limited_upload_is_sent_again_and_graded(
    page: Page, transcriber: Transcriber, wav: Path
) -> None:
    transcriber.fail("rate_limit", retry_after_s=1)
    say_it(page, played_ms(wav))
    expect(verdict(page)).to_have_text("Correct")
    limited, answered = transcriber.requests
    assert (limited.status, limited.failure, answered.status, answered.text) == (
        429,
        "rate_limit",
        200,
        ANSWER,
    )
    assert limited.audio == answered.audio  # the same recording, sent again


@pytest.fixture(scope="module")
def silent(playwright: Playwright, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """A Chromium whose microphone hears only silence."""
    wav = tmp_path_factory.mktemp("silence") / "silence.wav"
    subprocess.run(
        ["sox", "-n", "-r", "48000", "-c", "1", "-b", "16", wav, "trim", "0", "1.5"], check=True
    )
    browser = launch_hearing(playwright, wav)
    yield browser
    browser.close()


def test_silence_is_heard_as_nothing_and_never_graded(
    silent: Browser, base_url: str, transcriber: Transcriber
) -> None:
    with speaking(silent, base_url, transcriber) as page:
        say_it(page, 1_000)
        listening = page.locator("#study-listening")
        expect(listening).to_have_text(NOTHING_HEARD["speaking"])
        expect(verdict(page)).to_have_count(0)
        screenshot(page, "real-recogniser-silence")
    (upload,) = transcriber.requests
    assert (upload.status, upload.text) == (200, "")
