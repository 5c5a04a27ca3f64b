"""The speaker over a scripted speechSynthesis: the voice picked by language, voices that
arrive late, failures as sentences, cancelling, the sentence queue, and no proxy left alive."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.browser import speaker as speaker_module
from app.browser.speaker import Speaker
from app.speech.outcome import FAILURES, TIMED_OUT, UNSUPPORTED, SpeechError
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
    with pytest.raises(SpeechError) as caught:
        run(started().speak("ありがとう", "ja"))
    assert caught.value.message.startswith("Your browser has no Japanese voice.")
    assert synth.spoken == []


def test_a_browser_without_speech_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    speaker = started()
    assert not speaker.supported
    with pytest.raises(SpeechError) as caught:
        run(speaker.speak("dog", "en"))
    assert caught.value.message == UNSUPPORTED


def test_an_engine_error_is_its_sentence_and_releases_the_proxies(
    synth: Synthesis, proxies: list[fakes.Proxy]
) -> None:
    synth.list_voices()
    synth.auto = "audio-hardware"
    with pytest.raises(SpeechError) as caught:
        run(started().speak("dog", "en"))
    assert caught.value.message == FAILURES["audio-hardware"]
    assert proxies == []


def test_an_utterance_that_never_ends_times_out_and_is_cancelled(
    synth: Synthesis, proxies: list[fakes.Proxy], monkeypatch: pytest.MonkeyPatch
) -> None:
    synth.list_voices()
    synth.auto = None  # neither end nor error ever fires
    monkeypatch.setattr(speaker_module, "patience_s", lambda _text, _rate: 0.0)
    with pytest.raises(SpeechError) as caught:
        run(started().speak("dog", "en"))
    assert caught.value.message == TIMED_OUT
    assert synth.cancels == 1
    assert proxies == []


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


def test_a_failing_sentence_is_reported_and_ends_the_run(synth: Synthesis) -> None:
    synth.list_voices()
    speaker = started()
    errors: list[str] = []
    speaker.on_error = lambda error: errors.append(error.message)

    async def stream() -> None:
        speaker.enqueue("Hello.", "en")
        speaker.enqueue("ありがとう", "ja")
        speaker.enqueue("Never said.", "en")
        assert speaker._worker is not None
        await speaker._worker

    run(stream())
    assert [t for t, *_rest in synth.said()] == ["Hello."]
    assert errors
    assert errors[0].startswith("Your browser has no Japanese voice.")
