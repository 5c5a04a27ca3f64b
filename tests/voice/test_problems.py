"""Every listening failure becomes a sentence with a next step (app.voice.problems)."""

from __future__ import annotations

from typing import get_args

import pytest

from app.voice.problems import ErrorCode, problem


@pytest.mark.parametrize("code", get_args(ErrorCode))
def test_every_error_code_has_its_own_sentence(code: str) -> None:
    found = problem(code)
    assert found.code == code
    assert found.message.endswith(".")
    assert "-" not in code or code not in found.message  # for people, not a code


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("not-allowed", "site settings"),
        ("audio-capture", "microphone"),
        ("no-microphone", "Connect"),
        ("offline", "offline"),
        ("language-not-supported", "Settings"),
        ("no-speech", "try again"),
        ("unsupported", "provider"),
    ],
)
def test_the_sentence_says_what_to_do_next(code: str, words: str) -> None:
    assert words in problem(code).message


def test_every_web_speech_error_says_what_happens_next() -> None:
    then = {code: problem(code).then for code in get_args(ErrorCode)}
    assert then == {
        # Nothing wrong with the way of listening.
        "no-speech": "listen-again",
        "aborted": "listen-again",
        # The browser's recogniser cannot work here: the next rung hears.
        "audio-capture": "next-rung",
        "network": "next-rung",
        "service-not-allowed": "next-rung",
        "language-not-supported": "next-rung",
        # The hints were refused: the same recogniser without them.
        "bad-grammar": "without-hints",
        "phrases-not-supported": "without-hints",
        # Only the user can fix these.
        "not-allowed": "tell",
        "offline": "tell",
        "unsupported": "tell",
        "no-microphone": "tell",
        "microphone-busy": "tell",
        "microphone-unsupported": "tell",
        "no-detector": "tell",
        "provider": "tell",
        # The ladder moved down after the user let go: the next press listens another way.
        "tried-another-way": "listen-again",
    }


@pytest.mark.parametrize("code", get_args(ErrorCode))
def test_every_error_records_what_it_means(code: str) -> None:
    assert problem(code).means.endswith(".")


def test_audio_capture_from_the_browser_is_not_reported_as_a_missing_microphone() -> None:
    # Measured: Debian's Chromium says audio-capture while getUserMedia records fine.
    assert "No microphone" not in problem("audio-capture").message
    assert "provider" in problem("audio-capture").message


def test_a_passing_provider_failure_listens_again_with_the_providers_sentence() -> None:
    said = "Gemini is busy. Wait a moment."
    found = problem("provider", said, passing=True)
    assert (found.message, found.then, found.recoverable) == (said, "listen-again", True)
    assert not problem("provider", said).recoverable


def test_an_unknown_code_still_gets_a_next_step() -> None:
    assert problem("new-thing").message == "Listening failed (new-thing). Try again."


def test_a_provider_failure_says_the_providers_own_sentence() -> None:
    said = "Gemini did not accept the API key. Paste the key again in Settings and press Test key."
    assert problem("provider", said).message == said
    assert problem("provider", f"  {said}\n").message == said


def test_a_provider_failure_without_a_sentence_still_has_a_next_step() -> None:
    assert problem("provider").message == problem("provider", "   ").message
    assert "Try again" in problem("provider").message


def test_a_sentence_from_outside_replaces_the_message_and_keeps_the_kind() -> None:
    why = "This browser cannot recognise speech on this device. Type your message."
    told = problem("unsupported", why)
    assert (told.code, told.message, told.then) == ("unsupported", why, "tell")
    assert problem("network", why).then == "next-rung"  # still falls back to the provider
