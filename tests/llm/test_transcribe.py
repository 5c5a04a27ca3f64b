"""Provider speech-to-text on the wire: OpenAI's multipart upload and Gemini's inline WAV,
their answers, failures in sentences, the daily cap and the usage log."""

from __future__ import annotations

import asyncio
import base64
import email.parser
import email.policy
from email.message import EmailMessage
from typing import Any

import pytest
from openai.types.audio import Transcription

from app.llm.audio import AudioOptions, AudioUsage
from app.llm.cancel import CancelToken
from app.llm.errors import ProviderError
from app.llm.settings import ProviderSettings
from app.llm.spending import MemoryCounter
from app.llm.transcribe import Transcript, transcribe
from app.llm.wav import samples_wav
from app.store.conversations import UsageEntry
from tests.llm import gemini_fixtures as gx
from tests.llm import openai_fixtures as ox
from tests.llm.conformance import assert_gemini_request, assert_gemini_response
from tests.llm.samples import GEMINI_KEY, KEY
from tests.llm.transports import Reply, ScriptedTransport

OPENAI = ProviderSettings(provider="openai", api_key=KEY)
GEMINI = ProviderSettings(provider="gemini", api_key=GEMINI_KEY)
LOCAL = ProviderSettings(provider="openai_compatible", model="llama3.2")
WEBM = b"\x1aE\xdf\xa3" + bytes(range(256)) * 8  # an EBML header, then every byte value
WAV = samples_wav([[0.0, 0.25, -0.25] * 100], 48_000)
TERMS = ["aorta", "Herz", "心臓", "aorta", "  ", "mitral, valve"]


async def no_wait(_seconds: float) -> None:
    return None


def run(
    settings: ProviderSettings,
    *replies: Reply,
    audio: bytes = WEBM,
    mime: str = "audio/webm;codecs=opus",
    lang: str = "es-ES",
    terms: list[str] = TERMS,
    **options: Any,
) -> tuple[Transcript, ScriptedTransport]:
    transport = ScriptedTransport(*replies)
    result = asyncio.run(
        transcribe(
            settings,
            transport,
            audio,
            mime,
            lang,
            prompt_terms=terms,
            options=AudioOptions(sleep=no_wait, **options),
        )
    )
    return result, transport


def failure(settings: ProviderSettings, *replies: Reply, **given: Any) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        run(settings, *replies, **given)
    return caught.value


def form(transport: ScriptedTransport) -> dict[str, EmailMessage]:
    request = transport.requests[-1]
    head = f"Content-Type: {request.headers['content-type']}\r\n\r\n".encode()
    assert request.body is not None
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + request.body)
    assert isinstance(message, EmailMessage)
    return {str(p.get_param("name", header="content-disposition")): p for p in message.iter_parts()}


def value(part: EmailMessage) -> bytes:
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload


OPENAI_ANSWER = Reply(
    body={"text": " La aorta es grande. ", "usage": {"type": "duration", "seconds": 2}}
)


def test_openai_gets_the_recording_as_a_multipart_upload() -> None:
    transcript, transport = run(OPENAI, OPENAI_ANSWER)
    assert transcript == Transcript("La aorta es grande.", "openai", "gpt-4o-mini-transcribe")
    request = transport.requests[0]
    assert (request.method, request.url) == (
        "POST",
        "https://api.openai.com/v1/audio/transcriptions",
    )
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.headers["content-type"].startswith("multipart/form-data; boundary=")
    parts = form(transport)
    assert set(parts) == {"model", "response_format", "language", "prompt", "file"}
    assert value(parts["model"]) == b"gpt-4o-mini-transcribe"
    assert value(parts["response_format"]) == b"json"
    assert value(parts["language"]) == b"es"  # the primary subtag: OpenAI takes ISO 639-1
    assert value(parts["prompt"]).decode() == "aorta, Herz, 心臓, mitral valve"
    assert parts["file"].get_filename() == "speech.webm"
    assert parts["file"].get_content_type() == "audio/webm"
    assert value(parts["file"]) == WEBM


def test_openai_s_answer_is_its_sdk_s_transcription_shape() -> None:
    Transcription.model_validate(OPENAI_ANSWER.body)


@pytest.mark.parametrize(
    ("mime", "filename"),
    [
        ("audio/ogg;codecs=opus", "speech.ogg"),
        ("audio/mp4", "speech.mp4"),
        ("audio/wav", "speech.wav"),
    ],
)
def test_each_browser_s_recording_type_gets_a_name_openai_recognises(
    mime: str, filename: str
) -> None:
    _, transport = run(OPENAI, OPENAI_ANSWER, mime=mime)
    assert form(transport)["file"].get_filename() == filename


@pytest.mark.parametrize("lang", ["", "haw", "en-US<script>", "x" * 40])
def test_a_language_openai_cannot_take_is_left_out(lang: str) -> None:
    _, transport = run(OPENAI, OPENAI_ANSWER, lang=lang, terms=[])
    assert set(form(transport)) == {"model", "response_format", "file"}


def test_the_prompt_holds_whole_terms_within_its_limit() -> None:
    _, transport = run(OPENAI, OPENAI_ANSWER, terms=[f"term{i:04}" for i in range(1_000)])
    prompt = value(form(transport)["prompt"]).decode()
    assert len(prompt) <= 600
    assert all(len(term) == 8 for term in prompt.split(", "))  # no term cut in half
    assert prompt.startswith("term0000, term0001")


def test_the_chosen_model_is_sent_and_a_local_server_gets_no_key_header() -> None:
    local = LOCAL.model_copy(update={"transcription_model": "whisper-large-v3"})
    transcript, transport = run(local, Reply(body={"text": "hola"}))
    assert transcript.model == "whisper-large-v3"
    assert transport.requests[0].url == "http://localhost:11434/v1/audio/transcriptions"
    assert "authorization" not in transport.requests[0].headers


def test_a_local_server_without_speech_to_text_says_so() -> None:
    local = LOCAL.model_copy(update={"transcription_model": "whisper-1"})
    error = failure(local, Reply(status=404, body="404 page not found"))
    assert error.message == (
        "The server at localhost:11434 cannot turn speech into text. Type your message, or "
        "choose a provider that can in AI settings."
    )


def test_without_a_model_a_local_server_is_not_asked() -> None:
    error = failure(LOCAL)
    assert "No speech-to-text model is set for the server at localhost:11434" in error.message


def test_gemini_gets_the_wav_inline_with_an_instruction() -> None:
    answer = gx.answer([{"text": "La aorta es grande.\n"}])
    transcript, transport = run(GEMINI, Reply(body=answer), audio=WAV, mime="audio/wav")
    assert transcript == Transcript("La aorta es grande.", "gemini", "gemini-2.5-flash")
    request = transport.requests[0]
    assert request.url == (
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
    )
    assert request.headers["x-goog-api-key"] == GEMINI_KEY
    body = transport.json_sent()
    assert_gemini_request(body)
    assert_gemini_response(answer)
    instruction, audio = body["contents"][0]["parts"]
    assert audio == {
        "inlineData": {"mimeType": "audio/wav", "data": base64.b64encode(WAV).decode()}
    }
    assert "word for word" in instruction["text"]
    assert "language tagged es-ES" in instruction["text"]
    assert "aorta, Herz, 心臓, mitral valve" in instruction["text"]


def test_gemini_refuses_anything_but_wav_before_sending() -> None:
    transport = ScriptedTransport()
    with pytest.raises(ValueError, match="WAV"):
        asyncio.run(transcribe(GEMINI, transport, WEBM, "audio/webm;codecs=opus", "en"))
    assert transport.requests == []


def test_gemini_hearing_nothing_gives_an_empty_transcript() -> None:
    transcript, _ = run(GEMINI, Reply(body=gx.answer([])), audio=WAV, mime="audio/wav")
    assert transcript.text == ""


@pytest.mark.parametrize(
    ("settings", "body"),
    [(OPENAI, {"transcript": "x"}), (OPENAI, "not json"), (GEMINI, {"candidates": "x"})],
)
def test_an_unreadable_answer_is_a_sentence(settings: ProviderSettings, body: Any) -> None:
    error = failure(settings, Reply(body=body), audio=WAV, mime="audio/wav")
    assert error.kind == "bad_response"
    assert "could not read" in error.message


def test_errors_are_sentences_without_the_key() -> None:
    error = failure(OPENAI, Reply(status=401, body=ox.BAD_KEY))
    assert error.kind == "bad_key"
    assert KEY not in error.message
    assert error.message.startswith("OpenAI did not accept the API key")


@pytest.mark.parametrize(
    ("audio", "mime", "says"),
    [
        (b"", "audio/webm", "Nothing was recorded"),
        (b"x" * 25_000_001, "audio/webm", "too long to send (25.0 MB; at most 25 MB)"),
    ],
)
def test_empty_or_huge_recordings_are_refused_before_sending(
    audio: bytes, mime: str, says: str
) -> None:
    assert says in failure(OPENAI, audio=audio, mime=mime).message


def test_an_unknown_recording_type_is_a_mistake_of_the_caller() -> None:
    with pytest.raises(ValueError, match="video/x-unknown"):
        run(OPENAI, mime="video/x-unknown")


def test_a_missing_key_is_a_sentence_before_any_request() -> None:
    error = failure(ProviderSettings(provider="openai"))
    assert error.kind == "bad_key"


def test_every_try_counts_against_the_daily_cap_and_is_logged() -> None:
    counter = MemoryCounter()
    usage: list[AudioUsage] = []
    ticks = iter([10.0, 10.25])
    _, transport = run(
        OPENAI,
        Reply(status=500, body={"error": {"message": "boom"}}),
        OPENAI_ANSWER,
        counter=counter,
        on_usage=usage.append,
        clock=lambda: next(ticks),
    )
    assert len(transport.requests) == 2
    assert counter.saved is not None
    assert counter.saved[1] == 2
    assert usage == [AudioUsage("transcription", "openai", "gpt-4o-mini-transcribe", 250, "ok")]
    entry = UsageEntry.model_validate(usage[0].entry_fields())
    assert (entry.agent, entry.outcome, entry.total_ms) == ("transcription", "ok", 250)


def test_at_the_cap_nothing_is_sent_and_the_refusal_is_logged() -> None:
    counter = MemoryCounter()
    usage: list[AudioUsage] = []
    capped = OPENAI.model_copy(update={"daily_request_cap": 1})
    run(capped, OPENAI_ANSWER, counter=counter)
    error = failure(capped, counter=counter, on_usage=usage.append)
    assert error.kind == "daily_cap"
    assert [u.outcome for u in usage] == ["daily_cap"]


def test_stop_ends_a_request_that_hangs() -> None:
    token = CancelToken()

    async def scenario() -> ProviderError:
        transport = ScriptedTransport(Reply(hang=True, body=b'{"te'))
        task = asyncio.ensure_future(
            transcribe(
                OPENAI, transport, WEBM, "audio/webm", "en", options=AudioOptions(cancel=token)
            )
        )
        await transport.requested.wait()
        token.cancel()
        with pytest.raises(ProviderError) as caught:
            await task
        return caught.value

    assert asyncio.run(scenario()).kind == "stopped"


def test_a_timeout_is_a_sentence() -> None:
    error = failure(OPENAI, *[Reply(error=ProviderError("timeout", "slow"))] * 3)
    assert error.kind == "timeout"
    assert error.message.startswith("OpenAI did not answer within 60 seconds.")
    assert "Seconds to wait for an answer" in error.message
