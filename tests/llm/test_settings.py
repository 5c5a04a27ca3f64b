"""Settings: safe base URLs, the key kept out of every dump, caps, the client and Test key."""

from __future__ import annotations

import asyncio
import json
from datetime import date

import pytest
from pydantic import ValidationError

from app.llm import settings as llm_settings
from app.llm.errors import ProviderError
from app.llm.messages import ModelRequest
from app.llm.settings import Provider, ProviderSettings, make_client, with_v1
from app.llm.spending import MemoryCounter, SpendingGuard
from tests.llm import gemini_fixtures as gx
from tests.llm import openai_fixtures as ox
from tests.llm.samples import GEMINI_KEY, KEY, PLAIN
from tests.llm.transports import Reply, ScriptedTransport


@pytest.mark.parametrize(
    "url",
    [
        "https://api.groq.com/openai/v1",
        "http://localhost:11434/v1",
        "http://127.0.0.1:1234/v1/",
        "http://192.168.1.20:11434/v1",
        "http://10.0.0.5/v1",
        "http://studio.local:1234/v1",
    ],
)
def test_https_anywhere_and_http_only_on_this_machine_or_the_lan(url: str) -> None:
    settings = ProviderSettings(provider="openai_compatible", model="llama3.2", base_url=url)
    assert settings.url == url.rstrip("/")


@pytest.mark.parametrize(
    "url",
    [
        "http://api.example.com/v1",
        "http://8.8.8.8/v1",
        "ftp://localhost/v1",
        "localhost:11434",
        "https://user:pass@api.example.com/v1",
        "https://api.example.com/v1?key=abc",
        "javascript:alert(1)",
    ],
)
def test_unsafe_or_malformed_base_urls_are_refused_with_a_reason(url: str) -> None:
    with pytest.raises(ValidationError) as caught:
        ProviderSettings(provider="openai_compatible", model="m", base_url=url)
    assert "Enter" in str(caught.value) or "https" in str(caught.value)


@pytest.mark.parametrize(
    ("url", "instead"),
    [
        ("http://[::1]:8080/v1", "http://localhost:8080/v1"),
        ("http://[::1]/v1/", "http://localhost/v1"),
        ("http://[0:0:0:0:0:0:0:1]:11434", "http://localhost:11434"),
    ],
)
def test_an_ipv6_loopback_address_is_refused_with_localhost_offered(url: str, instead: str) -> None:
    """The page's policy cannot name an IPv6 address (decision 022); localhost reaches the
    same server on this computer."""
    with pytest.raises(ValidationError) as caught:
        ProviderSettings(provider="openai_compatible", model="m", base_url=url)
    assert f"Use {instead} instead" in str(caught.value)


@pytest.mark.parametrize("url", ["http://[fd00::5]:11434/v1", "https://[2001:db8::1]/v1"])
def test_another_ipv6_address_is_refused_with_a_name_or_ipv4_offered(url: str) -> None:
    with pytest.raises(ValidationError) as caught:
        ProviderSettings(provider="openai_compatible", model="m", base_url=url)
    assert "its name or IPv4 address" in str(caught.value)


def test_the_key_is_never_in_repr_str_or_dumps() -> None:
    settings = ProviderSettings(provider="openai", api_key=KEY, remember_key=True)
    for text in (
        repr(settings),
        str(settings),
        settings.model_dump_json(),
        str(settings.model_dump()),
    ):
        assert KEY not in text
    assert "api_key" not in settings.model_dump()
    assert settings.api_key.get_secret_value() == KEY
    restored = ProviderSettings.model_validate(json.loads(settings.model_dump_json()))
    assert restored.api_key.get_secret_value() == ""  # a backup never carries the key


def test_defaults_and_limits() -> None:
    settings = ProviderSettings()
    assert (settings.provider, settings.model_name, settings.label) == (
        "gemini",
        "gemini-2.5-flash",
        "Gemini",
    )
    assert settings.url == "https://generativelanguage.googleapis.com/v1beta"
    with pytest.raises(ValidationError):
        ProviderSettings(daily_request_cap=0)
    with pytest.raises(ValidationError):
        ProviderSettings(max_output_tokens=10_000_000)
    with pytest.raises(ValidationError):
        ProviderSettings(model="gemini 2.5 <flash>")
    with pytest.raises(ValidationError):
        ProviderSettings(provider="openai_compatible")  # which model does the server run?


class Day:
    def __init__(self) -> None:
        self.today = date(2026, 3, 1)


def test_the_daily_cap_counts_per_local_day_and_says_so_when_hit() -> None:
    day, counter = Day(), MemoryCounter()
    guard = SpendingGuard(
        daily_requests=2, max_output_tokens=100, store=counter, today=lambda: day.today
    )
    guard.admit()
    guard.admit()
    with pytest.raises(ProviderError) as caught:
        guard.admit()
    assert caught.value.kind == "daily_cap"
    assert "today's 2 requests" in caught.value.message
    assert not caught.value.retryable
    day.today = date(2026, 3, 2)
    guard.admit()
    assert guard.used_today() == 1
    assert counter.saved == ("2026-03-02", 1)


def test_the_client_caps_output_tokens_and_counts_every_try() -> None:
    transport = ScriptedTransport(
        Reply(status=503, body=gx.OVERLOADED),
        Reply(body=gx.answer([{"text": "hi"}])),
    )
    counter = MemoryCounter()
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    settings = ProviderSettings(api_key=GEMINI_KEY, max_output_tokens=100, daily_request_cap=5)
    client = make_client(settings, transport, counter=counter, sleep=sleep)
    greedy = ModelRequest(system="", messages=PLAIN.messages, max_output_tokens=50_000)
    response = asyncio.run(client.complete(greedy))
    assert response.message.text == "hi"
    assert len(waits) == 1
    assert transport.json_sent()["generationConfig"]["maxOutputTokens"] == 100
    assert counter.saved is not None
    assert counter.saved[1] == 2
    assert transport.requests[0].headers == {
        "x-goog-api-key": GEMINI_KEY,
        "content-type": "application/json",
    }


def test_a_missing_key_is_a_plain_sentence_before_any_request() -> None:
    transport = ScriptedTransport()
    with pytest.raises(ProviderError) as caught:
        make_client(ProviderSettings(provider="openai"), transport)
    assert caught.value.kind == "bad_key"
    assert "Paste your OpenAI API key" in caught.value.message


def check(settings: ProviderSettings, *replies: Reply) -> llm_settings.KeyCheck:
    return asyncio.run(llm_settings.test_key(settings, ScriptedTransport(*replies)))


def test_test_key_answers_in_a_sentence() -> None:
    good = check(ProviderSettings(api_key=GEMINI_KEY), Reply(body=gx.MODELS_PAGE_2))
    assert good.ok
    assert good.models == ["gemini-2.5-pro"]
    assert good.sentence == (
        "It works: Gemini offers 1 model. "
        "gemini-2.5-flash is not one of them: choose one from the list."
    )
    bad = check(
        ProviderSettings(provider="openai", api_key=KEY), Reply(status=401, body=ox.BAD_KEY)
    )
    assert not bad.ok
    assert "did not accept the API key" in bad.sentence
    assert KEY not in bad.sentence
    local = ProviderSettings(provider="openai_compatible", model="llama3.2")
    unlisted = check(local, Reply(status=404, body="404 page not found"))
    assert unlisted.ok
    assert "does not list its models" in unlisted.sentence


def test_test_key_lists_a_servers_models_before_one_is_named() -> None:
    local = ProviderSettings.model_validate(
        {"provider": "openai_compatible", "model": ""}, context={"testing": True}
    )
    listed = check(local, Reply(body=ox.MODELS))
    assert listed.ok
    assert listed.models
    assert listed.sentence.startswith("It works: The server at localhost:11434 offers")
    assert "not one of them" not in listed.sentence


def test_test_key_says_when_nothing_answers() -> None:
    local = ProviderSettings(
        provider="openai_compatible", model="m", base_url="http://localhost:9/v1"
    )
    offline = check(local, Reply(error=ProviderError("offline", "refused")))
    assert not offline.ok
    assert offline.sentence.startswith("Could not reach the server at localhost:9. Check")


@pytest.mark.parametrize(
    ("provider", "transcription", "speech", "voice"),
    [
        ("gemini", "gemini-2.5-flash", "gemini-2.5-flash-preview-tts", "Kore"),
        ("openai", "gpt-4o-mini-transcribe", "gpt-4o-mini-tts", "alloy"),
        ("openai_compatible", "", "", "alloy"),
    ],
)
def test_each_provider_has_its_own_voice_defaults(
    provider: llm_settings.Provider, transcription: str, speech: str, voice: str
) -> None:
    settings = ProviderSettings(provider=provider, model="m")
    assert settings.transcription_model_name == transcription
    assert settings.speech_model_name == speech
    assert settings.speech_voice_name == voice
    chosen = ProviderSettings(
        provider=provider,
        model="m",
        transcription_model=" whisper-large-v3 ",
        speech_model="tts-1",
        speech_voice="Puck",
    )
    assert chosen.transcription_model_name == "whisper-large-v3"
    assert (chosen.speech_model_name, chosen.speech_voice_name) == ("tts-1", "Puck")


@pytest.mark.parametrize("field", ["transcription_model", "speech_model", "speech_voice"])
def test_voice_names_are_checked_like_the_model(field: str) -> None:
    with pytest.raises(ValidationError):
        ProviderSettings.model_validate({field: "tts <script>"})
    with pytest.raises(ValidationError):
        ProviderSettings.model_validate({field: "x" * 201})


def test_settings_saved_before_voice_existed_still_load() -> None:
    saved = (
        '{"provider": "openai", "model": "gpt-4.1-mini", "base_url": "", "remember_key": true,'
        ' "daily_request_cap": 50, "max_output_tokens": 2048, "timeout_s": 60.0}'
    )
    settings = ProviderSettings.model_validate_json(saved)
    assert settings.daily_request_cap == 50
    assert settings.transcription_model_name == "gpt-4o-mini-transcribe"
    again = ProviderSettings.model_validate_json(settings.model_dump_json())
    assert again == settings


def test_a_local_address_without_v1_is_noticed_and_the_fix_suggested() -> None:
    local = ProviderSettings(
        provider="openai_compatible", base_url="http://localhost:8080", model="smollm2"
    )
    missing_v1 = check(
        local, Reply(status=404, body='{"detail":"Not Found"}'), Reply(body=ox.MODELS)
    )
    assert not missing_v1.ok
    assert missing_v1.sentence == (
        "The server at localhost:8080 answers at http://localhost:8080/v1, not at "
        "http://localhost:8080: add /v1 to the address and test again."
    )
    neither = check(local, Reply(status=404, body="{}"), Reply(status=404, body="{}"))
    assert neither.ok
    assert neither.sentence == (
        "The server at localhost:8080 answered but does not list its models; type the name."
    )


@pytest.mark.parametrize(
    ("provider", "base_url", "suggested"),
    [
        ("openai_compatible", "http://localhost:8080", "http://localhost:8080/v1"),
        ("openai_compatible", "http://localhost:8080/", "http://localhost:8080/v1"),
        ("openai_compatible", "http://localhost:8080/v1", None),
        ("openai_compatible", "http://localhost:8080/api", None),  # a path: the user's choice
        ("openai_compatible", "", None),  # the default address has /v1
        ("openai", "https://api.openai.com", None),
    ],
)
def test_a_compatible_server_given_only_its_host_is_offered_v1(
    provider: Provider, base_url: str, suggested: str | None
) -> None:
    settings = ProviderSettings(provider=provider, base_url=base_url, model="tiny-1")
    assert with_v1(settings) == suggested
