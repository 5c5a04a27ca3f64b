"""Talking to the assistant: the browser side of app/voice/listening.py.

Everything that decides lives in the core: the listening state machine (when to listen, send,
count down, stop), `interpret` (is this a yes, "more", or a new request), the chunker (which
sentences of a streaming answer to say) and the assistant controller (guards, routing, the
turn). `VoiceGlue` joins the browser's adapters and runs the machine: it feeds it what the page
sees (the talk button and keys, voice_input.py; the recogniser's events, voice_recogniser.py on
voice_ladder.py's rung; speech starting and ending; a clock tick) and performs what it returns:
start and stop the recogniser, stop speaking, send. A spoken request's answer is said as it
streams (voice_answer.py), and a confirmation it needs is asked aloud and answered by voice (or
in the dialog). The bar is kept up to date by voice_bar.py, the usage log by voice_usage.py.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import TYPE_CHECKING, Any, Protocol

from app.agents import Failed
from app.browser.commands import plain
from app.browser.microphone import Microphone
from app.browser.provider_speaker import ProviderSpeaker
from app.browser.recognition import now
from app.browser.voice_answer import SAY_YES_OR_NO, AnswerSpeaker, question
from app.browser.voice_bar import VoiceBar
from app.browser.voice_input import TalkInput, ctrl_m
from app.browser.voice_ladder import LadderAssistant, LadderPage, VoiceLadder
from app.browser.voice_recogniser import RecogniserAssistant, VoiceRecogniser
from app.browser.voice_usage import UsageAssistant, VoiceUsage
from app.ui.assistant_controller import Refusal, Request
from app.ui.voice_bar_view import TALK_BUTTON, voice_bar
from app.voice.answer_words import answer_words
from app.voice.listening import Listener, step, view
from app.voice.listening_events import (
    AnswerDone,
    AnswerStarted,
    Ask,
    CancelSpeech,
    Effect,
    Press,
    Send,
    Show,
    SpeakingEnded,
    SpeakingStarted,
    StartRecognition,
    Stop,
    StopRecognition,
    Tick,
)
from app.voice.listening_events import Event as Heard
from app.voice.reply import Ask as NewRequest
from app.voice.reply import Confirmed, More, Unclear, interpret

if TYPE_CHECKING:
    from app.agents import Confirmation, Event
    from app.browser.ai_settings import SettingsDialog
    from app.browser.commands import Command
    from app.browser.settings_store import SettingsStore
    from app.llm.audio import AudioOptions
    from app.text.nodes import El
    from app.tools.registry import Link

TICK_S = 0.1
REPLY_WAIT_S = 20.0  # a question asked aloud stops listening after this; only a yes confirms


class VoicePage(LadderPage, Protocol):
    """What the assistant's voice needs of the page (app.py's Page)."""

    commands: dict[str, Command]

    def listen(self, target: Any, event: str, handler: Any, *, capture: bool = False) -> None: ...


class VoiceAssistant(LadderAssistant, RecogniserAssistant, UsageAssistant, Protocol):
    """What the voice needs of the assistant (app/browser/assistant.py, which builds it)."""

    panel: Any
    settings: SettingsStore
    dialog: SettingsDialog

    @property
    def page(self) -> VoicePage: ...

    def open(self) -> None: ...

    def audio_options(self) -> AudioOptions: ...


class VoiceGlue:
    def __init__(self, assistant: VoiceAssistant) -> None:
        self.assistant = assistant
        self.page = assistant.page
        self.speaker = self.page.speech.speaker
        self.mic = Microphone()
        self.state = Listener()
        self._pending: deque[Heard] = deque()
        self._feeding = False
        self._ticker: asyncio.Task[None] | None = None
        self._ask_after_speech = False
        self._done_after_speech = False
        self._asked_at: float | None = None
        self.input = TalkInput(
            TALK_BUTTON, ctrl_m, lambda: self.state, self.feed, self.press, escape_stops=True
        )
        self.ladder = VoiceLadder(assistant, self._where_changed)
        self.usage = VoiceUsage(assistant)
        self.recogniser = VoiceRecogniser(
            assistant,
            self.mic,
            self.ladder,
            self.usage,
            self.feed,
            conversation=lambda: self._conversation,
        )
        self.answer = AnswerSpeaker(self.speaker, lambda: self.lang, self._words, self._answering)
        self.voice_bar = VoiceBar(self.mic)

    # --- wiring -------------------------------------------------------------------------------

    def start(self) -> None:
        page, assistant = self.page, self.assistant
        page.commands["ai-conversation"] = plain(self.toggle_conversation)
        self.input.start(page.listen, assistant.panel)
        self.speaker.on_start = self._speaking_started
        self.speaker.on_end = self._speaking_ended
        self.provider_voice = ProviderSpeaker(
            self.speaker,
            self.mic,
            assistant.settings,
            assistant.dialog.transport,
            self.assistant.audio_options(),
        )
        self.speaker.say = self.provider_voice.speak
        self.speaker.on_error = lambda error: page.show_toast(error.message)
        assistant.controller.observers.append(self._on_turn)
        self.ladder.start()

    @property
    def lang(self) -> str:
        return self.ladder.lang

    def bar(self) -> El:
        """The voice controls as the panel draws them."""
        return voice_bar(view(self.state), conversation=self._conversation, where=self._where())

    def redrawn(self) -> None:
        """The panel was drawn again: the live part and the level go into the new bar."""
        self.voice_bar.redrawn()
        self._show()

    @property
    def _conversation(self) -> bool:
        return self.state.mode == "conversation" and self.state.phase != "idle"

    def _where(self) -> str:
        return self.ladder.rung().sentence

    def _where_changed(self) -> None:
        self.voice_bar.stale()
        self._show()

    def _show(self) -> None:
        self.voice_bar.show(view(self.state), conversation=self._conversation, where=self._where)

    # --- input --------------------------------------------------------------------------------

    def press(self, mode: str = "push_to_talk") -> None:
        self.mic.unlock()  # inside the user's gesture, as browsers require for audio
        self.assistant.open()
        self.feed(Press(now(), "conversation" if mode == "conversation" else "push_to_talk"))

    def toggle_conversation(self) -> None:
        self.press("conversation")

    # --- the machine --------------------------------------------------------------------------

    def feed(self, event: Heard) -> None:
        """Step the machine; events that arrive while effects run wait their turn."""
        self._pending.append(event)
        if self._feeding:
            return
        self._feeding = True
        try:
            while self._pending:
                self.state, effects = step(self.state, self._pending.popleft())
                for effect in effects:
                    self._perform(effect)
        finally:
            self._feeding = False
        self._show()
        self._keep_ticking()

    def _perform(self, effect: Effect) -> None:
        if isinstance(effect, StartRecognition):
            self.recogniser.start()
        elif isinstance(effect, StopRecognition):
            self.recogniser.stop()
        elif isinstance(effect, CancelSpeech):
            self._ask_after_speech = self._done_after_speech = False
            self.answer.hush(self.assistant.controller.request)
            self.speaker.cancel()
            self.provider_voice.cancel()
        elif isinstance(effect, Send):
            self._heard(effect)
        elif isinstance(effect, Show):
            self.assistant.open()
        else:  # AbortRecognition
            self.recogniser.abort()

    def _keep_ticking(self) -> None:
        if self.state.phase != "idle" and (self._ticker is None or self._ticker.done()):
            self._ticker = asyncio.ensure_future(self._tick())

    async def _tick(self) -> None:
        while self.state.phase != "idle":
            await asyncio.sleep(TICK_S)
            asked = self._asked_at
            if asked is not None and self.state.home is not None and now() - asked > REPLY_WAIT_S:
                self._asked_at = None
                self.feed(Stop(now()))  # the dialog stays open for a click
            else:
                self.feed(Tick(now()))

    # --- what was said ------------------------------------------------------------------------

    def _heard(self, said: Send) -> None:
        controller, answer = self.assistant.controller, self.answer
        hearings = said.alternatives or (said.text,)
        reply = interpret(
            hearings,
            confirming=controller.confirming,
            more_waiting=bool(answer.rest),
            lang=self.lang,
            choices=answer.choices,
        )
        self._asked_at = None
        if not isinstance(reply, NewRequest):
            self.usage.not_a_request()
        if isinstance(reply, Confirmed):
            controller.answer(reply.yes)
        elif isinstance(reply, Unclear):
            self._say_then_listen(SAY_YES_OR_NO)
        elif isinstance(reply, More):
            answer.say_more()
            self._finish_after_speech()
        else:
            self._send(reply.text)

    def _send(self, text: str) -> None:
        controller = self.assistant.controller
        prepared = controller.prepare(text, spoken=True)
        if isinstance(prepared, Request):
            self.answer.new_turn()
            self.usage.sent(prepared)
            self.page.spawn(controller.run(prepared), now=True)
            return
        if isinstance(prepared, Refusal):
            controller.refuse(prepared)
            if prepared.message:
                self.answer.say(prepared.message)
        self._finish_after_speech()

    def _words(self, links: list[Link]) -> dict[str, str]:
        """The words an answer may name (the turn's and the open folder's), in the languages
        there is a voice for."""
        return answer_words(
            self.assistant.store,
            self.assistant.open_folder(),
            links,
            self.lang,
            sayable=lambda lang: self.provider_voice.route(lang).path != "none",
        )

    def _say_then_listen(self, text: str) -> None:
        self._ask_after_speech = True
        self.answer.say(text)

    def _finish_after_speech(self) -> None:
        if self.speaker.busy:
            self._done_after_speech = True
        else:
            self.feed(AnswerDone(now()))

    def _speaking_started(self) -> None:
        self.usage.speaking_started()
        # On the provider's rung the answer would be recorded and sent as the next turn.
        self.feed(SpeakingStarted(now(), interruptible=self.ladder.rung().path != "provider"))
        if self._done_after_speech:
            self._done_after_speech = False
            self.feed(AnswerDone(now()))

    def _speaking_ended(self) -> None:
        self.usage.speaking_ended()
        self.feed(SpeakingEnded(now()))
        if self._ask_after_speech and self.assistant.controller.confirming:
            self._ask_after_speech = False
            self._asked_at = now()
            self.feed(Ask(now()))

    # --- the answer ---------------------------------------------------------------------------

    def _on_turn(self, request: Request, event: Event | None) -> None:
        if not request.spoken or self.answer.hushed(request):
            return
        if event is None:
            self.usage.turn_over(request, speaking=self.speaker.busy)
            self._finish_after_speech()
            return
        if isinstance(event, Failed):
            self.usage.failed(event.kind)
        self.answer.heard(event)

    def _answering(self) -> None:
        """The answer's first text arrived."""
        self.usage.first_token()
        self.feed(AnswerStarted(now()))

    def confirm_aloud(self, confirmation: Confirmation) -> None:
        """A confirmation for a spoken request: asked aloud, then listened for."""
        if self.state.phase != "idle":
            self._say_then_listen(question(confirmation))

    def confirmation_closed(self) -> None:
        """Answered in the dialog: stop listening for a spoken reply."""
        self._ask_after_speech = False
        if self.state.home is not None:
            self._asked_at = None
            self.feed(Stop(now()))
