"""aimock fixtures for provider speech, shared by the unit tests and the e2e tests: aimock
(1.43) answers OpenAI's `/v1/audio/transcriptions` and `/v1/audio/speech` itself, and Gemini
`generateContent` with text (a transcript) or inline audio (speech).

Its journal keeps only the model and headers of an audio upload, not the form's language or
prompt: tests that need those check the request through a recording transport instead."""

from __future__ import annotations

import array
import base64
from typing import Any

HEARD = "la aorta es grande"  # what every recording "says"
SPOKEN = "la aorta"  # text the fixtures speak
MP3 = b"ID3\x04\x00\x00\x00\x00\x00\x00" + bytes(range(64))  # a tag, enough to see bytes pass
PCM = array.array("h", [0, 2_000, -2_000, 0] * 1_200).tobytes()  # 0.2 s at 24 kHz, L16
GEMINI_PCM_MIME = "audio/L16;codec=pcm;rate=24000"
GEMINI_TTS_MODEL = "gemini-2.5-flash-preview-tts"

FIXTURES: list[dict[str, Any]] = [
    {"match": {"endpoint": "transcription"}, "response": {"transcription": {"text": HEARD}}},
    {
        "match": {"endpoint": "speech", "userMessage": SPOKEN},
        "response": {"audio": base64.b64encode(MP3).decode(), "format": "mp3"},
    },
    # Gemini: the transcription instruction comes first in the user's parts.
    {"match": {"userMessage": "Transcribe this recording"}, "response": {"content": HEARD}},
    {
        "match": {"model": GEMINI_TTS_MODEL, "userMessage": SPOKEN},
        "response": {
            "audio": {"b64Json": base64.b64encode(PCM).decode(), "contentType": GEMINI_PCM_MIME}
        },
    },
]
