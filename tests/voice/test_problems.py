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
        ("offline", "offline"),
        ("language-not-supported", "Settings"),
        ("no-speech", "type"),
        ("unsupported", "provider"),
    ],
)
def test_the_sentence_says_what_to_do_next(code: str, words: str) -> None:
    assert words in problem(code).message


def test_only_failures_of_the_browsers_speech_service_fall_back_to_the_provider() -> None:
    falling_back = {code for code in get_args(ErrorCode) if problem(code).fallback}
    assert falling_back == {"network", "service-not-allowed"}


def test_an_unknown_code_still_gets_a_next_step() -> None:
    assert (
        problem("new-thing").message
        == "Listening failed (new-thing). Try again, or type your message."
    )


def test_a_provider_failure_says_the_providers_own_sentence() -> None:
    said = "Gemini did not accept the API key. Paste the key again in Settings and press Test key."
    assert problem("provider", said).message == said
    assert problem("provider", f"  {said}\n").message == said
    assert not problem("provider", said).fallback


def test_a_provider_failure_without_a_sentence_still_has_a_next_step() -> None:
    assert problem("provider").message == problem("provider", "   ").message
    assert "type" in problem("provider").message


def test_a_sentence_from_outside_replaces_the_message_and_keeps_the_kind() -> None:
    why = "This browser cannot recognise speech on this device. Type your message."
    told = problem("unsupported", why)
    assert (told.code, told.message, told.fallback) == ("unsupported", why, False)
    assert problem("network", why).fallback  # still falls back to the provider
