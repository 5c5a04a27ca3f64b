"""After the spoken summary the drill listens a little longer: "help me remember" asks the
Scholar for short mnemonics of the missed words and says them (the screen shows them all)."""

from __future__ import annotations

from app.drill.commands import Command
from app.drill.events import (
    Button,
    Explain,
    Explained,
    ExplainFailed,
    Finished,
    Remind,
    StopListening,
)
from app.drill.lines import MNEMONICS_WORDS, OFFER_MNEMONICS
from app.drill.timing import OFFER_SECONDS
from tests.drill.script import Script, listens, said


def missed_two() -> Script:
    """A session that missed perro and gato and was stopped: the summary is being said."""
    script = Script()
    script.begin()
    script.answer("cow")
    script.spoken()
    script.hear("next")
    script.answer("dog")
    script.spoken()
    told = script.hear("stop")
    assert any(isinstance(e, Finished) for e in told)
    assert said(told).endswith(OFFER_MNEMONICS)
    return script


def test_help_me_remember_asks_for_mnemonics_of_the_missed_words_and_says_them() -> None:
    script = missed_two()
    assert not script.drill.over  # still listening for the request
    [listen] = listens(script.spoken())
    assert listen.lang == "en"
    assert "help me remember" in listen.phrases
    [remind] = script.hear("help me remember")
    assert isinstance(remind, Remind)
    assert remind.terms == ("perro", "gato")
    assert script.drill.view().said == "Asking the Scholar…"
    mnemonics = "**Perro**: a *pear* on a dog. " + "Gato sounds like gateau: a cat on a cake. " * 9
    told = said(script.send(Explained(mnemonics, script.later(1))))
    assert told.startswith("Perro: a pear on a dog. Gato sounds like gateau")
    assert len(told.split()) <= MNEMONICS_WORDS
    assert script.drill.view().said.endswith(mnemonics)  # all of it on screen
    assert script.drill.over
    assert script.spoken() == ()
    assert script.drill.view().phase == "finished"


def test_without_a_provider_the_reason_is_said() -> None:
    script = missed_two()
    script.spoken()
    script.hear("give me mnemonics")
    told = script.send(ExplainFailed("Explanations need an AI provider.", script.later(1)))
    assert said(told) == "Explanations need an AI provider."
    assert script.drill.over


def test_the_window_closes_after_silence_or_anything_else_and_a_button_asks_too() -> None:
    script = missed_two()
    script.spoken()
    assert listens(script.hear("what a session"))  # not the request: listens on
    assert script.wait(OFFER_SECONDS) == (StopListening(),)
    assert script.drill.over
    assert script.hear("help me remember") == ()
    script = missed_two()
    script.spoken()
    assert script.hear("stop") == ()
    assert script.drill.over  # heard: already not listening
    script = missed_two()
    asked = script.send(Button(Command.MNEMONICS, script.later(0.1)))  # while still saying it
    assert isinstance(asked[-1], Remind)


def test_no_missed_words_no_offer_and_the_drill_is_over_at_once() -> None:
    script = Script([("perro", ["dog"])])
    script.begin()
    script.answer("dog")
    script.spoken()
    told = script.hear("stop")
    assert OFFER_MNEMONICS not in said(told)
    assert script.drill.over


def test_during_a_card_help_me_remember_explains_the_card() -> None:
    script = Script()
    script.begin()
    [explain] = script.answer("help me remember")
    assert isinstance(explain, Explain)
    assert explain.card.term == "perro"
