"""How saying something can fail, as a sentence with a next step; what goes on in text when
nobody can speak; and how long the browser is waited for: its voices, then each utterance's
`start` and `end`, since some engines never fire either (a hung speech-dispatcher).

Measured in Debian's headless Chromium 156: with no voices, `speak()` fires `error`
"synthesis-failed" at once; with speech-dispatcher enabled it fires nothing for 15 s and more
(or `start`, then nothing). A bound on each stage keeps such an engine from blocking anything.
"""

from __future__ import annotations

from typing import Literal

from app.domain import LexicalError

# The starts of the sentences for a browser that cannot speak; app.speech.route ends each with
# what to do instead (`or_provider`).
UNSUPPORTED = "This browser cannot speak text aloud. Try a current Chrome, Edge, Safari or Firefox"
NO_VOICES = "Your browser has no voices. Add one in your system's speech settings"
BROKEN = (
    "Your browser's speech does not work here: it failed or stopped answering. Check your "
    "system's speech settings"
)
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
# The sound output is the trouble, not the voice: another speaker would fail the same way
# (the provider's audio needs the same click and the same speakers).
OUTPUT_FAILURES = frozenset({"not-allowed", "audio-busy", "audio-hardware"})

# Said before the reason when nobody can speak, once per page for each kind of speech.
InText = Literal["drill", "answer", "prompt"]
IN_TEXT: dict[InText, str] = {
    "drill": "Speech is off, so the drill goes on in text.",
    "answer": "Speech is off, so answers are shown, not said.",
    "prompt": "Speech is off, so study prompts are not said (in Listening, Show prompt shows "
    "them).",
}

VOICES_WAIT_S = 2.0  # Chrome lists its voices within about 0.1 s of being asked; others later
# Local voices start within 0.1 s of `speak()`, network voices (Chrome's Google voices) in
# about a second: an engine that has not started by then is not going to.
START_WAIT_S = 3.0
END_BASE_S = 2.0  # once started, a sentence of any length may still take this long to end
END_PER_CHAR_S = 0.15  # ordinary speech is about 14 characters a second; allow half that pace


class SpeechError(LexicalError):
    """Speaking failed; `message` says so in a sentence for the user."""


class SpeechOff(SpeechError):  # noqa: N818 - read as plain words at call sites
    """Nothing was said because the browser cannot say it (no voice for the language, or its
    speech failed or stopped answering) and nobody stood in. app/browser/provider_speaker.py
    has the provider stand in on it; whoever gets it last says so once and goes on in text."""


def failure(code: str) -> SpeechError:
    """The error for a `SpeechSynthesisErrorEvent.error` code that is a real failure: of the
    sound output (its sentence), else of the browser's speech (someone else may say it)."""
    if code in OUTPUT_FAILURES:
        return SpeechError(FAILURES[code])
    return SpeechOff(FAILURES.get(code, FAILED))


def off_notice(off: SpeechOff, where: InText) -> str:
    """The one notice that speech is off where it was wanted, and why."""
    return f"{IN_TEXT[where]} {off.message}"


def patience_s(text: str, rate: float, *, started: bool) -> float:
    """Seconds to wait for an utterance of `text` at `rate`: for its `start` after `speak()`,
    or, once `started`, for its `end`. Past that it is lost and cancelled."""
    if not started:
        return START_WAIT_S
    return END_BASE_S + len(text) * END_PER_CHAR_S / max(rate, 0.1)


def playback_s(text: str, rate: float) -> float:
    """Seconds to wait for the provider's audio of `text`, played at `rate`, to start and end."""
    return patience_s(text, rate, started=False) + patience_s(text, rate, started=True)


def voices_wait_s(*, asked_at: float, now: float) -> float:
    """How much longer to wait for the browser to list its voices, first asked for at
    `asked_at`: a page opened long ago waits no more."""
    return max(0.0, asked_at + VOICES_WAIT_S - now)
