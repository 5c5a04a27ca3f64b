"""How saying something can fail, as a sentence with a next step, and how long to wait for
the browser to finish an utterance before calling it lost (some never fire `end`)."""

from __future__ import annotations

from app.domain import LexicalError

UNSUPPORTED = (
    "This browser cannot speak text aloud. Try a current Chrome, Edge, Safari or Firefox, "
    "or let your AI provider speak (AI settings)."
)
TIMED_OUT = "Speaking stopped answering, so it was cancelled. Try again."
# `SpeechSynthesisErrorEvent.error` codes; "canceled" and "interrupted" are not failures.
FAILURES: dict[str, str] = {
    "not-allowed": "Your browser lets the page speak only after you click in it. Click, then "
    "try again.",
    "audio-busy": "Another program is using the sound output. Close it, then try again.",
    "audio-hardware": "No speaker or headphones were found. Connect one, then try again.",
    "network": "The voice needs the network, which is not reachable. Choose a voice on this "
    "device in Voice settings, or try again online.",
    "synthesis-unavailable": "Your system's speech engine is not available. Check its speech "
    "settings, then try again.",
    "language-unavailable": "This voice cannot speak that language. Choose another voice in "
    "Voice settings.",
    "voice-unavailable": "That voice is no longer available. Choose another in Voice settings.",
    "text-too-long": "That text is too long to say at once.",
}
FAILED = "The voice could not say that. Try again, or choose another voice in Voice settings."
STOPPED = frozenset({"canceled", "interrupted"})

WAIT_BASE_S = 8.0  # a voice may take seconds to start (speech-dispatcher, a network voice)
WAIT_PER_CHAR_S = 0.15  # about twice as slow as speech at rate 1


class SpeechError(LexicalError):
    """Speaking failed; `message` says so in a sentence for the user."""


def failure(code: str) -> SpeechError:
    """The error for a `SpeechSynthesisErrorEvent.error` code that is a real failure."""
    return SpeechError(FAILURES.get(code, FAILED))


def patience_s(text: str, rate: float) -> float:
    """Seconds to wait for an utterance of `text` at `rate` to end before giving up."""
    return WAIT_BASE_S + len(text) * WAIT_PER_CHAR_S / max(rate, 0.1)
