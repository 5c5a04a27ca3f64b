"""Talking to the assistant: the browser side of app/voice/listening.py.

Everything that decides lives in the core: the listening state machine (when to listen, send,
count down, stop), `interpret` (is this a yes, "more", or a new request), the chunker (which
sentences of a streaming answer to say) and the assistant controller (guards, routing, the
turn). This module feeds the machine what the page sees (the talk button or Ctrl+M held and
released, Conversation, Escape, recogniser and speech events, a clock tick) and performs what it
returns: start and stop the recogniser, stop speaking, send. A spoken request's answer is said
sentence by sentence as it streams, and a confirmation it needs is asked aloud and answered by
voice (or in the dialog).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import TYPE_CHECKING, Any

import js

from app.agents import Confirmation, Event, Failed, Finished, Routed, StepDone, TextDelta
from app.browser.commands import plain
from app.browser.dom import by_id, found, mark, replace_children
from app.browser.microphone import Microphone, MicrophoneError
from app.browser.provider_listening import ProviderSession
from app.browser.provider_speaker import ProviderSpeaker
from app.browser.recognition import (
    Session,
    availability,
    install,
    now,
    supported,
)
from app.browser.settings_store import LocalCounter
from app.llm.audio import AudioOptions, AudioUsage
from app.store.conversations import UsageEntry
from app.ui.assistant_controller import Refusal, Request
from app.ui.voice_bar_view import LIVE, voice_bar, voice_live
from app.ui.voice_meter import METER
from app.voice.answer_words import answer_words
from app.voice.chunks import SentenceChunker
from app.voice.ladder import Means, OnDevice, Rung, choose, transcriber
from app.voice.listening import (
    AnswerDone,
    AnswerStarted,
    Ask,
    CancelSpeech,
    Effect,
    Listener,
    Press,
    RecognitionError,
    Release,
    Result,
    Send,
    Show,
    SpeakingEnded,
    SpeakingStarted,
    SpeechEnd,
    StartRecognition,
    Stop,
    StopRecognition,
    Tick,
    View,
    step,
    view,
)
from app.voice.listening import Event as Heard
from app.voice.reply import Ask as NewRequest
from app.voice.reply import Confirmed, More, Unclear, interpret
from app.voice.speakable import more, speak
from app.voice.timings import VoiceTurnClock
from app.voice.word_voices import WordVoices

if TYPE_CHECKING:
    from app.browser.assistant import Assistant
    from app.tools.registry import Link
    from app.ui.nodes import El

TICK_S = 0.1
REPLY_WAIT_S = 20.0  # a question asked aloud stops listening after this; only a yes confirms
PHRASES = 200  # of the open folder's terms, as hints for the recogniser
CHANGES_SAID = 3
SAY_YES_OR_NO = "Say yes to go ahead, or no to cancel."
HANDS_FREE_NEEDS_RECOGNITION = (
    "Hands-free needs your browser's speech recognition, which hears when you pause. While your "
    "provider transcribes, hold the talk button (or Ctrl+M) while you speak."
)
INSTALL_FAILED = (
    "Speech recognition could not be downloaded to this device (it needs the network once). "
    "Try again later."
)


def question(confirmation: Confirmation) -> str:
    """A confirmation said aloud: what will change (the first few), then how to answer."""
    changes = list(confirmation.changes[:CHANGES_SAID])
    left = len(confirmation.changes) - len(changes)
    if left:
        changes.append(f"and {left:,} more")
    return f"{confirmation.title} {'; '.join(changes)}. {SAY_YES_OR_NO}"


class VoiceGlue:
    def __init__(self, assistant: Assistant) -> None:
        self.assistant = assistant
        self.page = assistant.page
        self.speaker = self.page.speech.speaker
        self.mic = Microphone()
        self.state = Listener()
        self.session: Session | ProviderSession | None = None
        self._pending: deque[Heard] = deque()
        self._feeding = False
        self._ticker: asyncio.Task[None] | None = None
        self._meter_wanted = self._meter_shown = False
        self._meter_task: asyncio.Task[None] | None = None
        self._shown: View | None = None
        self._chunker: SentenceChunker | None = None
        self._streamed = False
        self.rest = ""  # what "more" says next of the last spoken answer
        self.choices: tuple[str, ...] = ()  # what the last spoken answer asked to choose from
        self._links: list[Link] = []  # of the spoken turn's steps: their words are said too
        self._voices: WordVoices | None = None  # the turn's words, once its answer is said
        self._ask_after_speech = False
        self._done_after_speech = False
        self._asked_at: float | None = None
        self._talk_key_down = False
        self._hushed: Request | None = None  # a spoken request whose answer is not to be said
        self.on_device: OnDevice = "unsupported"
        self.service_failed = False  # the browser's recogniser failed: the provider stands in
        self._clock: VoiceTurnClock | None = None  # the utterance being heard
        self._timed: tuple[Request, VoiceTurnClock] | None = None  # the request it became
        self._outcome = "ok"

    # --- wiring -------------------------------------------------------------------------------

    def start(self) -> None:
        page, panel = self.page, self.assistant.panel
        page.commands["ai-conversation"] = plain(self.toggle_conversation)
        page.listen(panel, "pointerdown", self._on_pointerdown)
        page.listen(panel, "pointerup", self._on_pointerup)
        page.listen(panel, "pointercancel", self._on_pointerup)
        page.listen(js.document, "keydown", self._on_keydown, capture=True)
        page.listen(js.document, "keyup", self._on_keyup, capture=True)
        page.listen(js.window, "blur", lambda _e: self._release())
        self.speaker.on_start = self._speaking_started
        self.speaker.on_end = self._speaking_ended
        assistant = self.assistant
        self.provider_voice = ProviderSpeaker(
            self.speaker,
            self.mic,
            assistant.settings,
            assistant.dialog.transport,
            AudioOptions(counter=LocalCounter(), on_usage=self._log_audio),
        )
        self.speaker.say = self.provider_voice.speak
        self.speaker.on_error = lambda error: page.show_toast(error.message)
        self.assistant.controller.observers.append(self._on_turn)
        settings = page.speech.voice
        settings.listening = self.rung
        settings.on_saved = lambda: page.spawn(self._check_on_device())
        settings.install = lambda: page.spawn(self._install())
        page.spawn(self._check_on_device())

    @property
    def lang(self) -> str:
        return self.page.speech.voice.settings.speech_lang

    async def _check_on_device(self) -> None:
        self.on_device = await availability(self.lang)
        self._shown = None
        self._show()

    async def _install(self) -> None:
        """Download on-device recognition (from the Voice dialog's button, a click)."""
        lang = self.lang
        if await install(lang):
            self.page.show_toast(f"Speech recognition for {lang} is on this device now.")
        else:
            self.page.show_toast(INSTALL_FAILED)
        await self._check_on_device()
        if self.page.dialog.open:
            await self.page.speech.voice.open()

    def rung(self) -> Rung:
        """How the user's voice becomes text right now (app.voice.ladder)."""
        assistant = self.assistant
        return choose(
            Means(
                recognition=supported(),
                on_device=self.on_device,
                on_device_only=self.page.speech.voice.settings.on_device_only,
                provider=transcriber(assistant.settings.settings, configured=assistant.configured),
                online=assistant.online,
                service_failed=self.service_failed,
            )
        )

    def bar(self) -> El:
        """The voice controls as the panel draws them."""
        return voice_bar(view(self.state), conversation=self._conversation, where=self._where)

    @property
    def _conversation(self) -> bool:
        return self.state.mode == "conversation" and self.state.phase != "idle"

    @property
    def _where(self) -> str:
        return self.rung().sentence

    # --- input --------------------------------------------------------------------------------

    def press(self, mode: str = "push_to_talk") -> None:
        self.mic.unlock()  # inside the user's gesture, as browsers require for audio
        self.assistant.open()
        self.feed(Press(now(), "conversation" if mode == "conversation" else "push_to_talk"))

    def toggle_conversation(self) -> None:
        if self.state.phase == "idle" and self.rung().path == "provider":
            # A recording has no words until it is sent, so no pause can end the turn.
            self.page.show_toast(HANDS_FREE_NEEDS_RECOGNITION)
            return
        self.press("conversation")

    def _release(self) -> None:
        self._talk_key_down = False
        if self.state.held:
            self.feed(Release(now()))

    def _on_pointerdown(self, event: Any) -> None:
        target = event.target.closest("#ai-talk") if hasattr(event.target, "closest") else None
        if found(target) and int(event.button) == 0:
            event.preventDefault()
            target.setPointerCapture(event.pointerId)  # the release arrives even off the button
            self.press()

    def redrawn(self) -> None:
        """The panel was drawn again: the live part and the level go into the new bar."""
        self._shown, self._meter_shown = None, False
        self._show()

    def _on_pointerup(self, _event: Any) -> None:
        if self.state.held and not self._talk_key_down:
            self._release()

    def _on_keydown(self, event: Any) -> None:
        key = str(event.key)
        if key == "Escape" and self.state.phase != "idle":
            event.preventDefault()
            event.stopPropagation()  # Escape stops the voice before it closes anything
            self.feed(Stop(now()))
            return
        talk_key = bool(event.ctrlKey) and key.lower() == "m"
        talk_button = key in (" ", "Enter") and getattr(event.target, "id", "") == "ai-talk"
        if (talk_key or talk_button) and not event.repeat:
            event.preventDefault()
            self._talk_key_down = True
            self.press()
        elif (talk_key or talk_button) and event.repeat:
            event.preventDefault()

    def _on_keyup(self, event: Any) -> None:
        key = str(event.key)
        if self._talk_key_down and key in ("m", "M", "Control", " ", "Enter"):
            event.preventDefault()
            self._release()

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
            self._listen()
        elif isinstance(effect, StopRecognition):
            if self.session is not None:
                self.session.stop()
        elif isinstance(effect, CancelSpeech):
            self._chunker, self._ask_after_speech, self._done_after_speech = None, False, False
            self._hushed = self.assistant.controller.request
            self.speaker.cancel()
            self.provider_voice.cancel()
        elif isinstance(effect, Send):
            self._heard(effect)
        elif isinstance(effect, Show):
            self.service_failed = self.service_failed or effect.problem.fallback
            self.assistant.open()
        elif self.session is not None:  # AbortRecognition
            self.session.abort()

    def _listen(self) -> None:
        rung = self.rung()
        if rung.path == "typing":
            self.feed(RecognitionError(now(), "unsupported", rung.sentence))
            return
        if rung.path == "provider":
            assistant = self.assistant
            options = AudioOptions(counter=LocalCounter(), on_usage=self._log_audio)
            self.session = ProviderSession(
                self._recognised,
                self.mic,
                lambda: assistant.settings.settings,
                assistant.dialog.transport,
                options,
            )
        else:
            self.session = Session(self._recognised)
        self.session.start(self.lang, local=rung.path == "on-device", phrases=self._phrases())

    def _recognised(self, event: Heard) -> None:
        """A recogniser's event: timed for the usage log, then fed to the machine."""
        if isinstance(event, SpeechEnd) or (
            isinstance(event, Result) and any(s.final for s in event.segments)
        ):
            clock = self._clock = self._clock or VoiceTurnClock()
            if isinstance(event, SpeechEnd):
                clock.speech_ended(event.at)
            else:
                clock.transcript_final(event.at)
        self.feed(event)

    def _log_audio(self, usage: AudioUsage) -> None:
        self.assistant.store.conversations.log_usage(
            UsageEntry.model_validate(usage.entry_fields())
        )

    def _phrases(self) -> list[str]:
        folder = self.assistant.open_folder()
        if folder is None:
            return []
        return [word.term for word in self.assistant.store.words(folder, limit=PHRASES)]

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

    def _show(self) -> None:
        shown = view(self.state)
        if shown == self._shown:
            return
        self._shown = shown
        bar = by_id("ai-voice")
        if not found(bar):
            return
        bar.dataset.listening = "true" if shown.indicator else "false"
        replace_children(by_id(LIVE), *voice_live(shown, where=self._where))
        toggle = bar.querySelector('[data-action="ai-conversation"]')
        if found(toggle):
            toggle.setAttribute("aria-pressed", "true" if self._conversation else "false")
        self._meter(shown.indicator or shown.phase == "speaking")

    def _meter(self, on: bool) -> None:
        """Show the live level while the microphone listens or the app speaks."""
        self._meter_wanted = on
        if self._meter_task is None or self._meter_task.done():
            self._meter_task = asyncio.ensure_future(self._settle_meter())

    async def _settle_meter(self) -> None:
        """Bring the level to what is wanted, one change at a time: opening the microphone
        takes a while, and a turn may end meanwhile. The visualiser is a nicety, so a
        microphone it cannot open is left to the recogniser to report."""
        while True:
            wanted = self._meter_wanted
            if wanted and not self._meter_shown:
                meter = js.document.querySelector(METER)
                try:
                    if not self.mic.is_open:
                        await self.mic.open()
                    if found(meter):
                        await self.mic.show(meter)
                        self._meter_shown = True
                except MicrophoneError as error:
                    js.console.info(f"No live level: {error}")
                    return
            elif not wanted:
                self.mic.hide()
                self.mic.close()
                self._meter_shown = False
            if self._meter_wanted == wanted:
                return

    # --- what was said ------------------------------------------------------------------------

    def _heard(self, said: Send) -> None:
        controller = self.assistant.controller
        hearings = said.alternatives or (said.text,)
        reply = interpret(
            hearings,
            confirming=controller.confirming,
            more_waiting=bool(self.rest),
            lang=self.lang,
            choices=self.choices,
        )
        self._asked_at = None
        if not isinstance(reply, NewRequest):
            self._clock = None  # an answer to the app, not a request to time
        if isinstance(reply, Confirmed):
            controller.answer(reply.yes)
        elif isinstance(reply, Unclear):
            self._say_then_listen(SAY_YES_OR_NO)
        elif isinstance(reply, More):
            spoken = more(self.rest)
            self.rest = spoken.rest
            self._say_answer(spoken.text)
            self._finish_after_speech()
        else:
            self._send(reply.text)

    def _send(self, text: str) -> None:
        controller = self.assistant.controller
        prepared = controller.prepare(text, spoken=True)
        if isinstance(prepared, Request):
            self.rest, self.choices, self._links, self._voices = "", (), [], None
            clock = self._clock or VoiceTurnClock()
            clock.request_sent(now())
            self._timed, self._clock, self._outcome = (prepared, clock), None, "ok"
            self.page.spawn(controller.run(prepared), now=True)
            return
        if isinstance(prepared, Refusal):
            controller.refuse(prepared)
            if prepared.message:
                self._say(prepared.message)
        self._finish_after_speech()

    def _say(self, text: str) -> None:
        self.speaker.enqueue(text, self.lang)

    def _say_answer(self, text: str) -> None:
        """Answer text, its collection words each in their own language."""
        if self._voices is None:
            self._voices = self._word_voices()
        for piece, lang in self._voices.split(text):
            self.speaker.enqueue(piece, lang)

    def _word_voices(self) -> WordVoices:
        """The words the answer may name and their languages: found when the turn starts and
        after each step that touches a word, so the first sentence is not kept waiting."""
        words = answer_words(
            self.assistant.store,
            self.assistant.open_folder(),
            self._links,
            self.lang,
            sayable=lambda lang: self.provider_voice.route(lang).path != "none",
        )
        return WordVoices(words, self.lang)

    def _say_then_listen(self, text: str) -> None:
        self._ask_after_speech = True
        self._say(text)

    def _finish_after_speech(self) -> None:
        if self.speaker.busy:
            self._done_after_speech = True
        else:
            self.feed(AnswerDone(now()))

    def _speaking_started(self) -> None:
        timed = self._timed
        if timed is not None:
            timed[1].first_audio(now())
            if self.assistant.controller.request is not timed[0]:  # the turn is over
                self._write_timings()
        self.feed(SpeakingStarted(now()))
        if self._done_after_speech:
            self._done_after_speech = False
            self.feed(AnswerDone(now()))

    def _speaking_ended(self) -> None:
        timed = self._timed
        if timed is not None and self.assistant.controller.request is not timed[0]:
            self._write_timings()
        self.feed(SpeakingEnded(now()))
        if self._ask_after_speech and self.assistant.controller.confirming:
            self._ask_after_speech = False
            self._asked_at = now()
            self.feed(Ask(now()))

    # --- the answer ---------------------------------------------------------------------------

    def _on_turn(self, request: Request, event: Event | None) -> None:
        if not request.spoken or request is self._hushed:
            return
        if event is None:
            self._log_turn(request)
            self._finish_after_speech()
            return
        if isinstance(event, Failed):
            self._outcome = event.kind
        if isinstance(event, StepDone):
            self._note_step(event)
        elif isinstance(event, Routed):
            self._voices = self._word_voices()
        self._speak_answer(event)

    def _speak_answer(self, event: Event) -> None:
        """Say the answer as it streams: each sentence as soon as it is complete."""
        if self._chunker is None and isinstance(event, TextDelta | Finished):
            self._chunker, self._streamed = SentenceChunker(), False
        chunker = self._chunker
        if isinstance(event, TextDelta) and chunker is not None:
            if not self._streamed:
                self._streamed = True
                if self._timed is not None:
                    self._timed[1].first_token(now())
                self.feed(AnswerStarted(now()))
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
            self._say(speak(event.message).text)

    def _note_step(self, step: StepDone) -> None:
        """What a step of a spoken turn means for the next reply and for the voices."""
        if step.choices:
            self.choices = step.choices
        if step.link is not None and step.link.kind == "word":
            self._links.append(step.link)
            self._voices = self._word_voices()  # a word the answer may now name

    def _log_turn(self, request: Request) -> None:
        """The turn is over: its timings go to the usage log once its first audio started
        (or at once when nothing is left to say)."""
        timed = self._timed
        if timed is None or timed[0] is not request:
            return
        timed[1].finished(now(), self._outcome)
        if not self.speaker.busy:
            self._write_timings()

    def _write_timings(self) -> None:
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


def speak_all(chunker: SentenceChunker, answer: str) -> list[str]:
    """An answer that arrived whole (no streamed text) through the same chunker."""
    return [*chunker.feed(answer), *chunker.flush()]
