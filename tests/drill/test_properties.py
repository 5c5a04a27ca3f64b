"""Random event sequences through the drill: no grade is lost or written twice, and silence
is never graded."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.drill.commands import Command
from app.drill.events import (
    Awaiting,
    Button,
    Event,
    Explained,
    ExplainFailed,
    Heard,
    Interim,
    ListenFailed,
    SpeechDone,
    Tick,
)
from app.voice.problems import problem
from tests.drill.script import Script

SAYINGS = (
    *("dog", "cat", "water", "wader", "cow", "", "um", "yes", "no", "maybe"),
    *("say that again", "slower", "skip", "I don't know", "what does it mean", "wait"),
    *("resume", "stop", "undo", "again", "hard", "good", "easy", "next"),
)
GRADE_WORDS = frozenset({"again", "hard", "good", "easy"})
Action = tuple[str, str | float]

actions = st.one_of(
    st.tuples(st.just("done"), st.sampled_from((0.0, 1.0))),  # 1: an earlier speech
    st.tuples(st.just("hear"), st.sampled_from(SAYINGS)),
    st.tuples(st.just("tick"), st.sampled_from((0.5, 3.0, 8.0, 20.0))),
    st.tuples(st.just("interim"), st.just(0.0)),
    st.tuples(st.just("awaiting"), st.sampled_from((0.0, 1.0))),  # 1: the words came back
    st.tuples(st.just("fail"), st.sampled_from(("no-speech", "not-allowed", "network"))),
    st.tuples(st.just("explained"), st.sampled_from(("ok", "failed"))),
    st.tuples(st.just("button"), st.sampled_from([c.value for c in Command])),
)


def event(script: Script, action: Action) -> Event:
    kind, value = action
    at = script.later(0.7)
    match kind:
        case "done":
            return SpeechDone(script.drill.state.said - int(value), at)
        case "hear":
            return Heard((str(value),), at)
        case "tick":
            return Tick(script.later(float(value)))
        case "interim":
            return Interim(at)
        case "awaiting":
            return Awaiting(at, done=bool(value))
        case "fail":
            return ListenFailed(problem(str(value)), at)
        case "explained":
            return Explained("It means dog.", at) if value == "ok" else ExplainFailed("No.", at)
        case _:
            return Button(Command(str(value)), at)


def undoes(action: Action) -> bool:
    return action in (("hear", "undo"), ("button", Command.UNDO.value))


def grades_at_once(action: Action) -> bool:
    """A grade word said or pressed grades without a decided grade before it."""
    return action[0] in ("hear", "button") and str(action[1]) in GRADE_WORDS


@settings(max_examples=150, deadline=None)
@given(st.lists(actions, max_size=40))
def test_no_event_sequence_loses_or_doubles_a_grade(sequence: list[Action]) -> None:
    script = Script()
    script.begin()
    for action in sequence:
        before, state = len(script.grades()), script.drill.state
        script.send(event(script, action))
        written = len(script.grades()) - before
        decided = state.suggested is not None
        if written < 0:
            assert written == -1
            assert undoes(action)
        if written > 0:
            assert written == 1
            assert decided or grades_at_once(action)
            assert action[0] != "tick" or state.phase == "feedback"
        if decided and script.drill.state.suggested is None and not undoes(action):
            assert written == 1  # a decided grade leaves only by being written (or undone)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.sampled_from([("tick", 0.5), ("tick", 8.0), ("tick", 20.0), ("done", 0.0)])
        | st.sampled_from([("interim", 0.0), ("fail", "no-speech"), ("hear", "")])
        | st.sampled_from([("awaiting", 0.0), ("awaiting", 1.0)]),
        max_size=60,
    )
)
def test_silence_is_never_graded(sequence: list[Action]) -> None:
    script = Script()
    script.begin()
    for action in sequence:
        script.send(event(script, action))
    assert script.grades() == []
