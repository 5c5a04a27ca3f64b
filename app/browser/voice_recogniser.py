"""Hearing the user for the assistant: a session on the page's recognition ladder
(app/browser/hearing.py: the browser's recogniser, on this device or not, or the provider
transcribing a recording while the talk button is held, or each utterance in a hands-free
conversation), with the open folder's terms as hints. Its events are timed for the
usage log and fed on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from app.voice.listening_events import Event

if TYPE_CHECKING:
    from app.browser.hearing import LadderSession
    from app.browser.microphone import Microphone
    from app.browser.voice_ladder import VoiceLadder
    from app.browser.voice_usage import VoiceUsage
    from app.domain import FolderId
    from app.store import Store

PHRASES = 200  # of the open folder's terms, as hints for the recogniser


class RecogniserAssistant(Protocol):
    """What hearing needs of the assistant (app/browser/assistant.py): the open folder's
    terms as hints."""

    @property
    def store(self) -> Store: ...

    def open_folder(self) -> FolderId | None: ...


class VoiceRecogniser:
    def __init__(
        self,
        assistant: RecogniserAssistant,
        mic: Microphone,
        ladder: VoiceLadder,
        usage: VoiceUsage,
        feed: Callable[[Event], None],
        *,
        conversation: Callable[[], bool],
    ) -> None:
        self.assistant, self.mic, self.ladder, self.usage = assistant, mic, ladder, usage
        self._feed = feed
        self._conversation = conversation
        self.session: LadderSession | None = None

    def start(self) -> None:
        # A conversation has no button to let go: the provider is sent each utterance.
        utterances = self._conversation()
        self.session = self.ladder.page.hearing.session(
            self._recognised, self.mic, utterances=utterances
        )
        self.session.start(self.ladder.lang, phrases=self._phrases())

    def stop(self) -> None:
        if self.session is not None:
            self.session.stop()

    def abort(self) -> None:
        if self.session is not None:
            self.session.abort()

    def _recognised(self, event: Event) -> None:
        """A recogniser's event: timed for the usage log, then fed to the machine."""
        self.usage.heard(event)
        self._feed(event)

    def _phrases(self) -> list[str]:
        folder = self.assistant.open_folder()
        if folder is None:
            return []
        return [word.term for word in self.assistant.store.words(folder, limit=PHRASES)]
