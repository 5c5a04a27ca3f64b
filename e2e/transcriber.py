"""A real speech recogniser behind an OpenAI-compatible transcription endpoint, on loopback,
for end-to-end tests of the voice path (issue 24): `pocketsphinx` hears what Chromium's fake
microphone played, instead of a double returning a canned text.

What it serves, as OpenAI does (`https://api.openai.com/v1`):
- `POST /v1/audio/transcriptions`, multipart/form-data with `file` and `model`, and optional
  `prompt`, `language` and `response_format` (json, text, verbose_json, srt, vtt). Answers
  `{"text": "..."}`; errors are `{"error": {"message", "type", "param", "code"}}` with 400
  (bad form, bad audio, bad format), 401 (wrong key, when the server has one), 404 (unknown
  model or path), 413 (over 25 MB), 429 and 500 (injected).
- `GET /v1/models`, so the app's Test key lists the one model, `MODEL`.
- Gemini's shape of the same, as the app's Gemini path sends it (app/llm/transcribe.py):
  `POST /v1beta/models/{model}:generateContent` whose parts hold the instruction (its "Words that
  may come up: …" are the hints) and the WAV as `inlineData`, answered as a candidate's text;
  errors in Gemini's `{"error": {"code", "message", "status"}}`; `GET /v1beta/models`; the key
  in `x-goog-api-key`.
- Everything else (the chat a spoken request goes on to) is passed to `upstream` when one is
  given (the aimock emulator, which scripts the model's turns), since the app has one provider
  address for both; without one it is a 404.
- CORS for any origin, and the preflight (`OPTIONS`).

How it hears: the upload is decoded with PyAV (WebM/Opus from Chromium's MediaRecorder, Ogg/Opus
from Firefox's, WAV from the Gemini path, or anything FFmpeg reads) and resampled to 16 kHz mono
16-bit for pocketsphinx's US English model (in its wheel). The open model mishears espeak-ng
badly ("water" → "what a", "skip" → "you"), so when the `prompt` lists words or phrases (the app
sends the expected answers as "dog, cat, kitty, …"), the recogniser may hear only one of those,
one of `COMMAND_PHRASES`, or nothing (a JSGF grammar of those alternatives and <NULL>: without
the choice of nothing, noise was heard as "no"). A prompt with no usable phrase (empty, prose,
or only words the dictionary lacks) falls back to the open model. A test that speaks whole
requests names them in `sentences`, which join the grammar: the open model never heard an
espeak-ng sentence right, and a real provider hears open speech, so these stand in for it. An
upload with less than 0.1 s of sound (10 ms frames above -50 dBFS) is silence, answered ""
without asking the model.
The `language` field is recorded, but the model is English only.

Measured on this machine (2 cores; espeak-ng `-v en` words at 48 kHz mono as the suite's fake
microphone plays them, as WAV and as recorded by headless Chromium's MediaRecorder, WebM/Opus):
- With a prompt of 10 words (dog, cat, kitty, house, home, book, water, sun, apple, green) plus
  the command phrases: 12 of 15 words heard exactly, the same 12 from WAV and from Chromium
  (dog, house, water, apple, green, book, yes, no, skip, repeat, undo, "i don't know"); "stop"
  is heard as "dog", "sun" as "stop", "cat" as "dog" (WAV) or nothing (Chromium): espeak-ng's
  British voice against a US model. Words not in the list: "telephone" → nothing or "sun",
  "banana" → "i don't know". Silence, a 440 Hz tone, white noise (sox `vol` 0.1, 0.3, 0.9),
  pink and brown noise → "" every time.
- Without a prompt (the open model): none of the 15 right from WAV, 3 from Chromium (apple, no,
  "i don't know"); silence, tone and noise → "", except loud white noise (`vol` 0.9) recorded
  through Chromium → "gervais".
- Chromium's fake microphone playing a silent file records samples of ±1, where pocketsphinx
  heard "dog" (with the hints) and "in" (open model): hence the level check above.
- The same upload is heard the same way whatever came before (the front end is reset for each).
- Seconds per request (decode + recognise, the journal's `seconds`) for clips of 0.6-1.5 s:
  with a prompt 0.01-0.12 (median 0.03), open model 0.08-0.9 (median 0.25). Loading the model
  takes 0.5-1 s, once per test session.

Tests use the `transcriber` fixture (import it as `from e2e.transcriber import transcriber as
transcriber`), or `running_transcriber(key=...)` for a server that wants a key:
`transcriber.url` is the base to give the app (`f"{transcriber.url}/v1"`, model `MODEL`, set
as the chat model and as Speech to text in AI settings), `transcriber.requests` the journal (one
`Transcription` per upload: size, mime, prompt, language, status, text, seconds, the audio), and
`transcriber.fail("rate_limit" | "server_error" | "hang" | "drop", times=N)` makes the next N
transcription requests fail that way. e2e/test_real_recogniser.py shows it in a real page.
"""

from __future__ import annotations

import array
import base64
import binascii
import contextlib
import email.parser
import email.policy
import http.server
import io
import json
import re
import socket
import struct
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any, Literal

import av
import pytest
from pocketsphinx import Decoder  # type: ignore[import-untyped]

MODEL = "pocketsphinx-en-us"
RATE = 16_000  # what pocketsphinx's model was trained on
MAX_UPLOAD_BYTES = 25 * 1024 * 1024  # OpenAI's limit
FORMATS = ("json", "text", "verbose_json", "srt", "vtt")
# The drill's commands and the yes / no of a confirmation, in their plainest words (each is a
# phrase of app/drill/commands.py or app/voice/answers.py; e2e/test_transcriber.py checks).
# Every phrase of those lists would make the grammar 116 phrases long, and then "yes" is heard
# as "yeah" and "water" as "what": 10 of 15 espeak-ng words right instead of 12.
COMMAND_PHRASES = (
    *("yes", "no", "skip", "next", "repeat", "slower", "undo", "stop", "pause", "resume"),
    *("again", "hard", "good", "easy", "i don't know", "what does it mean", "help me remember"),
)
# Sound is 10 ms frames louder than -50 dBFS (RMS 100 of 32768); an upload with less than 0.1 s
# of it is silence, answered "" without asking the model. Chromium's fake microphone playing
# digital silence records samples of ±1, and pocketsphinx heard "dog" in that (the open
# model "in"): normalising the features makes the faintest hiss look like speech.
SOUND_RMS = 100
SOUND_FRAMES = 10
MAX_PHRASE_WORDS = 5  # a longer piece of a prompt is prose: the prompt is not a word list
WORD = re.compile(r"[a-z]+(?:'[a-z]+)*")

FailureKind = Literal["rate_limit", "server_error", "hang", "drop"]
GEMINI_METHOD = re.compile(r"/v1beta/models/([^/:]+):generateContent")
# The hints in the Gemini path's instruction (app/llm/transcribe.py `_gemini_instruction`).
GEMINI_HINTS = re.compile(r"Words that may come up: (.*?)\. Answer with")
GEMINI_STATUS = {400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 404: "NOT_FOUND"}
GEMINI_STATUS |= {413: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL"}


class AudioError(ValueError):
    """The upload is not audio PyAV can decode."""


def pcm16k(data: bytes) -> tuple[bytes, float]:
    """The audio in `data` (any container FFmpeg reads) as 16 kHz mono signed 16-bit
    samples, and its length in seconds. Raises AudioError."""
    chunks: list[bytes] = []
    try:
        with av.open(io.BytesIO(data), mode="r") as container:
            if not container.streams.audio:
                raise AudioError("no audio stream")
            resampler = av.AudioResampler(format="s16", layout="mono", rate=RATE)
            for frame in container.decode(audio=0):
                for out in resampler.resample(frame):
                    chunks.append(bytes(out.planes[0])[: out.samples * 2])
            for out in resampler.resample(None):
                chunks.append(bytes(out.planes[0])[: out.samples * 2])
    except (av.FFmpegError, EOFError, OSError) as error:
        raise AudioError(str(error)) from None
    pcm = b"".join(chunks)
    return pcm, len(pcm) / 2 / RATE


@dataclass(frozen=True)
class Heard:
    text: str  # "" when nothing was heard
    phrases: tuple[str, ...]  # what the grammar allowed; () for the open model


def sounds(pcm: bytes) -> bool:
    """Whether 16 kHz s16 `pcm` holds at least SOUND_FRAMES frames of sound."""
    samples = array.array("h", pcm[: len(pcm) // 2 * 2])
    frame = RATE // 100
    floor = SOUND_RMS * SOUND_RMS * frame
    loud = 0
    for start in range(0, len(samples) - frame + 1, frame):
        if sum(x * x for x in samples[start : start + frame]) >= floor:
            loud += 1
            if loud >= SOUND_FRAMES:
                return True
    return False


def _tokens(text: str) -> tuple[str, ...]:
    return tuple(WORD.findall(text.lower().replace("’", "'")))


def _word(segment: str) -> str | None:
    """The dictionary word of a segment ("don't(2)": its second pronunciation), or None for
    silence, noise and the grammar's null transitions."""
    if segment.startswith(("<", "[", "(", "+")):
        return None
    return re.sub(r"\(\d+\)$", "", segment)


class Recogniser:
    """pocketsphinx's US English model, one utterance at a time (a decoder is not
    thread-safe); a grammar is made once per distinct list of phrases."""

    def __init__(self) -> None:
        # The lattice pass after a grammar search returns a path that stops short of the
        # grammar's end ("i don't" for "i don't know", "" for "cat"): off.
        self._decoder = Decoder(loglevel="FATAL", bestpath=False)
        # For a test's sentences: at the default beams the first word of an espeak-ng sentence
        # was pruned, and even a grammar of that one sentence heard nothing ("make a folder
        # called cardiology", `-v en-us`); these beams heard it and "what does aorta mean" among
        # the commands (`-v en`, British, was heard as "slower" and "easy" even so).
        self._wide: Decoder | None = None
        self._grammars: dict[tuple[bool, tuple[str, ...]], str] = {}
        self._lock = threading.Lock()

    def known(self, phrase: str) -> bool:
        words = _tokens(phrase)
        return bool(words) and all(self._decoder.lookup_word(w) is not None for w in words)

    def phrases(self, prompt: str) -> tuple[str, ...]:
        """The phrases a prompt lists that the dictionary can say, then the commands; empty
        when the prompt lists none (empty, prose, or only unknown words)."""
        pieces = [" ".join(p.split()) for p in re.split(r"[,;\n]", prompt)]
        pieces = [p for p in pieces if _tokens(p)]
        if not pieces or any(len(_tokens(p)) > MAX_PHRASE_WORDS for p in pieces):
            return ()
        # The dictionary is English: "café" is not "caf" and "é".
        listed = [p for p in pieces if p.isascii() and self.known(p)]
        if not listed:
            return ()
        chosen: dict[tuple[str, ...], str] = {}
        for phrase in [*listed, *filter(self.known, COMMAND_PHRASES)]:
            chosen.setdefault(_tokens(phrase), phrase)
        return tuple(chosen.values())

    def hear(self, pcm: bytes, phrases: Sequence[str] = (), *, wide: bool = False) -> Heard:
        """What was said in `pcm` (16 kHz mono s16): one of `phrases` or nothing when they
        are given, else what the open model hears; nothing in silence. `wide`: with the beams
        whole sentences need."""
        phrases = tuple(phrases)
        if not sounds(pcm):
            return Heard("", phrases)
        with self._lock:
            decoder = self._decoder_for(wide=wide)
            # A fresh front end each time: its noise estimate carried over from one utterance
            # to the next, and the same upload was heard differently after a noisy one.
            decoder.reinit_feat()
            decoder.activate_search(self._grammar(decoder, phrases) if phrases else "_default")
            decoder.start_utt()
            decoder.process_raw(pcm, full_utt=True)
            decoder.end_utt()
            found = decoder.hyp() is not None
            segments = [str(s.word) for s in decoder.seg()] if found else []
        said = tuple(w for w in map(_word, segments) if w is not None)
        if not phrases:
            return Heard(" ".join(said), phrases)
        as_given = {_tokens(p): p for p in phrases}
        return Heard(as_given.get(said, " ".join(said)), phrases)

    def _decoder_for(self, *, wide: bool) -> Decoder:
        if not wide:
            return self._decoder
        if self._wide is None:
            self._wide = Decoder(
                loglevel="FATAL", bestpath=False, beam=1e-80, wbeam=1e-60, pbeam=1e-80
            )
        return self._wide

    def _grammar(self, decoder: Decoder, phrases: tuple[str, ...]) -> str:
        """The search that hears one of `phrases`, or nothing: without the <NULL> choice, noise
        and silence were heard as the shortest phrase ("no")."""
        key = (decoder is not self._decoder, phrases)
        name = self._grammars.get(key)
        if name is None:
            name = f"hints{len(self._grammars)}"
            alternatives = " | ".join(" ".join(_tokens(p)) for p in phrases)
            grammar = f"#JSGF V1.0;\ngrammar hints;\npublic <said> = <NULL> | {alternatives};\n"
            decoder.add_jsgf_string(name, grammar)
            self._grammars[key] = name
        return name


_shared: list[Recogniser] = []


def recogniser() -> Recogniser:
    """The one recogniser of this process (loading the model takes about a second)."""
    if not _shared:
        _shared.append(Recogniser())
    return _shared[0]


@dataclass
class Transcription:
    """One request to the transcription endpoint, as the journal keeps it."""

    number: int  # from 1, in arrival order
    content_type: str = ""
    size: int = 0  # bytes of the uploaded file
    audio: bytes = field(default=b"", repr=False)  # the uploaded file
    mime: str = ""  # the file part's own type
    filename: str = ""
    model: str = ""
    prompt: str | None = None
    language: str | None = None
    response_format: str = "json"
    status: int = 0  # 0 while it runs, and for a hang or drop (no answer)
    text: str | None = None  # what was answered, when it was a transcription
    error: str = ""  # the error's message, when it was one
    failure: FailureKind | None = None  # injected
    seconds: float = 0.0  # decoding and recognising
    audio_seconds: float = 0.0
    phrases: tuple[str, ...] = ()  # what the recogniser could hear; () for the open model


@dataclass(frozen=True)
class Failure:
    kind: FailureKind
    retry_after_s: int = 1
    hang_s: float = 120.0


class ApiError(Exception):
    def __init__(
        self,
        status: int,
        message: str,
        kind: str = "invalid_request_error",
        param: str | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.message, self.kind, self.param, self.code = (
            status,
            message,
            kind,
            param,
            code,
        )

    def body(self, gemini: bool = False) -> dict[str, Any]:
        if gemini:
            status = GEMINI_STATUS.get(self.status, "UNKNOWN")
            return {"error": {"code": self.status, "message": self.message, "status": status}}
        return {
            "error": {
                "message": self.message,
                "type": self.kind,
                "param": self.param,
                "code": self.code,
            }
        }


@dataclass
class Transcriber:
    """The server while it runs: its address, its journal and its failure queue."""

    url: str
    key: str = ""  # when set, requests must send `authorization: Bearer <key>`
    models: tuple[str, ...] = (MODEL,)
    upstream: str = ""  # where every other request goes (see the module's docstring)
    sentences: tuple[str, ...] = ()  # whole requests a test speaks, heard among the hints
    requests: list[Transcription] = field(default_factory=list)
    _failures: deque[Failure] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    closing: threading.Event = field(default_factory=threading.Event)

    def fail(
        self, kind: FailureKind, times: int = 1, *, retry_after_s: int = 1, hang_s: float = 120.0
    ) -> None:
        """The next `times` transcription requests fail: "rate_limit" answers 429 with
        Retry-After, "server_error" 500, "hang" answers nothing for `hang_s` seconds (or until
        the server stops) and then closes, "drop" reads half the upload and resets the
        connection."""
        with self._lock:
            self._failures.extend(Failure(kind, retry_after_s, hang_s) for _ in range(times))

    def next_failure(self) -> Failure | None:
        with self._lock:
            return self._failures.popleft() if self._failures else None

    def received(self) -> Transcription:
        """A new entry in the journal, for a request that just arrived."""
        with self._lock:
            entry = Transcription(number=len(self.requests) + 1)
            self.requests.append(entry)
            return entry

    def answered(self) -> list[Transcription]:
        """The requests that got a transcription."""
        return [r for r in self.requests if r.text is not None]


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, owner: Transcriber, recogniser: Recogniser) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.owner = owner
        self.recogniser = recogniser

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away (a browser giving up on a hang) is no test failure."""


CORS = {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": "authorization, content-type",
    "access-control-max-age": "600",
}


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    gemini: dict[str, Any] | None = None  # the request's body, on Gemini's path

    def log_message(self, format: str, *args: Any) -> None:
        pass

    # --- answering --------------------------------------------------------------------------

    def _send(self, status: int, body: bytes, content_type: str, **headers: str) -> None:
        self.send_response(status)
        for name, value in {**CORS, **headers}.items():
            self.send_header(name.replace("_", "-"), value)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, payload: Any, **headers: str) -> None:
        self._send(status, json.dumps(payload).encode(), "application/json", **headers)

    def _error(self, error: ApiError, **headers: str) -> None:
        self._json(error.status, error.body(self.gemini is not None), **headers)

    def do_OPTIONS(self) -> None:
        self.send_response(204)
        for name, value in CORS.items():
            self.send_header(name, value)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        owner = self.server.owner
        path = self.path.split("?")[0].rstrip("/")
        if path not in ("/v1/models", "/v1beta/models") and owner.upstream:
            self._proxy(None)
            return
        try:
            if path not in ("/v1/models", "/v1beta/models"):
                raise ApiError(404, f"Invalid URL (GET {self.path})")
            self._check_key()
        except ApiError as error:
            self._error(error)
            return
        if path == "/v1beta/models":
            methods = ["generateContent"]
            listed = [
                {"name": f"models/{m}", "supportedGenerationMethods": methods} for m in owner.models
            ]
            self._json(200, {"models": listed})
            return
        data = [
            {"id": m, "object": "model", "created": 0, "owned_by": "pocketsphinx"}
            for m in owner.models
        ]
        self._json(200, {"object": "list", "data": data})

    def do_POST(self) -> None:
        path = self.path.split("?")[0]
        if GEMINI_METHOD.fullmatch(path):
            self.gemini = self._gemini_request()
            if self.gemini is None:
                return
        elif path != "/v1/audio/transcriptions":
            if self.server.owner.upstream:
                self._proxy(self._body())
                return
            self._drain()
            self._error(ApiError(404, f"Invalid URL (POST {self.path})"))
            return
        owner = self.server.owner
        entry = owner.received()
        entry.content_type = self.headers.get("content-type", "")
        failure = owner.next_failure()
        if failure is not None:
            entry.failure = failure.kind
            self._failed(failure, entry)
            return
        try:
            self._check_key()
            self._transcribe(entry, self._upload(entry))
        except ApiError as error:
            entry.status, entry.error = error.status, error.message
            self._error(error)

    # --- the steps of a transcription -------------------------------------------------------

    def _check_key(self) -> None:
        key = self.server.owner.key
        if not key:
            return
        if self.gemini is not None or self.path.startswith("/v1beta/"):
            if self.headers.get("x-goog-api-key", "") != key:
                message = "API key not valid. Please pass a valid API key."
                raise ApiError(400, message)
            return
        if self.headers.get("authorization", "") != f"Bearer {key}":
            self._drain()
            message = "Incorrect API key provided. You can find your API key in your settings."
            raise ApiError(401, message, code="invalid_api_key")

    def _body(self) -> bytes:
        length = self._length()
        return self.rfile.read(length) if length else b""

    def _gemini_request(self) -> dict[str, Any] | None:
        """The JSON body of a Gemini call when it carries audio to transcribe; a call without
        audio (a chat turn) is passed on, and None is returned once it is answered."""
        if self._length() > MAX_UPLOAD_BYTES:
            self._drain()
            self.gemini = {}
            self._error(ApiError(413, "Request payload size exceeds the limit."))
            return None
        body = self._body()
        try:
            payload = json.loads(body or b"{}")
        except ValueError:
            payload = None
        if isinstance(payload, dict) and _inline_audio(payload) is not None:
            return payload
        if self.server.owner.upstream:
            self._proxy(body)
        else:
            self.gemini = {}
            self._error(ApiError(400, "This server transcribes audio only."))
        return None

    def _proxy(self, body: bytes | None) -> None:
        """Pass the request to `upstream` and its answer back (streams are read whole)."""
        names = ("authorization", "content-type", "x-goog-api-key", "accept")
        headers = {n: v for n in names if (v := self.headers.get(n))}
        method = "GET" if body is None else "POST"
        url = f"{self.server.owner.upstream}{self.path}"
        request = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                status, data, kind = answer.status, answer.read(), answer.headers
        except urllib.error.HTTPError as error:
            status, data, kind = error.code, error.read(), error.headers
        self._send(status, data, kind.get("content-type", "application/json"))

    def _length(self) -> int:
        try:
            return max(int(self.headers.get("content-length", "0")), 0)
        except ValueError:
            return 0

    def _drain(self) -> None:
        """Read the body unread, so that the connection can serve another request."""
        length = self._length()
        if length > MAX_UPLOAD_BYTES:
            self.close_connection = True
        elif length:
            self.rfile.read(length)

    def _failed(self, failure: Failure, entry: Transcription) -> None:
        if failure.kind == "drop":
            self.rfile.read(self._length() // 2)
            # A reset, not a polite close: the upload stops half way, as a dropped network does.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
            return
        with contextlib.suppress(ApiError):
            self._upload(entry)  # into the journal, as far as it makes sense
        if failure.kind == "hang":
            self.server.owner.closing.wait(failure.hang_s)
            self.close_connection = True
            return
        if failure.kind == "rate_limit":
            entry.status = 429
            message = (
                f"Rate limit reached for {MODEL} on requests per min (RPM): Limit 3, Used 3, "
                f"Requested 1. Please try again in {failure.retry_after_s}s."
            )
            error = ApiError(429, message, "requests", code="rate_limit_exceeded")
            entry.error = message
            self._error(
                error,
                retry_after=str(failure.retry_after_s),
                x_ratelimit_limit_requests="3",
                x_ratelimit_remaining_requests="0",
                x_ratelimit_reset_requests=f"{failure.retry_after_s}s",
            )
            return
        entry.status = 500
        message = "The server had an error while processing your request. Sorry about that!"
        entry.error = message
        self._error(ApiError(500, message, "server_error"))

    def _form(self) -> EmailMessage:
        length = self._length()
        if length > MAX_UPLOAD_BYTES:
            self.close_connection = True
            raise ApiError(
                413,
                f"Maximum content size limit ({MAX_UPLOAD_BYTES}) exceeded ({length} bytes read)",
            )
        body = self.rfile.read(length) if length else b""
        content_type = self.headers.get("content-type", "")
        if not content_type.lower().startswith("multipart/form-data") or "boundary=" not in (
            content_type
        ):
            raise ApiError(
                400,
                "Invalid Content-Type header "
                f"({content_type or 'none'}), expected multipart/form-data. (HINT: If you're "
                "using curl, you can pass -F 'file=@path/to/file' to send a file.)",
            )
        head = f"content-type: {content_type}\r\n\r\n".encode()
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
        if not isinstance(message, EmailMessage) or not message.is_multipart():
            raise ApiError(400, "Could not parse multipart form")
        return message

    def _upload(self, entry: Transcription) -> bytes | None:
        """Read the form into the journal's entry; the file's bytes (None when it has none)."""
        if self.gemini is not None:
            return self._gemini_upload(entry, self.gemini)
        form = self._form()
        fields: dict[str, str] = {}
        audio: bytes | None = None
        for part in form.iter_parts():
            if not isinstance(part, EmailMessage):
                continue
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True)
            if not isinstance(name, str) or not isinstance(payload, bytes):
                continue
            if name == "file":
                audio = payload
                entry.filename = part.get_filename() or ""
                entry.mime = part.get_content_type()
            else:
                fields[name] = payload.decode("utf-8", "replace")
        entry.model = fields.get("model", "")
        entry.prompt = fields.get("prompt")
        entry.language = fields.get("language")
        entry.response_format = fields.get("response_format", "json")
        entry.audio = audio or b""
        entry.size = len(entry.audio)
        return audio

    def _gemini_upload(self, entry: Transcription, body: dict[str, Any]) -> bytes | None:
        found = _inline_audio(body)
        if found is None:
            return None
        entry.mime, data = found
        match = GEMINI_METHOD.fullmatch(self.path.split("?")[0])
        entry.model = match.group(1) if match else ""
        said = " ".join(
            str(part.get("text", ""))
            for content in body.get("contents", [])
            for part in content.get("parts", [])
        )
        hints = GEMINI_HINTS.search(said)
        entry.prompt = hints.group(1) if hints else None
        try:
            audio = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise ApiError(
                400, "Invalid value at 'contents[0].parts[1].inline_data.data'"
            ) from None
        entry.audio, entry.size = audio, len(audio)
        return audio

    def _transcribe(self, entry: Transcription, audio: bytes | None) -> None:
        if audio is None:
            raise ApiError(
                400, "Missing required parameter: 'file'.", param="file", code="missing_required"
            )
        if not entry.model:
            raise ApiError(400, "you must provide a model parameter", param="model")
        if entry.model not in self.server.owner.models:
            raise ApiError(
                404,
                f"The model `{entry.model}` does not exist or you do not have access to it.",
                code="model_not_found",
            )
        if entry.response_format not in FORMATS:
            raise ApiError(
                400,
                f"'{entry.response_format}' is not one of {list(FORMATS)} - 'response_format'",
                param="response_format",
                code="invalid_value",
            )
        started = time.perf_counter()
        try:
            pcm, entry.audio_seconds = pcm16k(audio)
        except AudioError:
            raise ApiError(
                400,
                "Audio file might be corrupted or unsupported",
                param="file",
                code="invalid_value",
            ) from None
        recogniser = self.server.recogniser
        phrases = recogniser.phrases(entry.prompt or "")
        sentences = self.server.owner.sentences
        if sentences:
            phrases = tuple(dict.fromkeys((*sentences, *phrases, *COMMAND_PHRASES)))
        heard = recogniser.hear(pcm, phrases, wide=bool(sentences))
        entry.seconds = time.perf_counter() - started
        entry.phrases, entry.text, entry.status = heard.phrases, heard.text, 200
        self._answer(entry)

    def _answer(self, entry: Transcription) -> None:
        text, duration = entry.text or "", entry.audio_seconds
        if self.gemini is not None:
            content = {"role": "model", "parts": [{"text": text}]}
            candidate = {"content": content, "finishReason": "STOP", "index": 0}
            self._json(200, {"candidates": [candidate], "modelVersion": entry.model})
            return
        match entry.response_format:
            case "text":
                self._send(200, f"{text}\n".encode(), "text/plain; charset=utf-8")
            case "verbose_json":
                segments = [
                    {"id": 0, "seek": 0, "start": 0.0, "end": round(duration, 2), "text": text}
                ]
                payload = {
                    "task": "transcribe",
                    "language": "english",
                    "duration": round(duration, 2),
                    "text": text,
                    "segments": segments if text else [],
                }
                self._json(200, payload)
            case "srt" | "vtt":
                self._send(200, _cues(text, duration, entry.response_format).encode(), "text/plain")
            case _:
                self._json(200, {"text": text})


def _inline_audio(body: dict[str, Any]) -> tuple[str, str] | None:
    """The (mime type, base64 data) of the first audio part of a Gemini request, if any."""
    for content in body.get("contents", []) if isinstance(body.get("contents"), list) else []:
        for part in content.get("parts", []) if isinstance(content, dict) else []:
            inline = part.get("inlineData") if isinstance(part, dict) else None
            if isinstance(inline, dict) and str(inline.get("mimeType", "")).startswith("audio/"):
                return str(inline["mimeType"]), str(inline.get("data", ""))
    return None


def _cues(text: str, duration: float, kind: str) -> str:
    if not text:
        return "WEBVTT\n\n" if kind == "vtt" else ""
    ms = round(duration * 1000)
    sep = "." if kind == "vtt" else ","
    end = f"{ms // 3_600_000:02}:{ms // 60_000 % 60:02}:{ms // 1000 % 60:02}{sep}{ms % 1000:03}"
    cue = f"00:00:00{sep}000 --> {end}\n{text}\n\n"
    return f"WEBVTT\n\n{cue}" if kind == "vtt" else f"1\n{cue}"


@contextmanager
def running_transcriber(
    key: str = "",
    models: Sequence[str] = (MODEL,),
    *,
    upstream: str = "",
    sentences: Sequence[str] = (),
) -> Iterator[Transcriber]:
    """A transcription server on a free loopback port while the block runs."""
    owner = Transcriber(
        url="", key=key, models=tuple(models), upstream=upstream, sentences=tuple(sentences)
    )
    server = _Server(owner, recogniser())
    host, port = server.server_address[:2]
    server.owner.url = f"http://{host!s}:{port}"
    thread = threading.Thread(
        target=server.serve_forever, args=(0.05,), name="transcriber", daemon=True
    )
    thread.start()
    try:
        yield server.owner
    finally:
        server.owner.closing.set()  # ends hangs
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture
def transcriber() -> Iterator[Transcriber]:
    """A transcription server for one test, without a key."""
    with running_transcriber() as server:
        yield server
