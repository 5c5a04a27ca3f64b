"""The listening state machine: idle → listening → heard → thinking → speaking, and back.

Pure: the browser layer feeds each event it sees (Web Speech recognition events in their real
order, key and button presses, a clock tick, the answer's and the speech synthesis' progress),
each with its time, and performs the effects `step` returns. Push-to-talk listens while a key
or button is held and ends idle; conversation mode ends a turn after a short silence (a visible
countdown), answers, and listens again until pressed again or stopped. Speaking over an answer
interrupts it. Nothing is ever sent for silence or an empty transcript, one utterance is sent at
most once, and Stop (Escape) ends everything from any state.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, TypeAlias

from app.voice.listening_events import (
    AbortRecognition,
    AnswerDone,
    AnswerStarted,
    Ask,
    AudioStart,
    CancelSpeech,
    Effect,
    Event,
    Mode,
    Press,
    RecognitionEnd,
    RecognitionError,
    RecognitionStart,
    Release,
    Result,
    Segment,
    Send,
    Show,
    SpeakingEnded,
    SpeakingStarted,
    SpeechEnd,
    SpeechStart,
    StartRecognition,
    Stop,
    StopRecognition,
    Tick,
)
from app.voice.problems import problem

Phase = Literal["idle", "listening", "heard", "thinking", "speaking"]
# Where the browser's recognition session is: a second start() while one runs throws.
Recognizer = Literal["off", "starting", "on", "stopping"]

SILENCE_SECONDS = 1.5
NOTHING_HEARD = "I didn't catch anything. Try again, or type your message."
GETTING_READY = "Getting ready to listen…"


@dataclass(frozen=True, slots=True)
class Listener:
    """The machine's whole state; `Listener(silence=…)` is a fresh, idle one."""

    silence: float = SILENCE_SECONDS
    mode: Mode = "push_to_talk"
    phase: Phase = "idle"
    recognizer: Recognizer = "off"
    # The session's audio reaches the recogniser ("audiostart"): words said before are lost.
    hearing: bool = False
    restart: bool = False  # start a session for this turn once the old one has ended
    held: bool = False  # the push-to-talk key or button is down
    seen: int = 0  # results of the current session so far
    offset: int = 0  # of those, how many belong to an earlier turn
    segments: tuple[Segment, ...] = ()  # this turn's results
    deadline: float | None = None  # when a silence ends the conversation turn
    answering: bool = False
    answer_done: bool = False
    voice: bool = False  # speech synthesis is speaking
    notice: str = ""  # why the last turn ended without sending
    nothing_heard: str = NOTHING_HEARD  # the notice for a turn with no words, in its context
    now: float = 0.0
    home: Mode | None = None  # while answering a question: the mode to go back to after it


@dataclass(frozen=True, slots=True)
class View:
    """What the page shows: the indicator, whether what is said now is heard, the live
    transcript (interim part in grey), the countdown in seconds and one status sentence."""

    phase: Phase
    indicator: bool
    hearing: bool
    final: str
    interim: str
    countdown: float | None
    status: str


Step: TypeAlias = tuple[Listener, tuple[Effect, ...]]


def step(state: Listener, event: Event) -> Step:
    """The state after `event` and the effects the browser is to perform, in order."""
    state = replace(state, now=event.at)
    match event:
        case Press(mode=mode):
            return _press(state, mode)
        case Release():
            return _release(state)
        case Stop():
            return _stop(state)
        case Ask():
            listening, effects = _listen(state, "conversation")
            return replace(listening, home=state.home or state.mode), effects
        case Tick():
            due = state.phase == "heard" and state.deadline is not None
            return _send(state) if due and event.at >= (state.deadline or 0) else (state, ())
        case AnswerStarted():
            return replace(state, answering=state.phase == "thinking" or state.answering), ()
        case AnswerDone():
            return _answer_done(state)
        case SpeakingStarted(interruptible=interruptible):
            return _speaking_started(state, interruptible=interruptible)
        case SpeakingEnded():
            return _speaking_ended(state)
        case _:
            return _recognition(state, event)


def _recognition(state: Listener, event: Event) -> Step:
    """The recognition session's own events."""
    match event:
        case RecognitionStart():
            started = "on" if state.recognizer == "starting" else state.recognizer
            return replace(state, recognizer=started, hearing=False, seen=0, offset=0), ()
        case AudioStart():
            return replace(state, hearing=True), ()
        case SpeechStart():
            return _speech_start(state)
        case Result(segments=segments):
            state = _result(replace(state, seen=len(segments)), segments)
            return _send(state) if _released_and_heard(state) else (state, ())
        case SpeechEnd():
            return _count_down(state), ()
        case RecognitionEnd():
            return _end(replace(state, recognizer="off", hearing=False))
        case RecognitionError(code=code, detail=detail):
            return _error(state, code, detail)
        case _:
            return state, ()  # a provider's transcription under way changes nothing here


def view(state: Listener) -> View:
    """The view model of a state."""
    final, interim = _transcript(state.segments, final=True), _transcript(state.segments)
    countdown = None
    if state.phase == "heard" and state.deadline is not None:
        countdown = max(state.deadline - state.now, 0.0)
    mic_on = state.phase in ("listening", "heard") or state.recognizer in ("starting", "on")
    hearing = mic_on and state.hearing
    status = _status(state, countdown)
    return View(state.phase, mic_on, hearing, final, interim, countdown, status)


def _press(state: Listener, mode: Mode) -> Step:
    if state.phase == "idle":
        return _listen(state, mode)
    if state.mode == mode == "conversation":
        return _stop(state)
    if state.phase in ("listening", "heard"):
        return replace(state, held=state.held or mode == "push_to_talk"), ()
    state, effects = _listen(state, mode)
    return state, (CancelSpeech(), *effects)


def _listen(state: Listener, mode: Mode) -> Step:
    """Begin a turn: listening with an empty transcript, in a session of its own."""
    effects: tuple[Effect, ...] = ()
    recognizer, restart, offset = state.recognizer, False, state.seen
    if recognizer == "off":
        effects, recognizer, offset = (StartRecognition(),), "starting", 0
    elif recognizer == "stopping":
        restart, offset = True, 0
    listening = replace(
        state,
        mode=mode,
        phase="listening",
        recognizer=recognizer,
        restart=restart,
        held=mode == "push_to_talk",
        offset=offset,
        segments=(),
        deadline=None,
        answering=False,
        answer_done=False,
        voice=False,
        notice="",
    )
    return listening, effects


def _release(state: Listener) -> Step:
    if state.mode != "push_to_talk" or not state.held:
        return state, ()
    state = replace(state, held=False)
    if state.phase not in ("listening", "heard"):
        return state, ()
    if state.recognizer in ("starting", "on") and not state.restart:
        return replace(state, recognizer="stopping"), (StopRecognition(),)
    return _send(replace(state, restart=False))


def _stop(state: Listener) -> Step:
    effects: list[Effect] = []
    recognizer = state.recognizer
    if recognizer in ("starting", "on"):
        effects.append(AbortRecognition())
        recognizer = "stopping"
    if state.phase in ("thinking", "speaking"):
        effects.append(CancelSpeech())
    return Listener(silence=state.silence, recognizer=recognizer, now=state.now), tuple(effects)


def _speech_start(state: Listener) -> Step:
    if state.phase == "speaking" and state.recognizer == "on":
        listening, effects = _listen(state, state.mode)
        return listening, (CancelSpeech(), *effects)
    if state.phase == "heard" and state.mode == "conversation":
        return replace(state, phase="listening", deadline=None), ()
    return state, ()


def _result(state: Listener, segments: tuple[Segment, ...]) -> Listener:
    if state.phase not in ("listening", "heard") or state.restart:
        return state
    state = replace(state, segments=segments[state.offset :])
    heard = bool(_transcript(state.segments, final=True))
    talking = bool(_transcript(state.segments))
    if state.mode == "push_to_talk":
        return replace(state, phase="heard" if heard else "listening")
    if heard and not talking:
        return replace(state, phase="heard", deadline=state.now + state.silence)
    return replace(state, phase="listening", deadline=None)


def _released_and_heard(state: Listener) -> bool:
    """Push-to-talk after release: the recogniser's final words are all there is to wait
    for (its "end" comes a few milliseconds later and adds nothing)."""
    stopped = state.mode == "push_to_talk" and not state.held and state.recognizer == "stopping"
    return stopped and state.phase == "heard" and not _transcript(state.segments)


def _count_down(state: Listener) -> Listener:
    """At the end of speech, a conversation turn with words in it starts its countdown."""
    quiet = not _transcript(state.segments) and _transcript(state.segments, final=True)
    if state.mode == "conversation" and state.phase == "listening" and quiet:
        return replace(state, phase="heard", deadline=state.now + state.silence)
    return state


def _end(state: Listener) -> Step:
    if state.restart:
        return replace(state, recognizer="starting", restart=False), (StartRecognition(),)
    if state.phase not in ("listening", "heard"):
        return state, ()
    if state.mode == "conversation" and state.deadline is not None:
        return state, ()  # the countdown sends
    if state.mode == "conversation" and not _transcript(state.segments, final=True):
        return replace(state, recognizer="starting"), (StartRecognition(),)
    return _send(state)


def _error(state: Listener, code: str, detail: str) -> Step:
    if code in ("offline", "unsupported") and state.recognizer == "starting":
        state = replace(state, recognizer="off")  # no session began, so no "end" will come
    if state.phase not in ("listening", "heard") or state.restart:
        return state, ()  # from a session this turn no longer listens to
    if code == "aborted" and state.recognizer == "stopping":
        return state, ()
    found = problem(code, detail)
    failed = replace(state, phase="idle", held=False, deadline=None, notice=found.message)
    return failed, (Show(found),)


def _send(state: Listener) -> Step:
    """End the turn with what was heard: send it, or say nothing was heard."""
    text = _transcript(state.segments, final=True)
    if not text:
        if state.mode == "conversation":
            return replace(state, phase="listening", deadline=None), ()
        return replace(state, phase="idle", held=False, notice=state.nothing_heard), ()
    effects: list[Effect] = [Send(text, _alternatives(state.segments))]
    recognizer = state.recognizer
    if recognizer in ("starting", "on"):
        effects.append(StopRecognition())
        recognizer = "stopping"
    thinking = replace(
        state,
        phase="thinking",
        mode=state.home or state.mode,
        home=None,
        recognizer=recognizer,
        restart=False,
        held=False,
        deadline=None,
        answering=False,
        answer_done=False,
    )
    return thinking, tuple(effects)


def _answer_done(state: Listener) -> Step:
    if state.phase not in ("thinking", "speaking"):
        return state, ()
    state = replace(state, answer_done=True)
    return (state, ()) if state.voice else _next_turn(state)


def _speaking_started(state: Listener, *, interruptible: bool) -> Step:
    if state.phase not in ("thinking", "speaking"):
        return state, ()
    state = replace(state, phase="speaking", voice=True)
    if state.mode != "conversation" or not interruptible:
        return state, ()
    # Listening while it speaks is what lets the user interrupt by talking.
    if state.recognizer == "off":
        return replace(state, recognizer="starting"), (StartRecognition(),)
    if state.recognizer == "stopping":
        return replace(state, restart=True), ()
    return state, ()


def _speaking_ended(state: Listener) -> Step:
    state = replace(state, voice=False)
    if state.phase != "speaking":
        return state, ()
    return _next_turn(state) if state.answer_done else (replace(state, phase="thinking"), ())


def _next_turn(state: Listener) -> Step:
    if state.mode == "conversation":
        return _listen(state, "conversation")
    return replace(state, phase="idle"), ()


def _transcript(segments: tuple[Segment, ...], final: bool = False) -> str:
    """The best hearing of the final results, or of the interim ones."""
    parts = (s.alternatives[0].transcript for s in segments if s.final == final and s.alternatives)
    return " ".join(" ".join(parts).split())


def _alternatives(segments: tuple[Segment, ...]) -> tuple[str, ...]:
    """The whole utterance once per alternative of its last final result, best first."""
    finals = [s for s in segments if s.final and s.alternatives]
    before = _transcript(tuple(finals[:-1]), final=True)
    heard = (" ".join(f"{before} {a.transcript}".split()) for a in finals[-1].alternatives)
    return tuple(dict.fromkeys(text for text in heard if text))


def _status(state: Listener, countdown: float | None) -> str:
    conversation = state.mode == "conversation"
    match state.phase:
        case "idle":
            return state.notice
        case "listening" if not state.hearing and (conversation or state.held):
            return GETTING_READY
        case "listening" if conversation:
            return "Listening… Press Escape to stop."
        case "listening" | "heard" if not conversation:
            return "Listening… Release to send." if state.held else "Sending…"
        case "heard":
            seconds = countdown or 0.0
            return f"Sending in {seconds:.1f} seconds. Keep talking to add more, or press Escape."
        case "thinking":
            return "Answering…" if state.answering else "Thinking…"
        case _:
            how = "Talk" if conversation else "Press the microphone"
            return f"Speaking. {how} to interrupt, or press Escape to stop."
