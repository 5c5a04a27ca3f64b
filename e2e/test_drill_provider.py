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

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from e2e.conftest import ProviderGuard, guarded_context, open_app, screenshot
from e2e.lexical_ui import (
    bulk_add,
    create_folder,
    focus_outside_fields,
    spanish_folder,
)
from e2e.scripted_microphone import SCRIPT, Learner, launch, record
from e2e.test_pronounce import SYNTHESIS_DOUBLE
from e2e.test_real_recogniser import use_transcriber
from e2e.test_voice_provider import NO_RECOGNITION
from e2e.transcriber import MODEL, FailureKind, Transcriber, running_transcriber
from e2e.transcriber import transcriber as transcriber  # noqa: PLC0414 (its fixture)

WORDS = ("dog", "house", "houses", "yes", "repeat", "skip", "undo", "stop")


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return record(WORDS, tmp_path_factory.mktemp("words"))


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = launch(playwright)
    yield launched
    launched.close()


def start_drill(page: Page, recordings: dict[str, str], *, opened: bool = False) -> Learner:
    """Open the hands-free drill (unless `opened`) and start it: the learner who speaks to it."""
    if not opened:
        page.get_by_role("button", name="Hands-free").click()
    page.get_by_role("button", name="Start").click()
    page.get_by_role("dialog").get_by_role("button", name="Start").click()
    return Learner(page, recordings)


@contextmanager
def drilling(
    browser: Browser,
    base_url: str,
    transcriber: Transcriber,
    *scripts: str | Path,
    gemini: bool = False,
) -> Iterator[Page]:
    """The app with the scripted microphone and `scripts` (init scripts: paths or sources),
    the transcriber as its provider set up in AI settings (through Gemini's API, `gemini`),
    and the Spanish folder open."""
    guard = ProviderGuard(base_url, transcriber.url)
    context = guarded_context(browser, guard)
    context.add_init_script(path=SCRIPT)
    for script in scripts:
        if isinstance(script, Path):
            context.add_init_script(path=script)
        else:
            context.add_init_script(script)
    try:
        page = open_app(context, base_url)
        use_transcriber(page, transcriber, gemini=gemini)
        spanish_folder(page)
        focus_outside_fields(page)
        yield page
    finally:
        context.close()
    assert not guard.outside, f"requests left the machine: {guard.outside}"
    assert not guard.errors, f"uncaught errors on the page: {guard.errors}"


@pytest.fixture
def page(browser: Browser, base_url: str, transcriber: Transcriber) -> Iterator[Page]:
    with drilling(browser, base_url, transcriber, SYNTHESIS_DOUBLE) as page:
        yield page


def test_a_hands_free_session_through_the_provider_by_voice_alone(
    page: Page, transcriber: Transcriber, recordings: dict[str, str]
) -> None:
    learner = start_drill(page, recordings)
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
    # What the recogniser heard first: a mishearing explains any other difference.
    heard = [r.text for r in transcriber.requests]
    assert heard == ["dog", "house", "undo", "repeat", "skip", "house", "dog", "stop"]
    expect(page.locator("#drill-said")).to_contain_text("You studied 3 cards")
    screenshot(page, "drill-provider-summary")

    assert all(r.mime == "audio/wav" for r in transcriber.requests)  # one WAV per utterance
    assert all(r.status == 200 for r in transcriber.requests)


def test_a_near_miss_is_asked_about_and_yes_takes_it_as_hard(
    page: Page, transcriber: Transcriber, recordings: dict[str, str]
) -> None:
    """ "houses" for "house" may be the recogniser's slip: the drill asks, and a yes grades it
    Hard (right, but not heard clearly)."""
    create_folder(page, "Houses")
    bulk_add(page, "casa - house\ncasas - houses", 2)  # "houses" is among casa's hints
    focus_outside_fields(page)
    learner = start_drill(page, recordings)
    expect(page.locator("#drill-prompt")).to_have_text("casa")
    learner.say("houses")
    learner.hears("Did you say house?")
    expect(page.locator(".drill")).to_have_attribute("data-phase", "confirming")
    screenshot(page, "drill-provider-near")
    learner.say("yes")
    learner.hears("Right.")
    expect(page.locator("#drill-grade")).to_contain_text("Hard")
    assert [r.text for r in transcriber.requests] == ["houses", "yes"]


def answer_within(page: Page, seconds: int) -> None:
    """AI settings: the seconds to wait for an answer."""
    page.get_by_role("button", name="AI settings").first.click()
    box = page.get_by_role("dialog")
    box.get_by_label("Seconds to wait for an answer").fill(str(seconds))
    box.get_by_role("button", name="Save").click()
    expect(box).to_be_hidden()


# A connection cut mid-upload ("drop") is not here: Chromium sent the upload again by itself
# and the app saw an answer. A server that never answers ("hang") is given up on after the
# seconds AI settings allow (5 here), on every try.
@pytest.mark.parametrize(
    ("failure", "tries"), [("server_error", 3), ("rate_limit", 3), ("hang", 3)]
)
def test_an_answer_the_provider_lost_is_asked_for_again_and_never_graded(
    page: Page,
    transcriber: Transcriber,
    recordings: dict[str, str],
    failure: FailureKind,
    tries: int,
) -> None:
    """The provider fails every try of one utterance (a server error, or busy, three times):
    the drill says so and listens again, and grades only what it heard."""
    if failure == "hang":
        answer_within(page, 5)
    learner = start_drill(page, recordings)
    transcriber.fail(failure, times=tries)  # every try of one upload
    learner.say("dog")
    sorry = "Sorry, I could not hear that. Please say it again."
    expect(page.locator("#drill-said")).to_contain_text(sorry, timeout=60_000)
    expect(page.locator("#drill-grade")).not_to_have_text("Again")
    learner.say("dog")
    learner.hears("Right.")
    statuses = [r.status for r in transcriber.requests]
    assert statuses[-1] == 200
    assert len(statuses) >= 2
    screenshot(page, f"drill-provider-{failure}")


def test_the_microphone_ending_mid_session_pauses_with_a_sentence(
    page: Page, recordings: dict[str, str]
) -> None:
    learner = start_drill(page, recordings)
    learner.say("dog")
    learner.hears("Right.")
    expect(page.locator(".drill")).to_have_attribute("data-hearing", "true", timeout=10_000)
    page.evaluate("window.__mic.unplug()")  # the track ends, as when a headset is unplugged
    learner.hears("No microphone was found.")
    learner.hears("Paused. Press Resume to go on.")
    expect(page.get_by_role("button", name="Resume")).to_be_visible()


def test_a_browser_without_recognition_or_voices_studies_hands_free_in_text(
    browser: Browser, base_url: str, transcriber: Transcriber, recordings: dict[str, str]
) -> None:
    """As Firefox on a machine without voices: no `SpeechRecognition` at all and the real
    headless `speechSynthesis` (no voices, `speak()` fails). The provider hears, the drill
    shows what it would say, once says that speech is off, and goes on by voice alone."""
    with drilling(browser, base_url, transcriber, NO_RECOGNITION) as page:
        page.get_by_role("button", name="Hands-free").click()
        expect(page.locator("#drill-where")).to_contain_text("sent to the server at 127.0.0.1")
        learner = start_drill(page, recordings, opened=True)
        learner.say("dog")
        learner.hears("Right.")
        expect(page.get_by_text("Speech is off, so the drill goes on in text")).to_have_count(1)
        expect(page.locator("#drill-prompt")).to_have_text("gato", timeout=10_000)
        learner.say("house")
        learner.hears("The answer is cat.")
        learner.say("stop")
        expect(page.get_by_role("heading", name="Session complete")).to_be_visible(timeout=15_000)
        screenshot(page, "drill-provider-firefox-like")


def test_hands_free_through_gemini_sends_each_answer_as_wav_with_its_hints(
    browser: Browser, base_url: str, recordings: dict[str, str]
) -> None:
    """The same drill where the provider is Gemini: each utterance goes inline in a
    `generateContent` call with the card's answers named in the instruction."""
    with (
        running_transcriber(key="AIza-local-drill") as gemini,
        drilling(browser, base_url, gemini, SYNTHESIS_DOUBLE, gemini=True) as page,
    ):
        learner = start_drill(page, recordings)
        learner.say("dog")
        learner.hears("Right.")
        expect(page.locator("#drill-where")).to_contain_text("Gemini")
        expect(page.locator("#drill-prompt")).to_have_text("gato", timeout=10_000)
        learner.say("house")
        learner.hears("The answer is cat.")
        learner.say("stop")
        expect(page.get_by_role("heading", name="Session complete")).to_be_visible(timeout=15_000)
        screenshot(page, "drill-gemini-summary")
        assert [r.text for r in gemini.requests] == ["dog", "house", "stop"]
        assert all((r.mime, r.model) == ("audio/wav", MODEL) for r in gemini.requests)
        assert "dog" in (gemini.requests[0].prompt or "")
        assert "cat" in (gemini.requests[1].prompt or "")
