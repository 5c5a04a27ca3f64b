"""Listening and Speaking modes in the real page, over the scripted recogniser and
`speechSynthesis` doubles (headless Chromium has neither): the prompt is said aloud, answers
are typed or said while Say it is held, and a near miss is asked about ("Did you say …?").
Everything behind the doubles is the app as it ships."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from e2e.accessibility import violations
from e2e.conftest import screenshot
from e2e.lexical_ui import focus_outside_fields, wait_saved

HERE = Path(__file__).parent


@pytest.fixture
def studying(voiced: Page) -> Page:
    voiced.keyboard.press("s")
    expect(voiced.locator("#study-prompt")).to_have_text("perro")
    return voiced


def switch_to(page: Page, mode: str) -> None:
    page.get_by_role("group", name="Study mode").get_by_role("button", name=mode).click()
    expect(page.locator(".study-card")).to_have_attribute("data-mode", mode.lower())


def spoken(page: Page, count: int) -> list[dict[str, Any]]:
    page.wait_for_function(f"window.__spoken.length >= {count}")
    said: list[dict[str, Any]] = page.evaluate("window.__spoken")
    return said


def say_it(page: Page, text: str, *others: str) -> None:
    """Hold Say it, say `text` (the recogniser's other hearings: `others`), let go."""
    page.get_by_role("button", name="Say it").hover()
    page.mouse.down()
    page.wait_for_function("window.__speech.listening")
    page.evaluate(
        "([text, alternatives]) => window.__speech.say(text, {alternatives})", [text, others]
    )
    page.mouse.up()


def verdict(page: Page) -> Any:
    return page.locator(".study-result .verdict")


def test_listening_says_the_prompt_and_takes_a_typed_answer(studying: Page) -> None:
    app = studying
    switch_to(app, "Listening")
    said = spoken(app, 1)[-1]
    assert (said["text"], said["lang"]) == ("perro", "es")
    expect(app.locator("#study-prompt")).to_have_text("Listen, then answer.")
    screenshot(app, "study-listening")
    problems = violations(app, "study listening")

    focus_outside_fields(app)
    app.keyboard.press("r")  # hear it again
    assert spoken(app, 2)[-1]["text"] == "perro"
    app.get_by_role("button", name="Show prompt").click()
    expect(app.locator("#study-prompt")).to_have_text("perro")

    app.get_by_label("Your answer").fill("dog")
    app.keyboard.press("Enter")
    expect(verdict(app)).to_have_text("Correct")
    app.keyboard.press("4")
    wait_saved(app)
    expect(app.locator("#study-prompt")).to_have_text("Listen, then answer.")
    assert spoken(app, 3)[-1]["text"] == "gato"  # the next card is said as it appears
    assert problems == []


def test_speaking_grades_right_near_and_wrong_answers(studying: Page) -> None:
    app = studying
    switch_to(app, "Speaking")
    expect(app.locator("#study-prompt")).to_have_text("perro")
    problems = violations(app, "study speaking")

    # Right, from the recogniser's second hearing; the grade buttons stay overridable.
    say_it(app, "Doug.", "dog")
    expect(verdict(app)).to_have_text("Correct")
    expect(app.get_by_text("You said: “dog”")).to_be_visible()
    settings = app.evaluate(
        "(({lang, maxAlternatives}) => ({lang, maxAlternatives}))(window.__speech.last)"
    )
    assert settings == {"lang": "en-US", "maxAlternatives": 5}
    screenshot(app, "study-speaking-right")
    app.keyboard.press("4")
    wait_saved(app)

    # Wrong: what was heard and the answer, each whole on its own line (never interleaved).
    expect(app.locator("#study-prompt")).to_have_text("gato")
    say_it(app, "dog")
    expect(verdict(app)).to_have_text("Not quite")
    compared = app.get_by_role("group", name="Your answer compared with the right one")
    expect(compared.locator("p")).to_have_text(["You said: “dog”", "Answer: “cat”"])
    screenshot(app, "study-speaking-wrong")
    problems += violations(app, "study speaking: wrong")
    app.keyboard.press("1")
    wait_saved(app)

    # Near: asked about, and Yes counts it right with Hard suggested.
    expect(app.locator("#study-prompt")).to_have_text("casa")
    say_it(app, "houses")
    question = app.get_by_role("group", name="Did you say “house”?")
    expect(question).to_be_visible()
    expect(question).to_contain_text("I heard “houses”.")
    expect(question.get_by_role("button", name="Yes")).to_be_focused()
    screenshot(app, "study-speaking-did-you-say")
    problems += violations(app, "study speaking: did you say")
    question.get_by_role("button", name="Yes").click()
    expect(verdict(app)).to_contain_text("Counted as right")
    hard = app.get_by_role("group", name="How well did you know it?").get_by_role(
        "button", name="Hard"
    )
    expect(hard).to_have_class("grade primary")
    assert problems == []


def test_nothing_heard_and_a_blocked_microphone_are_sentences(studying: Page) -> None:
    app = studying
    switch_to(app, "Speaking")
    app.get_by_role("button", name="Say it").hover()
    app.mouse.down()
    app.wait_for_function("window.__speech.listening")
    app.mouse.up()
    status = app.locator("#study-listening")
    expect(status).to_have_text("I didn't catch anything. Say it again, or press “I don't know”.")
    app.mouse.down()
    app.wait_for_function("window.__speech.listening")
    app.evaluate("window.__speech.fail('not-allowed')")
    app.mouse.up()
    expect(status).to_contain_text("The microphone is blocked for this site.")
    expect(app.locator("#study-prompt")).to_have_text("perro")  # nothing was graded
    expect(app.get_by_role("group", name="How well did you know it?")).to_have_count(0)
