"""Saying a spoken request's answer (app/browser/voice_answer.py): sentences queued as they
stream, the collection's words in their own voice, the rest kept for "more", failures said,
and a confirmation put as a question."""

from __future__ import annotations

from collections.abc import Iterable

from app.agents import Confirmation, Failed, Finished, Routed, StepDone, TextDelta
from app.agents.router import Route
from app.browser.voice_answer import AnswerSpeaker, question
from app.tools.registry import Link
from app.ui.assistant_controller import Request

LONG = " ".join(f"Sentence number {i:,} is here." for i in range(40))


class Heard:
    """What the answer speaker was given and what it did with it."""

    def __init__(self, words: dict[str, str] | None = None) -> None:
        self.said: list[tuple[str, str]] = []
        self.started = 0
        self.links: list[list[Link]] = []
        self._words = words or {}
        self.answer = AnswerSpeaker(self, lambda: "en-GB", self.words, self.start)

    def enqueue(self, sentence: str, lang: str) -> None:
        self.said.append((sentence, lang))

    def words(self, links: list[Link]) -> dict[str, str]:
        self.links.append(list(links))
        return self._words

    def start(self) -> None:
        self.started += 1

    def feed(self, events: Iterable[object]) -> None:
        for event in events:
            self.answer.heard(event)  # type: ignore[arg-type]

    @property
    def text(self) -> list[str]:
        return [sentence for sentence, _lang in self.said]


def finished(answer: str = "") -> Finished:
    return Finished("scholar", answer, None, None)


def test_each_sentence_is_said_as_soon_as_it_is_complete() -> None:
    heard = Heard()
    heard.feed([TextDelta("The heart pumps. It bea")])
    assert heard.text == ["The heart pumps."]
    assert heard.started == 1
    heard.feed([TextDelta("ts all day. And")])
    assert heard.text == ["The heart pumps.", "It beats all day."]
    assert heard.started == 1
    heard.feed([finished()])
    assert heard.text[-1] == "And."
    assert heard.answer.rest == ""


def test_an_answer_that_arrives_whole_is_said_the_same_way() -> None:
    heard = Heard()
    heard.feed([finished("One thing. Another thing.")])
    assert heard.text == ["One thing.", "Another thing."]
    assert heard.started == 0


def test_a_long_answer_offers_more_and_more_says_the_next_part() -> None:
    heard = Heard()
    heard.feed([finished(LONG)])
    assert heard.text[-1] == "Want more?"
    assert "Sentence number 39" not in " ".join(heard.text)
    assert heard.answer.rest.startswith("Sentence number 15 is here.")
    heard.said.clear()
    heard.answer.say_more()
    assert heard.text[0].startswith("Sentence number 15 is here.")
    assert heard.answer.rest.startswith("Sentence number 30 is here.")


def test_collection_words_are_said_in_their_own_language() -> None:
    heard = Heard({"aorta": "la"})
    heard.feed([finished("The aorta is big.")])
    assert heard.said == [("The ", "en-GB"), ("aorta", "la"), (" is big.", "en-GB")]


def test_a_word_a_step_touched_is_looked_up_before_the_answer_names_it() -> None:
    heard = Heard()
    link = Link(kind="word", id=3, folder_id=1, label="aorta")
    heard.feed([Routed("architect", "add"), StepDone("add_word", "Added aorta", "done", link)])
    assert heard.links == [[], [link]]


def test_choices_offered_by_a_step_are_kept_for_the_reply_until_a_new_turn() -> None:
    heard = Heard()
    heard.feed([StepDone("move", "Which one?", "read", choices=("Heart", "Lungs"))])
    heard.feed([finished(LONG)])
    assert heard.answer.choices == ("Heart", "Lungs")
    assert heard.answer.rest
    heard.answer.new_turn()
    assert heard.answer.choices == ()
    assert heard.answer.rest == ""


def test_a_failure_is_said_and_what_was_streamed_is_not_finished() -> None:
    heard = Heard()
    heard.feed([TextDelta("Half a sent")])
    heard.feed([Failed("scholar", "network", "The network is down.", "", None, False)])
    heard.feed([finished()])
    assert heard.text == ["The network is down."]


def test_a_hushed_request_is_known_and_its_unsaid_sentence_is_dropped() -> None:
    heard = Heard()
    request = Request("hello", Route("scholar", "asked", {}), spoken=True)
    heard.feed([TextDelta("Half a sent")])
    heard.answer.hush(request)
    heard.feed([finished()])
    assert heard.answer.hushed(request)
    assert heard.text == []


def test_a_confirmation_is_asked_with_its_first_changes_and_how_to_answer() -> None:
    changes = [f"Delete word {i}" for i in range(1, 1_006)]
    asked = question(
        Confirmation(title="The Architect wants to make these changes:", changes=changes)
    )
    assert asked == (
        "The Architect wants to make these changes: Delete word 1; Delete word 2; "
        "Delete word 3; and 1,002 more. Say yes to go ahead, or no to cancel."
    )
