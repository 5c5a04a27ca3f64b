"""The microphone and the app's own speech in Web Audio: open, visualise, record, close.

One AudioContext, created or resumed by `unlock()` in the user's click (browsers keep it
"suspended" otherwise), and one AnalyserNode that both the microphone and any speech the app
plays feed, so static/visualiser.js moves with whoever is talking; that module draws every frame
by itself, Python only starts and stops it. Recordings (MediaRecorder, WebM/Opus in Chromium)
come back as bytes, and `decode` turns them into 16 kHz mono samples for providers that take
only WAV. Every failure is a `MicrophoneError` whose `kind` the core turns into a sentence.
"""

from __future__ import annotations

import asyncio
from array import array
from dataclasses import dataclass
from typing import Any, Literal

import js
from pyodide.ffi import JsException, create_proxy, to_js

from app.browser.dom import found, js_object
from app.browser.scripts import import_script

VISUALISER = "./static/visualiser.js"  # relative to the page; scripts/precache.py keeps it
SPEECH_RATE = 16_000  # what speech-to-text models are trained on
FFT_SIZE = 512  # 256 frequency bins: plenty for a row of bars, little work per frame

MicrophoneErrorKind = Literal[
    "denied",  # the user or a policy refused the microphone
    "no-microphone",  # none plugged in, or none that meets the constraints
    "busy",  # another program holds it, or the system could not start it
    "unsupported",  # no getUserMedia (an insecure page, or left out), Web Audio or MediaRecorder
    "unreadable",  # a recording that is empty or cannot be decoded
    "failed",  # anything else
]

# getUserMedia's DOMException names.
_KINDS: dict[str, MicrophoneErrorKind] = {
    "NotAllowedError": "denied",
    "SecurityError": "denied",  # a permissions policy, or an iframe without allow="microphone"
    "NotFoundError": "no-microphone",
    "OverconstrainedError": "no-microphone",
    "NotReadableError": "busy",
    "AbortError": "busy",
}


class MicrophoneError(Exception):
    """The microphone or a recording failed; `kind` says how, the message is for the log."""

    def __init__(self, kind: MicrophoneErrorKind, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind: MicrophoneErrorKind = kind


@dataclass(frozen=True)
class Recording:
    """What MediaRecorder gave back: the encoded bytes and their MIME type."""

    data: bytes
    mime: str


@dataclass(frozen=True)
class Samples:
    """Mono audio as 32-bit floats in [-1, 1] at `rate` samples per second."""

    samples: array[float]
    rate: int

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.rate


def _needs(owner: Any, name: str) -> Any:
    """The browser's function or constructor `owner.name`, or an "unsupported" error where it
    has none: calling what is not a function would raise a TypeError nobody catches."""
    function = getattr(owner, name, None) if found(owner) else None
    if not found(function) or not callable(function):
        raise MicrophoneError("unsupported", f"this browser has no {name}")
    return function


async def _visualiser() -> Any:
    return await import_script(VISUALISER)


class Microphone:
    """The page's microphone, its analyser and the visualiser drawing it.

    `processing=False` turns off the browser's echo cancellation, noise suppression and
    automatic gain, which would otherwise reshape a test's known recording."""

    def __init__(self, *, processing: bool = True) -> None:
        self._processing = processing
        self._context: Any = None
        self._analyser: Any = None
        self._resuming: Any = None  # the promise of resume(), awaited by open()
        self._stream: Any = None
        self._source: Any = None
        self._recorder: Any = None
        self._played: list[Any] = []  # the app's speech sources feeding the analyser
        self._shown: tuple[Any, Any] | None = None  # (visualiser module, where it draws)
        self._closes = 0  # counts close(), so an open() that outlived one backs out

    @property
    def is_open(self) -> bool:
        return self._stream is not None

    def unlock(self) -> None:
        """Create or resume the AudioContext. Call it in the click or key handler itself,
        before any await: browsers let only a user's gesture start audio."""
        if self._context is None:
            self._context = _needs(js, "AudioContext").new()
            self._analyser = self._context.createAnalyser()
            self._analyser.fftSize = FFT_SIZE
        if self._context.state == "suspended":
            self._resuming = self._context.resume()

    async def open(self) -> None:
        """Ask for the microphone (the browser may prompt) and feed it to the analyser."""
        if self.is_open:
            return
        self.unlock()
        # http pages other than localhost have no mediaDevices; some browsers leave out
        # getUserMedia itself.
        ask = _needs(getattr(js.navigator, "mediaDevices", None), "getUserMedia")
        if self._resuming is not None:
            resuming, self._resuming = self._resuming, None
            await resuming
        on = self._processing
        wanted = js_object(echoCancellation=on, noiseSuppression=on, autoGainControl=on)
        closes = self._closes
        try:
            stream = await ask(js_object(audio=wanted))
        except JsException as error:
            kind = _KINDS.get(str(getattr(error, "name", "")), "failed")
            raise MicrophoneError(kind, str(error)) from error
        if self._closes != closes or self.is_open:  # stopped, or opened twice, meanwhile
            _stop_tracks(stream)
            return
        self._stream = stream
        self._source = self._context.createMediaStreamSource(stream)
        self._source.connect(self._analyser)  # never to the speakers: that would echo

    async def show(self, target: Any) -> None:
        """Draw the analyser in `target`: a canvas, or the element of app/ui/voice_meter.py."""
        self.unlock()
        module = await _visualiser()
        self.hide()
        module.start(self._analyser, target)
        self._shown = (module, target)

    def hide(self) -> None:
        """Stop drawing and clear the visualiser."""
        if self._shown is not None:
            module, target = self._shown
            module.stop(target)
            self._shown = None

    def route(self, element: Any) -> None:
        """Play an <audio> element (the provider's speech) through the analyser as well as
        the speakers, so the visualiser moves while the app talks. Web Audio takes each
        element once, and after close() it stays silent: use a new element per answer."""
        self.unlock()
        self._through(self._context.createMediaElementSource(element))

    def play(self, buffer: Any) -> Any:
        """Play an AudioBuffer through the analyser and the speakers; returns its source node,
        whose stop() ends it early."""
        self.unlock()
        source = self._context.createBufferSource()
        source.buffer = buffer
        self._through(source)
        source.start()
        return source

    def _through(self, source: Any) -> None:
        source.connect(self._analyser)
        source.connect(self._context.destination)
        self._played.append(source)

    def start_recording(self) -> None:
        """Record the open microphone until `stop_recording`."""
        if self._stream is None:
            raise RuntimeError("open the microphone before recording")
        self._recorder = _needs(js, "MediaRecorder").new(self._stream)
        self._recorder.start()

    async def stop_recording(self) -> Recording:
        """Stop and return the whole recording (it arrives in one dataavailable event, as no
        timeslice was asked for)."""
        recorder, self._recorder = self._recorder, None
        if recorder is None:
            raise RuntimeError("nothing is being recorded")
        arrived: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        def on_data(event: Any) -> None:
            if not arrived.done():
                arrived.set_result(event.data)

        listener = create_proxy(on_data)
        recorder.addEventListener("dataavailable", listener)
        try:
            recorder.stop()
            blob = await arrived
            data = (await blob.arrayBuffer()).to_bytes()
        finally:
            recorder.removeEventListener("dataavailable", listener)
            listener.destroy()
        return Recording(data=bytes(data), mime=str(blob.type or recorder.mimeType))

    def close(self) -> None:
        """Let go of everything: a recording in progress is dropped, the tracks stop (the
        browser's recording light goes out), the nodes are disconnected, the drawing cleared.
        The AudioContext stays for the next turn. Safe to call at any time, twice too."""
        self._closes += 1
        if self._recorder is not None:
            self._recorder.stop()
            self._recorder = None
        if self._stream is not None:
            _stop_tracks(self._stream)
            self._source.disconnect()
            self._stream = self._source = None
        for source in self._played:
            source.disconnect()
        self._played.clear()
        self.hide()


def _stop_tracks(stream: Any) -> None:
    for track in stream.getTracks():
        track.stop()


async def decode(recording: Recording, rate: int = SPEECH_RATE) -> Samples:
    """The recording as mono samples at `rate`: decoded and resampled by the browser's own
    audio code (an OfflineAudioContext, far faster than doing it in Python)."""
    if not recording.data:
        raise MicrophoneError("unreadable", "the recording is empty")
    offline = _needs(js, "OfflineAudioContext")
    try:
        # decodeAudioData resamples to its context's rate; rendering into one channel mixes down.
        decoded = await offline.new(1, 1, rate).decodeAudioData(to_js(recording.data).buffer)
        mixer = offline.new(1, decoded.length, rate)
        source = mixer.createBufferSource()
        source.buffer = decoded
        source.connect(mixer.destination)
        source.start()
        rendered = await mixer.startRendering()
    except JsException as error:
        raise MicrophoneError("unreadable", str(error)) from error
    samples = array("f")
    samples.frombytes(rendered.getChannelData(0).to_bytes())
    return Samples(samples=samples, rate=rate)
