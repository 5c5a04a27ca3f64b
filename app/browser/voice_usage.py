"""The voice's entries in the usage log: each spoken turn's timings (app.voice.timings); the
audio the provider heard or said is logged by the assistant (`Assistant.audio_options`).

A turn is timed from the moment speech ended or the transcript was final, through the request,
to its first token and first audio; it is logged when it is over and its first audio started,
or at once when nothing is left to say.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from app.browser.recognition import now
from app.voice.listening_events import Result, SpeechEnd
from app.voice.timings import VoiceTurnClock

if TYPE_CHECKING:
    from app.browser.settings_store import SettingsStore
    from app.store import Store
    from app.ui.assistant_controller import AssistantController, Request
    from app.voice.listening_events import Event


class UsageAssistant(Protocol):
    """What the usage log needs of the assistant (app/browser/assistant.py, which builds it)."""

    controller: AssistantController
    settings: SettingsStore

    @property
    def store(self) -> Store: ...

    def render_panel(self) -> None: ...


class VoiceUsage:
    def __init__(self, assistant: UsageAssistant) -> None:
        self.assistant = assistant
        self._clock: VoiceTurnClock | None = None  # the utterance being heard
        self._timed: tuple[Request, VoiceTurnClock] | None = None  # the request it became
        self._outcome = "ok"

    def heard(self, event: Event) -> None:
        """A recogniser's event: the end of speech and the final transcript are timed."""
        if isinstance(event, SpeechEnd) or (
            isinstance(event, Result) and any(s.final for s in event.segments)
        ):
            clock = self._clock = self._clock or VoiceTurnClock()
            if isinstance(event, SpeechEnd):
                clock.speech_ended(event.at)
            else:
                clock.transcript_final(event.at)

    def not_a_request(self) -> None:
        """What was heard answers the app (a yes, "more"): there is no request to time."""
        self._clock = None

    def sent(self, request: Request) -> None:
        clock = self._clock or VoiceTurnClock()
        clock.request_sent(now())
        self._timed, self._clock, self._outcome = (request, clock), None, "ok"

    def failed(self, kind: str) -> None:
        self._outcome = kind

    def first_token(self) -> None:
        if self._timed is not None:
            self._timed[1].first_token(now())

    def speaking_started(self) -> None:
        if self._timed is not None:
            self._timed[1].first_audio(now())
        self.speaking_ended()

    def speaking_ended(self) -> None:
        """A turn that is over is logged once speech starts or ends."""
        timed = self._timed
        if timed is not None and self.assistant.controller.request is not timed[0]:
            self._write()

    def turn_over(self, request: Request, *, speaking: bool) -> None:
        """The turn is over: logged now unless its answer is still being said."""
        timed = self._timed
        if timed is None or timed[0] is not request:
            return
        timed[1].finished(now(), self._outcome)
        if not speaking:
            self._write()

    def _write(self) -> None:
        timed, self._timed = self._timed, None
        if timed is None:
            return
        settings = self.assistant.settings.settings
        entry = timed[1].entry(
            provider=settings.provider,
            model=settings.model_name,
            conversation_id=self.assistant.controller.state.conversation_id,
        )
        if entry is not None:
            self.assistant.store.conversations.log_usage(entry)
            self.assistant.render_panel()  # the usage figures include it
