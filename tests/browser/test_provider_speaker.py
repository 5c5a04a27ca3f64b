"""Speaking with the provider where the browser cannot (app/browser/provider_speaker.py): who
speaks, the provider standing in when the browser's speak() fails or hangs (and from then on),
the provider's audio played through the visualiser's analyser until it ends, cancel at every
stage, blob URLs revoked, callbacks released, and the usage log."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest
from pydantic import SecretStr

from app.browser import microphone
from app.browser import provider_speaker as provider_module
from app.browser import speaker as speaker_module
from app.browser.microphone import Microphone
from app.browser.provider_speaker import ProviderSpeaker
from app.browser.settings_store import SettingsStore
from app.browser.speaker import Speaker
from app.llm.audio import AudioOptions, AudioUsage
from app.llm.settings import ProviderSettings
from app.speech.outcome import BROKEN, FAILED, FAILURES, SpeechError, SpeechOff
from app.speech.settings import VoiceSettings
from app.speech.voices import no_voice_message
from tests.browser import fakes
from tests.browser.audio_fakes import AudioContext, AudioFakes, dom_exception
from tests.browser.fake_speech import Synthesis, Utterance, voice
from tests.browser.waiting import until
from tests.llm.transports import Reply, ScriptedTransport

MP3 = b"ID3\x04" + bytes(range(64))
SPOKEN = Reply(body=MP3, headers={"content-type": "audio/mpeg"})
OPENAI = ProviderSettings(provider="openai", api_key=SecretStr("sk-test"))


class URLs:
    """`URL.createObjectURL` / `revokeObjectURL`: which blob URLs are alive."""

    def __init__(self) -> None:
        self.alive: dict[str, Any] = {}
        self.made = 0

    def createObjectURL(self, blob: Any) -> str:
        self.made += 1
        url = f"blob:lexical/{self.made}"
        self.alive[url] = blob
        return url

    def revokeObjectURL(self, url: str) -> None:
        del self.alive[url]


@dataclass
class Blob:
    parts: list[bytes]
    options: Any

    @classmethod
    def new(cls, parts: list[bytes], options: Any) -> Blob:
        return cls(parts, options)


class AudioElement(fakes.Element):
    """An <audio>: `play()` resolves (or is refused, as autoplay policy does) and the test
    ends the playback with `finish()`."""

    made: ClassVar[list[AudioElement]] = []
    refuse: ClassVar[str | None] = None

    def __init__(self) -> None:
        super().__init__("audio")
        self.src = ""
        self.playing = False
        self.onended: Any = None
        self.onerror: Any = None
        AudioElement.made.append(self)

    @classmethod
    def new(cls) -> AudioElement:
        return cls()

    async def play(self) -> None:
        if AudioElement.refuse:
            raise dom_exception(AudioElement.refuse, "play() failed")
        self.playing = True

    def pause(self) -> None:
        self.playing = False

    def removeAttribute(self, name: str) -> None:
        if name == "src":
            self.src = ""

    def finish(self, kind: str = "ended") -> None:
        self.playing = False
        getattr(self, f"on{kind}")(fakes.Event(kind))


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Page:
    AudioElement.made.clear()
    AudioElement.refuse = None
    audio = AudioFakes().install(monkeypatch, microphone)
    urls = URLs()
    for name, value in {"URL": urls, "Blob": Blob, "Audio": AudioElement}.items():
        monkeypatch.setitem(fakes.js.__dict__, name, value)
    synth = Synthesis([voice("English", "en-US")])
    synth.list_voices()
    monkeypatch.setattr(fakes.window, "speechSynthesis", synth, raising=False)
    monkeypatch.setattr(fakes.window, "SpeechSynthesisUtterance", Utterance, raising=False)
    return Page(audio, urls, synth)


@dataclass
class Page:
    audio: AudioFakes
    urls: URLs
    synth: Synthesis
    usage: list[AudioUsage] = field(default_factory=list)
    transport: ScriptedTransport = field(default_factory=ScriptedTransport)

    def speaker(
        self,
        *replies: Reply,
        provider: ProviderSettings | None = OPENAI,
        voices: VoiceSettings | None = None,
    ) -> ProviderSpeaker:
        store = SettingsStore()
        if provider is not None:
            store.save(provider)
        self.transport = ScriptedTransport(*replies)
        browser = Speaker(lambda: voices or VoiceSettings())
        browser.start(lambda target, kind, handler: target.addEventListener(kind, handler))
        return ProviderSpeaker(
            browser,
            Microphone(),
            store,
            self.transport,
            AudioOptions(on_usage=self.usage.append),
        )


def playing() -> bool:
    return bool(AudioElement.made) and AudioElement.made[-1].playing


def finish() -> None:
    """The provider's audio plays to its end."""
    AudioElement.made[-1].finish()


def speak_and(
    speaker: ProviderSpeaker, act: Callable[[], None], lang: str = "ja", text: str = "こんにちは"
) -> bool:
    """Speak, do `act` once the provider's audio plays, and return what `speak` returned."""

    async def go() -> bool:
        task = asyncio.ensure_future(speaker.speak(text, lang))
        await until(playing)
        act()
        return await task

    return asyncio.run(go())


def test_a_language_without_a_browser_voice_is_spoken_by_the_provider(page: Page) -> None:
    speaker = page.speaker(SPOKEN)
    assert speak_and(speaker, finish) is True
    request = page.transport.json_sent()
    assert request["input"] == "こんにちは"
    (element,) = AudioElement.made
    assert element.src == ""
    assert fakes.live_proxies == []  # let go of once it ended
    assert page.urls.made == 1
    assert page.urls.alive == {}  # its blob URL was revoked
    assert [(u.kind, u.outcome) for u in page.usage] == [("speech", "ok")]
    assert page.synth.spoken == []


def test_the_provider_audio_moves_the_visualiser_and_reaches_the_speakers(page: Page) -> None:
    speaker = page.speaker(SPOKEN)
    seen: list[Any] = []

    def look() -> None:
        element = AudioElement.made[-1]
        context = AudioContext.made[0]
        (source,) = [n for n in context.nodes if n.kind == "element"]
        seen.extend([source.element is element, element.src, *page.urls.alive.values()])
        seen.append({n.kind for n in source.outputs})
        element.finish()

    speak_and(speaker, look)
    is_element, src, blob, outputs = seen
    assert is_element
    assert src.startswith("blob:")
    assert blob.parts == [MP3]
    assert blob.options.type == "audio/mpeg"
    assert outputs == {"analyser", "destination"}


def test_a_language_the_browser_speaks_never_goes_to_the_provider(page: Page) -> None:
    speaker = page.speaker()

    async def go() -> bool:
        return await speaker.speak("hello", "en")

    assert asyncio.run(go()) is True
    assert page.transport.requests == []
    assert [u.text for u in page.synth.spoken] == ["hello"]


@pytest.mark.parametrize(
    ("provider", "voices"),
    [
        (None, VoiceSettings()),
        (OPENAI, VoiceSettings(on_device_only=True)),
        (
            ProviderSettings(provider="openai_compatible", model="llama3.2"),  # no speech model
            VoiceSettings(),
        ),
    ],
)
def test_without_a_provider_allowed_to_speak_the_route_says_why(
    page: Page, provider: ProviderSettings | None, voices: VoiceSettings
) -> None:
    speaker = page.speaker(provider=provider, voices=voices)
    with pytest.raises(SpeechError) as raised:
        asyncio.run(speaker.speak("こんにちは", "ja"))
    assert raised.value.message == no_voice_message("ja", on_device_only=voices.on_device_only)
    assert page.transport.requests == []


def test_cancel_while_playing_stops_it_and_lets_go(page: Page) -> None:
    speaker = page.speaker(SPOKEN)
    assert speak_and(speaker, speaker.cancel) is False
    assert not AudioElement.made[-1].playing
    assert page.urls.alive == {}
    assert AudioElement.made[-1].onended is None
    assert fakes.live_proxies == []


def test_cancel_while_the_provider_works_drops_the_request(page: Page) -> None:
    speaker = page.speaker(Reply(body=b"ID3", headers={"content-type": "audio/mpeg"}, hang=True))

    async def go() -> bool:
        task = asyncio.ensure_future(speaker.speak("こんにちは", "ja"))
        await until(lambda: bool(page.transport.requests))
        speaker.cancel()
        return await task

    assert asyncio.run(go()) is False
    assert AudioElement.made == []
    assert [u.outcome for u in page.usage] == ["stopped"]


def test_a_provider_failure_is_its_sentence(page: Page) -> None:
    speaker = page.speaker(Reply(status=401, body={"error": {"message": "no"}}))
    with pytest.raises(SpeechError) as raised:
        asyncio.run(speaker.speak("こんにちは", "ja"))
    assert raised.value.message.startswith("OpenAI did not accept the API key.")


@pytest.mark.parametrize(
    ("refusal", "sentence"),
    [("NotAllowedError", FAILURES["not-allowed"]), ("NotSupportedError", FAILED)],
)
def test_refused_playback_is_a_sentence_and_leaves_nothing(
    page: Page, refusal: str, sentence: str
) -> None:
    AudioElement.refuse = refusal
    speaker = page.speaker(SPOKEN)
    with pytest.raises(SpeechError) as raised:
        asyncio.run(speaker.speak("こんにちは", "ja"))
    assert raised.value.message == sentence
    assert page.urls.alive == {}


def test_audio_that_cannot_be_played_is_a_sentence(page: Page) -> None:
    speaker = page.speaker(SPOKEN)
    with pytest.raises(SpeechError) as raised:
        speak_and(speaker, lambda: AudioElement.made[-1].finish("error"))
    assert raised.value.message == FAILED
    assert page.urls.alive == {}


@pytest.mark.parametrize("hangs", [False, True])
def test_when_the_browser_fails_or_hangs_the_provider_says_it_and_all_after(
    page: Page, monkeypatch: pytest.MonkeyPatch, hangs: bool
) -> None:
    if hangs:  # speech-dispatcher: nothing ever fires
        page.synth.auto, page.synth.starts = None, False
        monkeypatch.setattr(speaker_module, "patience_s", lambda *_args, **_kw: 0.001)
    else:  # Debian's headless Chromium
        page.synth.auto = "synthesis-failed"
    speaker = page.speaker(SPOKEN, SPOKEN)
    assert speak_and(speaker, finish, "en", "Hello.") is True
    assert [u.text for u in page.synth.spoken] == ["Hello."]  # tried first
    assert page.transport.json_sent()["input"] == "Hello."
    assert page.synth.cancels == (1 if hangs else 0)
    assert speaker.route("en").path == "provider"
    assert speak_and(speaker, finish, "en", "Right.") is True
    assert [u.text for u in page.synth.spoken] == ["Hello."]  # straight to the provider
    assert [page.transport.json_sent(i)["input"] for i in (0, 1)] == ["Hello.", "Right."]
    assert fakes.live_proxies == []


def test_when_the_browser_fails_and_no_provider_may_speak_speech_is_off(page: Page) -> None:
    page.synth.auto = "synthesis-failed"
    speaker = page.speaker(provider=None)
    with pytest.raises(SpeechOff) as raised:
        asyncio.run(speaker.speak("Hello.", "en"))
    assert raised.value.message.startswith(BROKEN)
    assert raised.value.message.endswith("or let your AI provider speak (AI settings).")
    with pytest.raises(SpeechOff):
        asyncio.run(speaker.speak("Right.", "en"))
    assert [u.text for u in page.synth.spoken] == ["Hello."]
    assert page.transport.requests == []


def test_a_failure_of_the_sound_output_is_not_handed_to_the_provider(page: Page) -> None:
    page.synth.auto = "not-allowed"  # no click yet: the provider's audio would be refused too
    speaker = page.speaker(SPOKEN)
    with pytest.raises(SpeechError) as raised:
        asyncio.run(speaker.speak("Hello.", "en"))
    assert raised.value.message == FAILURES["not-allowed"]
    assert page.transport.requests == []


def test_the_provider_speaks_at_the_users_rate(page: Page) -> None:
    speaker = page.speaker(SPOKEN, voices=VoiceSettings(rate=0.7))

    async def go() -> bool:
        task = asyncio.ensure_future(speaker.speak("こんにちは", "ja"))
        await until(playing)
        rate = AudioElement.made[-1].playbackRate
        finish()
        return await task and rate == 0.7

    assert asyncio.run(go()) is True


def test_audio_that_never_ends_is_given_up_and_leaves_nothing(
    page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    bounds: list[tuple[str, float]] = []

    def playback_s(text: str, rate: float) -> float:
        bounds.append((text, rate))
        return 0.001

    monkeypatch.setattr(provider_module, "playback_s", playback_s)
    speaker = page.speaker(SPOKEN)
    with pytest.raises(SpeechError) as raised:
        asyncio.run(speaker.speak("こんにちは", "ja"))  # playing, and never `ended`
    assert raised.value.message == FAILED
    assert bounds == [("こんにちは", 1.0)]
    assert not AudioElement.made[-1].playing
    assert page.urls.alive == {}
    assert fakes.live_proxies == []
    assert fakes.timers.pending == {}
