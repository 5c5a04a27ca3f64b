"""The hands-free drill (app.drill.machine) with scripted events on a fixed clock."""

from __future__ import annotations

from app.drill.commands import Command
from app.drill.events import (
    AudioStarted,
    Awaiting,
    Button,
    Explain,
    Explained,
    ExplainFailed,
    Finished,
    Heard,
    Interim,
    Listen,
    ListenFailed,
    SpeechDone,
    StopListening,
    StopSpeaking,
)
from app.drill.lines import NUDGE, PAUSED, PAUSED_DEAF
from app.drill.machine import EXPLANATION_WORDS
from app.drill.timing import OVERRIDE_SECONDS
from app.study.model import Rating
from app.study.options import StudyOptions
from app.voice.problems import problem
from tests.drill.script import Script, listens, said, says

FEEDBACK = OVERRIDE_SECONDS  # the wait after the feedback before its grade is written


def right_away(script: Script, answer: str) -> str:
    """Answer at once, let the feedback be said and its grade written; what was said."""
    told = said(script.answer(answer))
    script.spoken()
    return told + " " + said(script.wait(FEEDBACK))


def test_a_whole_session_of_right_answers() -> None:
    script = Script()
    first = script.begin()
    assert says(first)[0].text == "perro"
    assert says(first)[0].lang == "es"
    assert not listens(first)  # never listens while it speaks
    listened = script.spoken()
    assert listened == (Listen("en", listened[0].phrases),)
    assert "dog" in listened[0].phrases
    assert "repeat" in listened[0].phrases
    assert "cat" in listened[0].phrases  # the folder's other answers, so a wrong one is heard
    assert "Right." in right_away(script, "dog")
    assert script.prompt() == "gato"
    right_away(script, "cat")
    told = right_away(script, "water")
    assert script.grades() == [Rating.EASY] * 3
    assert "You studied 3 cards and got 3 right (100%). You missed none." in told
    finished = [e for e in script.last if isinstance(e, Finished)]
    assert finished
    assert finished[0].summary.cards == 3
    assert script.drill.view().status == "Session complete."
    assert script.send(Heard(("dog",), script.later(1))) == ()  # over: nothing more


def test_the_grade_of_a_right_answer_follows_how_long_it_took() -> None:
    script = Script()
    script.begin()
    script.answer("dog", after=4)
    assert script.drill.view().grade == "Good"
    script.spoken()
    script.wait(FEEDBACK)
    script.answer("cat", after=7)
    script.spoken()
    script.wait(FEEDBACK)
    assert script.grades() == [Rating.GOOD, Rating.HARD]


def test_a_wrong_answer_is_told_the_right_one_and_graded_again() -> None:
    script = Script()
    script.begin()
    told = script.answer("cow")
    assert [(s.text, s.lang) for s in says(told)] == [("The answer is", "en"), ("dog.", "en")]
    view = script.drill.view()
    assert (view.heard, view.said, view.grade) == ("cow", "The answer is dog.", "Again")
    script.spoken()
    assert script.wait(FEEDBACK - 0.1) == ()
    assert script.grades() == []
    assert said(script.wait(0.1)) == "gato"
    assert script.grades() == [Rating.AGAIN]


def test_a_grade_word_after_the_feedback_replaces_its_grade() -> None:
    script = Script()
    script.begin()
    script.answer("cow")
    script.spoken()
    assert said(script.hear("hard")) == "gato"
    script.answer("cat")
    script.spoken()
    script.hear("again")
    assert script.grades() == [Rating.HARD, Rating.AGAIN]


def test_go_on_after_the_feedback_writes_its_grade_at_once() -> None:
    script = Script()
    script.begin()
    script.answer("dog")
    script.spoken()
    assert said(script.hear("next")) == "gato"
    assert script.grades() == [Rating.EASY]


def test_a_near_miss_asks_and_yes_counts_it_right_but_hard() -> None:
    script = Script([("agua", ["water"])])
    script.begin()
    told = script.answer("wader")
    assert [(s.text, s.lang) for s in says(told)] == [("Did you say", "en"), ("water?", "en")]
    asked = script.spoken()
    assert listens(asked)[0].lang == "en"
    assert "yes" in listens(asked)[0].phrases
    assert said(script.hear("yes")) == "Right."
    script.spoken()
    script.wait(FEEDBACK)
    assert script.grades() == [Rating.HARD]  # not heard clearly


def test_a_near_miss_answered_no_is_wrong_and_unclear_asks_again() -> None:
    script = Script([("agua", ["water"])])
    script.begin()
    script.answer("wader")
    script.spoken()
    assert said(script.hear("maybe")) == "Please say yes or no. Did you say water?"
    script.spoken()
    assert said(script.hear("no")) == "The answer is water."
    script.spoken()
    script.wait(FEEDBACK)
    assert script.grades() == [Rating.AGAIN]


def test_the_cards_answer_beats_a_command_with_the_same_words() -> None:
    script = Script([("parar", ["stop"]), ("fácil", ["easy"]), ("siguiente", ["next"])])
    script.begin()
    assert said(script.answer("Stop.")) == "Right."
    script.spoken()
    script.wait(FEEDBACK)
    assert said(script.answer("easy")) == "Right."
    script.spoken()
    script.wait(FEEDBACK)
    assert said(script.answer("next")) == "Right."
    assert script.drill.state.phase == "saying"
    assert script.grades() == [Rating.EASY, Rating.EASY]


def test_a_command_beats_a_wrong_answer_and_stop_says_no_to_a_question() -> None:
    script = Script([("agua", ["water"]), ("gato", ["cat"])])
    script.begin()
    script.answer("wader")
    script.spoken()
    assert said(script.hear("stop")) == "The answer is water."  # "stop" is no here
    script.spoken()
    script.wait(FEEDBACK)
    assert said(script.answer("skip")) == "Skipped. agua"  # missed a moment ago: due again
    assert script.grades() == [Rating.AGAIN]


def test_repeat_says_the_prompt_again_and_slower_slows_every_speech() -> None:
    script = Script()
    script.begin()
    assert said(script.answer("say that again")) == "perro"
    slower = says(script.answer("slower"))
    assert [(s.text, s.rate) for s in slower] == [("perro", 0.8)]
    assert says(script.answer("cow"))[0].rate == 0.8
    script.spoken()
    assert said(script.hear("repeat")) == "The answer is dog."


def test_skip_leaves_the_card_ungraded_and_a_reload_goes_on_from_the_next() -> None:
    script = Script()
    script.begin()
    assert said(script.answer("pass")) == "Skipped. gato"
    assert script.grades() == []
    script.reload()
    assert said(script.begin()) == "gato"


def test_i_dont_know_tells_the_answer_and_grades_again() -> None:
    script = Script()
    script.begin()
    assert said(script.answer("I don't know")) == "The answer is dog."
    script.spoken()
    script.wait(FEEDBACK)
    assert script.grades() == [Rating.AGAIN]


def test_what_does_it_mean_asks_the_scholar_then_tells_the_answer() -> None:
    script = Script()
    script.begin()
    asked = script.answer("what does it mean?")
    assert len(asked) == 1
    assert isinstance(asked[0], Explain)
    assert asked[0].card.term == "perro"
    assert script.drill.view().status == "Asking the Scholar…"
    assert script.wait(30) == ()  # waiting for the Scholar is no silence
    told = script.send(Explained("Perro is Spanish for dog.", script.later(1)))
    assert said(told) == "Perro is Spanish for dog. The answer is dog."
    script.spoken()
    script.hear("good")
    assert script.grades() == [Rating.GOOD]


def test_the_explanation_is_said_as_plain_short_sentences() -> None:
    script = Script()
    script.begin()
    script.answer("cow")
    script.spoken()
    script.hear("what's that mean")
    long = "**Perro** means *dog*. " + "It barks a lot. " * 40
    told = said(script.send(Explained(long, script.later(1))))
    assert told.startswith("Perro means dog. It barks a lot.")
    assert len(told.split()) <= EXPLANATION_WORDS


def test_without_a_provider_the_drill_says_so_and_goes_on() -> None:
    script = Script()
    script.begin()
    script.answer("cow")
    script.spoken()
    script.hear("explain")
    told = script.send(ExplainFailed("Explanations need a provider.", script.later(0.1)))
    assert said(told) == "Explanations need a provider."
    script.spoken()
    script.wait(FEEDBACK)
    assert script.grades() == [Rating.AGAIN]
    assert script.send(Explained("late", script.later(1))) == ()


def test_pause_and_resume_by_voice_and_by_button() -> None:
    script = Script()
    script.begin()
    assert said(script.answer("hold on")) == PAUSED
    assert script.drill.view().status == PAUSED
    listening = script.spoken()
    assert listens(listening)
    assert script.wait(600) == ()  # paused: silence is no problem
    assert script.hear("dog") == tuple(listens(listening))  # not a command: listens on
    assert said(script.hear("resume")) == "perro"
    assert said(script.answer("pause")) == PAUSED
    assert said(script.send(Button(Command.RESUME, script.later(1)))) == "perro"
    assert script.grades() == []


def test_pausing_after_the_feedback_writes_its_grade_first() -> None:
    script = Script()
    script.begin()
    script.answer("dog")
    script.spoken()
    script.hear("pause")
    assert script.grades() == [Rating.EASY]
    script.spoken()
    assert said(script.hear("continue")) == "gato"


def test_stop_writes_the_decided_grade_and_says_the_summary() -> None:
    script = Script()
    script.begin()
    script.answer("cow")
    script.spoken()
    told = script.hear("that's enough")
    assert script.grades() == [Rating.AGAIN]
    assert "You studied 1 card and got 0 right (0%). You missed perro." in said(told)
    assert any(isinstance(e, Finished) for e in told)
    assert script.store.study.open_session() is None  # a reload has nothing to resume


def test_undo_takes_back_the_last_grade_and_asks_that_card_again() -> None:
    script = Script()
    script.begin()
    right_away(script, "dog")
    assert said(script.answer("undo")) == "Undone. perro"
    assert script.grades() == []
    right_away(script, "dog")
    assert said(script.send(Button(Command.UNDO, script.later(1)))) == "Undone. perro"
    assert script.grades() == []
    assert said(script.answer("undo")) == "There is nothing to undo yet."


def test_undo_during_the_feedback_drops_the_grade_before_it_is_written() -> None:
    script = Script()
    script.begin()
    script.answer("cow")
    script.spoken()
    assert said(script.hear("undo")) == "Undone. perro"
    script.spoken()
    assert script.wait(FEEDBACK) == ()
    assert script.grades() == []


def test_hostile_and_odd_utterances_are_answers_like_any_other() -> None:
    script = Script()
    script.begin()
    assert said(script.answer("x" * 100_000)) == "The answer is dog."
    script.spoken()
    script.wait(FEEDBACK)
    assert said(script.answer("ＳＴＯＰ")).startswith("You studied 1 card")
    assert script.grades() == [Rating.AGAIN]


def test_a_grade_word_instead_of_an_answer_tells_the_answer_and_grades() -> None:
    script = Script()
    script.begin()
    assert said(script.answer("easy")) == "The answer is dog. gato"
    assert script.grades() == [Rating.EASY]


def test_silence_gets_one_prompt_then_a_pause_and_never_a_grade() -> None:
    script = Script()
    script.begin()
    script.spoken()
    assert script.wait(7.9) == ()
    nudged = script.wait(0.1)
    assert nudged[0] == StopListening()
    assert said(nudged) == NUDGE
    script.spoken()
    assert script.wait(19.9) == ()
    assert said(script.wait(0.1)) == PAUSED
    script.spoken()
    script.wait(600)
    assert script.grades() == []


def test_talking_holds_off_the_silence_prompt() -> None:
    script = Script()
    script.begin()
    script.spoken()
    script.wait(7)
    script.send(Interim(script.later(0)))
    assert script.wait(7.9) == ()
    assert said(script.wait(0.1)) == NUDGE


def test_the_providers_trip_is_not_counted_as_the_learners_time() -> None:
    """Words that come back from the provider seconds after the learner stopped speaking are
    timed from the end of their speech (plus the second a browser's recogniser takes)."""
    script = Script()
    script.begin()
    script.spoken()
    script.send(Interim(script.later(0.5)))  # speech began
    script.send(Interim(script.later(0.6)))  # and ended, 1.1 s after the prompt
    script.send(Awaiting(script.later(0), done=False))
    script.send(Awaiting(script.later(4.0), done=True))  # a slow upload
    script.hear("dog", after=0)
    assert script.drill.view().grade == "Easy"  # 2.1 s, not 5.1 s


def test_speech_heard_before_the_question_does_not_time_the_answer() -> None:
    script = Script()
    script.begin()
    script.send(Interim(script.later(0.2)))  # while the prompt was being said
    script.spoken()
    script.hear("dog", after=6.0)
    assert script.drill.view().grade == "Hard"


def test_words_on_their_way_to_the_provider_hold_off_the_silence_prompt() -> None:
    """The provider may take many seconds to answer (retries, a slow server): the learner
    spoke, so no silence is counted until the words (or the failure) come back."""
    script = Script()
    script.begin()
    script.spoken()
    script.wait(2)
    script.send(Awaiting(script.later(0), done=False))
    assert script.wait(30) == ()
    assert script.wait(30) == ()
    script.send(Awaiting(script.later(0), done=True))
    assert script.wait(7.9) == ()
    assert said(script.wait(0.1)) == NUDGE


def test_a_grade_is_held_while_the_learners_words_are_on_their_way() -> None:
    script = Script()
    script.begin()
    script.answer("dog")
    script.send(Awaiting(script.later(0.5), done=False))  # "undo", being transcribed
    assert script.wait(OVERRIDE_SECONDS * 4) == ()
    assert script.grades() == []
    script.send(Awaiting(script.later(0), done=True))
    assert said(script.hear("undo", after=0)).startswith("Undone.")
    assert script.grades() == []


def test_a_new_listening_session_forgets_what_an_old_one_had_on_its_way() -> None:
    """The browser drops what an abandoned session still sends, so its words never return."""
    script = Script()
    script.begin()
    script.spoken()
    script.send(Awaiting(script.later(0), done=False))
    assert said(script.hear("skip")) == "Skipped. gato"
    script.spoken()
    assert script.wait(7.9) == ()
    assert said(script.wait(0.1)) == NUDGE


def test_a_command_while_the_app_speaks_interrupts_it_and_an_answer_is_ignored() -> None:
    script = Script()
    script.begin()
    assert script.hear("dog") == ()  # during the prompt: too early, never graded
    told = script.hear("skip")
    assert told[0] == StopSpeaking()
    assert said(told) == "Skipped. gato"
    first = script.drill.state.said
    assert script.send(SpeechDone(first - 1, script.later(0.1))) == ()  # the cut-off one
    assert script.grades() == []


def test_the_app_hearing_its_own_words_is_no_command() -> None:
    script = Script()
    script.begin()
    script.spoken()
    script.wait(8)  # "Say repeat, or I don't know."
    assert script.hear("repeat", after=0.2) == ()
    assert script.drill.state.phase == "saying"


def test_a_reload_resumes_the_drill_at_the_sessions_card() -> None:
    script = Script()
    script.begin()
    right_away(script, "dog")
    script.answer("cat")  # its grade is decided, not yet written: the reload asks it again
    script.reload()
    assert said(script.begin()) == "gato"
    right_away(script, "cat")
    right_away(script, "water")
    assert script.grades() == [Rating.EASY] * 3


def test_listening_that_fails_quietly_listens_again_and_otherwise_pauses() -> None:
    script = Script()
    script.begin()
    script.spoken()
    again = script.send(ListenFailed(problem("no-speech"), script.later(5)))
    assert listens(again)
    assert said(script.wait(3)) == NUDGE  # the silence clock kept running
    script.spoken()
    blocked = script.send(ListenFailed(problem("not-allowed"), script.later(1)))
    assert said(blocked).endswith(PAUSED_DEAF)
    assert "microphone is blocked" in said(blocked)
    assert script.spoken() == ()  # no listening while it cannot
    assert script.drill.view().status == PAUSED_DEAF
    assert said(script.send(Button(Command.RESUME, script.later(1)))) == "perro"


def test_a_reverse_card_is_prompted_in_the_ui_language_and_answered_in_the_words() -> None:
    script = Script([("perro", ["dog"])], StudyOptions(directions="reverse"))
    first = script.begin()
    assert [(s.text, s.lang) for s in says(first)] == [("dog", "en")]
    assert listens(script.spoken())[0].lang == "es"
    told = script.hear("el perro")
    assert said(told) == "Right."


def test_nothing_to_study_says_so_and_finishes() -> None:
    script = Script([])
    told = script.begin()
    assert said(told).startswith("There was nothing to study.")
    assert any(isinstance(e, Finished) for e in told)


def test_it_says_it_listens_only_once_the_microphones_sound_reaches_the_recogniser() -> None:
    """Each Listen is a new session whose first audio comes a little later: a word said before
    it is lost, so the screen says "Listening" (and `hearing`) only from then on."""
    script = Script()
    script.begin()
    script.spoken()
    view = script.drill.view()
    assert (view.listening, view.hearing) == (True, False)
    assert view.status == "Getting ready to listen…"
    script.send(AudioStarted(script.later(0.1)))
    view = script.drill.view()
    assert (view.listening, view.hearing) == (True, True)
    assert view.status == "Listening for the answer…"
    script.hear("cow")  # wrong: the answer is said, then it listens anew
    assert not script.drill.view().hearing
    script.spoken()
    assert script.drill.view().listening
    assert not script.drill.view().hearing  # a new session: not yet
    script.send(AudioStarted(script.later(0.1)))
    assert script.drill.view().hearing


def test_audio_starting_when_it_no_longer_listens_changes_nothing() -> None:
    script = Script()
    script.begin()  # saying the prompt: not listening
    assert script.send(AudioStarted(script.later(0.1))) == ()
    assert not script.drill.view().hearing
