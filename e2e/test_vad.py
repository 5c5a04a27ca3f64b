"""Voice activity detection in the real page (static/vad.js, docs/decisions/030): Chromium's fake
microphone plays three espeak-ng words 2.5 s apart over pink noise, once; the app's own page
(with its Content-Security-Policy) imports the module, a real click opens the microphone, and
exactly three utterances come out, in order, each a WAV that decodes to its word's length with
the pre-roll and the tail around it (the first syllable is not cut). Noise with music playing
and no one speaking gives none. The main thread gets one message per event, never per frame,
and the worker keeps up with the audio.
"""

from __future__ import annotations

import itertools
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright

from e2e.conftest import Guard, guarded_context, launch_hearing, open_app, reload, screenshot

WORDS = ("apple", "the hospital", "skip")
LEAD_S, GAP_S, TAIL_S = 2.5, 2.5, 3.0
NOISE_DB = -40  # pink noise, about 20 dB under the words
PRE_ROLL_MS, END_TAIL_MS = 300, 200  # static/vad.js's defaults
SLACK_S = 0.3
CONTROLLED = "navigator.serviceWorker.controller !== null"
# The service worker's answer, once its check of the server at this start is over.
SERVER_ANSWERED = """() => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => resolve(event.data);
  navigator.serviceWorker.controller.postMessage({ type: "server-answered" }, [channel.port2]);
})"""

# Imports the module into the page and adds a button whose click (a real one: an AudioContext
# needs a user gesture) opens the microphone and starts listening; every event is kept in
# window.__vadTest, each recording decoded and measured: its length, and where its sound starts
# and ends (10 ms windows louder than 4x the quietest fifth of them).
SETUP = """async () => {
  const vad = await import("./static/vad.js");
  const test = {
    starts: [], utterances: [], misfires: [], errors: [], flowing: null, loaded: await vad.load(),
  };
  window.__vadTest = test;
  async function measure(blob) {
    const bytes = await blob.arrayBuffer();
    const audio = await new OfflineAudioContext(1, 1, 16000).decodeAudioData(bytes);
    const samples = audio.getChannelData(0);
    const window = Math.round(audio.sampleRate / 100);
    const levels = [];
    for (let at = 0; at + window <= samples.length; at += window) {
      let sum = 0;
      for (let i = at; i < at + window; i++) sum += samples[i] * samples[i];
      levels.push(Math.sqrt(sum / window));
    }
    const floor = [...levels].sort((a, b) => a - b)[Math.floor(levels.length / 5)];
    const loud = levels.map((level, i) => [level, i]).filter(([level]) => level > 4 * floor);
    return {
      decoded: audio.duration,
      rate: audio.sampleRate,
      soundFrom: loud.length ? loud[0][1] / 100 : null,
      soundUntil: loud.length ? (loud[loud.length - 1][1] + 1) / 100 : null,
    };
  }
  const button = document.createElement("button");
  button.textContent = "Listen (test)";
  button.style = "position: fixed; bottom: 0; right: 0; z-index: 99";
  document.body.append(button);
  button.addEventListener("click", async () => {
    const context = new AudioContext();
    await context.resume();
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
    });
    test.handle = await vad.start(stream, context, {
      onListening: (t) => { test.flowing = t; },
      onSpeechStart: (t) => test.starts.push(t),
      onSpeechEnd: (t, blob, mime, info) => {
        const now = performance.now() / 1000;
        const heard = { t, now, mime, size: blob.size, info };
        measure(blob).then((m) => test.utterances.push({ ...heard, ...m }));
      },
      onMisfire: (t, info) => test.misfires.push(info),
      onError: (reason) => test.errors.push(reason),
    });
    test.listening = true;
  });
}"""
READ = "async () => ({ ...__vadTest, handle: undefined, stats: await __vadTest.handle.stats() })"


def _sox(*args: str | Path) -> None:
    subprocess.run(["sox", *map(str, args)], check=True, capture_output=True)


def _length(path: Path) -> float:
    out = subprocess.run(["soxi", "-D", str(path)], check=True, capture_output=True, text=True)
    return float(out.stdout)


@pytest.fixture(scope="module")
def words(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[float]]:
    """WORDS said by espeak-ng over pink noise, 48 kHz mono, and each word's length."""
    folder = tmp_path_factory.mktemp("vad")
    parts, lengths = [], []
    for i, word in enumerate(WORDS):
        said, trimmed, padded = (folder / f"{i}-{n}.wav" for n in ("said", "trimmed", "padded"))
        subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(said), word], check=True)
        trim = ("silence", "1", "0.005", "-50d")
        _sox(
            said,
            "-r",
            "48000",
            "-c",
            "1",
            "-b",
            "16",
            trimmed,
            *trim,
            "reverse",
            *trim,
            "reverse",
            "gain",
            "-n",
            "-6",
        )
        lengths.append(_length(trimmed))
        _sox(trimmed, padded, "pad", str(LEAD_S if i == 0 else 0), str(GAP_S))
        parts.append(padded)
    speech = folder / "speech.wav"
    _sox(*parts, speech, "pad", "0", str(TAIL_S))
    return _with_noise(folder, speech, "words.wav"), lengths


def _with_noise(folder: Path, sound: Path, name: str) -> Path:
    seconds = f"{_length(sound):.3f}"
    noise, out = folder / f"noise-{name}", folder / name
    _sox(
        "-n",
        "-r",
        "48000",
        "-c",
        "1",
        "-b",
        "16",
        noise,
        "synth",
        seconds,
        "pinknoise",
        "gain",
        "-n",
        str(NOISE_DB),
    )
    _sox("-m", sound, noise, out)
    return out


@pytest.fixture(scope="module")
def music(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Plucked chords a beat apart and a sine melody, with the same pink noise: no one speaks."""
    folder = tmp_path_factory.mktemp("vad-music")
    beats = []
    for i, notes in enumerate([("C3", "E4", "G4"), ("A2", "C4", "E4"), ("F2", "A3", "C4")]):
        beat = folder / f"beat{i}.wav"
        plucks = [w for note in notes for w in ("pluck", note)]
        _sox("-r", "48000", "-c", "3", "-n", "-b", "16", "-c", "1", beat, "synth", "0.5", *plucks)
        beats.append(beat)
    bar, tune, mixed = folder / "bar.wav", folder / "tune.wav", folder / "mixed.wav"
    _sox(*beats, bar, "repeat", "7")
    _sox(
        "-n",
        "-r",
        "48000",
        "-c",
        "1",
        "-b",
        "16",
        tune,
        "synth",
        "12",
        "sine",
        "440-880",
        "tremolo",
        "5",
        "60",
        "gain",
        "-18",
    )
    _sox("-m", bar, tune, mixed, "gain", "-n", "-12")
    return _with_noise(folder, mixed, "music.wav")


def _listening(browser: Browser, base_url: str) -> tuple[Page, Guard]:
    guard = Guard(base_url)
    context = guarded_context(browser, guard)
    page = open_app(context, base_url)
    page.evaluate(SETUP)
    page.get_by_role("button", name="Listen (test)").click()
    page.wait_for_function("window.__vadTest.listening === true", timeout=20_000)
    return page, guard


@pytest.fixture(scope="module")
def heard(
    playwright: Playwright, base_url: str, words: tuple[Path, list[float]]
) -> Iterator[dict[str, Any]]:
    """What the page heard from the three words, played once (`%noloop`), then silence."""
    wav, _ = words
    browser = launch_hearing(playwright, Path(f"{wav}%noloop"))
    try:
        page, guard = _listening(browser, base_url)
        seconds = _length(wav)
        page.wait_for_function(
            f"window.__vadTest.utterances.length >= {len(WORDS)}", timeout=(seconds + 20) * 1000
        )
        # Nothing more may come: a fourth utterance (or a misfire) would be decided within
        # silenceMs (0.8 s) of its end, so this span shows there is none.
        page.wait_for_timeout(1500)
        result = page.evaluate(READ)
        screenshot(page, "vad")
        page.evaluate("window.__vadTest.handle.stop()")
        assert not guard.outside, guard.outside
        assert not guard.errors, guard.errors
        yield result
    finally:
        browser.close()


def test_three_words_are_three_utterances_in_order(
    heard: dict[str, Any], words: tuple[Path, list[float]]
) -> None:
    _, lengths = words
    assert heard["errors"] == []
    assert len(heard["utterances"]) == len(WORDS), json.dumps(heard["utterances"], indent=1)
    assert len(heard["starts"]) == len(WORDS) + len(heard["misfires"])
    padding = (PRE_ROLL_MS + END_TAIL_MS) / 1000
    for utterance, length in zip(heard["utterances"], lengths, strict=True):
        assert utterance["mime"] == "audio/wav"
        assert utterance["rate"] == 16_000
        assert utterance["decoded"] == pytest.approx(utterance["info"]["seconds"], abs=0.01)
        speech = utterance["info"]["end"] - utterance["info"]["start"]
        assert speech == pytest.approx(length, abs=SLACK_S), utterance
        assert utterance["decoded"] - padding == pytest.approx(length, abs=SLACK_S), utterance
    starts = [u["info"]["start"] for u in heard["utterances"]]
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    for gap, length in zip(gaps, lengths, strict=False):
        assert gap == pytest.approx(length + GAP_S, abs=SLACK_S)


def test_the_first_syllable_is_inside_the_recording(heard: dict[str, Any]) -> None:
    """The pre-roll: each recording starts quiet, before its word's sound, and ends after it."""
    for utterance in heard["utterances"]:
        assert utterance["soundFrom"] is not None, utterance
        assert utterance["soundFrom"] >= 0.1, utterance
        assert utterance["decoded"] - utterance["soundUntil"] >= 0.05, utterance


def test_it_says_when_the_microphones_first_frame_reaches_it(heard: dict[str, Any]) -> None:
    """A session's audio comes a little after it starts; a word said before is cut."""
    assert heard["flowing"] is not None
    assert heard["flowing"] < heard["starts"][0]


def test_only_events_reach_the_main_thread(heard: dict[str, Any]) -> None:
    stats = heard["stats"]
    events = len(heard["starts"]) + len(heard["utterances"]) + len(heard["misfires"])
    # ready, the first frame, the events, and the stats answer: nothing per frame (31 frames a
    # second).
    assert stats["messages"] <= events + 3, stats
    audio_s = stats["frames"] * 512 / 16_000
    assert audio_s > 8
    # The model runs in the worker; it keeps up with the audio with room to spare.
    assert stats["inferenceMs"] / (audio_s * 10) < 20, stats
    assert stats["maxLagMs"] < 500, stats


def test_the_decision_reaches_the_page_in_time(heard: dict[str, Any]) -> None:
    for utterance in heard["utterances"]:
        after_speech = utterance["t"] - utterance["info"]["end"]
        assert 0.7 <= after_speech <= 0.8 + 0.4, utterance  # silenceMs, and little more


def test_it_loads_from_the_service_workers_cache_when_the_network_is_gone(
    browser: Browser, base_url: str
) -> None:
    """Kept offline like uPlot: the page opened online (so sw.js leaves .wasm to the network)
    loses the network; the detector still loads, everything from the precache."""
    guard = Guard(base_url)
    context = guarded_context(browser, guard)
    try:
        page = open_app(context, base_url)
        page.wait_for_function(CONTROLLED, timeout=60_000)
        reload(page)  # now through the worker, which checks that the server answers
        # It did, so the worker leaves .wasm to the network, which is about to go.
        assert page.evaluate(SERVER_ANSWERED) is True
        context.set_offline(True)
        loaded = page.evaluate("async () => (await import('./static/vad.js')).load()")
        assert loaded["loadMs"] > 0
    finally:
        context.close()
    assert not guard.outside
    assert not guard.errors


REFUSALS = """async () => {
  const vad = await import("./static/vad.js");
  const refused = async (...args) => {
    try {
      await vad.start(...args);
      return null;
    } catch (error) {
      return `${error.name}: ${error.message}`;
    }
  };
  const context = { sampleRate: 48000 };
  return [
    await refused(null, { sampleRate: 8000 }, {}),
    await refused(null, context, { onSpeechEnded: () => {} }),
    await refused(null, context, {}, { silence: 500 }),
    await refused(null, context, { toJs: () => ({}) }),
  ];
}"""


def test_mistakes_in_the_call_are_refused_not_ignored(app: Page) -> None:
    """A misspelt callback or option, or a Python dict passed as it is (it would read as empty),
    throws at once instead of listening with nothing called."""
    low, callback, option, python_dict = app.evaluate(REFUSALS)
    assert low == "Error: the voice detector needs 16 kHz or more, not 8000 Hz"
    assert callback == "TypeError: callbacks: unknown onSpeechEnded"
    assert option == "TypeError: options: unknown silence"
    assert python_dict is not None
    assert python_dict.startswith("TypeError: callbacks: pass a JS object")


def test_noise_and_music_alone_are_not_speech(
    playwright: Playwright, base_url: str, music: Path
) -> None:
    browser = launch_hearing(playwright, music)
    try:
        page, guard = _listening(browser, base_url)
        # That nothing is heard can only be seen over a span: 10 s of noise and music.
        page.wait_for_timeout(10_000)
        result = page.evaluate(READ)
        page.evaluate("window.__vadTest.handle.stop()")
    finally:
        browser.close()
    assert result["utterances"] == []
    assert result["starts"] == []
    assert result["stats"]["frames"] * 512 / 16_000 > 8
    assert not guard.outside
    assert not guard.errors
