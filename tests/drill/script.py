"""A drill on a store in memory, driven as the browser would: events at a time in seconds
that moves with the study clock, the app's speech finished on request."""

from __future__ import annotations

from collections.abc import Sequence

from app.drill.events import Begin, Effect, Effects, Event, Heard, Listen, Say, SpeechDone, Tick
from app.drill.machine import Drill
from app.inputs import NewFolder, NewWord
from app.study.model import Rating
from app.study.options import StudyOptions
from app.studying.session import StudySession
from tests.study.helpers import Clock, make_store

NO_OFFSET = lambda: 0  # noqa: E731 - the local offset, as the browser would report it

WORDS = [("perro", ["dog"]), ("gato", ["cat"]), ("agua", ["water"])]


class Script:
    def __init__(
        self,
        words: Sequence[tuple[str, list[str]]] = WORDS,
        options: StudyOptions | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.clock = clock or Clock()
        self.store = make_store(self.clock)
        folder = self.store.create_folder(NewFolder(name="Spanish", lang="es"))
        for term, meanings in words:
            self.store.add_word(NewWord(folder_id=folder.id, term=term, meanings=meanings))
        if options is not None:
            self.store.study.set_options(folder.id, options)
        scope = {"kind": "folder", "folder": folder.id}
        self.session = StudySession.start(self.store, scope, "flashcard", self.clock, NO_OFFSET)
        self.drill = Drill(self.session, "en")
        self.at = 0.0
        self.last: Effects = ()

    def reload(self) -> None:
        """A new page on the same store: the session resumed, a new drill over it."""
        session = StudySession.resume(self.store, self.clock, NO_OFFSET)
        assert session is not None
        self.session, self.drill = session, Drill(session, "en")

    def send(self, event: Event) -> Effects:
        self.last = self.drill.handle(event)
        return self.last

    def later(self, seconds: float) -> float:
        self.at += seconds
        self.clock.advance(minutes=seconds / 60)
        return self.at

    def begin(self) -> Effects:
        return self.send(Begin(self.at))

    def spoken(self) -> Effects:
        """The app has finished saying its last speech."""
        return self.send(SpeechDone(self.drill.state.said, self.later(0.5)))

    def hear(self, *alternatives: str, after: float = 1.0) -> Effects:
        return self.send(Heard(alternatives, self.later(after)))

    def wait(self, seconds: float) -> Effects:
        return self.send(Tick(self.later(seconds)))

    def answer(self, *alternatives: str, after: float = 1.0) -> Effects:
        """Say an answer once the prompt is said; returns what the app says back."""
        self.spoken()
        return self.hear(*alternatives, after=after)

    def grades(self) -> list[Rating]:
        return [Rating(r.rating) for r in self.store.study.reviews(self.session.row.id)]

    def prompt(self) -> str:
        turn = self.session.turn
        return "" if turn is None else turn.card.prompt


def said(effects: Sequence[Effect]) -> str:
    return " ".join(e.text for e in effects if isinstance(e, Say))


def says(effects: Sequence[Effect]) -> list[Say]:
    return [e for e in effects if isinstance(e, Say)]


def listens(effects: Sequence[Effect]) -> list[Listen]:
    return [e for e in effects if isinstance(e, Listen)]
