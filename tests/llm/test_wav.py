"""WAV for provider speech: float samples to 16 kHz mono 16-bit PCM; raw L16 given a header."""

from __future__ import annotations

import array
import io
import math
import struct
import sys
import wave

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.llm.wav import RATE, pcm16_wav, samples_wav


def read(data: bytes) -> tuple[wave._wave_params, list[int]]:
    with wave.open(io.BytesIO(data)) as reader:
        params = reader.getparams()
        frames = reader.readframes(params.nframes)
    return params, list(array.array("h", frames))


def float32_bytes(values: list[float]) -> bytes:
    samples = array.array("f", values)
    if sys.byteorder == "big":
        samples.byteswap()  # the browser's Float32Array is little-endian
    return samples.tobytes()


def tone(rate: int, seconds: float, hz: float = 440.0, level: float = 0.5) -> list[float]:
    return [level * math.sin(2 * math.pi * hz * i / rate) for i in range(round(rate * seconds))]


def test_the_header_says_16_khz_mono_16_bit_pcm() -> None:
    data = samples_wav([tone(16_000, 0.1)], 16_000)
    assert data[:4] == b"RIFF"
    assert data[8:16] == b"WAVEfmt "
    (riff_size,) = struct.unpack_from("<I", data, 4)
    fmt_size, audio_format, channels, rate, byte_rate, align, bits = struct.unpack_from(
        "<IHHIIHH", data, 16
    )
    assert (fmt_size, audio_format, channels, rate, bits) == (16, 1, 1, 16_000, 16)
    assert (byte_rate, align) == (32_000, 2)
    assert data[36:40] == b"data"
    assert struct.unpack_from("<I", data, 40)[0] == 3_200  # 1,600 samples of 2 bytes
    assert riff_size == len(data) - 8


def test_samples_at_16_khz_come_back_as_they_went_in() -> None:
    samples = [0.0, 0.5, -0.5, 1.0, -1.0, 0.25]
    params, frames = read(samples_wav([samples], 16_000))
    assert (params.nchannels, params.sampwidth, params.framerate) == (1, 2, RATE)
    assert frames == [0, 16_384, -16_384, 32_767, -32_768, 8_192]


def test_a_float32_array_s_bytes_are_read_like_a_list() -> None:
    samples = tone(16_000, 0.05)
    assert samples_wav([float32_bytes(samples)], 16_000) == samples_wav([samples], 16_000)


@pytest.mark.parametrize("rate", [8_000, 22_050, 44_100, 48_000, 96_000])
def test_any_rate_becomes_16_khz_and_keeps_its_duration(rate: int) -> None:
    params, frames = read(samples_wav([tone(rate, 1.5)], rate))
    assert params.framerate == 16_000
    assert abs(params.nframes - 24_000) <= 1
    assert len(frames) == params.nframes


def test_resampling_keeps_the_tone() -> None:
    _, frames = read(samples_wav([tone(44_100, 0.5, hz=440.0)], 44_100))
    expected = [
        round(0.5 * 32_767 * math.sin(2 * math.pi * 440 * i / 16_000)) for i in range(8_000)
    ]
    assert max(abs(a - b) for a, b in zip(frames, expected, strict=True)) < 100


def test_channels_are_mixed_to_mono() -> None:
    left = [0.5] * 480
    right = [-0.25] * 480
    _, frames = read(samples_wav([left, right], 48_000))
    assert frames == [4_096] * 160


def test_loud_samples_are_clipped_not_wrapped() -> None:
    _, frames = read(samples_wav([[2.0, -3.0, 1.5, float("inf"), float("-inf")]], 16_000))
    assert frames == [32_767, -32_768, 32_767, 32_767, -32_768]


def test_a_broken_sample_becomes_silence() -> None:
    _, frames = read(samples_wav([[float("nan"), 0.5]], 16_000))
    assert frames == [0, 16_384]


def test_no_samples_make_an_empty_but_valid_wav() -> None:
    params, frames = read(samples_wav([[]], 48_000))
    assert params.nframes == 0
    assert frames == []


@pytest.mark.parametrize(
    ("channels", "rate", "message"),
    [
        ([], 16_000, "at least one channel"),
        ([b"\x00\x00\x80"], 16_000, "whole number of 4-byte samples"),
        ([[0.0] * 4, [0.0] * 3], 16_000, "same length"),
        ([[0.0]], 0, "sample rate"),
        ([[0.0]], 2_000_000, "sample rate"),
    ],
)
def test_bad_input_is_refused_with_a_reason(
    channels: list[bytes | list[float]], rate: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        samples_wav(channels, rate)


@given(
    st.lists(st.floats(-1.0, 1.0, width=32), max_size=400),
    st.sampled_from([8_000, 16_000, 44_100, 48_000]),
)
def test_every_encoding_is_a_wav_the_stdlib_reads(samples: list[float], rate: int) -> None:
    params, frames = read(samples_wav([samples], rate))
    assert params.framerate == 16_000
    assert params.nframes == len(frames) == math.floor(len(samples) * 16_000 / rate)
    assert all(-32_768 <= f <= 32_767 for f in frames)


def test_thirty_seconds_at_48_khz_become_thirty_seconds_at_16_khz() -> None:
    recording = float32_bytes(tone(48_000, 30.0, level=0.3))
    assert read(samples_wav([recording], 48_000))[0].nframes == 480_000


def test_raw_l16_pcm_is_wrapped_without_touching_the_samples() -> None:
    pcm = array.array("h", [0, 1_000, -1_000, 32_767]).tobytes()
    params, frames = read(pcm16_wav(pcm, 24_000))
    assert (params.nchannels, params.sampwidth, params.framerate) == (1, 2, 24_000)
    assert frames == [0, 1_000, -1_000, 32_767]


def test_an_odd_byte_of_l16_is_dropped() -> None:
    params, _ = read(pcm16_wav(b"\x01\x00\x02\x00\x03", 24_000))
    assert params.nframes == 2
