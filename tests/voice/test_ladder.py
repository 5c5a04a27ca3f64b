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
    EVERY_LANGUAGE,
    NO_RECOGNITION,
    OFFLINE,
    ON_DEVICE,
    SERVICE,
    SERVICE_FAILED,
    Means,
    Memory,
    OnDevice,
    Path,
    Transcriber,
    choose,
    learn,
    transcriber,
)
from app.voice.problems import ErrorCode, problem

GEMINI = Transcriber("Gemini", local=False)
OLLAMA = Transcriber("the server at localhost:11434", local=True, keyed=False)
BROWSER_FAILED: frozenset[Path] = frozenset({"on-device", "browser-service"})
PROVIDERS = (None, GEMINI, OLLAMA)
EVERY = [
    Means(recognition, on_device, only, provider, online, failed)
    for recognition, on_device, only, provider, online, failed in itertools.product(
        (True, False),
        get_args(OnDevice),
        (True, False),
        PROVIDERS,
        (True, False),
        (frozenset(), frozenset({"browser-service"}), BROWSER_FAILED),
    )
]


def means(**given: object) -> Means:
    defaults: dict[str, object] = {
        "recognition": True,
        "on_device": "unavailable",
        "on_device_only": False,
        "provider": GEMINI,
        "online": True,
        "failed": frozenset(),
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
        assert "on-device" not in given.failed
    if rung.path == "browser-service":
        assert given.recognition
        assert given.online
        assert "browser-service" not in given.failed
    if rung.path == "provider":
        assert given.provider is not None
        assert given.online or given.provider.local
        assert given.provider.label in rung.sentence
    usable_on_device = given.recognition and given.on_device in ("downloadable",)
    assert rung.can_install == usable_on_device


@pytest.mark.parametrize("given", EVERY, ids=repr)
def test_the_most_private_path_that_works_is_chosen(given: Means) -> None:
    rung = choose(given)
    on_device = (
        given.recognition and given.on_device == "available" and "on-device" not in given.failed
    )
    service = given.recognition and given.online and "browser-service" not in given.failed
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
            means(failed=BROWSER_FAILED),
            "provider",
            "Your voice is recorded and sent to Gemini with your key to be transcribed.",
        ),
        (
            means(recognition=False, on_device="unsupported", provider=OLLAMA, online=False),
            "provider",
            "Your voice is recorded and sent to the server at localhost:11434 to be transcribed.",
        ),
        (means(online=False), "typing", OFFLINE),
        (means(failed=BROWSER_FAILED, provider=None), "typing", SERVICE_FAILED),
        (
            means(on_device="available", failed=frozenset({"on-device"})),
            "browser-service",
            SERVICE,
        ),
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
    rung = choose(means(on_device="available", on_device_only=True, failed=BROWSER_FAILED))
    assert rung.path == "typing"
    assert "on this device" in rung.sentence.lower()


@pytest.mark.parametrize(
    ("settings", "configured", "expected"),
    [
        (ProviderSettings(provider="gemini", api_key=SecretStr("k")), True, GEMINI),
        (
            ProviderSettings(provider="openai", api_key=SecretStr("k")),
            True,
            Transcriber("OpenAI", local=False, keyed=True),
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
            Transcriber("the server at speech.example.com", local=False, keyed=False),
        ),
    ],
)
def test_a_provider_transcribes_when_configured_with_a_model_for_it(
    settings: ProviderSettings, configured: bool, expected: Transcriber | None
) -> None:
    assert transcriber(settings, configured=configured) == expected


def test_a_keyed_compatible_server_is_said_to_get_the_key() -> None:
    settings = ProviderSettings(
        provider="openai_compatible",
        model="m",
        api_key=SecretStr("k"),
        transcription_model="whisper",
    )
    found = transcriber(settings, configured=True)
    assert found == Transcriber("the server at localhost:11434", local=True, keyed=True)
    assert "with your key" in choose(means(recognition=False, provider=found)).sentence


def told(memory: Memory, code: ErrorCode, path: Path, lang: str = "en-US", **kw: bool) -> Memory:
    return learn(memory, problem(code), path, lang, hinted=kw.get("hinted", True))


@pytest.mark.parametrize("code", ["phrases-not-supported", "bad-grammar"])
@pytest.mark.parametrize("path", ["on-device", "browser-service"])
def test_refused_hints_are_dropped_and_the_same_rung_listens_again(
    code: ErrorCode, path: Path
) -> None:
    learnt = told(Memory(), code, path)
    assert learnt == Memory(hints=False)
    assert learnt.failed_for("en-US") == frozenset()


@pytest.mark.parametrize("code", ["audio-capture", "service-not-allowed"])
def test_a_recogniser_that_cannot_capture_skips_both_browser_rungs(code: ErrorCode) -> None:
    learnt = told(Memory(), code, "browser-service")
    assert learnt.failed_for("en-US") == BROWSER_FAILED
    assert learnt.failed_for("es") == BROWSER_FAILED  # whatever the language
    rung = choose(means(on_device="available", failed=learnt.failed_for("es")))
    assert rung.path == "provider"


def test_no_speech_service_skips_the_service_and_keeps_on_device_recognition() -> None:
    learnt = told(Memory(), "network", "browser-service")
    assert learnt.failed_for("en-US") == frozenset({"browser-service"})
    assert told(Memory(), "network", "on-device").failed_for("fr") == BROWSER_FAILED


def test_an_unsupported_language_is_skipped_for_that_language_only() -> None:
    learnt = told(Memory(), "language-not-supported", "browser-service", "eu")
    assert learnt.failed_for("eu") == frozenset({"browser-service"})
    assert learnt.failed_for("en-US") == frozenset()


def test_on_device_recognition_refusing_a_language_with_hints_drops_the_hints_first() -> None:
    # Measured in Chromium: processLocally with phrases gives language-not-supported.
    first = told(Memory(), "language-not-supported", "on-device", "en-US")
    assert first == Memory(hints=False)
    second = told(first, "language-not-supported", "on-device", "en-US", hinted=False)
    assert second.failed_for("en-US") == frozenset({"on-device"})


@pytest.mark.parametrize(
    "code", ["no-speech", "aborted", "not-allowed", "offline", "unsupported", "provider"]
)
def test_other_failures_teach_nothing(code: ErrorCode) -> None:
    assert told(Memory(), code, "browser-service") == Memory()
    assert told(Memory(), code, "provider") == Memory()


def test_a_provider_failing_never_marks_a_rung_failed() -> None:
    assert told(Memory(), "audio-capture", "provider") == Memory()
    assert EVERY_LANGUAGE == ""
