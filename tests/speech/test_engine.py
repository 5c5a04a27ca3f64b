"""What the page learns of the browser's speech engine (app.speech.engine): a failure before
anything was ever said (synthesis-failed, or no start or end in time) means it does not work
here, so later sentences go straight to the provider; once it has spoken, one glitch is not
enough, two in a row are."""

from __future__ import annotations

import pytest

from app.speech.engine import BROKEN_AFTER, GAVE_UP, Engine


def test_a_new_engine_is_trusted() -> None:
    assert not Engine().broken


@pytest.mark.parametrize("code", ["synthesis-failed", "synthesis-unavailable", GAVE_UP])
def test_an_engine_that_fails_before_saying_anything_does_not_work(code: str) -> None:
    assert Engine().after(code).broken


@pytest.mark.parametrize(
    "code",
    [
        "canceled",
        "interrupted",  # the app stopped it
        "not-allowed",
        "audio-busy",
        "audio-hardware",  # the sound output, not the engine
        "voice-unavailable",
        "language-unavailable",
        "network",  # one voice, not the engine
    ],
)
def test_other_endings_say_nothing_about_the_engine(code: str) -> None:
    assert Engine().after(code) == Engine()


def test_once_it_has_spoken_only_failures_in_a_row_break_it() -> None:
    engine = Engine().after("")
    for _ in range(BROKEN_AFTER - 1):
        engine = engine.after(GAVE_UP)
        assert not engine.broken  # a one-off (Chrome drops an utterance said right after cancel)
    assert engine.after("synthesis-failed").broken


def test_speaking_again_forgives_the_failures_before() -> None:
    engine = Engine().after("").after(GAVE_UP).after("").after(GAVE_UP)
    assert not engine.broken
    assert engine.after(GAVE_UP).broken


def test_broken_stays_broken_for_the_page() -> None:
    engine = Engine().after("synthesis-failed")
    assert engine.after("canceled").broken
    assert engine.after("synthesis-failed").broken
