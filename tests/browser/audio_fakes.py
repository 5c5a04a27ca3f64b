"""Just enough of Web Audio, getUserMedia and MediaRecorder for app/browser/microphone.py to run
under CPython, beside the DOM fakes of tests/browser/fakes.py.

`AudioFakes.install(monkeypatch)` puts a microphone, an AudioContext, an OfflineAudioContext
and a MediaRecorder into the fake `js` module. Promises are coroutines (so `await` works), a
rejected one raises `fakes.JsException` carrying the DOMException's `name`, and `Proxies`
counts the proxies the code under test made and destroyed. Each can also behave as real
browsers were seen to: a microphone that never answers, a `resume()` that never settles
(Firefox with no sound device), a recorder that never hands over its data, a decoder that never
finishes.
"""

from __future__ import annotations

import asyncio
from array import array
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from tests.browser import fakes


def dom_exception(name: str, message: str = "") -> fakes.JsException:
    """A rejected promise's DOMException as Pyodide raises it: a JsException with its name."""
    error = fakes.JsException(f"{name}: {message}")
    error.name = name  # type: ignore[attr-defined]
    error.message = message  # type: ignore[attr-defined]
    return error


class Proxy:
    """What `create_proxy` gives: callable like the function, alive until `destroy()`."""

    def __init__(self, fn: Callable[..., Any], owner: Proxies) -> None:
        self.fn, self.owner, self.destroyed = fn, owner, False

    def __call__(self, *args: Any) -> Any:
        assert not self.destroyed, "a destroyed proxy was called"
        return self.fn(*args)

    def destroy(self) -> None:
        assert not self.destroyed, "a proxy was destroyed twice"
        self.destroyed = True


@dataclass
class Proxies:
    """A `create_proxy` that remembers every proxy it made."""

    made: list[Proxy] = field(default_factory=list)

    def __call__(self, fn: Callable[..., Any]) -> Proxy:
        proxy = Proxy(fn, self)
        self.made.append(proxy)
        return proxy

    @property
    def alive(self) -> int:
        return sum(not p.destroyed for p in self.made)


class Node:
    """An audio node: remembers what it is connected to."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.outputs: list[Node] = []
        self.started = False

    def connect(self, other: Node) -> None:
        self.outputs.append(other)

    def disconnect(self) -> None:
        self.outputs.clear()

    def start(self) -> None:  # a buffer source's
        self.started = True


class Track:
    def __init__(self) -> None:
        self.stopped = False

    def stop(self) -> None:
        self.stopped = True


class Stream:
    def __init__(self) -> None:
        self.tracks = [Track()]

    def getTracks(self) -> list[Track]:
        return self.tracks


@dataclass
class MediaDevices:
    """`navigator.mediaDevices`: grants a fresh stream, or fails with `failure` (a name)."""

    failure: str | None = None
    asked: list[Any] = field(default_factory=list)
    streams: list[Stream] = field(default_factory=list)
    while_asking: Callable[[], None] | None = None  # what the user does while it asks
    answers: bool = True  # False: it waits until the test sets `late`'s result
    late: asyncio.Future[None] | None = None

    async def getUserMedia(self, constraints: Any) -> Stream:
        self.asked.append(constraints)
        if self.while_asking is not None:
            self.while_asking()
        if self.failure is not None:
            raise dom_exception(self.failure, "as the test asked")
        if not self.answers:
            self.late = asyncio.get_running_loop().create_future()
            await self.late
        self.streams.append(Stream())
        return self.streams[-1]


class Settled:
    """A promise that has already resolved (to undefined), awaited or not."""

    def __await__(self) -> Generator[Any, None, None]:
        return (yield from ())


class Pending:
    """A promise that never settles."""

    def __await__(self) -> Generator[Any, None, None]:
        return (yield from asyncio.get_running_loop().create_future().__await__())


class AudioContext:
    """Starts "suspended", as browsers do before a click; `resume()` makes it run, or with
    `settles` False leaves it suspended and never settles (Firefox with no sound device)."""

    made: ClassVar[list[AudioContext]] = []
    settles: ClassVar[bool] = True

    def __init__(self) -> None:
        self.state = "suspended"
        self.sampleRate = 48_000
        self.destination = Node("destination")
        self.nodes: list[Node] = []
        AudioContext.made.append(self)

    @classmethod
    def new(cls) -> AudioContext:
        return cls()

    def resume(self) -> Settled | Pending:
        if not AudioContext.settles:
            return Pending()
        self.state = "running"  # at once: the click's page is allowed to play
        return Settled()

    def _node(self, kind: str, **fields: Any) -> Node:
        node = Node(kind)
        node.__dict__.update(fields)
        self.nodes.append(node)
        return node

    def createAnalyser(self) -> Node:
        return self._node("analyser", fftSize=2048, smoothingTimeConstant=0.8)

    def createMediaStreamSource(self, stream: Stream) -> Node:
        return self._node("microphone", stream=stream)

    def createMediaElementSource(self, element: Any) -> Node:
        return self._node("element", element=element)

    def createBufferSource(self) -> Node:
        return self._node("buffer", buffer=None)


class Float32Array:
    def __init__(self, values: list[float]) -> None:
        self.values = values

    def to_bytes(self) -> bytes:
        return array("f", self.values).tobytes()


@dataclass
class Decoded:
    """An AudioBuffer: `length` frames at `sampleRate`, `channels` of them."""

    length: int
    sampleRate: int
    numberOfChannels: int = 2


class OfflineAudioContext:
    """Decodes the bytes `b"speech"` to a stereo buffer of 2 s and refuses any other
    bytes, as decodeAudioData does with what it cannot read; renders to its own rate. With
    `decodes` False, decoding never finishes."""

    made: ClassVar[list[OfflineAudioContext]] = []
    decodes: ClassVar[bool] = True

    def __init__(self, channels: int, length: int, rate: int) -> None:
        self.channels, self.length, self.sampleRate = channels, length, rate
        self.destination = Node("destination")
        self.sources: list[Node] = []
        OfflineAudioContext.made.append(self)

    @classmethod
    def new(cls, channels: int, length: int, rate: int) -> OfflineAudioContext:
        return cls(channels, length, rate)

    async def decodeAudioData(self, data: Any) -> Decoded:
        if not OfflineAudioContext.decodes:
            await Pending()
        if bytes(data) != b"speech":
            raise dom_exception("EncodingError", "Unable to decode audio data")
        # Decoding resamples to the context's rate, as in the browser.
        return Decoded(length=2 * self.sampleRate, sampleRate=self.sampleRate)

    def createBufferSource(self) -> Node:
        source = Node("buffer")
        self.sources.append(source)
        return source

    async def startRendering(self) -> Any:
        samples = [0.25] * self.length

        def channel(index: int) -> Float32Array:
            assert index == 0
            return Float32Array(samples)

        return SimpleNamespace(
            length=self.length, sampleRate=self.sampleRate, getChannelData=channel
        )


class Blob:
    def __init__(self, data: bytes, mime: str) -> None:
        self.data, self.type, self.size = data, mime, len(data)

    async def arrayBuffer(self) -> Any:
        return SimpleNamespace(to_bytes=lambda: self.data)


class MediaRecorder(fakes.EventTarget):
    """Records `b"speech"`; like Chromium's, the whole recording arrives in one dataavailable
    event when it stops (no timeslice was asked for). "start" fires when it begins recording,
    unless `starts` is False. With `hands_over` False, stop() never fires dataavailable;
    `refusal` (a DOMException's name) makes the constructor throw."""

    made: ClassVar[list[MediaRecorder]] = []
    starts: ClassVar[bool] = True
    hands_over: ClassVar[bool] = True
    refusal: ClassVar[str | None] = None

    def __init__(self, stream: Stream) -> None:
        super().__init__()
        self.stream = stream
        self.state = "inactive"
        self.mimeType = "audio/webm;codecs=opus"
        MediaRecorder.made.append(self)

    @classmethod
    def new(cls, stream: Stream) -> MediaRecorder:
        if cls.refusal is not None:
            raise dom_exception(cls.refusal, "as the test asked")
        return cls(stream)

    def start(self) -> None:
        self.state = "recording"
        if MediaRecorder.starts:
            self._fire(fakes.Event("start"), False)

    def removeEventListener(self, type_: str, handler: Any) -> None:
        self.listeners = [entry for entry in self.listeners if entry[:2] != (type_, handler)]

    def stop(self) -> None:
        if self.state == "inactive":
            return  # as the spec says now (older browsers threw InvalidStateError)
        self.state = "inactive"
        if MediaRecorder.hands_over:
            self._fire(fakes.Event("dataavailable", data=Blob(b"speech", self.mimeType)), False)

    def track_ended(self) -> None:
        """The microphone's track ended: the browser stops the recorder and hands its data
        over by itself, before anyone calls stop()."""
        self.state = "inactive"
        self._fire(fakes.Event("dataavailable", data=Blob(b"speech", self.mimeType)), False)


def uint8_array(data: bytes) -> Any:
    """`to_js(bytes)`: a Uint8Array whose `.buffer` the decoder reads."""
    return SimpleNamespace(buffer=data)


@dataclass
class Visualiser:
    """static/visualiser.js as the browser layer sees it: who is drawn where."""

    drawing: dict[Any, Any] = field(default_factory=dict)

    def start(self, analyser: Any, target: Any) -> None:
        self.drawing[target] = analyser

    def stop(self, target: Any = None) -> None:
        if target is None:
            self.drawing.clear()
        else:
            self.drawing.pop(target, None)


@dataclass
class AudioFakes:
    devices: MediaDevices = field(default_factory=MediaDevices)
    proxies: Proxies = field(default_factory=Proxies)
    visualiser: Visualiser = field(default_factory=Visualiser)

    def install(self, monkeypatch: pytest.MonkeyPatch, module: Any) -> AudioFakes:
        """Give the fake page a microphone and Web Audio, and `module` (app.browser.microphone)
        the counting proxies and the visualiser double."""
        AudioContext.made.clear()
        AudioContext.settles = True
        OfflineAudioContext.made.clear()
        OfflineAudioContext.decodes = True
        MediaRecorder.made.clear()
        MediaRecorder.starts = True
        MediaRecorder.hands_over = True
        MediaRecorder.refusal = None
        fakes.js.navigator.mediaDevices = self.devices
        for name, value in {
            "AudioContext": AudioContext,
            "OfflineAudioContext": OfflineAudioContext,
            "MediaRecorder": MediaRecorder,
        }.items():
            monkeypatch.setitem(fakes.js.__dict__, name, value)
        monkeypatch.setattr(module, "create_proxy", self.proxies)
        monkeypatch.setattr(module, "to_js", uint8_array)

        async def visualiser() -> Visualiser:
            return self.visualiser

        monkeypatch.setattr(module, "_visualiser", visualiser)
        return self
