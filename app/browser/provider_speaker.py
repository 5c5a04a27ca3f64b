"""Speaking where the browser cannot: the user's provider says it instead.

`ProviderSpeaker.speak` asks app.speech.route who speaks: the browser's `Speaker` when it can
(it has a voice for the language and its speech works on this page), else the provider (set
up with a speech model, and the user has not chosen "On this device only"), else nobody, and
the route's sentence is raised as `SpeechOff`. When the browser's `speak()` fails or hangs, the
provider says that sentence instead, and the `Speaker` remembers an engine that does not work
here, so the sentences after go straight to the provider. The provider's audio plays from a
blob URL in a new <audio> element routed through the microphone's analyser, so the visualiser
moves while it talks; `speak` returns once playback ends (True) or was cancelled (False).
Each blob URL is revoked and each callback released when its playback is over. Requests count
against the daily cap and are reported through the `AudioOptions` given.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import js
from pyodide.ffi import JsException, create_proxy, to_js

from app.browser.dom import js_object
from app.browser.microphone import Microphone
from app.browser.settings_store import SettingsStore
from app.browser.speaker import Speaker
from app.browser.timers import Timeout
from app.llm.audio import AudioOptions
from app.llm.cancel import CancelToken
from app.llm.errors import ProviderError
from app.llm.synthesize import Audio, synthesize
from app.llm.transport import Transport
from app.speech.engine import GAVE_UP
from app.speech.outcome import FAILED, FAILURES, SpeechError, SpeechOff, playback_s
from app.speech.route import SpeechRoute, provider_speaks, speech_route
from app.speech.settings import VoiceSettings


class ProviderSpeaker:
    """Says things aloud with the browser's voices, or the provider's where it has none."""

    def __init__(
        self,
        speaker: Speaker,
        microphone: Microphone,
        provider: SettingsStore,
        transport: Transport,
        options: AudioOptions,
    ) -> None:
        self._speaker = speaker
        self._microphone = microphone
        self._provider = provider
        self._transport = transport
        self._options = options
        self._cancel: CancelToken | None = None

    def route(self, lang: str, settings: VoiceSettings | None = None) -> SpeechRoute:
        """Who would say something in `lang` now, with the voices listed so far."""
        settings = settings or self._speaker.settings()
        return self._route(self._speaker.cannot(lang, settings), settings)

    def _route(self, cannot: str, settings: VoiceSettings) -> SpeechRoute:
        """Who speaks when the browser cannot, for the reason `cannot` ("" when it can)."""
        return speech_route(
            cannot,
            provider=provider_speaks(self._provider.settings, configured=self._provider.configured),
            on_device_only=settings.on_device_only,
        )

    async def speak(self, text: str, lang: str, settings: VoiceSettings | None = None) -> bool:
        """Say `text` in `lang`: True once said, False if cancelled. Raises SpeechOff with a
        sentence when nobody can say it, SpeechError when saying it failed."""
        settings = settings or self._speaker.settings()
        await self._speaker.ready_voices()
        route = self.route(lang, settings)
        if route.path == "browser":
            try:
                return await self._speaker.speak(text, lang, settings)
            except SpeechOff as off:  # its speak() failed or hung: the provider may stand in
                route = self._route(off.message, settings)
        if route.path == "none":
            raise SpeechOff(route.sentence)
        self._cancel = cancel = CancelToken()
        try:
            audio = await synthesize(
                self._provider.settings,
                self._transport,
                text,
                lang,
                options=replace(self._options, cancel=cancel),
            )
        except ProviderError as error:
            if cancel.cancelled:
                return False
            raise SpeechError(error.message) from None
        return not cancel.cancelled and await self._play(audio, cancel, text, settings.rate)

    async def _play(self, audio: Audio, cancel: CancelToken, text: str, rate: float) -> bool:
        url = js.URL.createObjectURL(js.Blob.new(to_js([audio.data]), js_object(type=audio.mime)))
        element = js.Audio.new()
        element.playbackRate = rate  # the user's speed, and the drill's "slower"
        outcome: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        def settle(code: str) -> None:
            if not outcome.done():
                outcome.set_result(code)

        proxies = {
            "onended": create_proxy(lambda _event: settle("")),
            "onerror": create_proxy(lambda _event: settle("error")),
        }
        for name, proxy in proxies.items():
            setattr(element, name, proxy)
        unsubscribe = cancel.on_cancel(lambda: settle("canceled"))
        # Audio that never starts or never ends (no sound device, a stalled decoder) is given
        # up like a browser voice that hangs: nothing waits for an end that never comes.
        patience = Timeout(playback_s(text, rate), lambda: settle(GAVE_UP))
        started: asyncio.Future[Any] | None = None
        try:
            element.src = url
            self._microphone.route(element)
            started = asyncio.ensure_future(element.play())
            await asyncio.wait((started, outcome), return_when=asyncio.FIRST_COMPLETED)
            if started.done():
                started.result()  # raises if play() was refused
            code = await outcome
        except JsException as error:  # play() refused: no user gesture on this page yet
            refused = str(getattr(error, "name", "")) == "NotAllowedError"
            raise SpeechError(FAILURES["not-allowed"] if refused else FAILED) from None
        finally:
            patience.cancel()
            if started is not None:
                started.cancel()  # a play() still pending when the audio was given up
            unsubscribe()
            _release(element, proxies)
            js.URL.revokeObjectURL(url)
        if code == "canceled":
            return False
        if code:
            raise SpeechError(FAILED)
        return True

    def cancel(self) -> None:
        """Stop speaking now, whoever speaks, and drop a provider request under way."""
        self._speaker.cancel()
        if self._cancel is not None:
            self._cancel.cancel()
            self._cancel = None


def _release(element: Any, proxies: dict[str, Any]) -> None:
    """Silence the element and let go of its callbacks and its audio."""
    element.pause()
    for name, proxy in proxies.items():
        setattr(element, name, None)
        proxy.destroy()
    element.removeAttribute("src")
