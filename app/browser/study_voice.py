"""Listening and Speaking modes in the browser: the prompt said aloud, and a held Say it turned
into the recogniser's hearings for the study session.

Nothing is decided here. The push-to-talk turn is app.voice.listening's machine (never sends
silence, says why listening failed), the way to listen is app.voice.ladder's, as for the
assistant (on this device, the browser's service, the user's provider, typing), grading is the
session's (`study-spoken`). This adapts: the Say it button or M held and let go become Press
and Release, the recogniser's events are fed to the machine, its effects start and stop a
`recognition.Session` or a `provider_listening.ProviderSession` (its one hearing is graded as
the alternatives are), and what it sends becomes the `study-spoken` action. The ladder's
sentence of where the audio goes is shown by Say it. A listening card's prompt is said when the
card appears, in the voice app/browser/pronounce.py would use.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

import js

from app.browser.dom import by_id, found
from app.browser.microphone import Microphone
from app.browser.page_parts import Runs, Spawns
from app.browser.recognition import MAX_PHRASES, now
from app.browser.voice_input import TalkInput, plain_m
from app.speech.voices import word_lang
from app.ui.study_voice_view import NOTHING_HEARD
from app.voice.listening import Listener, step, view
from app.voice.listening_events import (
    AbortRecognition,
    AnswerDone,
    CancelSpeech,
    Effect,
    Event,
    Press,
    RecognitionError,
    Send,
    StartRecognition,
    Stop,
    StopRecognition,
)

if TYPE_CHECKING:
    from app.browser.assistant import Assistant
    from app.browser.commands import Command
    from app.browser.hearing import Hearing, LadderSession
    from app.browser.pronounce import SpeechGlue
    from app.study.model import StudyCard
    from app.studying.session import Turn
    from app.ui.controller import Controller
    from app.voice.ladder import Rung

VOICE_MODES = ("listening", "speaking")


class StudyVoicePage(Runs, Spawns, Protocol):
    """What studying aloud needs of the page (app.py's Page, which builds it): the study
    session, the speaker and voice settings, and the assistant's provider to transcribe."""

    controller: Controller
    commands: dict[str, Command]

    @property
    def speech(self) -> SpeechGlue: ...

    @property
    def hearing(self) -> Hearing: ...

    assistant: Assistant | None


class StudyVoice:
    def __init__(self, page: StudyVoicePage) -> None:
        self.page = page
        self.state = Listener()
        self.session: LadderSession | None = None
        self.mic = Microphone()  # for the provider's recordings
        self._seen: Turn | None = None  # the card drawn last
        self.input = TalkInput(
            "study-say", plain_m, lambda: self.state, self.feed, self._press, allowed=self._asking
        )
        page.commands["study-hear"] = lambda _item, _data: self.hear()

    def start(self, listen: Any) -> None:
        self.input.start(listen, js.document)
        self.page.hearing.watch(self._show)  # where the audio goes may have changed

    # --- the card -----------------------------------------------------------------------------

    def _turn(self) -> Turn | None:
        if self.page.controller.state.route.view != "study":
            return None
        session = self.page.controller.study.session
        turn = session.turn if session is not None else None
        return turn if turn is not None and turn.mode in VOICE_MODES else None

    def _asking(self) -> bool:
        session = self.page.controller.study.session
        return self._turn() is not None and session is not None and session.phase != "answered"

    def drawn(self) -> None:
        """The page was drawn again: say a new listening card's prompt, stop listening for a
        card that went away, and show how listening goes."""
        turn = self._turn()
        if turn is None or not self._asking():
            if self.state.phase in ("listening", "heard"):
                self.feed(Stop(now()))
        elif turn is not self._seen:
            self._seen = turn
            if self.state.phase == "idle":
                self.state = Listener()  # without the last card's notice
            if turn.mode == "listening":
                self.hear()
        self._show()

    def hear(self) -> None:
        """Say the prompt: a term in its own language's voice, a meaning in the user's."""
        turn = self._turn()
        if turn is None:
            return
        card = turn.card
        lang = self._term_lang(card) if card.direction == "forward" else self._speech_lang
        self.page.speech.say(card.prompt, lang)

    @property
    def _speech_lang(self) -> str:
        return self.page.speech.voice.settings.speech_lang

    def _term_lang(self, card: StudyCard) -> str:
        default = self.page.controller.store.default_lang(card.folder_id)
        return word_lang(card.lang, default, self._speech_lang)

    def _answer_lang(self, card: StudyCard) -> str:
        return self._term_lang(card) if card.direction == "reverse" else self._speech_lang

    # --- holding Say it -----------------------------------------------------------------------

    def _press(self) -> None:
        turn = self._turn()
        if turn is None or not self._asking():
            return
        self.page.speech.speaker.cancel()  # the microphone must not hear the prompt
        self.state = replace(self.state, nothing_heard=NOTHING_HEARD[turn.mode])
        self.feed(Press(now()))

    # --- the machine --------------------------------------------------------------------------

    def feed(self, event: Event) -> None:
        self.state, effects = step(self.state, event)
        for effect in effects:
            self._perform(effect)
        self._show()

    def _later(self, event: Event) -> None:
        """Feed `event` once the current step is done (an effect may not step the machine)."""
        asyncio.get_running_loop().call_soon(self.feed, event)

    def _perform(self, effect: Effect) -> None:
        if isinstance(effect, StartRecognition):
            self._listen()
        elif isinstance(effect, Send):
            heard = "\n".join(effect.alternatives or (effect.text,))
            self.page.run("study-spoken", None, {"heard": heard})
            self._later(AnswerDone(now()))
        elif isinstance(effect, CancelSpeech):
            self.page.speech.speaker.cancel()
        elif self.session is not None and isinstance(effect, StopRecognition):
            self.session.stop()
        elif self.session is not None and isinstance(effect, AbortRecognition):
            self.session.abort()
        # The machine keeps a problem's sentence, and `_show` puts it on the card.

    def _rung(self, lang: str) -> Rung:
        """How the answer in `lang` becomes text right now (app.voice.ladder)."""
        return self.page.hearing.rung(lang)

    def _listen(self) -> None:
        turn = self._turn()
        if turn is None:
            self._later(RecognitionError(now(), "aborted"))
            return
        self.session = self.page.hearing.session(self.feed, self.mic)
        self.session.start(self._answer_lang(turn.card), phrases=self._phrases(turn.card))

    def _phrases(self, card: StudyCard) -> list[str]:
        """The card's accepted answers first, then the other answers of its folder."""
        from app.study.grading import candidates  # noqa: PLC0415 (loaded with studying)

        forms = [form for answer in card.answers for form in candidates(answer)]
        others = self.page.controller.store.study.distractors(card, MAX_PHRASES)
        return list(dict.fromkeys([*forms, *others]))[:MAX_PHRASES]

    def _show(self) -> None:
        """How listening goes, on the card: the held button, the machine's sentence and where
        the audio goes."""
        status, button, where = by_id("study-listening"), by_id("study-say"), by_id("study-where")
        said = view(self.state).status
        if found(status):
            status.textContent = said
        if found(button):
            button.dataset.listening = "true" if self.state.held else "false"
        turn = self._turn()
        if found(where) and turn is not None:
            sentence = self._rung(self._answer_lang(turn.card)).sentence
            where.textContent = "" if sentence == said else sentence  # said once, not twice
