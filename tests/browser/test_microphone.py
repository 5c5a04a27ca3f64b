"""The microphone glue (app/browser/microphone.py) over fake Web Audio, getUserMedia and
MediaRecorder: the click unlocks audio, failures become kinds, recordings come back as bytes and
as 16 kHz mono samples, and nothing is left open or alive after a hundred turns. Recording needs
no AudioContext, and no step waits for ever on a browser that never answers."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from types import SimpleNamespace
from typing import Any, TypeVar

import pytest

from app.browser import microphone
from app.browser.microphone import Microphone, MicrophoneError, Recording, decode
from tests.browser import fakes
from tests.browser.audio_fakes import (
    AudioContext,
    AudioFakes,
    MediaRecorder,
    OfflineAudioContext,
    dom_exception,
)

T = TypeVar("T")


@pytest.fixture
def audio(monkeypatch: pytest.MonkeyPatch) -> AudioFakes:
    return AudioFakes().install(monkeypatch, microphone)


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounds short enough for a test: a step that never finishes fails in milliseconds."""
    for name in ("OPEN_S", "START_S", "STOP_S", "DECODE_S"):
        monkeypatch.setattr(microphone, name, 0.01)


def run(step: Coroutine[Any, Any, T]) -> T:
    """Run `step`, failing the test instead of hanging it if it waits for ever."""
    return asyncio.run(asyncio.wait_for(step, 2))


def opened(mic: Microphone) -> Microphone:
    mic.unlock()
    run(mic.open())
    return mic


def test_the_click_creates_the_audio_context_and_resumes_it(audio: AudioFakes) -> None:
    mic = Microphone()
    assert AudioContext.made == []  # nothing before the user asks
    opened(mic)
    assert [c.state for c in AudioContext.made] == ["running"]


def test_a_second_turn_reuses_the_audio_context(audio: AudioFakes) -> None:
    mic = opened(Microphone())
    mic.close()
    opened(mic)
    assert len(AudioContext.made) == 1


def test_voice_processing_is_on_unless_turned_off(audio: AudioFakes) -> None:
    opened(Microphone()).close()
    opened(Microphone(processing=False))
    on, off = (asked.audio for asked in audio.devices.asked)
    assert on.echoCancellation
    assert on.noiseSuppression
    assert on.autoGainControl
    assert not (off.echoCancellation)
    assert not (off.noiseSuppression)
    assert not (off.autoGainControl)


def test_the_microphone_feeds_the_analyser_and_never_the_speakers(audio: AudioFakes) -> None:
    opened(Microphone())
    context = AudioContext.made[0]
    (source,) = [n for n in context.nodes if n.kind == "microphone"]
    assert [n.kind for n in source.outputs] == ["analyser"]
    assert all(context.destination not in n.outputs for n in context.nodes if n is not source)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("NotAllowedError", "denied"),
        ("SecurityError", "denied"),
        ("NotFoundError", "no-microphone"),
        ("OverconstrainedError", "no-microphone"),
        ("NotReadableError", "busy"),
        ("AbortError", "busy"),
        ("TypeError", "failed"),
    ],
)
def test_each_refusal_becomes_a_kind_and_leaves_nothing_open(
    audio: AudioFakes, name: str, kind: str
) -> None:
    audio.devices.failure = name
    mic = Microphone()
    mic.unlock()
    with pytest.raises(MicrophoneError) as raised:
        run(mic.open())
    assert raised.value.kind == kind
    assert not mic.is_open
    assert audio.proxies.alive == 0


def test_without_media_devices_the_browser_is_unsupported(audio: AudioFakes) -> None:
    del fakes.js.navigator.mediaDevices  # an insecure (http) page has none
    with pytest.raises(MicrophoneError) as raised:
        asyncio.run(Microphone().open())
    assert raised.value.kind == "unsupported"


@pytest.mark.parametrize(
    "devices",
    [SimpleNamespace(), SimpleNamespace(getUserMedia=None), SimpleNamespace(getUserMedia={})],
    ids=["missing", "undefined", "not-a-function"],
)
def test_media_devices_without_get_user_media_is_unsupported(
    audio: AudioFakes, devices: SimpleNamespace
) -> None:
    fakes.js.navigator.mediaDevices = devices
    mic = Microphone()
    mic.unlock()
    with pytest.raises(MicrophoneError) as raised:
        run(mic.open())
    assert raised.value.kind == "unsupported"
    assert not mic.is_open


def records(mic: Microphone) -> Recording:
    """Open `mic` in a click, record and stop: what a held talk button does."""
    mic.unlock()

    async def turn() -> Recording:
        await mic.open()
        mic.start_recording()
        return await mic.stop_recording()

    return run(turn())


def test_without_web_audio_the_microphone_still_records(
    audio: AudioFakes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delitem(fakes.js.__dict__, "AudioContext")
    mic = Microphone()
    assert records(mic) == Recording(b"speech", "audio/webm;codecs=opus")
    run(mic.open())
    with pytest.raises(MicrophoneError) as raised:  # only the live level needs Web Audio
        run(mic.show(fakes.Element("div")))
    assert raised.value.kind == "unsupported"
    mic.route(fakes.Element("audio"))  # the app's speech plays straight to the speakers
    with pytest.raises(MicrophoneError):
        mic.play(object())
    mic.close()
    assert all(track.stopped for s in audio.devices.streams for track in s.tracks)


def test_an_audio_context_the_browser_refuses_to_make_leaves_recording_alone(
    audio: AudioFakes, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse() -> None:
        raise dom_exception("NotSupportedError", "no audio output")

    monkeypatch.setattr(AudioContext, "new", refuse)
    assert records(Microphone()).data == b"speech"


def test_a_resume_that_never_settles_holds_up_neither_the_microphone_nor_the_recording(
    audio: AudioFakes,
) -> None:
    AudioContext.settles = False  # Firefox ESR with no sound device
    mic = Microphone()
    assert records(mic).data == b"speech"
    run(mic.open())
    run(mic.show(fakes.Element("div")))  # the level waits for nothing either
    assert AudioContext.made[0].state == "suspended"


def test_the_apps_speech_skips_a_context_that_does_not_run(audio: AudioFakes) -> None:
    """Routed into a suspended context, the speech would be silent: it plays straight."""
    AudioContext.settles = False
    mic = Microphone()
    mic.unlock()
    mic.route(fakes.Element("audio"))
    assert [n for n in AudioContext.made[0].nodes if n.kind == "element"] == []


def test_a_microphone_that_never_answers_is_busy_and_let_go_when_it_does(
    audio: AudioFakes, quick: None
) -> None:
    audio.devices.answers = False
    mic = Microphone()
    mic.unlock()

    async def turn() -> MicrophoneError:
        with pytest.raises(MicrophoneError) as raised:
            await mic.open()
        assert audio.devices.late is not None
        audio.devices.late.set_result(None)  # the browser answers after all
        for _ in range(5):
            await asyncio.sleep(0)
        return raised.value

    assert run(turn()).kind == "busy"
    assert not mic.is_open
    (late,) = audio.devices.streams
    assert all(track.stopped for track in late.tracks)  # its recording light goes out
    assert fakes.timers.pending == {}


def test_a_recorder_that_never_hands_over_its_data_is_unreadable(
    audio: AudioFakes, quick: None
) -> None:
    MediaRecorder.hands_over = False
    mic = Microphone()
    with pytest.raises(MicrophoneError) as raised:
        records(mic)
    assert raised.value.kind == "unreadable"
    assert audio.proxies.alive == 0
    mic.close()
    assert all(track.stopped for s in audio.devices.streams for track in s.tracks)


def test_recording_has_started_once_the_recorder_says_so(audio: AudioFakes) -> None:
    mic = opened(Microphone())
    mic.start_recording()
    run(mic.recording_started())
    assert MediaRecorder.made[-1].state == "recording"
    mic.close()
    run(mic.recording_started())  # nothing to wait for once closed
    assert audio.proxies.alive == 0


def test_a_recorder_that_never_starts_is_busy(audio: AudioFakes, quick: None) -> None:
    MediaRecorder.starts = False
    mic = opened(Microphone())
    mic.start_recording()
    with pytest.raises(MicrophoneError) as raised:
        run(mic.recording_started())
    assert raised.value.kind == "busy"
    mic.close()
    assert audio.proxies.alive == 0


def test_data_the_browser_handed_over_before_stop_is_kept(audio: AudioFakes) -> None:
    mic = opened(Microphone())
    mic.start_recording()
    MediaRecorder.made[-1].track_ended()  # the microphone went away mid-recording
    assert run(mic.stop_recording()).data == b"speech"
    assert audio.proxies.alive == 0


@pytest.mark.parametrize(("name", "kind"), [("NotSupportedError", "unsupported"), ("x", "failed")])
def test_a_recorder_the_browser_refuses_is_a_kind(audio: AudioFakes, name: str, kind: str) -> None:
    MediaRecorder.refusal = name
    mic = opened(Microphone())
    with pytest.raises(MicrophoneError) as raised:
        mic.start_recording()
    assert raised.value.kind == kind


def test_a_decoder_that_never_finishes_is_unreadable(audio: AudioFakes, quick: None) -> None:
    OfflineAudioContext.decodes = False
    with pytest.raises(MicrophoneError) as raised:
        run(decode(Recording(b"speech", "audio/webm")))
    assert raised.value.kind == "unreadable"


def test_a_turn_leaves_no_timer_behind(audio: AudioFakes) -> None:
    mic = Microphone()
    records(mic)
    run(decode(Recording(b"speech", "audio/webm")))
    mic.close()
    assert fakes.timers.pending == {}


def test_close_stops_the_tracks_and_disconnects(audio: AudioFakes) -> None:
    mic = opened(Microphone())
    mic.close()
    assert all(track.stopped for track in audio.devices.streams[0].tracks)
    assert all(not n.outputs for n in AudioContext.made[0].nodes if n.kind == "microphone")
    assert not mic.is_open
    mic.close()  # closing twice is harmless (Escape after the turn ended)


def test_the_visualiser_draws_while_open_and_stops_on_close(audio: AudioFakes) -> None:
    mic = opened(Microphone())
    meter = fakes.Element("div")
    asyncio.run(mic.show(meter))
    analyser = audio.visualiser.drawing[meter]
    assert analyser.kind == "analyser"
    mic.close()
    assert audio.visualiser.drawing == {}


def test_speech_the_app_plays_moves_the_visualiser_and_is_heard(audio: AudioFakes) -> None:
    mic = Microphone()
    mic.unlock()
    player = fakes.Element("audio")
    mic.route(player)
    context = AudioContext.made[0]
    (source,) = [n for n in context.nodes if n.kind == "element"]
    assert source.element is player
    assert {n.kind for n in source.outputs} == {"analyser", "destination"}
    mic.close()
    assert source.outputs == []


def test_a_recording_comes_back_as_bytes_and_mime(audio: AudioFakes) -> None:
    mic = opened(Microphone())
    mic.start_recording()
    recording = asyncio.run(mic.stop_recording())
    assert recording == Recording(data=b"speech", mime="audio/webm;codecs=opus")
    assert audio.proxies.alive == 0


def test_recording_needs_an_open_microphone(audio: AudioFakes) -> None:
    with pytest.raises(RuntimeError):
        Microphone().start_recording()


def test_without_media_recorder_recording_is_unsupported(
    audio: AudioFakes, monkeypatch: pytest.MonkeyPatch
) -> None:
    mic = opened(Microphone())
    monkeypatch.delitem(fakes.js.__dict__, "MediaRecorder")
    with pytest.raises(MicrophoneError) as raised:
        mic.start_recording()
    assert raised.value.kind == "unsupported"


def test_a_hundred_turns_leave_no_proxy_stream_or_context_behind(audio: AudioFakes) -> None:
    mic = Microphone()
    meter = fakes.Element("div")
    for _ in range(100):
        opened(mic)
        asyncio.run(mic.show(meter))
        mic.start_recording()
        asyncio.run(mic.stop_recording())
        mic.close()
    assert len(audio.proxies.made) == 100
    assert audio.proxies.alive == 0
    assert all(track.stopped for s in audio.devices.streams for track in s.tracks)
    assert len(AudioContext.made) == 1
    assert audio.visualiser.drawing == {}


def test_closing_while_recording_drops_the_recording_and_its_listener(audio: AudioFakes) -> None:
    mic = opened(Microphone())
    mic.start_recording()
    mic.close()
    assert audio.proxies.alive == 0
    with pytest.raises(RuntimeError):
        asyncio.run(mic.stop_recording())


def test_a_recording_decodes_to_mono_samples_at_16_khz(audio: AudioFakes) -> None:
    samples = asyncio.run(decode(Recording(b"speech", "audio/webm")))
    assert samples.rate == 16_000
    assert len(samples.samples) == 32_000  # the fake decodes 2 s
    assert samples.seconds == 2.0
    assert samples.samples[0] == 0.25
    assert [(o.channels, o.sampleRate) for o in OfflineAudioContext.made][-1] == (1, 16_000)


@pytest.mark.parametrize("data", [b"", b"\x00garbage"])
def test_an_unreadable_recording_is_a_kind_not_a_crash(audio: AudioFakes, data: bytes) -> None:
    with pytest.raises(MicrophoneError) as raised:
        asyncio.run(decode(Recording(data, "audio/webm")))
    assert raised.value.kind == "unreadable"


def test_a_buffer_the_app_plays_moves_the_visualiser_and_is_heard(audio: AudioFakes) -> None:
    mic = Microphone()
    mic.unlock()
    speech = object()
    source = mic.play(speech)
    assert source.buffer is speech
    assert source.started
    assert {n.kind for n in source.outputs} == {"analyser", "destination"}


def test_stopping_while_the_browser_asks_for_permission_leaves_it_closed(
    audio: AudioFakes,
) -> None:
    mic = Microphone()
    audio.devices.while_asking = mic.close  # Escape while the permission prompt is up
    mic.unlock()
    asyncio.run(mic.open())
    assert not mic.is_open
    assert all(track.stopped for track in audio.devices.streams[0].tracks)
