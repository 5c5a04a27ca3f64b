"""Who says something aloud (app.speech.route): the browser when it can (it speaks, works here
and has a voice for the language), else the user's provider unless "On this device only"
forbids it, else nobody, with a sentence that says why and what to do."""

from __future__ import annotations

import itertools

import pytest
from pydantic import SecretStr

from app.llm.settings import ProviderSettings
from app.speech.outcome import BROKEN, NO_VOICES, UNSUPPORTED
from app.speech.route import cannot_speak, provider_speaks, speech_route
from app.speech.voices import no_voice_message, or_provider

CAN = {"supported": True, "broken": False, "any_voice": True, "has_voice": True}


def test_a_working_browser_with_a_voice_for_the_language_can() -> None:
    assert cannot_speak("es", **CAN, on_device_only=False) == ""


@pytest.mark.parametrize(
    ("facts", "start"),
    [
        ({"supported": False, "any_voice": False, "has_voice": False}, UNSUPPORTED),
        ({"broken": True}, BROKEN),  # even with voices listed: speak() failed or hung
        ({"any_voice": False, "has_voice": False}, NO_VOICES),
        ({"has_voice": False}, "Your browser has no Spanish voice."),
    ],
)
@pytest.mark.parametrize("on_device_only", [False, True])
def test_why_the_browser_cannot_comes_first_then_what_to_do(
    facts: dict[str, bool], start: str, on_device_only: bool
) -> None:
    sentence = cannot_speak("es-MX", **{**CAN, **facts}, on_device_only=on_device_only)
    assert sentence.startswith(start)
    assert sentence.endswith(or_provider(on_device_only=on_device_only))


def test_no_voice_for_the_language_is_the_sentence_the_voice_dialog_shows() -> None:
    sentence = cannot_speak("ja", **{**CAN, "has_voice": False}, on_device_only=False)
    assert sentence == no_voice_message("ja")


@pytest.mark.parametrize(
    ("cannot", "provider", "on_device_only"),
    list(itertools.product(("", "Your browser has no voices."), (True, False), (True, False))),
)
def test_the_browser_speaks_when_it_can_and_the_provider_only_when_allowed(
    cannot: str, provider: bool, on_device_only: bool
) -> None:
    route = speech_route(cannot, provider=provider, on_device_only=on_device_only)
    if not cannot:
        assert (route.path, route.sentence) == ("browser", "")
    elif provider and not on_device_only:
        assert (route.path, route.sentence) == ("provider", "")
    else:
        assert (route.path, route.sentence) == ("none", cannot)


def test_without_a_provider_the_sentence_offers_one() -> None:
    sentence = cannot_speak("es", **{**CAN, "broken": True}, on_device_only=False)
    assert "AI settings" in speech_route(sentence, provider=False, on_device_only=False).sentence


def test_on_this_device_only_says_so_instead_of_offering_the_provider() -> None:
    sentence = cannot_speak("ja", **{**CAN, "has_voice": False}, on_device_only=True)
    assert speech_route(sentence, provider=True, on_device_only=True).sentence == (
        "Your browser has no Japanese voice. Add one in your system's speech settings; "
        "\u201cOn this device only\u201d (Voice settings) keeps your AI provider from speaking."
    )


@pytest.mark.parametrize(
    ("settings", "configured", "speaks"),
    [
        (ProviderSettings(provider="openai", api_key=SecretStr("k")), True, True),
        (ProviderSettings(provider="gemini", api_key=SecretStr("k")), True, True),
        (ProviderSettings(provider="gemini", api_key=SecretStr("k")), False, False),
        (ProviderSettings(provider="openai_compatible", model="llama3.2"), True, False),
        (
            ProviderSettings(provider="openai_compatible", model="m", speech_model="kokoro"),
            True,
            True,
        ),
    ],
)
def test_a_provider_speaks_when_configured_with_a_speech_model(
    settings: ProviderSettings, configured: bool, speaks: bool
) -> None:
    assert provider_speaks(settings, configured=configured) is speaks
