"""Saying a spoken request's answer as it streams: each sentence as soon as it is complete
(app.voice.chunks), the collection's words in their own language's voice
(app.voice.word_voices), what is left kept for "more", and a confirmation asked aloud.

What the last answer left unsaid (`rest`) and offered to choose from (`choices`) is what the
next thing heard is understood against.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol

from app.agents import Confirmation, Failed, Finished, Routed, StepDone, TextDelta
from app.browser.dom import mark
from app.voice.chunks import SentenceChunker
from app.voice.speakable import more, speak
from app.voice.word_voices import WordVoices

if TYPE_CHECKING:
    from app.agents import Event
    from app.tools.registry import Link
    from app.ui.assistant_controller import Request

CHANGES_SAID = 3
SAY_YES_OR_NO = "Say yes to go ahead, or no to cancel."

# The words an answer may name and their languages, given the links of the turn's steps.
Words = Callable[[list["Link"]], Mapping[str, str]]


class Says(Protocol):
    def enqueue(self, sentence: str, lang: str) -> None: ...


def question(confirmation: Confirmation) -> str:
    """A confirmation said aloud: what will change (the first few), then how to answer."""
    changes = list(confirmation.changes[:CHANGES_SAID])
    left = len(confirmation.changes) - len(changes)
    if left:
        changes.append(f"and {left:,} more")
    return f"{confirmation.title} {'; '.join(changes)}. {SAY_YES_OR_NO}"


class AnswerSpeaker:
    def __init__(
        self,
        speaker: Says,
        lang: Callable[[], str],
        words: Words,
        started: Callable[[], None],
    ) -> None:
        self.speaker = speaker
        self._lang, self._words = lang, words
        self._started = started  # the answer's first text arrived
        self.rest = ""  # what "more" says next of the last spoken answer
        self.choices: tuple[str, ...] = ()  # what the last spoken answer asked to choose from
        self._links: list[Link] = []  # of the spoken turn's steps: their words are said too
        self._voices: WordVoices | None = None  # the turn's words, once its answer is said
        self._chunker: SentenceChunker | None = None
        self._streamed = False
        self._hushed: Request | None = None  # a spoken request whose answer is not to be said

    def new_turn(self) -> None:
        self.rest, self.choices, self._links, self._voices = "", (), [], None

    def hush(self, request: Request | None) -> None:
        """Say no more of `request`'s answer (the speech was cancelled)."""
        self._chunker, self._hushed = None, request

    def hushed(self, request: Request) -> bool:
        return request is self._hushed

    def say(self, text: str) -> None:
        self.speaker.enqueue(text, self._lang())

    def say_more(self) -> None:
        """The next part of the last answer, for "more"."""
        spoken = more(self.rest)
        self.rest = spoken.rest
        self._say_answer(spoken.text)

    def heard(self, event: Event) -> None:
        """An event of the spoken turn: what it means for the voices, and what of it to say."""
        if isinstance(event, StepDone):
            self._note_step(event)
        elif isinstance(event, Routed):
            self._voices = self._word_voices()
        self._speak(event)

    def _say_answer(self, text: str) -> None:
        """Answer text, its collection words each in their own language."""
        if self._voices is None:
            self._voices = self._word_voices()
        for piece, lang in self._voices.split(text):
            self.speaker.enqueue(piece, lang)

    def _word_voices(self) -> WordVoices:
        """Found when the turn starts and after each step that touches a word, so the first
        sentence is not kept waiting."""
        return WordVoices(self._words(self._links), self._lang())

    def _speak(self, event: Event) -> None:
        """Say the answer as it streams: each sentence as soon as it is complete."""
        if self._chunker is None and isinstance(event, TextDelta | Finished):
            self._chunker, self._streamed = SentenceChunker(), False
        chunker = self._chunker
        if isinstance(event, TextDelta) and chunker is not None:
            if not self._streamed:
                self._streamed = True
                self._started()
            for sentence in chunker.feed(event.text):
                mark("voice-sentence")  # make bench: from here to speech started
                self._say_answer(sentence)
        elif isinstance(event, Finished) and chunker is not None:
            sentences = chunker.flush() if self._streamed else speak_all(chunker, event.answer)
            for sentence in sentences:
                self._say_answer(sentence)
            self.rest, self._chunker = chunker.rest, None
        elif isinstance(event, Failed):
            self._chunker = None
            self.say(speak(event.message).text)

    def _note_step(self, step: StepDone) -> None:
        """What a step of a spoken turn means for the next reply and for the voices."""
        if step.choices:
            self.choices = step.choices
        if step.link is not None and step.link.kind == "word":
            self._links.append(step.link)
            self._voices = self._word_voices()  # a word the answer may now name


def speak_all(chunker: SentenceChunker, answer: str) -> list[str]:
    """An answer that arrived whole (no streamed text) through the same chunker."""
    return [*chunker.feed(answer), *chunker.flush()]
