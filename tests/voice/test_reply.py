"""Spoken utterances read as a confirmation's answer, "more", or a new request."""

from __future__ import annotations

import pytest

from app.voice.reply import Ask, Confirmed, More, Unclear, interpret


@pytest.mark.parametrize(
    ("hearings", "reply"),
    [
        (["yes"], Confirmed(True)),
        (["yeah go ahead", "yeah go a head"], Confirmed(True)),
        (["no", "now"], Confirmed(False)),
        (["mm", "yes"], Confirmed(True)),  # the best clear hearing decides
        (["yes", "no"], Unclear()),  # hearings that disagree: ask again
        (["maybe"], Unclear()),
        ([], Unclear()),  # silence never confirms
        ([""], Unclear()),
    ],
)
def test_a_reply_to_a_confirmation(hearings: list[str], reply: object) -> None:
    assert interpret(hearings, confirming=True, more_waiting=True) == reply


def test_spanish_yes_confirms_in_spanish() -> None:
    assert interpret(["sí, claro"], confirming=True, more_waiting=False, lang="es-MX") == (
        Confirmed(True)
    )


@pytest.mark.parametrize("said", ["more", "Yes please", "tell me more", "go on", "Continue."])
def test_more_continues_a_cut_answer(said: str) -> None:
    assert interpret([said], confirming=False, more_waiting=True) == More()


@pytest.mark.parametrize("said", ["more", "yes"])
def test_more_is_a_request_when_nothing_is_waiting(said: str) -> None:
    assert interpret([said], confirming=False, more_waiting=False) == Ask(said)


@pytest.mark.parametrize(
    "said", ["remove the word morning", "add more heart terms to Cardiology please"]
)
def test_a_sentence_is_a_request_even_with_more_waiting(said: str) -> None:
    assert interpret([said, "other"], confirming=False, more_waiting=True) == Ask(said)


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("the first one", 'the first one (I mean "Biology/Cells")'),
        ("chemistry cells", 'chemistry cells (I mean "Chemistry/Cells")'),
        ("cells", "cells"),  # both are called Cells: the assistant asks again
        ("neither, make a new one", "neither, make a new one"),
    ],
)
def test_a_reply_to_which_one_names_the_choice(said: str, meant: str) -> None:
    choices = ["Biology/Cells", "Chemistry/Cells"]
    reply = interpret([said], confirming=False, more_waiting=False, choices=choices)
    assert reply == Ask(meant)
