"""The listening state machine (app.voice.listening), driven by Web Speech events in their real
order with a fixed clock: what is sent, when, and what the page shows."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.voice.listening import NOTHING_HEARD, Listener, view
from app.voice.listening import step as advance
from app.voice.listening_events import (
    AbortRecognition,
    Alternative,
    AnswerDone,
    AnswerStarted,
    Ask,
    AudioStart,
    CancelSpeech,
    Effect,
    Event,
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


def run(events: Iterable[Event], state: Listener | None = None) -> tuple[Listener, list[Effect]]:
    state = state or Listener()
    effects: list[Effect] = []
    for event in events:
        state, done = advance(state, event)
        effects += done
    return state, effects


def final(*texts: str) -> Segment:
    return Segment(True, tuple(Alternative(text, 0.9) for text in texts))


def interim(text: str) -> Segment:
    return Segment(False, (Alternative(text, 0.5),))


def opening(at: float = 0.0) -> list[Event]:
    """What the browser reports once recognition starts, in the real order."""
    return [RecognitionStart(at + 0.1), AudioStart(at + 0.2), SpeechStart(at + 0.3)]


def test_push_to_talk_sends_what_was_said_when_released() -> None:
    state, effects = run([Press(0.0)])
    assert effects == [StartRecognition()]
    assert view(state).indicator
    state, effects = run([*opening(), Result(0.5, (interim("make a fol"),))], state)
    assert view(state).status == "Listening… Release to send."
    assert (view(state).final, view(state).interim) == ("", "make a fol")
    state, effects = run(
        [Result(0.9, (final("make a folder Cardiology", "make a folder cardiologie"),))], state
    )
    assert (view(state).final, view(state).interim, view(state).phase) == (
        "make a folder Cardiology",
        "",
        "heard",
    )
    state, effects = run([Release(1.0)], state)
    assert effects == [StopRecognition()]
    state, effects = run([SpeechEnd(1.1), RecognitionEnd(1.2)], state)
    assert effects == [
        Send("make a folder Cardiology", ("make a folder Cardiology", "make a folder cardiologie"))
    ]
    assert view(state).phase == "thinking"
    assert view(state).status == "Thinking…"
    state, _ = run([AnswerStarted(1.5)], state)
    assert view(state).status == "Answering…"
    state, effects = run([SpeakingStarted(1.6), AnswerDone(2.0)], state)
    assert effects == []
    assert view(state).phase == "speaking"
    state, effects = run([SpeakingEnded(3.0)], state)
    assert (effects, view(state).phase, view(state).indicator) == ([], "idle", False)


def test_it_says_listening_only_once_the_microphones_sound_reaches_the_recogniser() -> None:
    """Between the press and "audiostart" (the recogniser's first audio; the voice detector's
    first frames) a word said is lost: the page says so, and says "Listening" only then."""
    state, _ = run([Press(0.0), RecognitionStart(0.1)])
    assert (view(state).indicator, view(state).hearing) == (True, False)
    assert view(state).status == "Getting ready to listen…"
    state, _ = run([AudioStart(0.2)], state)
    assert view(state).hearing
    assert view(state).status == "Listening… Release to send."
    state, _ = run([Release(0.3)], state)
    assert view(state).status == "Sending…"
    state, _ = run([RecognitionEnd(0.4)], state)
    assert not view(state).hearing


def test_in_a_conversation_hearing_lasts_as_long_as_its_recognition_session() -> None:
    state, _ = run([Press(0.0, mode="conversation"), RecognitionStart(0.1)])
    assert view(state).status == "Getting ready to listen…"
    state, _ = run([AudioStart(0.2)], state)
    assert view(state).status == "Listening… Press Escape to stop."
    state, effects = run([RecognitionEnd(0.5)], state)  # the recogniser gave up: a new session
    assert effects == [StartRecognition()]
    assert not view(state).hearing
    state, _ = run([RecognitionStart(0.6)], state)
    assert view(state).status == "Getting ready to listen…"
    state, _ = run([AudioStart(0.7), Stop(0.8)], state)
    assert not view(state).hearing  # stopped: nothing is heard any more


def test_after_release_the_final_result_sends_without_waiting_for_the_end() -> None:
    # A recogniser delivers what was said after stop() and only then "end": the request goes
    # out with the final result, and the late "end" sends nothing more.
    state, _ = run([Press(0.0), *opening(), Result(0.5, (interim("what does aorta"),))])
    state, effects = run([Release(0.6)], state)
    assert effects == [StopRecognition()]
    assert view(state).status == "Sending…"
    state, effects = run([Result(0.7, (final("what does aorta mean"),))], state)
    assert effects == [Send("what does aorta mean", ("what does aorta mean",))]
    state, effects = run([SpeechEnd(0.71), RecognitionEnd(0.72)], state)
    assert effects == []
    assert view(state).phase == "thinking"


def test_after_release_a_result_still_interim_waits_for_the_rest() -> None:
    state, _ = run([Press(0.0), *opening(), Result(0.5, (interim("make a"),))])
    state, _ = run([Release(0.6)], state)
    state, effects = run([Result(0.7, (final("make a"), interim("folder")))], state)
    assert effects == []
    state, effects = run([Result(0.8, (final("make a"), final("folder")))], state)
    assert effects == [Send("make a folder", ("make a folder",))]


def test_releasing_without_words_sends_nothing_and_says_so() -> None:
    state, effects = run(
        [Press(0.0), *opening(), Release(0.5), SpeechEnd(0.6), RecognitionEnd(0.7)]
    )
    assert not any(isinstance(e, Send) for e in effects)
    assert view(state).phase == "idle"
    assert view(state).status == NOTHING_HEARD


def test_a_listener_can_say_nothing_heard_in_its_own_words() -> None:
    """Study asks for the answer again, not for a message; the assistant's sentence stays."""
    events = [Press(0.0), *opening(), Release(0.5), SpeechEnd(0.6), RecognitionEnd(0.7)]
    state, _ = run(events, Listener(nothing_heard="Say it again."))
    assert view(state).status == "Say it again."
    said = [Press(1.0), *opening(1.0), Result(1.4, (final("dog"),)), Release(1.5)]
    state, effects = run([*said, SpeechEnd(1.6), RecognitionEnd(1.7)], state)
    assert Send("dog", ("dog",)) in effects
    assert state.nothing_heard == "Say it again."


def test_an_empty_or_blank_final_result_never_sends() -> None:
    events = [
        Press(0.0),
        *opening(),
        Result(0.5, (final("   "),)),
        Release(0.6),
        RecognitionEnd(0.7),
    ]
    _, effects = run(events)
    assert not any(isinstance(e, Send) for e in effects)
    conversation = [Press(0.0, "conversation"), *opening(), Result(0.5, (final(""),)), Tick(9.0)]
    assert not any(isinstance(e, Send) for e in run(conversation)[1])


def conversation_heard(text: str = "add ten heart terms") -> Listener:
    state, _ = run(
        [Press(0.0, "conversation"), *opening(), Result(1.0, (final(text),)), SpeechEnd(1.1)]
    )
    return state


def test_conversation_sends_after_a_short_silence_with_a_countdown() -> None:
    state = conversation_heard()
    # The countdown runs from the last result; the recogniser's speechend came 0.1 s later.
    assert view(state).phase == "heard"
    assert view(state).countdown == pytest.approx(1.4)
    state, effects = run([Tick(2.0)], state)
    assert effects == []
    assert view(state).countdown == 0.5
    assert (
        view(state).status == "Sending in 0.5 seconds. Keep talking to add more, or press Escape."
    )
    state, effects = run([Tick(2.5)], state)
    assert effects == [Send("add ten heart terms", ("add ten heart terms",)), StopRecognition()]
    assert view(state).countdown is None


def test_talking_again_stops_the_countdown() -> None:
    state, _ = run(
        [SpeechStart(1.5), Result(1.6, (final("add ten heart terms"), interim("and"))), Tick(5.0)],
        conversation_heard(),
    )
    assert view(state).phase == "listening"
    assert view(state).countdown is None
    state, effects = run(
        [Result(5.1, (final("add ten heart terms"), final("and five lung terms"))), Tick(6.6)],
        state,
    )
    assert effects == [
        Send(
            "add ten heart terms and five lung terms", ("add ten heart terms and five lung terms",)
        ),
        StopRecognition(),
    ]


def answered_conversation() -> Listener:
    state, _ = run([Tick(2.5), RecognitionEnd(2.6), AnswerStarted(3.0)], conversation_heard())
    return state


def test_conversation_listens_while_speaking_and_again_after_the_answer() -> None:
    state, effects = run([SpeakingStarted(3.1)], answered_conversation())
    assert effects == [StartRecognition()]  # so talking over it can interrupt
    state, effects = run([RecognitionStart(3.2), AnswerDone(4.0), SpeakingEnded(5.0)], state)
    assert effects == []
    assert view(state).phase == "listening"
    assert (view(state).final, view(state).interim) == ("", "")
    # The same session goes on: only results after the answer count for the new turn.
    state, effects = run([Result(6.0, (final("yes"),)), Tick(7.5)], state)
    assert effects == [Send("yes", ("yes",)), StopRecognition()]


def test_where_it_would_hear_its_own_answer_it_listens_again_only_after_speaking() -> None:
    """The provider's rung: the microphone's sound is cut into utterances and sent, and the
    answer being spoken would be one of them (speechSynthesis is outside the browser's echo
    cancellation), so no session runs while it speaks; the next turn starts after."""
    state, effects = run([SpeakingStarted(3.1, interruptible=False)], answered_conversation())
    assert effects == []
    state, effects = run([AnswerDone(4.0), SpeakingEnded(5.0)], state)
    assert effects == [StartRecognition()]
    assert view(state).phase == "listening"
    state, effects = run([RecognitionStart(5.1), Result(6.0, (final("more"),)), Tick(7.5)], state)
    assert effects == [Send("more", ("more",)), StopRecognition()]


def test_talking_over_the_answer_interrupts_it() -> None:
    state, _ = run([SpeakingStarted(3.1), RecognitionStart(3.2)], answered_conversation())
    state, effects = run([SpeechStart(3.5)], state)
    assert effects == [CancelSpeech()]
    assert view(state).phase == "listening"
    state, effects = run(
        [AnswerDone(4.0), SpeakingStarted(4.1), Result(4.5, (final("stop"),)), Tick(6.0)], state
    )
    assert effects == [Send("stop", ("stop",)), StopRecognition()]


def test_pressing_while_it_speaks_interrupts_in_push_to_talk() -> None:
    state, _ = run(
        [
            Press(0.0),
            *opening(),
            Result(0.5, (final("hi"),)),
            Release(0.6),
            RecognitionEnd(0.7),
            SpeakingStarted(1.0),
        ]
    )
    state, effects = run([Press(2.0)], state)
    assert effects == [CancelSpeech(), StartRecognition()]
    assert view(state).phase == "listening"


def test_pressing_again_in_conversation_mode_ends_it() -> None:
    state, effects = run([Press(5.0, "conversation")], conversation_heard())
    assert effects == [AbortRecognition()]
    assert view(state).phase == "idle"


def test_escape_stops_everything_from_any_state() -> None:
    state, effects = run([Stop(1.5)], conversation_heard())
    assert effects == [AbortRecognition()]
    state, effects = run(
        [
            RecognitionError(1.6, "aborted"),
            Result(1.6, (final("add"),)),
            RecognitionEnd(1.7),
            Tick(9.0),
        ],
        state,
    )
    assert effects == []
    assert view(state) == view(Listener(now=9.0))
    speaking, _ = run([SpeakingStarted(3.1)], answered_conversation())
    state, effects = run([Stop(3.5)], speaking)
    assert effects == [AbortRecognition(), CancelSpeech()]
    assert view(state).phase == "idle"


def test_errors_become_a_sentence_and_stop_listening() -> None:
    state, effects = run([Press(0.0), RecognitionError(0.1, "not-allowed"), RecognitionEnd(0.2)])
    assert effects == [StartRecognition(), Show(problem("not-allowed"))]
    assert view(state).phase == "idle"
    assert "site settings" in view(state).status
    state, effects = run([Press(0.0), *opening(), RecognitionError(0.5, "network")])
    assert effects[-1] == Show(problem("network"))
    assert problem("network").then == "next-rung"


def test_a_provider_failure_shows_the_providers_sentence() -> None:
    said = "OpenAI is busy right now. Try again in a minute, or type your message."
    _, effects = run(
        [Press(0.0), *opening(), Release(0.5), RecognitionError(0.9, "provider", said)]
    )
    assert effects[-1] == Show(problem("provider", said))
    assert effects[-1].problem.message == said  # type: ignore[union-attr]


def test_offline_or_unsupported_ends_the_start_that_never_began() -> None:
    state, _ = run([Press(0.0), RecognitionError(0.1, "unsupported")])
    state, effects = run([Press(1.0)], state)
    assert effects == [StartRecognition()]


def test_a_new_turn_waits_for_the_old_session_to_end_before_starting() -> None:
    state, effects = run(
        [Press(0.0, "conversation"), *opening(), Stop(0.5), Press(0.6, "conversation")]
    )
    assert effects == [StartRecognition(), AbortRecognition()]
    state, effects = run([Result(0.7, (final("old words"),)), RecognitionEnd(0.8)], state)
    assert effects == [StartRecognition()]
    assert view(state).final == ""


# Random sequences of everything the browser can report, in any order.
times = st.floats(0, 100, allow_nan=False)
texts = st.sampled_from(["", " ", "yes", "no thanks", "make a folder"])
segments = st.lists(
    st.builds(
        Segment, st.booleans(), st.lists(st.builds(Alternative, texts), max_size=2).map(tuple)
    ),
    max_size=3,
).map(tuple)
events: st.SearchStrategy[Event] = st.one_of(
    st.builds(Press, times, st.sampled_from(["push_to_talk", "conversation"])),
    *(
        st.builds(kind, times)
        for kind in (
            Release,
            Stop,
            Ask,
            Tick,
            RecognitionStart,
            AudioStart,
            SpeechStart,
            SpeechEnd,
            RecognitionEnd,
            AnswerStarted,
            AnswerDone,
            SpeakingStarted,
            SpeakingEnded,
        )
    ),
    st.builds(Result, times, segments),
    st.builds(
        RecognitionError, times, st.sampled_from(["no-speech", "aborted", "network", "offline"])
    ),
)


# Plausible stretches of a session, in any order, on a clock that moves forward.
stretches = st.lists(
    st.sampled_from(
        [
            ["press"],
            ["press conversation"],
            ["start", "audiostart", "speechstart"],
            ["final"],
            ["interim"],
            ["blank"],
            ["speechend", "end"],
            ["end"],
            ["release"],
            ["tick"],
            ["answer_done"],
            ["speaking_started"],
            ["speaking_ended"],
            ["stop"],
            ["error"],
        ]
    ),
    max_size=25,
).map(lambda parts: [name for part in parts for name in part])


def scripted(names: list[str]) -> list[Event]:
    made: list[Event] = []
    for n, name in enumerate(names):
        at = n * 0.5 + (10.0 if name == "tick" else 0.0)
        made.append(
            {
                "press": Press(at),
                "press conversation": Press(at, "conversation"),
                "start": RecognitionStart(at),
                "audiostart": AudioStart(at),
                "speechstart": SpeechStart(at),
                "final": Result(at, (final("make a folder"),)),
                "interim": Result(at, (final("make a folder"), interim("and"))),
                "blank": Result(at, (final(" "),)),
                "speechend": SpeechEnd(at),
                "end": RecognitionEnd(at),
                "release": Release(at),
                "tick": Tick(at),
                "answer_done": AnswerDone(at),
                "speaking_started": SpeakingStarted(at),
                "speaking_ended": SpeakingEnded(at),
                "stop": Stop(at),
                "error": RecognitionError(at, "no-speech"),
            }[name]
        )
    return made


@settings(max_examples=1500, deadline=None)
@given(stretches.map(scripted) | st.lists(events, max_size=40))
def test_never_sends_empty_text_or_twice_for_one_utterance(sequence: list[Event]) -> None:
    state = Listener()
    results_since_send = True
    for event in sequence:
        before = state
        state, effects = advance(state, event)
        results_since_send = results_since_send or isinstance(event, Result)
        for effect in effects:
            if isinstance(effect, Send):
                assert effect.text.strip() == effect.text
                assert effect.text
                assert results_since_send
                results_since_send = False
            if isinstance(effect, StartRecognition):  # start() twice would throw
                assert before.recognizer == "off" or isinstance(event, RecognitionEnd)


@settings(max_examples=300, deadline=None)
@given(stretches.map(scripted) | st.lists(events, max_size=40), times)
def test_escape_always_ends_idle_with_nothing_pending(sequence: list[Event], at: float) -> None:
    state, _ = run(sequence)
    state, _ = run([Stop(at)], state)
    assert view(state).phase == "idle"
    assert view(state).countdown is None
    quiet = [Tick(at + 100), Result(at, (final("late words"),)), RecognitionEnd(at), Tick(at + 200)]
    assert not any(isinstance(e, (Send, StartRecognition)) for e in run(quiet, state)[1])


def test_a_question_asked_aloud_is_answered_like_a_conversation_turn() -> None:
    """A confirmation during a push-to-talk request: it listens without a key held, sends the
    reply after a silence, and the turn then ends idle as push-to-talk does."""
    state, _ = run([Press(0.0), *opening(), Result(0.5, (final("delete Biology"),)), Release(1)])
    state, effects = run([RecognitionEnd(1.2), AnswerStarted(2.0)], state)
    assert view(state).phase == "thinking"
    state, effects = run([Ask(3.0)], state)
    assert effects == [StartRecognition()]
    assert view(state).phase == "listening"
    state, effects = run([*opening(3.0), Result(3.6, (final("yes"),)), SpeechEnd(3.7)], state)
    assert effects == []
    assert view(state).countdown is not None
    state, effects = run([Tick(5.3)], state)
    assert effects == [Send("yes", ("yes",)), StopRecognition()]
    assert state.mode == "push_to_talk"
    state, effects = run([RecognitionEnd(5.4), AnswerDone(6.0)], state)
    assert view(state).phase == "idle"
    assert effects == []


def test_silence_after_a_question_never_sends() -> None:
    state, _ = run([Ask(0.0), *opening()])
    state, effects = run([SpeechEnd(1.0), Tick(30.0), RecognitionEnd(31.0)], state)
    assert not any(isinstance(e, Send) for e in effects)
    assert view(state).phase == "listening"  # a conversation turn listens again
