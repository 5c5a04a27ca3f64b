"""What the browser tells the listening machine (app/voice/listening.py): Web Speech
recognition's events in their real order, presses, ticks and the answer's and speech's
progress, each at a time in seconds on the browser's clock; and the effects it asks for. Every
listener (the assistant, the drill, Speaking mode) hears through these events, whichever way
the audio is recognised."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from app.voice.problems import Problem

Mode = Literal["push_to_talk", "conversation"]


# Events (what the browser saw), each at a time in seconds on the browser's clock.


@dataclass(frozen=True, slots=True)
class Press:
    """The microphone button or shortcut went down (conversation mode: clicked)."""

    at: float
    mode: Mode = "push_to_talk"


@dataclass(frozen=True, slots=True)
class Release:
    """The push-to-talk button or key came up."""

    at: float


@dataclass(frozen=True, slots=True)
class Stop:
    """Escape, or the stop button."""

    at: float


@dataclass(frozen=True, slots=True)
class Ask:
    """The assistant asked something aloud (a confirmation) and waits for a spoken reply:
    listen as a conversation turn does (sent after a silence, never for silence), then go on
    as the user was talking before."""

    at: float


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passes (the countdown needs it)."""

    at: float


@dataclass(frozen=True, slots=True)
class RecognitionStart:
    """SpeechRecognition "start": a new session whose results start from empty."""

    at: float


@dataclass(frozen=True, slots=True)
class AudioStart:
    """SpeechRecognition "audiostart"."""

    at: float


@dataclass(frozen=True, slots=True)
class SpeechStart:
    """SpeechRecognition "speechstart": someone is talking."""

    at: float


@dataclass(frozen=True, slots=True)
class Alternative:
    """One way the recogniser heard a result."""

    transcript: str
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class Segment:
    """One SpeechRecognitionResult: interim until `final`, best alternative first."""

    final: bool
    alternatives: tuple[Alternative, ...]


@dataclass(frozen=True, slots=True)
class Result:
    """SpeechRecognition "result": all the session's results so far (event.results)."""

    at: float
    segments: tuple[Segment, ...]


@dataclass(frozen=True, slots=True)
class SpeechEnd:
    """SpeechRecognition "speechend"."""

    at: float


@dataclass(frozen=True, slots=True)
class Transcribing:
    """An utterance went to the provider to be transcribed (`done`: its words, or the failure,
    came back); only the provider's rung says this, since a browser's words come at once."""

    at: float
    done: bool


@dataclass(frozen=True, slots=True)
class RecognitionEnd:
    """SpeechRecognition "end": the session is over."""

    at: float


@dataclass(frozen=True, slots=True)
class RecognitionError:
    """SpeechRecognition "error", or "offline" / "unsupported" / "provider" found by the
    browser layer; `detail` is the provider's own sentence for "provider"."""

    at: float
    code: str
    detail: str = ""
    passing: bool = False  # it may clear by itself (a provider's rate limit or server error)


@dataclass(frozen=True, slots=True)
class AnswerStarted:
    """The answer's first text arrived."""

    at: float


@dataclass(frozen=True, slots=True)
class AnswerDone:
    """The answer is complete (or failed): nothing more will be queued for speech."""

    at: float


@dataclass(frozen=True, slots=True)
class SpeakingStarted:
    """Speech synthesis began saying the answer. `interruptible`: the user may talk over it,
    so conversation mode listens meanwhile; not where the microphone's sound is sent to the
    provider, which would be sent the answer being spoken (speechSynthesis is outside the
    browser's echo cancellation) as the user's next words."""

    at: float
    interruptible: bool = True


@dataclass(frozen=True, slots=True)
class SpeakingEnded:
    """Speech synthesis has said everything queued so far."""

    at: float


Event: TypeAlias = (
    Press
    | Release
    | Stop
    | Ask
    | Tick
    | RecognitionStart
    | AudioStart
    | SpeechStart
    | Result
    | SpeechEnd
    | Transcribing
    | RecognitionEnd
    | RecognitionError
    | AnswerStarted
    | AnswerDone
    | SpeakingStarted
    | SpeakingEnded
)


# Effects (what the browser is to do).


@dataclass(frozen=True, slots=True)
class StartRecognition:
    """Call recognition.start()."""


@dataclass(frozen=True, slots=True)
class StopRecognition:
    """Call recognition.stop(): what was said so far still arrives as a final result."""


@dataclass(frozen=True, slots=True)
class AbortRecognition:
    """Call recognition.abort(): drop everything."""


@dataclass(frozen=True, slots=True)
class CancelSpeech:
    """Stop speaking the answer and drop what is queued of it."""


@dataclass(frozen=True, slots=True)
class Send:
    """Send what the user said, as if typed; `alternatives` are other hearings, best first."""

    text: str
    alternatives: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Show:
    """Tell the user why listening failed (and fall back to the provider when it says so)."""

    problem: Problem


Effect: TypeAlias = (
    StartRecognition | StopRecognition | AbortRecognition | CancelSpeech | Send | Show
)
