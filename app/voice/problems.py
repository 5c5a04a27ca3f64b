"""Why listening failed: one table of every error, what it means and what happens next.

Covers every `SpeechRecognition` error code plus those the browser layer finds itself
("offline", "unsupported", "no-microphone", "microphone-busy", and "provider" when the user's
provider could not transcribe, whose sentence is the provider's own: it knows best what went
wrong and what to do). `then` is what the listener does next:

- "listen-again": nothing is wrong with the way of listening; listen again (the drill backs
  off and caps how often, app.voice.restarts);
- "without-hints": the browser refused the hints (the folder's words); app.voice.ladder
  remembers that for this browser and the next try listens without them;
- "next-rung": this way of listening does not work here; app.voice.ladder marks it failed and
  the next try takes the next rung (the browser's service, then the provider, then typing);
- "tell": only the user can fix it; the sentence says how.

`means` records what the error was measured to mean in real browsers (PLATFORM notes,
2026-11-27, Debian Chromium 150 with a fake microphone), where that differs from its name.
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
    "no-microphone",
    "microphone-busy",
    "microphone-unsupported",
    "no-detector",
    "provider",
    "tried-another-way",
]
Then = Literal["listen-again", "without-hints", "next-rung", "tell"]


@dataclass(frozen=True, slots=True)
class Problem:
    """A listening failure: its code, what to tell the user (when it comes to telling), and
    what the listener does next."""

    code: str
    message: str
    then: Then = "tell"
    means: str = ""

    @property
    def recoverable(self) -> bool:
        """Listening again (perhaps another way) may work without the user doing anything."""
        return self.then != "tell"


_PROBLEMS: Mapping[str, Problem] = {
    problem.code: problem
    for problem in (
        Problem(
            "no-speech",
            "I didn't hear anything. Press the microphone and try again.",
            "listen-again",
            "A while passed with no speech (Chrome gives up after about eight seconds).",
        ),
        Problem(
            "aborted",
            "Listening stopped. Press the microphone to try again.",
            "listen-again",
            "Listening was stopped: by the app, or by the browser for another tab.",
        ),
        Problem(
            "audio-capture",
            "Your browser's speech recognition could not use the microphone. Choose a provider "
            "for transcription in AI settings, and Lexical will record it itself.",
            "next-rung",
            "The recogniser could not capture audio. Debian's Chromium says this while "
            "getUserMedia records fine from the same microphone, so the app records instead.",
        ),
        Problem(
            "network",
            "Your browser's speech service could not be reached. Choose a provider for "
            "transcription in AI settings.",
            "next-rung",
            "The browser's speech service is missing or unreachable (Linux builds without "
            "Google's keys say this at once, every time).",
        ),
        Problem(
            "not-allowed",
            "The microphone is blocked for this site. To allow it again, open the site settings "
            "(the icon left of the address bar), set Microphone to Allow, then try again.",
            means="The user or a policy refused the microphone.",
        ),
        Problem(
            "service-not-allowed",
            "The browser does not allow its speech service here. Choose a provider for "
            "transcription in AI settings.",
            "next-rung",
            "The browser or its settings forbid its speech service for this page.",
        ),
        Problem(
            "language-not-supported",
            "Speech recognition does not support your speech language. Choose another one in "
            "Settings, or a provider for transcription in AI settings.",
            "next-rung",
            "The recogniser has no model for the language; Chromium also says this for "
            "on-device recognition given hints, so hints are dropped first.",
        ),
        Problem(
            "bad-grammar",
            "Speech recognition could not start with the folder's words as hints. Try again.",
            "without-hints",
            "The hints (a grammar or phrases) were refused.",
        ),
        Problem(
            "phrases-not-supported",
            "This browser cannot use the folder's words as hints, so it listens without them.",
            "without-hints",
            "Contextual phrases are not supported (Chromium fires this at once, even before "
            "start()); the same recogniser may work without them.",
        ),
        Problem(
            "offline",
            "You are offline, and recognising speech here needs the network. Try again when "
            "you are back online.",
            means="The page is offline and the way of listening needs the network.",
        ),
        Problem(
            "unsupported",
            "This browser has no speech recognition. Choose a provider for transcription in "
            "AI settings, or use Chrome, Edge or Safari.",
            means="No way of listening is left (the ladder's own sentence says why).",
        ),
        Problem(
            "no-microphone",
            "No microphone was found. Connect one and try again.",
            means="getUserMedia found no microphone (NotFoundError, OverconstrainedError).",
        ),
        Problem(
            "microphone-busy",
            "The microphone could not be started. Close other apps that use it and try again.",
            means="getUserMedia found the microphone but could not open it (NotReadableError).",
        ),
        Problem(
            "provider",
            "Your provider could not transcribe that. Try again.",
            means="The provider answered with an error; its own sentence replaces this one.",
        ),
        Problem(
            "no-detector",
            "The voice detector could not load: it needs the network once. Try again when you "
            "are online, or hold Say it in Speaking mode.",
            means="static/vad.js or its model could not be fetched (offline, not cached yet).",
        ),
        Problem(
            "tried-another-way",
            "Listening did not work that way in this browser, so it will listen another way "
            "now. Try again.",
            "listen-again",
            "A rung refused after the user let go: the ladder learnt, the next press climbs.",
        ),
        Problem(
            "microphone-unsupported",
            "This page cannot use the microphone: browsers allow it only on https pages and "
            "on this computer's own address. Open Lexical over https.",
            means="No getUserMedia, MediaRecorder or Web Audio (an http page, an old browser).",
        ),
    )
}


def problem(code: str, detail: str = "", *, passing: bool = False) -> Problem:
    """The problem for an error code; an unknown code still gets a sentence with a next step.
    `detail`, when given, is the sentence to say instead: the provider's own for a "provider"
    failure, or the ladder's reason when only typing is left. `passing` marks a failure that
    may clear by itself (a provider's rate limit, server error or timeout): listen again."""
    found = _PROBLEMS.get(code, Problem(code, f"Listening failed ({code}). Try again."))
    said = detail.strip()
    found = replace(found, message=said) if said else found
    return replace(found, then="listen-again") if passing else found
