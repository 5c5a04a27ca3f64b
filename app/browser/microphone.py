"""The microphone and the app's own speech in Web Audio: open, visualise, record, close.

One AudioContext, created or resumed by `unlock()` in the user's click (browsers keep it
"suspended" otherwise), and one AnalyserNode that both the microphone and any speech the app
plays feed, so static/visualiser.js moves with whoever is talking; that module draws every frame
by itself, Python only starts and stops it. Recordings (MediaRecorder, WebM/Opus in Chromium)
come back as bytes, and `decode` turns them into 16 kHz mono samples for providers that take
only WAV. Every failure is a `MicrophoneError` whose `kind` the core turns into a sentence.

The live level is a nicety and the recording is not: opening the microphone and recording never
wait for the AudioContext (Firefox with no sound device never settles its `resume()`), and every
other step that waits on the browser is bounded, so no turn can wait for ever.
"""

from __future__ import annotations

import asyncio
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import js
from pyodide.ffi import JsException, create_proxy, to_js

from app.browser.dom import found, js_object
from app.browser.scripts import import_script
from app.browser.timers import Timeout

VISUALISER = "./static/visualiser.js"  # relative to the page; scripts/precache.py keeps it
SPEECH_RATE = 16_000  # what speech-to-text models are trained on
FFT_SIZE = 512  # 256 frequency bins: plenty for a row of bars, little work per frame
# How long each step may take before it counts as never answering.
OPEN_S = 30.0  # getUserMedia: the user may be reading the browser's permission prompt
START_S = 5.0  # a recorder starts within milliseconds of start()
STOP_S = 5.0  # a recorder hands its data over within milliseconds of stop()
DECODE_S = 10.0  # decoding a spoken answer takes a fraction of a second

MicrophoneErrorKind = Literal[
    "denied",  # the user or a policy refused the microphone
    "no-microphone",  # none plugged in, or none that meets the constraints
    "busy",  # another program holds it, or the system could not start it (or never answered)
    "unsupported",  # no getUserMedia (an insecure page) or MediaRecorder
    "unreadable",  # a recording that is empty, cannot be decoded, or never came
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


async def _within(
    step: Any,
    seconds: float,
    kind: MicrophoneErrorKind,
    what: str,
    late: Callable[[Any], None] | None = None,
) -> Any:
    """What the awaitable `step` gives, or a MicrophoneError of `kind` once `seconds` pass
    without it: a listener waiting on a browser that never answers would say "Sending…" for
    ever. With `late`, a step that finishes after all is handed to it (a stream to stop);
    without, it is cancelled."""
    task = asyncio.ensure_future(step)
    woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def wake(_done: Any = None) -> None:
        if not woken.done():
            woken.set_result(None)

    task.add_done_callback(wake)
    timer = Timeout(seconds, wake)  # cleared at once, unlike the loop's call_later
    try:
        await woken
    finally:
        timer.cancel()
        task.remove_done_callback(wake)
        if not task.done():  # the time ran out, or the caller was cancelled
            if late is None:
                task.cancel()
            else:
                task.add_done_callback(lambda t: _hand_over(t, late))
    if not task.done():
        raise MicrophoneError(kind, f"{what} did not finish in {seconds:g} s")
    return task.result()


def _hand_over(task: asyncio.Future[Any], late: Callable[[Any], None]) -> None:
    if not task.cancelled() and task.exception() is None:  # also marks a failure as seen
        late(task.result())


def _audio_context() -> Any:
    """A new AudioContext, or None where the browser has none or will not make one."""
    try:
        return _needs(js, "AudioContext").new()
    except (MicrophoneError, JsException):
        return None


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
        self._stream: Any = None
        self._source: Any = None
        self._take: _Take | None = None
        self._played: list[Any] = []  # the app's speech sources feeding the analyser
        self._shown: tuple[Any, Any] | None = None  # (visualiser module, where it draws)
        self._closes = 0  # counts close(), so an open() that outlived one backs out

    @property
    def is_open(self) -> bool:
        return self._stream is not None

    @property
    def stream(self) -> Any:
        """The open microphone's MediaStream (None while closed)."""
        return self._stream

    @property
    def context(self) -> Any:
        """The AudioContext (None before `unlock`, or in a browser without Web Audio)."""
        return self._context

    def unlock(self) -> None:
        """Create or resume the AudioContext, for the live level and the app's speech. Call it
        in the click or key handler itself, before any await: browsers let only a user's
        gesture start audio. Nothing waits for the resume, and a browser without Web Audio
        goes without: recording needs neither."""
        if self._context is None:
            self._context = _audio_context()
            if self._context is None:
                return
            self._analyser = self._context.createAnalyser()
            self._analyser.fftSize = FFT_SIZE
        if self._context.state == "suspended":
            # Its promise is dropped: it rejects only for a closed context (this one never
            # closes), and in Firefox with no sound device it never settles at all.
            self._context.resume()

    async def open(self) -> None:
        """Ask for the microphone (the browser may prompt) and feed it to the analyser."""
        if self.is_open:
            return
        self.unlock()
        # http pages other than localhost have no mediaDevices; some browsers leave out
        # getUserMedia itself.
        ask = _needs(getattr(js.navigator, "mediaDevices", None), "getUserMedia")
        on = self._processing
        wanted = js_object(echoCancellation=on, noiseSuppression=on, autoGainControl=on)
        closes = self._closes
        try:
            stream = await _within(
                ask(js_object(audio=wanted)), OPEN_S, "busy", "getUserMedia", _stop_tracks
            )
        except JsException as error:
            kind = _KINDS.get(str(getattr(error, "name", "")), "failed")
            raise MicrophoneError(kind, str(error)) from error
        if self._closes != closes or self.is_open:  # stopped, or opened twice, meanwhile
            _stop_tracks(stream)
            return
        self._stream = stream
        if self._context is not None:
            self._source = self._context.createMediaStreamSource(stream)
            self._source.connect(self._analyser)  # never to the speakers: that would echo

    async def show(self, target: Any) -> None:
        """Draw the analyser in `target`: a canvas, or the element of app/ui/voice_meter.py."""
        self.unlock()
        if self._analyser is None:
            raise MicrophoneError("unsupported", "no Web Audio to draw the level with")
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
        element once, and after close() it stays silent: use a new element per answer.
        Without a running AudioContext the element keeps playing by itself: routed into a
        suspended one it would be silent."""
        self.unlock()
        if self._context is not None and self._context.state == "running":
            self._through(self._context.createMediaElementSource(element))

    def play(self, buffer: Any) -> Any:
        """Play an AudioBuffer through the analyser and the speakers; returns its source node,
        whose stop() ends it early."""
        self.unlock()
        if self._context is None:
            raise MicrophoneError("unsupported", "this browser has no AudioContext")
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
        try:
            recorder = _needs(js, "MediaRecorder").new(self._stream)
        except JsException as error:
            unsupported = str(getattr(error, "name", "")) == "NotSupportedError"
            raise MicrophoneError("unsupported" if unsupported else "failed", str(error)) from error
        self._take = _Take(recorder)
        try:
            recorder.start()
        except JsException as error:  # the track ended before it could start
            self._take.end()
            self._take = None
            raise MicrophoneError("failed", str(error)) from error

    async def recording_started(self) -> None:
        """Wait until the recorder records (its "start" event): sound before it is not in the
        recording, so the learner is told it listens only then. At once when not recording."""
        take = self._take
        if take is not None:
            await _within(take.started.wait(), START_S, "busy", "the recorder's start")

    async def stop_recording(self) -> Recording:
        """Stop and return the whole recording (it arrives in one dataavailable event, as no
        timeslice was asked for)."""
        take, self._take = self._take, None
        if take is None:
            raise RuntimeError("nothing is being recorded")
        try:
            take.stop()
            await _within(take.arrived.wait(), STOP_S, "unreadable", "the recorder's data")
            blob = take.data
            buffer = await _within(blob.arrayBuffer(), STOP_S, "unreadable", "reading it")
        finally:
            take.end()
        return Recording(data=bytes(buffer.to_bytes()), mime=str(blob.type or take.mime))

    def close(self) -> None:
        """Let go of everything: a recording in progress is dropped, the tracks stop (the
        browser's recording light goes out), the nodes are disconnected, the drawing cleared.
        The AudioContext stays for the next turn. Safe to call at any time, twice too."""
        self._closes += 1
        if self._take is not None:
            self._take.end()
            self._take = None
        if self._stream is not None:
            _stop_tracks(self._stream)
            if self._source is not None:
                self._source.disconnect()
            self._stream = self._source = None
        for source in self._played:
            source.disconnect()
        self._played.clear()
        self.hide()


class _Take:
    """One MediaRecorder, when it started and the data it hands over. The listener is there
    from the start: when the microphone's track ends, the browser stops the recorder and hands
    the data over before anyone calls stop(), and a listener added then would wait for ever."""

    EVENTS = ("start", "dataavailable")

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder
        self.mime = str(recorder.mimeType)
        self.data: Any = None
        self.started = asyncio.Event()
        self.arrived = asyncio.Event()
        self._listener: Any = create_proxy(self._on_event)
        for name in self.EVENTS:
            recorder.addEventListener(name, self._listener)

    def _on_event(self, event: Any) -> None:
        if str(event.type) == "start":
            self.started.set()
        elif self.data is None:
            self.data = event.data
            self.arrived.set()

    def stop(self) -> None:
        if str(self.recorder.state) != "inactive":  # older browsers throw on a second stop
            self.recorder.stop()

    def end(self) -> None:
        """Stop (if still recording) and let go of the listener; safe twice."""
        if self._listener is None:
            return
        self.stop()
        for name in self.EVENTS:
            self.recorder.removeEventListener(name, self._listener)
        self._listener.destroy()
        self._listener = None
        self.started.set()  # nobody waits for a recorder that is gone


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
        decoding = offline.new(1, 1, rate).decodeAudioData(to_js(recording.data).buffer)
        decoded = await _within(decoding, DECODE_S, "unreadable", "decodeAudioData")
        mixer = offline.new(1, decoded.length, rate)
        source = mixer.createBufferSource()
        source.buffer = decoded
        source.connect(mixer.destination)
        source.start()
        rendered = await _within(mixer.startRendering(), DECODE_S, "unreadable", "rendering")
    except JsException as error:
        raise MicrophoneError("unreadable", str(error)) from error
    samples = array("f")
    samples.frombytes(rendered.getChannelData(0).to_bytes())
    return Samples(samples=samples, rate=rate)
