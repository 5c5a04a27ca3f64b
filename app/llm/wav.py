"""WAV files for provider speech: what Gemini can take, and what its speech answers become.

Gemini does not take the WebM/Opus that MediaRecorder makes, so the browser decodes a recording
with Web Audio and hands the float samples (a Float32Array's bytes, or a list) here to become a
16 kHz mono 16-bit PCM WAV, the smallest form speech recognisers take without loss. Gemini's
spoken answers come as headerless L16 PCM, which `pcm16_wav` wraps so a browser can play them.

This runs in Pyodide on half a minute of audio at a time, so the per-sample work is kept to
one list comprehension per step (C-level slicing where the rates divide evenly).
"""

from __future__ import annotations

import array
import struct
import sys
from collections.abc import Sequence

RATE = 16_000
_LOWEST_RATE = 1_000
_HIGHEST_RATE = 768_000  # the range Web Audio's AudioContext accepts, with room below
_FULL_SCALE = 32_768.0
_HIGHEST = 32_767
_LOWEST = -32_768

Channel = bytes | bytearray | memoryview | Sequence[float]


def _header(data_bytes: int, rate: int, channels: int) -> bytes:
    block = 2 * channels
    return struct.pack(
        "<4sI4s4sIHHIIHH4sI",
        b"RIFF",
        36 + data_bytes,
        b"WAVE",
        b"fmt ",
        16,  # the size of a plain PCM format chunk
        1,  # PCM
        channels,
        rate,
        rate * block,
        block,
        16,
        b"data",
        data_bytes,
    )


def _little_endian(samples: array.array[int]) -> bytes:
    if sys.byteorder == "big":
        samples.byteswap()
    return samples.tobytes()


def pcm16_wav(pcm: bytes, rate: int, channels: int = 1) -> bytes:
    """Raw little-endian 16-bit PCM (what Gemini calls `audio/L16;codec=pcm;rate=24000`) in a
    WAV header. A trailing odd byte cannot be a sample and is dropped."""
    pcm = pcm[: len(pcm) - len(pcm) % (2 * channels)]
    return _header(len(pcm), rate, channels) + pcm


def _floats(channel: Channel) -> Sequence[float]:
    if not isinstance(channel, bytes | bytearray | memoryview):
        return channel
    if len(channel) % 4:
        raise ValueError("The recording's samples are not a whole number of 4-byte samples.")
    samples = array.array("f")
    samples.frombytes(channel)
    if sys.byteorder == "big":
        samples.byteswap()  # a Float32Array's bytes are little-endian
    return samples


def _resampled(samples: Sequence[float], rate: int) -> Sequence[float]:
    """`samples` at `rate` as samples at 16 kHz, by linear interpolation."""
    count = len(samples) * RATE // rate
    if rate % RATE == 0:  # every output sample falls on an input sample
        return samples[:: rate // RATE][:count]
    if not samples:
        return samples
    padded = [*samples, samples[-1]]  # the last positions may fall past the final sample
    step = rate / RATE
    return [
        padded[j] + (padded[j + 1] - padded[j]) * (p - j)
        for p in (i * step for i in range(count))
        for j in (int(p),)
    ]


def _mixed(channels: list[Sequence[float]]) -> Sequence[float]:
    if len(channels) == 1:
        return channels[0]
    share = 1.0 / len(channels)
    return [sum(frame) * share for frame in zip(*channels, strict=True)]


def _pcm16(samples: Sequence[float]) -> array.array[int]:
    """Full scale is 32,768 so -1.0 is the lowest sample; louder samples are clipped, and a
    NaN (a broken decoder), which fails every comparison, becomes silence rather than a click.
    Chained comparisons cost a third of `min`/`max` calls per sample."""
    return array.array(
        "h",
        [
            int(v * _FULL_SCALE)
            if -1.0 < v < 1.0
            else _HIGHEST
            if v >= 1.0
            else _LOWEST
            if v <= -1.0
            else 0
            for v in samples
        ],
    )


def samples_wav(channels: Sequence[Channel], rate: int) -> bytes:
    """A 16 kHz mono 16-bit WAV of float samples (-1..1), one sequence per channel, at `rate`.

    Channels are resampled and then mixed: both steps are linear, so the order does not change
    the result, and resampling first mixes a third of the samples at 48 kHz."""
    if not channels:
        raise ValueError("A recording needs at least one channel of samples.")
    if not _LOWEST_RATE <= rate <= _HIGHEST_RATE:
        raise ValueError(
            f"A sample rate of {rate:,} Hz is not one a recording can have "
            f"({_LOWEST_RATE:,} to {_HIGHEST_RATE:,} Hz)."
        )
    decoded = [_floats(channel) for channel in channels]
    if len({len(channel) for channel in decoded}) > 1:
        raise ValueError("Every channel of a recording must have the same length.")
    mono = _mixed([_resampled(channel, rate) for channel in decoded])
    data = _little_endian(_pcm16(mono))
    return _header(len(data), RATE, 1) + data
