"""Hearing the user for the assistant: a recognition session on the rung the ladder chooses
(the browser's recogniser, on this device or not, or the provider transcribing a recording),
with the open folder's terms as hints. Its events are timed for the usage log and fed on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from app.browser.provider_listening import ProviderSession
from app.browser.recognition import Session, now
from app.voice.listening import Event, RecognitionError

if TYPE_CHECKING:
    from app.browser.ai_settings import SettingsDialog
    from app.browser.microphone import Microphone
    from app.browser.settings_store import SettingsStore
    from app.browser.voice_ladder import VoiceLadder
    from app.browser.voice_usage import VoiceUsage
    from app.domain import FolderId
    from app.llm.audio import AudioOptions
    from app.store import Store

PHRASES = 200  # of the open folder's terms, as hints for the recogniser


class RecogniserAssistant(Protocol):
    """What hearing needs of the assistant (app/browser/assistant.py): the provider that may
    transcribe, and the open folder's terms as hints."""

    settings: SettingsStore
    dialog: SettingsDialog

    @property
    def store(self) -> Store: ...

    def audio_options(self) -> AudioOptions: ...

    def open_folder(self) -> FolderId | None: ...


class VoiceRecogniser:
    def __init__(
        self,
        assistant: RecogniserAssistant,
        mic: Microphone,
        ladder: VoiceLadder,
        usage: VoiceUsage,
        feed: Callable[[Event], None],
    ) -> None:
        self.assistant, self.mic, self.ladder, self.usage = assistant, mic, ladder, usage
        self._feed = feed
        self.session: Session | ProviderSession | None = None

    def start(self) -> None:
        rung = self.ladder.rung()
        if rung.path == "typing":
            self._feed(RecognitionError(now(), "unsupported", rung.sentence))
            return
        if rung.path == "provider":
            assistant = self.assistant
            self.session = ProviderSession(
                self._recognised,
                self.mic,
                lambda: assistant.settings.settings,
                assistant.dialog.transport,
                self.assistant.audio_options(),
            )
        else:
            self.session = Session(self._recognised)
        local = rung.path == "on-device"
        self.session.start(self.ladder.lang, local=local, phrases=self._phrases())

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
