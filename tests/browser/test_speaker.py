"""The speaker over a scripted speechSynthesis: the voice picked by language, voices that
arrive late (waited for once), failures as sentences, an engine that fails or hangs given up
on for the page, cancelling, the sentence queue, speech off told once, and no proxy left
alive."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from app.browser import speaker as speaker_module
from app.browser.speaker import Speaker
from app.speech.outcome import (
    BROKEN,
    FAILED,
    FAILURES,
    NO_VOICES,
    UNSUPPORTED,
    VOICES_WAIT_S,
    SpeechError,
    SpeechOff,
    off_notice,
    voices_wait_s,
)
from app.speech.settings import VoiceSettings
from tests.browser import fakes
from tests.browser.fake_speech import Synthesis, Utterance, voice

VOICES = [
    voice("Afrikaans", "af", default=True),
    voice("English (America)", "en-US"),
    voice("Google español", "es-ES", local=False),
    voice("Spanish (Spain)", "es_ES"),
    voice("German", "de-DE"),
]


@pytest.fixture
def proxies() -> list[fakes.Proxy]:
    return fakes.live_proxies


@pytest.fixture
def synth(monkeypatch: pytest.MonkeyPatch) -> Synthesis:
    synth = Synthesis(VOICES)
    monkeypatch.setattr(fakes.window, "speechSynthesis", synth, raising=False)
    monkeypatch.setattr(fakes.window, "SpeechSynthesisUtterance", Utterance, raising=False)
    return synth


def started(settings: VoiceSettings | None = None) -> Speaker:
    speaker = Speaker(lambda: settings or VoiceSettings())
    speaker.start(lambda target, kind, handler: target.addEventListener(kind, handler))
    return speaker


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def test_speaks_with_the_voice_for_the_language_and_the_settings(
    synth: Synthesis, proxies: list[fakes.Proxy]
) -> None:
    synth.list_voices()
    speaker = started(VoiceSettings(rate=1.5, pitch=0.5))
    assert run(speaker.speak("perro", "es")) is True
    assert synth.said() == [("perro", "es", "Spanish (Spain)", 1.5, 0.5)]
    assert proxies == []  # released once the utterance ended
    assert synth.spoken[0].onend is None
    assert synth.spoken[0].onerror is None


def test_a_preferred_voice_is_used_for_its_language(synth: Synthesis) -> None:
    synth.list_voices()
    speaker = started(VoiceSettings().with_voice("es", "Google español"))
    run(speaker.speak("gato", "es-MX"))
    run(speaker.speak("Katze", "de"))
    assert [name for _t, _l, name, _r, _p in synth.said()] == ["Google español", "German"]


def test_voices_listed_late_are_waited_for(synth: Synthesis) -> None:
    speaker = started()
    assert speaker.voices == ()  # Chrome lists none at first

    async def speak_while_they_load() -> bool:
        asyncio.get_running_loop().call_soon(synth.list_voices)
        return await speaker.speak("Hund", "de")

    assert run(speak_while_they_load()) is True
    assert synth.said()[0][2] == "German"


def test_no_voice_for_the_language_is_a_sentence_not_the_default_voice(
    synth: Synthesis, monkeypatch: pytest.MonkeyPatch
) -> None:
    synth.list_voices()
    with pytest.raises(SpeechOff) as caught:
        run(started().speak("ありがとう", "ja"))
    assert caught.value.message.startswith("Your browser has no Japanese voice.")
    assert synth.spoken == []


def test_a_browser_without_speech_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    speaker = started()
    assert not speaker.supported
    with pytest.raises(SpeechOff) as caught:
        run(speaker.speak("dog", "en"))
    assert caught.value.message.startswith(UNSUPPORTED)


def test_an_engine_error_is_its_sentence_and_releases_the_proxies(
    synth: Synthesis, proxies: list[fakes.Proxy]
) -> None:
    synth.list_voices()
    synth.auto = "audio-hardware"
    speaker = started()
    with pytest.raises(SpeechError) as caught:
        run(speaker.speak("dog", "en"))
    assert type(caught.value) is SpeechError  # the speakers, not the voice: nobody stands in
    assert caught.value.message == FAILURES["audio-hardware"]
    assert not speaker.engine.broken
    assert proxies == []


def test_synthesis_failed_means_the_browser_cannot_speak_here_for_the_page(
    synth: Synthesis, proxies: list[fakes.Proxy]
) -> None:
    synth.list_voices()
    synth.auto = "synthesis-failed"  # Debian's headless Chromium, no system voices
    speaker = started()
    with pytest.raises(SpeechOff) as caught:
        run(speaker.speak("dog", "en"))
    assert caught.value.message.startswith(BROKEN)
    assert proxies == []
    with pytest.raises(SpeechOff) as again:
        run(speaker.speak("perro", "es"))  # at once, without asking the engine
    assert again.value.message == caught.value.message
    assert [text for text, *_rest in synth.said()] == ["dog"]
    assert speaker.cannot("es", VoiceSettings()).startswith(BROKEN)


class Patience:
    """app.speech.outcome.patience_s, recorded, with the waits made short."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, float, bool]] = []

    def __call__(self, text: str, rate: float, *, started: bool) -> float:
        self.asked.append((text, rate, started))
        return 0.001


@pytest.fixture
def patience(monkeypatch: pytest.MonkeyPatch) -> Patience:
    patience = Patience()
    monkeypatch.setattr(speaker_module, "patience_s", patience)
    return patience


def test_an_utterance_that_never_starts_is_given_up_cancelled_and_the_engine_too(
    synth: Synthesis, proxies: list[fakes.Proxy], patience: Patience
) -> None:
    synth.list_voices()
    synth.auto, synth.starts = None, False  # a hung speech-dispatcher: nothing ever fires
    speaker = started(VoiceSettings(rate=1.5))
    with pytest.raises(SpeechOff) as caught:
        run(speaker.speak("dog", "en"))
    assert patience.asked == [("dog", 1.5, False)]  # only the wait for its start
    assert caught.value.message.startswith(BROKEN)
    assert synth.cancels == 1  # the hung utterance does not hold the queue
    assert proxies == []
    assert fakes.timers.pending == {}


def test_an_utterance_that_starts_and_never_ends_is_waited_for_by_its_length(
    synth: Synthesis, proxies: list[fakes.Proxy], patience: Patience
) -> None:
    synth.list_voices()
    synth.auto = None  # start, then nothing
    speaker = started(VoiceSettings(rate=0.5))
    with pytest.raises(SpeechOff):
        run(speaker.speak("a long sentence", "en"))
    assert patience.asked == [
        ("a long sentence", 0.5, False),  # set before speak(): this engine starts within it
        ("a long sentence", 0.5, True),
    ]
    assert speaker.engine.broken
    assert synth.cancels == 1
    assert proxies == []
    assert fakes.timers.pending == {}


def test_once_the_engine_has_spoken_one_timeout_is_not_the_end_of_it(
    synth: Synthesis, patience: Patience
) -> None:
    synth.list_voices()
    speaker = started()
    assert run(speaker.speak("one", "en")) is True
    synth.auto = None
    with pytest.raises(SpeechOff) as caught:
        run(speaker.speak("two", "en"))
    assert caught.value.message == FAILED  # this once: the provider may say it
    synth.auto = ""
    synth.waiting.clear()
    assert run(speaker.speak("three", "en")) is True
    assert [text for text, *_rest in synth.said()] == ["one", "two", "three"]


def test_the_voices_are_waited_for_once_per_page(
    synth: Synthesis, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [100.0]
    monkeypatch.setattr(speaker_module, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    waits: list[float] = []

    def wait_s(*, asked_at: float, now: float) -> float:
        waits.append(voices_wait_s(asked_at=asked_at, now=now))
        return 0.0  # not waited for here

    monkeypatch.setattr(speaker_module, "voices_wait_s", wait_s)
    speaker = started()  # a browser that lists none, ever
    clock[0] += 0.5
    with pytest.raises(SpeechOff) as caught:
        run(speaker.speak("dog", "en"))
    assert caught.value.message.startswith(NO_VOICES)
    clock[0] += VOICES_WAIT_S
    with pytest.raises(SpeechOff):
        run(speaker.speak("dog", "en"))
    assert waits == [VOICES_WAIT_S - 0.5, 0.0]
    assert synth.spoken == []


def test_that_speech_is_off_is_told_once_for_each_place() -> None:
    speaker = started()
    off = SpeechOff(BROKEN)
    assert speaker.notice(off, "drill") == off_notice(off, "drill")
    assert speaker.notice(off, "drill") == ""
    assert speaker.notice(SpeechOff("Your browser has no Japanese voice."), "drill") == ""
    assert speaker.notice(off, "answer") == off_notice(off, "answer")


def test_the_queue_speaks_sentences_in_order_between_start_and_end(synth: Synthesis) -> None:
    synth.list_voices()
    speaker = started()
    marks: list[str] = []
    speaker.on_start = lambda: marks.append("start")
    speaker.on_end = lambda: marks.append("end")

    async def stream() -> None:
        speaker.enqueue("Perro means dog.", "en")
        speaker.enqueue("  ", "en")  # nothing to say: skipped
        await asyncio.sleep(0)
        speaker.enqueue("Say it like this:", "en")
        speaker.enqueue("perro", "es")
        assert speaker._worker is not None
        await speaker._worker

    run(stream())
    assert [(t, v) for t, _l, v, _r, _p in synth.said()] == [
        ("Perro means dog.", "English (America)"),
        ("Say it like this:", "English (America)"),
        ("perro", "Spanish (Spain)"),
    ]
    assert marks == ["start", "end"]


def test_cancel_stops_the_sentence_and_drops_the_rest(synth: Synthesis) -> None:
    synth.list_voices()
    synth.auto = None  # each sentence is spoken until told otherwise
    speaker = started()
    marks: list[str] = []
    speaker.on_end = lambda: marks.append("end")

    async def interrupted() -> None:
        for sentence in ("One.", "Two.", "Three."):
            speaker.enqueue(sentence, "en")
        await asyncio.sleep(0)
        speaker.cancel()
        assert speaker._worker is not None
        await speaker._worker

    run(interrupted())
    assert [t for t, *_rest in synth.said()] == ["One."]
    assert marks == ["end"]


def stream(speaker: Speaker, *sentences: tuple[str, str]) -> None:
    """Queue the sentences of an answer and wait until the run is over."""

    async def go() -> None:
        for sentence, lang in sentences:
            speaker.enqueue(sentence, lang)
        assert speaker._worker is not None
        await speaker._worker

    run(go())


def test_a_sentence_nobody_can_say_is_skipped_and_told_once(synth: Synthesis) -> None:
    synth.list_voices()
    speaker = started()
    errors: list[str] = []
    speaker.on_error = lambda error: errors.append(error.message)
    stream(speaker, ("Hello.", "en"), ("ありがとう", "ja"), ("means thank you.", "en"))
    stream(speaker, ("Again:", "en"), ("ありがとう", "ja"))
    assert [t for t, *_rest in synth.said()] == ["Hello.", "means thank you.", "Again:"]
    (error,) = errors
    assert error.startswith("Speech is off, so answers are shown, not said. Your browser has")


def test_a_failing_sound_output_is_reported_and_ends_the_run(synth: Synthesis) -> None:
    synth.list_voices()
    synth.auto = "audio-busy"
    speaker = started()
    errors: list[str] = []
    speaker.on_error = lambda error: errors.append(error.message)
    stream(speaker, ("Hello.", "en"), ("Never said.", "en"))
    assert [t for t, *_rest in synth.said()] == ["Hello."]
    assert errors == [FAILURES["audio-busy"]]
