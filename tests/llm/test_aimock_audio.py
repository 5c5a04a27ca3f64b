"""Provider speech against the real aimock emulator on loopback, over real sockets: both
providers transcribe and speak, a server without speech says so, and the journal shows the
requests the e2e tests can rely on."""

from __future__ import annotations

import asyncio
import io
import wave
from collections.abc import Iterator

import pytest

from app.llm.errors import ProviderError
from app.llm.settings import Provider, ProviderSettings
from app.llm.synthesize import synthesize
from app.llm.transcribe import transcribe
from app.llm.wav import samples_wav
from tests.llm import audio_fixtures as fx
from tests.llm.aimock import get_json, running_aimock
from tests.llm.transports import SocketTransport

KEY = "aimock-audio-key-0123456789"
WAV = samples_wav([[0.0, 0.5, -0.5] * 1_000], 48_000)


@pytest.fixture(scope="module")
def aimock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_aimock(fx.FIXTURES, tmp_path_factory.mktemp("aimock"), KEY) as url:
        yield url


def settings(url: str, provider: Provider) -> ProviderSettings:
    base = f"{url}/v1beta" if provider == "gemini" else f"{url}/v1"
    return ProviderSettings(provider=provider, model="m", base_url=base, api_key=KEY)


@pytest.mark.parametrize(
    ("provider", "audio", "mime"),
    [
        ("openai", b"\x1aE\xdf\xa3 webm bytes", "audio/webm;codecs=opus"),
        ("gemini", WAV, "audio/wav"),
    ],
)
def test_both_providers_transcribe(
    aimock: str, provider: Provider, audio: bytes, mime: str
) -> None:
    transcript = asyncio.run(
        transcribe(
            settings(aimock, provider),
            SocketTransport(),
            audio,
            mime,
            "es-ES",
            prompt_terms=["aorta"],
        )
    )
    assert transcript.text == fx.HEARD


def test_openai_speaks_mp3(aimock: str) -> None:
    audio = asyncio.run(synthesize(settings(aimock, "openai"), SocketTransport(), fx.SPOKEN, "es"))
    assert (audio.data, audio.mime) == (fx.MP3, "audio/mpeg")


def test_gemini_speaks_and_its_pcm_arrives_as_wav(aimock: str) -> None:
    audio = asyncio.run(synthesize(settings(aimock, "gemini"), SocketTransport(), fx.SPOKEN, "es"))
    assert audio.mime == "audio/wav"
    with wave.open(io.BytesIO(audio.data)) as reader:
        assert reader.getframerate() == 24_000
        assert reader.readframes(reader.getnframes()) == fx.PCM


def test_a_compatible_server_without_that_speech_says_the_browser_speaks(aimock: str) -> None:
    local = ProviderSettings(
        provider="openai_compatible",
        model="m",
        speech_model="kokoro",
        base_url=f"{aimock}/v1",
        api_key=KEY,
    )
    with pytest.raises(ProviderError) as caught:
        asyncio.run(synthesize(local, SocketTransport(), "nothing matches this", "es"))
    assert "has no speech, so your browser's own voices are used instead" in caught.value.message


def test_the_journal_shows_each_audio_request_with_its_model_and_key(aimock: str) -> None:
    asyncio.run(
        transcribe(settings(aimock, "openai"), SocketTransport(), b"webm", "audio/webm", "en")
    )
    entries = get_json(f"{aimock}/__aimock/journal", KEY)
    uploads = [e for e in entries if e["path"] == "/v1/audio/transcriptions"]
    assert uploads[-1]["body"]["model"] == "gpt-4o-mini-transcribe"
    assert "authorization" in uploads[-1]["headers"]  # the journal hides its value
    assert uploads[-1]["response"]["status"] == 200
