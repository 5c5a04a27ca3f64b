"""Why listening failed, said as a sentence with a next step.

Covers every `SpeechRecognition` error code plus those the browser layer finds itself
("offline", "unsupported", and "provider" when the user's provider could not transcribe,
whose sentence is the provider's own: it knows best what went wrong and what to do).
`fallback` marks the failures of the browser's speech service itself, after which the browser
layer records the microphone and has the user's provider transcribe instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

ErrorCode = Literal[
    "no-speech",
    "aborted",
    "audio-capture",
    "network",
    "not-allowed",
    "service-not-allowed",
    "language-not-supported",
    "bad-grammar",
    "phrases-not-supported",
    "offline",
    "unsupported",
    "provider",
]


@dataclass(frozen=True, slots=True)
class Problem:
    """A listening failure: its code, what to tell the user, and whether to use the provider."""

    code: str
    message: str
    fallback: bool = False


_PROBLEMS: Mapping[str, Problem] = {
    problem.code: problem
    for problem in (
        Problem(
            "no-speech", "I didn't hear anything. Press the microphone and try again, or type."
        ),
        Problem("aborted", "Listening stopped. Press the microphone to try again."),
        Problem(
            "audio-capture",
            "No microphone was found. Connect one (or close other apps using it) and try again, "
            "or type.",
        ),
        Problem(
            "network",
            "The browser's speech service could not be reached, so your provider will "
            "transcribe instead.",
            fallback=True,
        ),
        Problem(
            "not-allowed",
            "The microphone is blocked for this site. To allow it again, open the site settings "
            "(the icon left of the address bar), set Microphone to Allow, then try again.",
        ),
        Problem(
            "service-not-allowed",
            "The browser does not allow its speech service here, so your provider will "
            "transcribe instead.",
            fallback=True,
        ),
        Problem(
            "language-not-supported",
            "Speech recognition does not support your speech language. Choose another one in "
            "Settings, or type.",
        ),
        Problem("bad-grammar", "Speech recognition could not start. Try again, or type."),
        Problem(
            "phrases-not-supported",
            "This browser cannot use the folder's words as hints. Try again: it will listen "
            "without them.",
        ),
        Problem(
            "offline",
            "You are offline, and recognising speech here needs the network. Type instead, or "
            "try again when you are back online.",
        ),
        Problem(
            "unsupported",
            "This browser has no speech recognition. Choose a provider for transcription in "
            "Settings, use Chrome, Edge or Safari, or type.",
        ),
        Problem(
            "provider",
            "Your provider could not transcribe that. Try again, or type your message.",
        ),
    )
}


def problem(code: str, detail: str = "") -> Problem:
    """The problem for an error code; an unknown code still gets a sentence with a next step.
    `detail`, when given, is the sentence to say instead: the provider's own for a "provider"
    failure, or the ladder's reason when only typing is left."""
    found = _PROBLEMS.get(
        code, Problem(code, f"Listening failed ({code}). Try again, or type your message.")
    )
    said = detail.strip()
    return replace(found, message=said) if said else found
