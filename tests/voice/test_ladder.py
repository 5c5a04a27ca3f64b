"""The speech recognition ladder (app.voice.ladder): which way the user's voice becomes text,
the sentence of where the audio goes, and when to offer the on-device download, for every
combination of what the browser, the settings and the network allow."""

from __future__ import annotations

import itertools
from typing import get_args

import pytest
from pydantic import SecretStr

from app.llm.settings import ProviderSettings
from app.voice.ladder import (
    NO_RECOGNITION,
    OFFLINE,
    ON_DEVICE,
    SERVICE,
    SERVICE_FAILED,
    Means,
    OnDevice,
    Transcriber,
    choose,
    transcriber,
)

GEMINI = Transcriber("Gemini", local=False)
OLLAMA = Transcriber("the server at localhost:11434", local=True)
PROVIDERS = (None, GEMINI, OLLAMA)
EVERY = [
    Means(recognition, on_device, only, provider, online, failed)
    for recognition, on_device, only, provider, online, failed in itertools.product(
        (True, False), get_args(OnDevice), (True, False), PROVIDERS, (True, False), (True, False)
    )
]


def means(**given: object) -> Means:
    defaults: dict[str, object] = {
        "recognition": True,
        "on_device": "unavailable",
        "on_device_only": False,
        "provider": GEMINI,
        "online": True,
        "service_failed": False,
    }
    return Means(**{**defaults, **given})  # type: ignore[arg-type]


@pytest.mark.parametrize("given", EVERY, ids=repr)
def test_every_combination_has_a_path_a_sentence_and_keeps_the_promises(given: Means) -> None:
    rung = choose(given)
    assert rung.sentence.endswith(".")
    assert rung.sentence[0].isupper()
    if given.on_device_only:  # nothing said leaves the device
        assert rung.path in ("on-device", "typing")
    if rung.path == "on-device":
        assert given.recognition
        assert given.on_device == "available"
        assert not given.service_failed
    if rung.path == "browser-service":
        assert given.recognition
        assert given.online
        assert not given.service_failed
    if rung.path == "provider":
        assert given.provider is not None
        assert given.online or given.provider.local
        assert given.provider.label in rung.sentence
    usable_on_device = given.recognition and given.on_device in ("downloadable",)
    assert rung.can_install == usable_on_device


@pytest.mark.parametrize("given", EVERY, ids=repr)
def test_the_most_private_path_that_works_is_chosen(given: Means) -> None:
    rung = choose(given)
    on_device = given.recognition and given.on_device == "available" and not given.service_failed
    service = given.recognition and given.online and not given.service_failed
    provider = given.provider is not None and (given.online or given.provider.local)
    if on_device:
        assert rung.path == "on-device"
    elif given.on_device_only:
        assert rung.path == "typing"
    elif service:
        assert rung.path == "browser-service"
    elif provider:
        assert rung.path == "provider"
    else:
        assert rung.path == "typing"


@pytest.mark.parametrize(
    ("given", "path", "sentence"),
    [
        (means(on_device="available"), "on-device", ON_DEVICE),
        (means(on_device="available", online=False), "on-device", ON_DEVICE),
        (means(on_device="available", on_device_only=True), "on-device", ON_DEVICE),
        (means(), "browser-service", SERVICE),
        (means(on_device="downloadable"), "browser-service", SERVICE),
        (
            means(service_failed=True),
            "provider",
            "Your voice is recorded and sent to Gemini with your key to be transcribed.",
        ),
        (
            means(recognition=False, on_device="unsupported", provider=OLLAMA, online=False),
            "provider",
            "Your voice is recorded and sent to the server at localhost:11434 with your key to "
            "be transcribed.",
        ),
        (means(online=False), "typing", OFFLINE),
        (means(service_failed=True, provider=None), "typing", SERVICE_FAILED),
        (
            means(recognition=False, on_device="unsupported", provider=None),
            "typing",
            NO_RECOGNITION,
        ),
        (
            means(recognition=False, on_device="unsupported", provider=None, online=False),
            "typing",
            NO_RECOGNITION,
        ),
    ],
)
def test_each_rung_says_where_the_voice_goes(given: Means, path: str, sentence: str) -> None:
    rung = choose(given)
    assert (rung.path, rung.sentence) == (path, sentence)


@pytest.mark.parametrize(
    ("on_device", "words", "install"),
    [
        ("downloadable", "Download", True),
        ("downloading", "still downloading", False),
        ("unavailable", "cannot recognise speech on this device", False),
        ("unsupported", "cannot recognise speech on this device", False),
    ],
)
def test_on_this_device_only_says_why_it_types_and_what_to_do(
    on_device: OnDevice, words: str, install: bool
) -> None:
    rung = choose(means(on_device=on_device, on_device_only=True))
    assert rung.path == "typing"
    assert words in rung.sentence
    assert rung.can_install == install
    assert "Voice settings" in rung.sentence or install or on_device == "downloading"


def test_a_failed_on_device_recogniser_with_on_this_device_only_types() -> None:
    rung = choose(means(on_device="available", on_device_only=True, service_failed=True))
    assert rung.path == "typing"
    assert "on this device" in rung.sentence.lower()


@pytest.mark.parametrize(
    ("settings", "configured", "expected"),
    [
        (ProviderSettings(provider="gemini", api_key=SecretStr("k")), True, GEMINI),
        (
            ProviderSettings(provider="openai", api_key=SecretStr("k")),
            True,
            Transcriber("OpenAI", local=False),
        ),
        (ProviderSettings(provider="gemini", api_key=SecretStr("k")), False, None),
        (ProviderSettings(provider="openai_compatible", model="llama3.2"), True, None),
        (
            ProviderSettings(
                provider="openai_compatible", model="llama3.2", transcription_model="whisper"
            ),
            True,
            OLLAMA,
        ),
        (
            ProviderSettings(
                provider="openai_compatible",
                model="m",
                base_url="https://speech.example.com/v1",
                transcription_model="whisper",
            ),
            True,
            Transcriber("the server at speech.example.com", local=False),
        ),
    ],
)
def test_a_provider_transcribes_when_configured_with_a_model_for_it(
    settings: ProviderSettings, configured: bool, expected: Transcriber | None
) -> None:
    assert transcriber(settings, configured=configured) == expected
