"""Speech to text by the user's provider, for when the browser cannot recognise speech.

OpenAI and compatible servers take the recording as it was made (WebM/Opus, Ogg, MP4...) in a
multipart upload to `/audio/transcriptions`. Gemini takes audio inline in `generateContent`
but not WebM, so the browser gives it a WAV (`app.llm.wav`) and anything else is a mistake
in the caller. Both are biased towards the open folder's terms, which are the words a
learner is most likely to say and a recogniser most likely to get wrong.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.llm import failures, gemini
from app.llm.audio import AudioOptions, counted, language_tag, terms_hint, wire
from app.llm.errors import ProviderError
from app.llm.multipart import FilePart, form_data
from app.llm.openai import auth_headers
from app.llm.settings import ProviderSettings
from app.llm.transport import Transport
from app.llm.wire import Wire

GEMINI_MIME = "audio/wav"
# What MediaRecorder makes in each browser, and WAV; OpenAI reads the type from the name.
FILE_EXTENSIONS = {
    "audio/webm": "webm",
    "audio/ogg": "ogg",
    "audio/mp4": "mp4",
    "audio/x-m4a": "m4a",
    "audio/mpeg": "mp3",
    "audio/flac": "flac",
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/wave": "wav",
}
# OpenAI takes files up to 25 MB; Gemini requests up to 20 MB, and base64 adds a third.
MAX_AUDIO_BYTES = {"gemini": 14_000_000, "openai": 25_000_000, "openai_compatible": 25_000_000}
PROMPT_CHARS = 600  # whisper reads only the last 224 tokens of a prompt


@dataclass(frozen=True)
class Transcript:
    text: str  # "" when nothing was said
    provider: str
    model: str


def _base_mime(mime: str) -> str:
    return mime.split(";", maxsplit=1)[0].strip().lower()


def _too_long(size: int, limit: int) -> ProviderError:
    return ProviderError(
        "bad_request",
        f"That recording is too long to send ({size / 1e6:,.1f} MB; at most "
        f"{limit / 1e6:,.0f} MB). Say it in shorter parts.",
    )


def _checked(settings: ProviderSettings, audio: bytes, mime: str) -> str:
    """The model to use, once the request is known to make sense; nothing is sent otherwise."""
    model = settings.transcription_model_name
    if not model:
        raise ProviderError(
            "bad_request",
            f"No speech-to-text model is set for {settings.label}. Enter one under Voice in "
            "AI settings if the server has one, or type your message.",
        )
    base = _base_mime(mime)
    if settings.provider == "gemini" and base != GEMINI_MIME:
        raise ValueError(f"Gemini takes WAV recordings only (made by app.llm.wav), not {mime!r}.")
    if base not in FILE_EXTENSIONS:
        raise ValueError(f"No provider is known to take {mime!r} recordings.")
    if not audio:
        raise ProviderError(
            "bad_request",
            "Nothing was recorded. Check that a microphone is connected and allowed, then "
            "try again.",
        )
    limit = MAX_AUDIO_BYTES[settings.provider]
    if len(audio) > limit:
        raise _too_long(len(audio), limit)
    return model


async def transcribe(
    settings: ProviderSettings,
    transport: Transport,
    audio: bytes,
    mime: str,
    lang: str,
    *,
    prompt_terms: Iterable[str] = (),
    options: AudioOptions | None = None,
) -> Transcript:
    """What was said in `audio` (of type `mime`), in the language tagged `lang`. Raises
    `ProviderError` with a sentence; `ValueError` for a type this provider cannot take."""
    options = options or AudioOptions()
    model = _checked(settings, audio, mime)
    key = settings.usable_key()
    hint = terms_hint(prompt_terms, PROMPT_CHARS)
    line = wire(settings, transport, model)
    if settings.provider == "gemini":
        body = _gemini_body(audio, language_tag(lang), hint)
        url = gemini.model_url(settings.url, model, "generateContent")
        request = line.request("POST", url, gemini.key_header(key), body, options.cancel)

        async def ask_gemini() -> str:
            return _gemini_text(line, await line.json(request))

        text = await counted(settings, "transcription", model, options, ask_gemini)
    else:
        content_type, upload = _openai_form(model, audio, mime, lang, hint)
        headers = {"accept": "application/json", "content-type": content_type}
        request = line.request(
            "POST",
            f"{settings.url}/audio/transcriptions",
            {**headers, **auth_headers(key)},
            upload,
            options.cancel,
        )

        async def ask_openai() -> str:
            try:
                return _openai_text(line, await line.json(request))
            except ProviderError as error:
                raise _without_transcription(settings, error) from None

        text = await counted(settings, "transcription", model, options, ask_openai)
    return Transcript(text.strip(), settings.provider, model)


def _openai_form(model: str, audio: bytes, mime: str, lang: str, hint: str) -> tuple[str, bytes]:
    fields = {"model": model, "response_format": "json"}
    primary = language_tag(lang).split("-")[0].lower()
    if len(primary) == 2:  # OpenAI takes ISO 639-1 codes only
        fields["language"] = primary
    if hint:
        fields["prompt"] = hint
    base = _base_mime(mime)
    file = FilePart("file", f"speech.{FILE_EXTENSIONS[base]}", base, audio)
    return form_data(fields, [file])


def _openai_text(line: Wire, payload: Any) -> str:
    text = payload.get("text") if isinstance(payload, dict) else None
    if not isinstance(text, str):
        raise failures.bad_response(line.label)
    return text


def _without_transcription(settings: ProviderSettings, error: ProviderError) -> ProviderError:
    """A compatible server without the endpoint (Ollama has none) says 404: say that."""
    if settings.provider != "openai_compatible" or error.status != 404:
        return error
    return ProviderError(
        "bad_request",
        f"{settings.opening_label} cannot turn speech into text. Type your message, or choose "
        "a provider that can in AI settings.",
        status=404,
    )


def _gemini_instruction(lang: str, hint: str) -> str:
    said = f" The speaker uses the language tagged {lang}." if lang else ""
    words = f" Words that may come up: {hint}." if hint else ""
    return (
        f"Transcribe this recording word for word.{said}{words} Answer with the spoken words "
        "only, without notes, labels or timestamps; if nothing is said, answer with nothing."
    )


def _gemini_body(audio: bytes, lang: str, hint: str) -> dict[str, Any]:
    inline = {"mimeType": GEMINI_MIME, "data": base64.b64encode(audio).decode("ascii")}
    parts = [{"text": _gemini_instruction(lang, hint)}, {"inlineData": inline}]
    return {
        "contents": [{"role": "user", "parts": parts}],
        "generationConfig": {"temperature": 0.0},
    }


def _gemini_text(line: Wire, payload: Any) -> str:
    assembler = gemini.TurnAssembler(turn=0)
    try:
        assembler.add(payload)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise failures.bad_response(line.label) from None
    return assembler.shown
