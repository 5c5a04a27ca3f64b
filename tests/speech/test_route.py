"""Who says something aloud (app.speech.route): the browser when it has a voice for the
language, else the user's provider unless "On this device only" forbids it, else nobody, with
a sentence that says why and what to do."""

from __future__ import annotations

import itertools

import pytest
from pydantic import SecretStr

from app.llm.settings import ProviderSettings
from app.speech.route import provider_speaks, speech_route
from app.speech.voices import no_voice_message


@pytest.mark.parametrize(
    ("has_voice", "provider", "on_device_only"), list(itertools.product((True, False), repeat=3))
)
def test_the_browser_speaks_when_it_can_and_the_provider_only_when_allowed(
    has_voice: bool, provider: bool, on_device_only: bool
) -> None:
    route = speech_route(
        "es-MX", has_voice=has_voice, provider=provider, on_device_only=on_device_only
    )
    if has_voice:
        assert (route.path, route.sentence) == ("browser", "")
    elif provider and not on_device_only:
        assert (route.path, route.sentence) == ("provider", "")
    else:
        assert route.path == "none"
        assert route.sentence.startswith("Your browser has no Spanish voice")


def test_without_a_provider_the_sentence_offers_one() -> None:
    route = speech_route("es", has_voice=False, provider=False, on_device_only=False)
    assert route.sentence == no_voice_message("es")
    assert "AI settings" in route.sentence


@pytest.mark.parametrize("provider", [True, False])
def test_on_this_device_only_says_so_instead_of_offering_the_provider(provider: bool) -> None:
    route = speech_route("ja", has_voice=False, provider=provider, on_device_only=True)
    assert route.sentence == (
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
