"""The drill after listening fails: quick failures back off and are capped, and a loop of
them pauses the drill with a sentence that says to press Resume (a real Chromium without a
speech service was restarted 814 times in 40 s before this)."""

from __future__ import annotations

from app.drill.commands import Command
from app.drill.events import Button, Interim, ListenFailed, Tick
from app.drill.lines import KEEPS_FAILING, PAUSED_DEAF, SAY_AGAIN
from app.drill.machine import LOST_CAP
from app.study.model import Rating
from app.voice.problems import problem
from app.voice.restarts import CAP
from tests.drill.script import Script, listens, said


def test_a_quick_failure_waits_before_listening_again() -> None:
    script = Script()
    script.begin()
    assert listens(script.spoken())
    assert script.send(ListenFailed(problem("aborted"), script.later(0.1))) == ()
    assert script.send(Tick(script.later(0.25))) == ()  # not yet: half a second
    assert listens(script.send(Tick(script.later(0.25))))


def test_failing_at_once_again_and_again_pauses_saying_press_resume() -> None:
    script = Script()
    script.begin()
    script.spoken()
    listened = 1
    for _ in range(20 * CAP):  # a recogniser that fails the moment it starts
        told = script.send(ListenFailed(problem("network", passing=False), script.later(0.05)))
        if said(told):
            break
        while not listens(script.send(Tick(script.later(0.25)))):
            pass
        listened += 1
    assert listened == CAP
    assert said(told).startswith(KEEPS_FAILING)
    assert said(told).endswith(PAUSED_DEAF)
    assert "AI settings" in said(told)  # what would fix it
    assert script.drill.view().status == PAUSED_DEAF
    assert script.send(Tick(script.later(60))) == ()  # it stays paused, never listens
    assert script.grades() == []  # nothing graded from all that
    resumed = script.send(Button(Command.RESUME, script.later(1)))
    assert said(resumed) == "perro"
    assert listens(script.spoken())


def test_a_recogniser_that_listened_a_while_before_failing_listens_again_at_once() -> None:
    script = Script()
    script.begin()
    script.spoken()
    for _ in range(2):  # within the 8 s before the nudge
        assert listens(script.send(ListenFailed(problem("no-speech"), script.later(3))))


def test_hearing_something_forgives_earlier_quick_failures() -> None:
    script = Script()
    script.begin()
    script.spoken()
    for _ in range(CAP - 1):
        script.send(ListenFailed(problem("aborted"), script.later(0.05)))
        while not listens(script.send(Tick(script.later(0.5)))):
            pass
    script.hear("um", after=0.5)  # heard, though not the answer
    script.send(ListenFailed(problem("aborted"), script.later(0.05)))
    assert listens(script.send(Tick(script.later(0.5))))  # the count began again


def test_a_failure_only_the_user_can_fix_pauses_at_once() -> None:
    script = Script()
    script.begin()
    script.spoken()
    told = script.send(ListenFailed(problem("not-allowed"), script.later(0.05)))
    assert said(told).endswith(PAUSED_DEAF)
    assert KEEPS_FAILING not in said(told)


def test_speech_in_the_feedback_window_holds_the_grade_until_its_words_arrive() -> None:
    """With the provider, an utterance is transcribed after it ends: "stop" said near the end
    of the few seconds another grade may be said must not be lost to the next card."""
    script = Script()
    script.begin()
    script.answer("dog")
    script.spoken()  # "Right." said: the grade may be changed for OVERRIDE_SECONDS
    script.send(Interim(script.later(2.5)))  # the learner starts talking
    assert script.send(Tick(script.later(1.0))) == ()  # past the window: still waiting
    told = script.hear("stop", after=1.0)
    assert "You studied 1 card" in said(told)
    assert script.grades() == [Rating.EASY]


def test_an_utterance_the_provider_lost_is_asked_again_then_the_drill_pauses() -> None:
    busy = problem("provider", "OpenAI is busy right now. Try again in a minute.", passing=True)
    script = Script()
    script.begin()
    script.spoken()
    told = script.send(ListenFailed(busy, script.later(3)))
    assert said(told) == SAY_AGAIN
    assert listens(script.spoken())  # still waiting for perro's answer
    script.hear("dog")  # heard at last: the count starts again
    assert script.grades() == []  # decided, written after the window
    script.spoken()
    script.send(Tick(script.later(4)))
    script.spoken()  # gato
    for _ in range(LOST_CAP - 1):
        assert said(script.send(ListenFailed(busy, script.later(3)))) == SAY_AGAIN
        script.spoken()
    paused = said(script.send(ListenFailed(busy, script.later(3))))
    assert paused.startswith(KEEPS_FAILING)
    assert "OpenAI is busy" in paused
    assert paused.endswith(PAUSED_DEAF)
    assert script.grades() == [Rating.EASY]  # only what was heard was graded
