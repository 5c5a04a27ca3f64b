"""What the browser tells the hands-free drill (events, each at a time in seconds on the
browser's clock) and what the drill asks the browser to do (effects, performed in order):
app/drill/machine.py's vocabulary, kept apart from how it decides."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from app.drill.commands import Command
from app.study.model import StudyCard
from app.studying.summary import Summary
from app.voice.problems import Problem

# Events, each at a time in seconds on the browser's clock.


@dataclass(frozen=True, slots=True)
class Begin:
    at: float


@dataclass(frozen=True, slots=True)
class SpeechDone:
    """The `Say` with this id has been said (or cut off)."""

    said: int
    at: float


@dataclass(frozen=True, slots=True)
class Heard:
    """A final result: what the user said, the recogniser's hearings best first."""

    alternatives: tuple[str, ...]
    at: float


@dataclass(frozen=True, slots=True)
class AudioStarted:
    """The microphone's sound reaches the recogniser of the Listen under way (its audiostart;
    the voice detector's first frames): from now on what the learner says is heard whole."""

    at: float


@dataclass(frozen=True, slots=True)
class Interim:
    """The user is talking (speech began or ended, or an interim result): not silent."""

    at: float


@dataclass(frozen=True, slots=True)
class Awaiting:
    """An utterance went to the provider to be transcribed (`done`: its words, or the failure,
    came back). The learner spoke, so while any is on its way no silence is counted and no grade
    is written (each try is bounded by the provider's timeout)."""

    at: float
    done: bool


@dataclass(frozen=True, slots=True)
class Tick:
    at: float


@dataclass(frozen=True, slots=True)
class ListenFailed:
    problem: Problem
    at: float


@dataclass(frozen=True, slots=True)
class Explained:
    """The Scholar's short explanation of the card."""

    text: str
    at: float


@dataclass(frozen=True, slots=True)
class ExplainFailed:
    """Why there is no explanation (no provider configured, offline, an error), as a sentence."""

    message: str
    at: float


@dataclass(frozen=True, slots=True)
class Button:
    """An on-screen control or shortcut (Pause, Resume, Stop, Ctrl+Z for Undo)."""

    command: Command
    at: float


Event: TypeAlias = (
    Begin
    | SpeechDone
    | Heard
    | AudioStarted
    | Interim
    | Awaiting
    | Tick
    | ListenFailed
    | Explained
    | ExplainFailed
    | Button
)


# Effects, for the browser to perform in order.


@dataclass(frozen=True, slots=True)
class Say:
    """Queue `text` for speech in `lang`'s voice at `rate`; report `SpeechDone(id)` when said."""

    text: str
    lang: str
    rate: float
    id: int


@dataclass(frozen=True, slots=True)
class Listen:
    """Recognise one utterance in `lang`, biased towards `phrases` where the browser can."""

    lang: str
    phrases: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StopListening:
    pass


@dataclass(frozen=True, slots=True)
class StopSpeaking:
    """Cut off what is being said and drop what is queued; no `SpeechDone` is awaited."""


@dataclass(frozen=True, slots=True)
class Explain:
    """Ask the Scholar for a short spoken explanation of the card."""

    card: StudyCard


@dataclass(frozen=True, slots=True)
class Remind:
    """After the summary: ask the Scholar for short mnemonics of these missed words."""

    terms: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Finished:
    summary: Summary


Effect: TypeAlias = Say | Listen | StopListening | StopSpeaking | Explain | Remind | Finished
Effects: TypeAlias = tuple[Effect, ...]
