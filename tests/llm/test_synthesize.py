"""Provider text-to-speech on the wire: OpenAI's /audio/speech, Gemini's TTS answer wrapped as
WAV, servers without speech, failures in sentences, the daily cap and the usage log."""

from __future__ import annotations

import array
import asyncio
import base64
import io
import wave
from typing import Any

import pytest
from openai.types.audio import speech_create_params

from app.llm.audio import AudioOptions, AudioUsage
from app.llm.errors import ProviderError
from app.llm.settings import ProviderSettings
from app.llm.spending import MemoryCounter
from app.llm.synthesize import Audio, synthesize
from tests.llm import gemini_fixtures as gx
from tests.llm.conformance import assert_gemini_request, assert_gemini_response
from tests.llm.samples import GEMINI_KEY, KEY
from tests.llm.transports import Reply, ScriptedTransport

OPENAI = ProviderSettings(provider="openai", api_key=KEY)
GEMINI = ProviderSettings(provider="gemini", api_key=GEMINI_KEY)
LOCAL = ProviderSettings(provider="openai_compatible", model="llama3.2", speech_model="kokoro")
MP3 = b"ID3\x04\x00" + bytes(range(256))
PCM = array.array("h", [0, 1_000, -1_000, 32_767] * 600).tobytes()


def gemini_speech(mime: str = "audio/L16;codec=pcm;rate=24000") -> dict[str, Any]:
    inline = {"mimeType": mime, "data": base64.b64encode(PCM).decode()}
    return gx.answer([{"inlineData": inline}])


def run(
    settings: ProviderSettings, *replies: Reply, text: str = "la aorta", **given: Any
) -> tuple[Audio, ScriptedTransport]:
    transport = ScriptedTransport(*replies)
    options = AudioOptions(**given.pop("options", {}))
    result = asyncio.run(synthesize(settings, transport, text, "es-ES", options=options, **given))
    return result, transport


def failure(settings: ProviderSettings, *replies: Reply, **given: Any) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        run(settings, *replies, **given)
    return caught.value


def test_openai_speaks_with_the_voice_and_model_from_settings() -> None:
    audio, transport = run(OPENAI, Reply(body=MP3, headers={"Content-Type": "audio/mpeg"}))
    assert audio == Audio(MP3, "audio/mpeg")
    request = transport.requests[0]
    assert request.url == "https://api.openai.com/v1/audio/speech"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    body = transport.json_sent()
    assert body == {
        "model": "gpt-4o-mini-tts",
        "input": "la aorta",
        "voice": "alloy",
        "response_format": "mp3",
        "instructions": "Speak in the language tagged es-ES, clearly.",
    }
    assert speech_create_params.SpeechCreateParams.__required_keys__ <= set(body)
    assert set(body) <= set(speech_create_params.SpeechCreateParams.__annotations__)


def test_a_voice_and_wav_can_be_asked_for_and_tts_1_gets_no_instructions() -> None:
    settings = OPENAI.model_copy(update={"speech_model": "tts-1"})
    audio, transport = run(settings, Reply(body=b"RIFF...."), voice="nova", response_format="wav")
    assert audio.mime == "audio/wav"  # no content-type: the format asked for
    body = transport.json_sent()
    assert (body["voice"], body["response_format"]) == ("nova", "wav")
    assert "instructions" not in body


def test_gemini_s_pcm_answer_becomes_a_wav_a_browser_can_play() -> None:
    audio, transport = run(GEMINI, Reply(body=gemini_speech()))
    assert audio.mime == "audio/wav"
    with wave.open(io.BytesIO(audio.data)) as reader:
        assert (reader.getframerate(), reader.getnchannels(), reader.getsampwidth()) == (
            24_000,
            1,
            2,
        )
        assert reader.readframes(reader.getnframes()) == PCM
    request = transport.requests[0]
    assert request.url.endswith("/models/gemini-2.5-flash-preview-tts:generateContent")
    body = transport.json_sent()
    assert_gemini_request(body)
    assert_gemini_response(gemini_speech())
    config = body["generationConfig"]
    assert config["responseModalities"] == ["AUDIO"]
    assert config["speechConfig"]["voiceConfig"]["prebuiltVoiceConfig"]["voiceName"] == "Kore"


def test_gemini_pcm_at_another_rate_keeps_its_rate() -> None:
    audio, _ = run(GEMINI, Reply(body=gemini_speech("audio/pcm;rate=16000")))
    with wave.open(io.BytesIO(audio.data)) as reader:
        assert reader.getframerate() == 16_000


def test_a_local_server_without_speech_says_the_browser_speaks_instead() -> None:
    error = failure(LOCAL, Reply(status=404, body="404 page not found"))
    assert error.message == (
        "The server at localhost:11434 has no speech, so your browser's own voices are used "
        "instead."
    )
    unset = LOCAL.model_copy(update={"speech_model": ""})
    assert "has no speech" in failure(unset).message  # nothing sent: no reply scripted


@pytest.mark.parametrize(
    ("settings", "reply"),
    [
        (OPENAI, Reply(body=b"")),
        (OPENAI, Reply(body={"oops": 1}, headers={"content-type": "application/json"})),
        (GEMINI, Reply(body=gx.answer([{"text": "I cannot speak."}]))),
        (GEMINI, Reply(body=gx.answer([{"inlineData": {"mimeType": "audio/L16", "data": "%%"}}]))),
    ],
)
def test_an_answer_without_audio_is_a_sentence(settings: ProviderSettings, reply: Reply) -> None:
    error = failure(settings, reply)
    assert error.kind == "bad_response"
    assert "could not read" in error.message


@pytest.mark.parametrize(
    ("text", "says"),
    [("   ", "There is nothing to say."), ("a" * 4_097, "(4,097 characters; at most 4,096)")],
)
def test_empty_or_huge_text_is_refused_before_sending(text: str, says: str) -> None:
    assert says in failure(OPENAI, text=text).message


def test_each_request_counts_and_is_logged_even_when_it_fails() -> None:
    counter = MemoryCounter()
    usage: list[AudioUsage] = []
    options = {"counter": counter, "on_usage": usage.append}
    run(OPENAI, Reply(body=MP3, headers={"content-type": "audio/mpeg"}), options=options)
    failure(OPENAI, Reply(status=403, body={"error": {"message": "no"}}), options=options)
    assert counter.saved is not None
    assert counter.saved[1] == 2
    assert [(u.kind, u.outcome) for u in usage] == [("speech", "ok"), ("speech", "permission")]
    assert usage[1].detail.startswith("OpenAI refused")
