"""Hold to talk (app/browser/voice_input.py): for the assistant, holding Ctrl+M or the button
talks, letting go (or leaving the window) stops, repeats are swallowed, and Escape stops the
voice before anything else hears it; for a study card, M alone outside text fields, and only
while the card waits for an answer."""

from __future__ import annotations

from typing import Any

import js

from app.browser.voice_input import TalkInput, ctrl_m, plain_m
from app.voice.listening import Listener, step
from app.voice.listening_events import Event as Heard
from app.voice.listening_events import Press, Release, Stop
from tests.browser.fakes import Document, Element, Event, dispatch


class Voice:
    """The listening machine behind the input, with what it was fed recorded."""

    def __init__(self) -> None:
        self.state = Listener()
        self.fed: list[type] = []

    def feed(self, event: Heard) -> None:
        self.fed.append(type(event))
        self.state, _effects = step(self.state, event)

    def press(self) -> None:
        self.feed(Press(0.0))


def wired(document: Document) -> tuple[Voice, Element]:
    voice = Voice()
    panel = Element("section")
    talk = Element("button", {"id": "ai-talk"}, Element("span"))
    talk.captured = []
    talk.setPointerCapture = talk.captured.append
    panel.appendChild(talk)
    document.body.appendChild(panel)

    def listen(target: Any, type_: str, handler: Any, *, capture: bool = False) -> None:
        target.addEventListener(type_, handler, capture)

    TalkInput(
        "ai-talk", ctrl_m, lambda: voice.state, voice.feed, voice.press, escape_stops=True
    ).start(listen, panel)
    return voice, talk


def key(target: Any, type_: str, name: str, *, repeat: bool = False, ctrl: bool = False) -> Event:
    return dispatch(target, Event(type_, key=name, repeat=repeat, ctrlKey=ctrl))


def test_ctrl_m_talks_while_held_and_repeats_are_swallowed(document: Document) -> None:
    voice, _talk = wired(document)
    assert key(document.body, "keydown", "m", ctrl=True).defaultPrevented
    assert voice.state.held
    assert voice.fed == [Press]
    repeat = key(document.body, "keydown", "m", ctrl=True, repeat=True)
    assert repeat.defaultPrevented
    assert voice.fed == [Press]
    assert key(document.body, "keyup", "Control").defaultPrevented
    assert not voice.state.held
    assert voice.fed == [Press, Release]


def test_m_without_ctrl_and_keys_up_when_nothing_is_held_are_left_alone(
    document: Document,
) -> None:
    voice, _talk = wired(document)
    assert not key(document.body, "keydown", "m").defaultPrevented
    assert not key(document.body, "keyup", "m").defaultPrevented
    assert voice.fed == []


def test_space_on_the_talk_button_talks_until_it_comes_up(document: Document) -> None:
    voice, talk = wired(document)
    key(talk, "keydown", " ")
    assert voice.state.held
    key(talk, "keyup", " ")
    assert voice.fed == [Press, Release]
    key(document.body, "keydown", " ")  # Space elsewhere is not for the voice
    assert voice.fed == [Press, Release]


def test_the_button_held_by_pointer_talks_until_let_go_even_off_it(document: Document) -> None:
    voice, talk = wired(document)
    down = dispatch(talk.firstChild, Event("pointerdown", button=0, pointerId=7))
    assert down.defaultPrevented
    assert talk.captured == [7]
    assert voice.state.held
    dispatch(talk, Event("pointerup"))
    assert voice.fed == [Press, Release]


def test_other_buttons_and_other_places_do_not_talk(document: Document) -> None:
    voice, talk = wired(document)
    dispatch(talk, Event("pointerdown", button=2, pointerId=1))
    dispatch(talk.parentNode, Event("pointerdown", button=0, pointerId=1))
    assert voice.fed == []


def test_a_pointer_let_go_does_not_end_a_turn_the_keys_hold(document: Document) -> None:
    voice, talk = wired(document)
    key(document.body, "keydown", "M", ctrl=True)
    dispatch(talk, Event("pointerup"))
    assert voice.state.held
    dispatch(js.window, Event("blur"))  # leaving the window lets go of everything
    assert not voice.state.held
    assert voice.fed == [Press, Release]


def test_escape_stops_the_voice_before_anything_else_hears_it(document: Document) -> None:
    voice, _talk = wired(document)
    key(document.body, "keydown", "m", ctrl=True)
    escape = key(document.body, "keydown", "Escape")
    assert escape.defaultPrevented
    assert escape.propagationStopped
    assert voice.fed == [Press, Stop]
    assert voice.state.phase == "idle"


def test_escape_is_left_for_the_page_while_the_voice_is_idle(document: Document) -> None:
    voice, _talk = wired(document)
    escape = key(document.body, "keydown", "Escape")
    assert not (escape.defaultPrevented)
    assert not (escape.propagationStopped)
    assert voice.fed == []


def test_a_study_card_talks_with_m_alone_outside_fields_and_only_while_asking(
    document: Document,
) -> None:
    voice, asking = Voice(), [True]
    card = Element("section")
    field = Element("input")
    card.appendChild(field)
    document.body.appendChild(card)

    def listen(target: Any, type_: str, handler: Any, *, capture: bool = False) -> None:
        target.addEventListener(type_, handler, capture)

    talk = TalkInput(
        "study-say",
        plain_m,
        lambda: voice.state,
        voice.feed,
        voice.press,
        allowed=lambda: asking[0],
    )
    talk.start(listen, document)
    assert not key(field, "keydown", "m").defaultPrevented  # typing an answer
    assert not key(document.body, "keydown", "m", ctrl=True).defaultPrevented
    assert voice.fed == []
    asking[0] = False
    assert not key(document.body, "keydown", "m").defaultPrevented
    asking[0] = True
    assert key(document.body, "keydown", "M").defaultPrevented
    assert voice.fed == [Press]
    assert key(document.body, "keyup", "M").defaultPrevented
    assert voice.fed == [Press, Release]
    key(document.body, "keydown", "Escape")
    assert voice.fed == [Press, Release]  # Escape is the study screen's own
