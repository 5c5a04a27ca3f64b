"""The hands-free drill in the real page, over the scripted recogniser and `speechSynthesis`
doubles: after the one Start click, a whole session is driven by voice alone (right, wrong,
a near miss confirmed, repeat, undo, stop), a reload resumes it at the same card, the
assistant starts it from "start studying Spanish", the next session's summary tells how the
last one went, and a browser without recognition is offered the other modes."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import BrowserContext, Page, expect

from e2e.accessibility import violations
from e2e.conftest import open_app, reload, screenshot, with_speech_doubles
from e2e.lexical_ui import focus_outside_fields, spanish_folder
from e2e.test_pronounce import SYNTHESIS_DOUBLE
from e2e.test_voice_provider import NO_RECOGNITION

HERE = Path(__file__).parent


class Voice:
    """The learner: says something once the drill listens again after its speech."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.started = 0

    def say(self, text: str) -> None:
        page = self.page
        page.wait_for_function(
            f"window.__speech.listening && window.__speech.started > {self.started}"
        )
        self.started = int(page.evaluate("window.__speech.started"))
        page.evaluate("text => window.__speech.say(text)", text)

    def heard_said(self, text: str) -> None:
        """The app said `text` (a word in another language is its own utterance), as the
        screen shows."""
        expect(self.page.locator("#drill-said")).to_contain_text(text)
        last = text.rsplit(maxsplit=1)[-1]
        self.page.wait_for_function("last => window.__spoken.some(u => u.text === last)", arg=last)


def test_a_hands_free_session_by_voice_alone(voiced: Page) -> None:
    app = voiced
    app.get_by_role("button", name="Hands-free").click()
    start = app.get_by_role("button", name="Start")
    expect(start).to_be_visible()
    expect(app.locator("#drill-prompt")).to_have_text("perro")
    problems = violations(app, "drill: ready")
    screenshot(app, "drill-ready")

    start.click()
    notice = app.get_by_role("dialog")
    expect(notice).to_contain_text("while driving")
    notice.get_by_label("Keep the screen awake during sessions").check()
    notice.get_by_role("button", name="Start").click()

    voice = Voice(app)
    app.wait_for_function("window.__spoken.some(u => u.text === 'perro' && u.lang === 'es')")
    voice.say("dog")  # right
    voice.heard_said("Right.")
    expect(app.locator("#drill-heard")).to_have_text("dog")
    screenshot(app, "drill-right")
    problems += violations(app, "drill: running")
    voice.say("good")  # the grade said instead of the one suggested, and on
    expect(app.locator("#drill-prompt")).to_have_text("gato")

    voice.say("dog")  # wrong
    voice.heard_said("The answer is cat.")
    voice.say("next")
    expect(app.locator("#drill-prompt")).to_have_text("casa")

    voice.say("hose")  # a near miss
    voice.heard_said("Did you say house?")
    voice.say("yes")
    voice.heard_said("Right.")
    voice.say("next")
    expect(app.locator("#drill-prompt")).to_have_text("libro")

    voice.say("repeat")
    app.wait_for_function("window.__spoken.filter(u => u.text === 'libro').length >= 2")
    voice.say("undo")  # casa's grade taken back: casa is asked again
    voice.heard_said("Undone.")
    expect(app.locator("#drill-prompt")).to_have_text("casa")

    # A reload in the middle resumes at the same card, with one click.
    reload(app)
    resume = app.get_by_role("button", name="Resume hands-free")
    expect(resume).to_be_visible()
    expect(app.locator("#drill-prompt")).to_have_text("casa")
    resume.click()
    voice = Voice(app)
    voice.say("house")
    voice.heard_said("Right.")
    voice.say("stop")
    expect(app.get_by_role("heading", name="Session complete")).to_be_visible()
    expect(app.locator("#drill-said")).to_contain_text("You studied 3 cards")
    app.wait_for_function("window.__spoken.some(u => u.text.startsWith('You studied 3 cards'))")
    screenshot(app, "drill-summary")
    assert problems == []


def test_narrow_screens_keep_the_drill_readable(voiced: Page) -> None:
    app = voiced
    app.set_viewport_size({"width": 390, "height": 800})
    focus_outside_fields(app)
    app.keyboard.press("h")
    expect(app.get_by_role("button", name="Start")).to_be_visible()
    screenshot(app, "drill-narrow")


def test_the_assistant_starts_it_from_words(voiced: Page) -> None:
    app = voiced
    app.keyboard.press("a")
    box = app.locator("#ai-input")
    box.fill("start studying Spanish")
    box.press("Enter")
    expect(app.get_by_role("heading", name="Studying Spanish")).to_be_visible()
    expect(app.get_by_role("button", name="Start")).to_be_visible()
    expect(box).to_have_value("")


def test_the_next_session_tells_how_the_last_one_went(voiced: Page) -> None:
    app = voiced
    app.get_by_role("button", name="Hands-free").click()
    app.get_by_role("button", name="Start").click()
    app.get_by_role("dialog").get_by_role("button", name="Start").click()
    voice = Voice(app)
    voice.say("cow")  # wrong: perro is missed
    voice.heard_said("The answer is dog.")
    voice.say("stop")
    expect(app.get_by_role("heading", name="Session complete")).to_be_visible()
    expect(app.locator("#summary-last")).to_have_count(0)  # the first session of the folder
    app.get_by_role("button", name="Done").click()

    app.get_by_role("button", name="Hands-free").click()
    app.get_by_role("button", name="Start").click()
    voice = Voice(app)
    voice.say("I don't know")
    voice.say("stop")
    last = app.locator("#summary-last")
    expect(last).to_have_text("Earlier today you got 0 of 1 right and missed perro.")
    app.wait_for_function("window.__spoken.some(u => u.text.includes('Earlier today you got'))")
    last.scroll_into_view_if_needed()
    screenshot(app, "drill-last-time")


def test_without_recognition_the_drill_offers_the_other_modes(
    context: BrowserContext, base_url: str
) -> None:
    context.add_init_script(path=SYNTHESIS_DOUBLE)
    context.add_init_script(NO_RECOGNITION)
    app = open_app(context, base_url)
    spanish_folder(app)
    focus_outside_fields(app)
    app.get_by_role("button", name="Hands-free").click()
    expect(app.get_by_role("alert")).to_contain_text("has no speech recognition")
    expect(app.get_by_role("button", name="Start")).to_have_count(0)
    modes = app.get_by_role("group", name="has no speech recognition", exact=False)
    expect(modes.get_by_role("button")).to_have_text(
        ["Switch to Listening", "Switch to Speaking", "Switch to Typing"]
    )
    screenshot(app, "drill-no-recognition")
    assert violations(app, "drill: no recognition") == []
    modes.get_by_role("button", name="Switch to Typing").click()
    expect(app.get_by_role("textbox", name="Your answer")).to_be_visible()


CHROMIUM_REFUSES = (
    """window.__speechRefuses = {phrases: "phrases-not-supported", start: "network"};"""
)


def test_a_recogniser_that_refuses_everything_pauses_once_and_says_what_would_fix_it(
    context: BrowserContext, base_url: str
) -> None:
    """As Debian's Chromium without a speech service, and no provider set up: the drill tries
    without hints, then stops trying and says so, instead of restarting recognition 20 times
    a second."""
    context.add_init_script(CHROMIUM_REFUSES)
    with_speech_doubles(context)
    app = open_app(context, base_url)
    spanish_folder(app)
    focus_outside_fields(app)
    app.get_by_role("button", name="Hands-free").click()
    app.get_by_role("button", name="Start").click()
    app.get_by_role("dialog").get_by_role("button", name="Start").click()
    said = app.locator("#drill-said")
    expect(said).to_contain_text("Choose a provider for transcription in AI settings.")
    expect(said).to_contain_text("Paused. Press Resume to go on.")
    # A loop of restarts would show only over time: 3 s is some 60 of them at 20 a second.
    app.wait_for_timeout(3000)
    refused = app.evaluate("window.__speech.refused")
    # One try with hints (refused as they are set and again at start, as Chromium does), one
    # without them, and no more.
    assert refused == {"phrases-not-supported": 2, "network": 1}
    expect(app.get_by_role("alert")).to_contain_text("Your browser's speech recognition is not")
    modes = app.get_by_role("group", name="speech recognition is not working", exact=False)
    expect(modes.get_by_role("button")).to_have_count(3)
    screenshot(app, "drill-refused")
