"""The voice figures: push-to-talk turns with the assistant, timed inside the page, the live
visualiser's cost per frame, and what a hundred turns leave behind in memory.

The page runs with the e2e suite's recogniser and speech synthesis doubles and
bench/voice_probe.js; its provider is the aimock emulator on loopback, set up through the AI
settings dialog as a user would. Each turn holds the talk button with the real mouse, releases
it, and the double then delivers the final transcript (as a real recogniser does after stop());
the answer streams back and is said sentence by sentence. Chromium's fake microphone plays a
tone, so the live level runs as it would; the visualiser's cost is taken in a profile of its
own, with nothing else going on.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Playwright

from app.text.counting import counted
from bench import heap_snapshot
from bench.browser import Heap, profile
from bench.calibration import Calibration
from bench.report import Figure, summarise
from e2e.lexical_ui import configure_ai, open_assistant
from tests.llm.aimock import running_aimock

Log = Callable[[str], None]
REQUEST_TARGET, SPEECH_TARGET, FRAME_TARGET = 30.0, 20.0, 2.0
HEAP_TARGET_KB = 1.0  # per turn, after garbage collection: within this is no growth
WARM_UP_TURNS = 3  # not timed: the first turns import and build what later ones reuse
CHECKPOINTS = 10  # heap and proxy counts taken this many times over the turns
E2E = Path(__file__).parent.parent / "e2e"
DOUBLES = (E2E / "recognition_double.js", E2E / "synthesis_double.js")
VOICE_PROBE = Path(__file__).with_name("voice_probe.js")
FAKE_MICROPHONE = ("--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream")
KEY, MODEL = "bench-voice-key", "lexical-chat-1"
QUESTION = "what does aorta mean"
ANSWER = "The aorta is the main artery. It carries blood from the heart to the body."
FIXTURES = [
    {"match": {"userMessage": QUESTION}, "response": {"content": ANSWER}, "chunkSize": 12},
    {"match": {"model": MODEL, "userMessage": "never asked"}, "response": {"content": "-"}},
]
# The turn is over: the answer was said, the assistant and the voice are idle again.
TURN_DONE = """() => __benchVoice.spoken.length > 0 && !__speech.listening
  && !document.querySelector('#ai-voice-live .ai-voice-status')
  && !document.querySelector('#assistant .ai-turn[data-status="running"]')"""


def first_after(times: Sequence[float], moment: float, what: str) -> float:
    later = [t for t in times if t >= moment]
    if not later:
        raise ValueError(f"bench: no {what}")
    return min(later)


def turn_latencies(turn: dict[str, list[float]]) -> tuple[float, float]:
    """One turn's page times (bench/voice_probe.js `take()`) as two latencies in ms: final
    transcript → chat request started, first streamed sentence queued → speech started."""
    if not turn["finals"]:
        raise ValueError("bench: no final transcript in the turn")
    final = turn["finals"][0]
    request = first_after(turn["requests"], final, "chat request after the final transcript")
    sentence = first_after(turn["sentences"], request, "streamed sentence after the request")
    spoken = first_after(turn["spoken"], sentence, "speech after the first streamed sentence")
    return request - final, spoken - sentence


def growth(turns: Sequence[float], values: Sequence[float]) -> float:
    """The least-squares slope of `values` taken after `turns` turns: growth per turn."""
    if len(turns) < 2:
        raise ValueError("bench: growth needs at least two checkpoints")
    mean_x, mean_y = sum(turns) / len(turns), sum(values) / len(values)
    spread = sum((x - mean_x) ** 2 for x in turns)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(turns, values, strict=True)) / spread


def _talk_button(page: Page) -> Any:
    return page.get_by_role("button", name="Hold to talk")


def _turn(page: Page) -> dict[str, list[float]]:
    """One push-to-talk turn, until the answer has been said; its page times."""
    page.evaluate("text => { __benchVoice.final = text; }", QUESTION)
    _talk_button(page).hover()
    page.mouse.down()
    page.wait_for_function("__speech.listening")
    page.evaluate("text => __speech.hear(text)", QUESTION.rsplit(" ", 1)[0])
    page.mouse.up()
    page.wait_for_function(TURN_DONE)
    return dict(page.evaluate("__benchVoice.take()"))


# What the page keeps that is not the app's: the speech doubles' records of every recogniser
# (but the last, which may still be listening; a page with the browser's own recogniser has
# none) and utterance, and the browser's performance
# timeline (resource timings are capped by the browser, the app's spans and marks by the app
# itself: app/browser/dom.py SPANS_KEPT).
FORGET = """() => {
  window.__spoken.length = 0;
  window.__speech?.instances.splice(0, window.__speech.instances.length - 1);
  performance.clearMeasures();
  performance.clearMarks();
  performance.clearResourceTimings();
}"""


def _checkpoint(page: Page, heap: Heap) -> dict[str, float]:
    """After a new conversation (the panel drops the old one's turns, the store keeps them):
    the memory left (`memory`)."""
    page.get_by_role("button", name="New conversation").click()
    return memory(page, heap)


def memory(page: Page, heap: Heap) -> dict[str, float]:
    """Once saved, and after garbage collection in Python and in V8: the JS heap in KB and the
    live proxies, after the page forgets what is not the app's (`FORGET`)."""
    page.wait_for_function("document.querySelector('#save-status').dataset.state !== 'saving'")
    page.evaluate(FORGET)
    counts = dict(page.evaluate("__benchVoice.proxies()"))
    heap.sample(collect=True)
    return {"heap_kb": heap.js[-1] * 1000, **counts}


def _turns(
    playwright: Playwright, base_url: str, timed: int, turns: int, log: Log
) -> dict[str, Any]:
    out: dict[str, Any] = {"request": [], "speech": [], "at": [], "marks": []}
    calibration = out["calibration"] = Calibration("voice", "the voice page")
    with (
        tempfile.TemporaryDirectory(prefix="lexical-bench-aimock-") as folder,
        running_aimock(FIXTURES, Path(folder), KEY) as mock,
        profile(
            playwright,
            base_url,
            scripts=(*DOUBLES, VOICE_PROBE),
            flags=FAKE_MICROPHONE,  # a person talking has a microphone: the level shows
            also=(mock,),
        ) as session,
    ):
        page = session.open("/")
        open_assistant(page)
        configure_ai(page, provider="OpenAI", base_url=f"{mock}/v1", key=KEY, model=MODEL)
        calibration.take(page)
        for i in range(WARM_UP_TURNS + timed):
            request, speech = turn_latencies(_turn(page))
            if i >= WARM_UP_TURNS:
                out["request"].append(request)
                out["speech"].append(speech)
        log(f"voice: {timed} timed turns")
        calibration.take(page)  # before the proxies are traced: it makes its own once
        heap = Heap(page)
        page.evaluate("__benchVoice.traceProxies()")
        every = max(1, turns // CHECKPOINTS)
        checkpoints = [_checkpoint(page, heap)]
        cdp = page.context.new_cdp_session(page)
        first = heap_snapshot.take(cdp)
        out["at"].append(0)
        for i in range(1, turns + 1):
            _turn(page)
            if i % every == 0 or i == turns:
                checkpoints.append(_checkpoint(page, heap))
                out["at"].append(i)
        out["checkpoints"] = checkpoints
        out["split"] = heap_snapshot.split_growth(first, heap_snapshot.take(cdp))
        calibration.take(page)
        log(f"voice: {turns} turns, {checkpoints[0]} → {checkpoints[-1]}")
    return out


def _visualiser(
    playwright: Playwright, base_url: str, hold_s: int, calibration: Calibration
) -> list[float]:
    """Hold the talk button while the fake microphone plays: the visualiser's main-thread
    milliseconds per frame, once a second. The calibration runs before and after the hold,
    not in it, where it would hold up the frames."""
    with profile(playwright, base_url, scripts=DOUBLES[:1], flags=FAKE_MICROPHONE) as session:
        page = session.open("/")
        open_assistant(page)
        calibration.take(page)
        _talk_button(page).hover()
        page.mouse.down()
        page.wait_for_function("(window.__lexicalVisualiser?.frames ?? 0) > 0")
        counts = "(({frames, totalMs}) => [frames, totalMs])(window.__lexicalVisualiser)"
        before = page.evaluate(counts)
        per_frame = []
        for _ in range(hold_s):
            page.wait_for_timeout(1000)
            after = page.evaluate(counts)
            if after[0] > before[0]:
                per_frame.append((after[1] - before[1]) / (after[0] - before[0]))
            before = after
        page.mouse.up()
        calibration.take(page)
    return per_frame


def measure(
    playwright: Playwright, base_url: str, *, timed: int, turns: int, hold_s: int, log: Log
) -> list[Figure]:
    out = _turns(playwright, base_url, timed, turns, log)
    visualiser = Calibration("visualiser", "the visualiser's page")
    frames = _visualiser(playwright, base_url, hold_s, visualiser)
    log(f"visualiser: {len(frames)} seconds held")
    turns_page = [
        summarise(
            "voice.request.p50", "Voice: final transcript -> request sent p50", out["request"]
        ),
        summarise(
            "voice.request.p95",
            "Voice: final transcript -> request sent p95",
            out["request"],
            q=95,
            target=REQUEST_TARGET,
            note="double's final result (after release) → fetch of the chat request",
        ),
        summarise(
            "voice.speech.p50", "Voice: first streamed sentence -> speech p50", out["speech"]
        ),
        summarise(
            "voice.speech.p95",
            "Voice: first streamed sentence -> speech started p95",
            out["speech"],
            q=95,
            target=SPEECH_TARGET,
            note="lexical:voice-sentence mark → speechSynthesis.speak called",
        ),
        *memory_figures("voice", "Voice", "turn", out),
    ]
    held = summarise(
        "voice.visualiser",
        "Voice: visualiser main-thread cost per frame (median of each second)",
        frames,
        target=FRAME_TARGET,
    )
    calibration: Calibration = out["calibration"]
    return [*calibration.figures(turns_page), *visualiser.figures([held])]


def memory_figures(key: str, name: str, what: str, out: dict[str, Any]) -> list[Figure]:
    """What a run of `what`s (turns, cards) left behind: the heap's slope, the page's own
    growth from the snapshots (the figure with the target), proxies and JS values held."""
    taken = out["checkpoints"]
    heap = [c["heap_kb"] for c in taken]
    proxies = [float(c["pyproxies"]) for c in taken]
    jsrefs = [float(c["jsrefs"]) for c in taken]
    page_bytes, browser_bytes = out["split"]
    span = out["at"][-1] - out["at"][0]
    over = counted(span, what)
    return [
        Figure(
            f"{key}.heap.growth",
            f"{name}: JS heap growth per {what} over {over} (after GC)",
            "KB",
            growth(out["at"], heap),
            heap,
            None,
            "least-squares slope of the heap at each checkpoint; samples are those heaps in KB",
        ),
        Figure(
            f"{key}.heap.page",
            f"{name}: the page's own JS heap growth per {what} over {over}",
            "KB",
            page_bytes / span / 1000,
            [page_bytes / 1000, browser_bytes / 1000],
            HEAP_TARGET_KB,
            "heap snapshots at the first and last checkpoints, less what Chromium keeps itself "
            "(a MediaStream per microphone opening, timeline entries, compiled code: "
            "bench/heap_snapshot.py); samples: the page's and the browser's growth in KB",
        ),
        Figure(
            f"{key}.proxies",
            f"{name}: Pyodide proxies left alive by {over}",
            "count",
            proxies[-1] - proxies[0],
            proxies,
            0.0,
            f"PyProxies created during the {what}s and not destroyed, after gc.collect()",
        ),
        Figure(
            f"{key}.jsrefs",
            f"{name}: JS values held by Python, growth over {over}",
            "count",
            jsrefs[-1] - jsrefs[0],
            jsrefs,
            0.0,
            "Pyodide's hiwire references (JsProxies and other JS values Python holds)",
        ),
    ]
