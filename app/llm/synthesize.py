"""Text to speech by the user's provider, for languages the browser has no voice for.

OpenAI (and compatible servers that have it) answer `/audio/speech` with the audio itself.
Gemini's TTS models answer `generateContent` with base64 PCM (16-bit, 24 kHz, mono, typed
like `audio/L16;codec=pcm;rate=24000`) that no browser plays as it is, so it gets a WAV
header here. Many local servers (Ollama) have no speech: their 404 says the browser's own
voices are used instead.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from app.llm import failures, gemini
from app.llm.audio import AudioOptions, counted, language_tag, wire
from app.llm.errors import ProviderError
from app.llm.failures import header
from app.llm.openai import auth_headers
from app.llm.settings import ProviderSettings
from app.llm.transport import Transport
from app.llm.wav import pcm16_wav
from app.llm.wire import Wire

SpeechFormat = Literal["mp3", "wav"]
MAX_SPEECH_CHARS = 4_096  # OpenAI's limit for one request; answers are spoken in sentences
_MIMES: dict[SpeechFormat, str] = {"mp3": "audio/mpeg", "wav": "audio/wav"}
_PCM_RATE = 24_000  # what Gemini's TTS models send when the type does not say
_RATE = re.compile(r"rate=(\d{4,6})")


@dataclass(frozen=True)
class Audio:
    data: bytes
    mime: str


def _browser_speaks(settings: ProviderSettings, status: int | None = None) -> ProviderError:
    return ProviderError(
        "bad_request",
        f"{settings.opening_label} has no speech, so your browser's own voices are used instead.",
        status=status,
    )


def _checked(settings: ProviderSettings, text: str) -> str:
    model = settings.speech_model_name
    if not model:
        raise _browser_speaks(settings)
    if not text.strip():
        raise ProviderError("bad_request", "There is nothing to say.")
    if len(text) > MAX_SPEECH_CHARS:
        raise ProviderError(
            "bad_request",
            f"That is too long to speak in one go ({len(text):,} characters; at most "
            f"{MAX_SPEECH_CHARS:,}). Split it into sentences.",
        )
    return model


async def synthesize(
    settings: ProviderSettings,
    transport: Transport,
    text: str,
    lang: str,
    voice: str = "",
    *,
    response_format: SpeechFormat = "mp3",
    options: AudioOptions | None = None,
) -> Audio:
    """`text` spoken in the language tagged `lang` by `voice` (empty: the one in Settings).
    OpenAI answers in `response_format`; Gemini always as WAV. Raises `ProviderError`."""
    options = options or AudioOptions()
    model = _checked(settings, text)
    key = settings.usable_key()
    voice = voice.strip() or settings.speech_voice_name
    line = wire(settings, transport, model)
    if settings.provider == "gemini":
        url = gemini.model_url(settings.url, model, "generateContent")
        request = line.request(
            "POST", url, gemini.key_header(key), _gemini_body(text, voice), options.cancel
        )

        async def ask_gemini() -> Audio:
            return _gemini_audio(line, await line.json(request))

        return await counted(settings, "speech", model, options, ask_gemini)
    body = _openai_body(
        settings,
        model,
        text,
        lang=language_tag(lang),
        voice=voice,
        response_format=response_format,
    )
    request = line.request(
        "POST", f"{settings.url}/audio/speech", auth_headers(key), body, options.cancel
    )

    async def ask_openai() -> Audio:
        try:
            headers, data = await line.whole(request)
        except ProviderError as error:
            if settings.provider == "openai_compatible" and error.status == 404:
                raise _browser_speaks(settings, 404) from None
            raise
        return _openai_audio(line, headers, data, response_format)

    return await counted(settings, "speech", model, options, ask_openai)


def _openai_body(
    settings: ProviderSettings,
    model: str,
    text: str,
    *,
    lang: str,
    voice: str,
    response_format: SpeechFormat,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": model,
        "input": text,
        "voice": voice,
        "response_format": response_format,
    }
    # Only OpenAI's gpt-4o TTS models take instructions (tts-1 refuses them); a single word
    # is too short for its language to be heard from the text alone.
    if lang and settings.provider == "openai" and model.startswith("gpt-4o"):
        body["instructions"] = f"Speak in the language tagged {lang}, clearly."
    return body


def _openai_audio(
    line: Wire, headers: Mapping[str, str], data: bytes, response_format: SpeechFormat
) -> Audio:
    mime = (header(headers, "content-type") or "").split(";", maxsplit=1)[0].strip().lower()
    if not data or mime.startswith(("application/json", "text/")):
        raise failures.bad_response(line.label)
    return Audio(data, mime if mime.startswith("audio/") else _MIMES[response_format])


def _gemini_body(text: str, voice: str) -> dict[str, Any]:
    return {
        "contents": [{"role": "user", "parts": [{"text": text}]}],
        "generationConfig": {
            "responseModalities": ["AUDIO"],
            "speechConfig": {"voiceConfig": {"prebuiltVoiceConfig": {"voiceName": voice}}},
        },
    }


def _gemini_audio(line: Wire, payload: Any) -> Audio:
    try:
        parts = payload["candidates"][0]["content"]["parts"]
        inline = next(p["inlineData"] for p in parts if "inlineData" in p)
        mime = str(inline.get("mimeType") or "")
        data = base64.b64decode(inline["data"], validate=True)
    except (KeyError, IndexError, TypeError, StopIteration, binascii.Error):
        raise failures.bad_response(line.label) from None
    if not data:
        raise failures.bad_response(line.label)
    if mime.lower().startswith(("audio/l16", "audio/pcm")):
        rate = _RATE.search(mime)
        return Audio(pcm16_wav(data, int(rate.group(1)) if rate else _PCM_RATE), "audio/wav")
    return Audio(data, mime.split(";", maxsplit=1)[0] or "application/octet-stream")
