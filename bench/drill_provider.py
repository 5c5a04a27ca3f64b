"""Hands-free study through the provider rung, by voice alone (issue 24): how soon a grade is
shown once the learner stops speaking, what the voice detector costs the main thread, one
upload per utterance, what hundreds of utterances leave in memory, and a whole session saved.

The page is set up as e2e/test_drill_provider.py sets it up: Chromium's own recogniser is left
as it is (it refuses the hints, then says `audio-capture`), so the app's ladder falls to the
provider rung, where static/vad.js hears each utterance on the microphone and the app sends it
as a WAV to the loopback pocketsphinx server of e2e/transcriber.py, set up in AI settings as a
user would. The microphone is e2e/scripted_microphone.js (a noise floor the bench speaks
espeak-ng recordings into) and bench/provider_probe.js watches the detector and the screen.

A folder of words whose answers pocketsphinx hears reliably from espeak-ng is studied hands-free.
For each card the learner says "repeat" a few times (each time the drill says the prompt again
and listens again) and then the right answer; at a few places "pause" (memory is counted while
the drill is quiet) and "resume"; once the last grade is written, "stop" (the folder holds one
word more than the cards answered, so a card is always left). Every turn is one utterance:
`utterances` in all, `cards` grades. Once the summary is on screen and saved, the page
is reloaded and the stats page must count every grade as a review.
"""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Playwright, expect

from app.text.counting import counted
from bench import heap_snapshot
from bench.browser import BOOT_TIMEOUT_MS, Heap, profile
from bench.calibration import Calibration
from bench.drill import start_drill, study_folder
from bench.report import Figure, summarise
from bench.voice import VOICE_PROBE, memory, memory_figures
from e2e.lexical_ui import COMPATIBLE, configure_ai, open_assistant, wait_saved
from e2e.scripted_microphone import FLAGS, SCRIPT, Learner, record
from e2e.test_pronounce import SYNTHESIS_DOUBLE
from e2e.test_real_recogniser import set_speech_to_text
from e2e.transcriber import MODEL, Transcriber, running_transcriber

Log = Callable[[str], None]
PROVIDER_PROBE = Path(__file__).with_name("provider_probe.js")
GRADE_TARGET = 150.0  # ms, p95: the detector's end of the utterance → grade shown, less recognising
MAIN_THREAD_TARGET = 3.0  # ms of the detector's main-thread work per 100 ms of audio
FRAME_MS = 32.0  # the detector classifies 512 samples at 16 kHz at a time (static/vad-worker.js)
CHECKS = 10  # memory counted this many times (each a "pause" and a "resume"), at most
WARM_UP_SHARE = 0.1  # of the turns, before memory is first counted: they import and build
# Term -> the answer said. Each answer was heard right by the transcriber every time (five
# times each, with noise at the microphone's floor) among these twenty-one and the drill's
# commands, as were "repeat", "pause", "resume" and "stop"; "car", "door", "bird", "red" and
# others were not, and with "dog" or "horse" among them "stop" and "pause" were heard as those.
# A session of n cards studies a folder of the first n + 1: a card is always left to ask when
# the last grade is written, so "stop" ends every session the same way.
WORDS = {
    "cocina": "kitchen",
    "casa": "house",
    "agua": "water",
    "manzana": "apple",
    "verde": "green",
    "libro": "book",
    "azul": "blue",
    "pez": "fish",
    "árbol": "tree",
    "pan": "bread",
    "leche": "milk",
    "amigo": "friend",
    "mesa": "table",
    "ventana": "window",
    "queso": "cheese",
    "azúcar": "sugar",
    "montaña": "mountain",
    "naranja": "orange",
    "amarillo": "yellow",
    "jardín": "garden",
    "ciudad": "city",
}
COMMANDS = ("repeat", "pause", "resume", "stop")
ANSWER, CHECK, STOP = "answer", "check", "stop"  # the turns that are not a plain command
# The drill waits for the learner (listening, its detector running) in one of these phases.
WAITING = """(phases) => {
  const drill = document.querySelector('.drill');
  return phases.includes(drill?.dataset.phase) && drill.dataset.listening === 'true'
    && window.__mic.detecting > 0;
}"""
SUMMARY = ".drill-finished #drill-said"


def plan(cards: int, utterances: int, checks: int = CHECKS) -> list[str]:
    """The learner's turns in order: for each card some "repeat"s, then ANSWER; at `checks`
    places from a tenth of the way in to just before the last answer, "pause", CHECK (memory
    counted, nothing said) and "resume"; last STOP. `utterances` turns are said in all."""
    content = utterances - 2 * checks - 1
    if cards < 1 or checks < 2 or content < cards:
        raise ValueError(
            f"bench: {utterances} utterances cannot hold {cards} answers, {checks} pauses and stop"
        )
    repeats = content - cards
    turns: list[str] = []
    for card in range(cards):
        turns += ["repeat"] * (repeats * (card + 1) // cards - repeats * card // cards)
        turns.append(ANSWER)
    last = len(turns) - 1
    first = min(max(1, round(len(turns) * WARM_UP_SHARE)), last)
    places = [first + round(k * (last - first) / (checks - 1)) for k in range(checks)]
    out: list[str] = []
    for index, turn in enumerate(turns):
        out += ["pause", CHECK, "resume"] * places.count(index)
        out.append(turn)
    return [*out, STOP]


def grade_latency(end: float, shown: float, recognising_s: float) -> float:
    """Ms from the detector's end of the utterance to the grade shown, less the recogniser's
    own seconds (the transcriber's journal)."""
    return shown - end - recognising_s * 1000


class Session:
    """The learner and what the bench keeps of each turn."""

    def __init__(self, page: Page, transcriber: Transcriber, recordings: dict[str, str]) -> None:
        self.page, self.transcriber = page, transcriber
        self.learner = Learner(page, recordings)
        self.said = 0  # utterances
        self.uploads: list[float] = []  # per utterance, the requests it made
        self.grades: list[dict[str, float]] = []
        self.misheard: list[tuple[str, str]] = []
        self.detector: list[dict[str, float]] = []  # counters after each utterance

    def wait_for(self, *phases: str) -> None:
        self.page.wait_for_function(WAITING, arg=list(phases), timeout=60_000)

    def say(self, word: str) -> None:
        """Say `word` once the drill listens; back once the drill has answered it aloud."""
        page = self.page
        spoken = page.evaluate("window.__spoken.length")
        sent = len(self.transcriber.requests)
        self.learner.say(word)
        page.wait_for_function("n => window.__spoken.length > n", arg=spoken, timeout=60_000)
        self.said += 1
        self.uploads.append(len(self.transcriber.requests) - sent)
        page.evaluate("__benchVoice.take()")  # the probe keeps nothing across turns
        counters = page.evaluate("__benchProvider.counters()")
        if counters is not None:
            self.detector.append(counters)

    def command(self, word: str, phase: str) -> None:
        self.wait_for(phase)
        self.say(word)
        heard = self.transcriber.requests[-1].text
        if heard != word:
            raise SystemExit(f"bench: the transcriber heard {heard!r} for {word!r}")

    def answer(self, word: str) -> None:
        """Say the right answer; time the grade shown."""
        page = self.page
        self.wait_for("answering")
        page.evaluate("__benchProvider.take()")
        page.evaluate("__benchProvider.watchGrade()")
        self.say(word)
        page.wait_for_function("__benchProvider.grade", timeout=60_000)
        grade = page.evaluate("__benchProvider.grade")
        if "error" in grade:
            raise SystemExit(f"{grade['error']} after {word!r}")
        ends = [t for t in page.evaluate("__benchProvider.take()") if t <= grade["shown"]]
        if not ends:
            raise SystemExit(f"bench: no end of utterance before the grade for {word!r}")
        request = self.transcriber.requests[-1]
        if grade["heard"] != word:
            self.misheard.append((word, grade["heard"]))
        self.grades.append(
            {
                "shown": grade_latency(ends[-1], grade["shown"], request.seconds),
                "painted": grade_latency(ends[-1], grade["painted"], request.seconds),
                "recogniser": request.seconds * 1000,
            }
        )


def _open(page: Page, transcriber: Transcriber, words: dict[str, str]) -> None:
    open_assistant(page)
    configure_ai(page, provider=COMPATIBLE, base_url=f"{transcriber.url}/v1", key="", model=MODEL)
    set_speech_to_text(page, MODEL)
    page.get_by_role("button", name="Close assistant").click()
    study_folder(page, words)
    start_drill(page)


def _reviews_after_reload(page: Page) -> int:
    """Reload (the collection comes back from IndexedDB) and count today's reviews on the
    stats page."""
    page.reload()
    page.evaluate("ms => __bench.ready(ms)", BOOT_TIMEOUT_MS)
    page.evaluate("location.hash = '#/stats'")
    summary = page.get_by_role("region", name="Summary")
    today = summary.locator("div").filter(has=page.get_by_text("Reviews today", exact=True))
    expect(today.locator("dd")).to_be_visible(timeout=60_000)
    return int(today.locator("dd").inner_text().replace(",", ""))


def _session(
    playwright: Playwright, base_url: str, cards: int, utterances: int, log: Log
) -> dict[str, Any]:
    if cards >= len(WORDS):
        raise SystemExit(f"bench: at most {len(WORDS) - 1} cards through the provider")
    words = dict(list(WORDS.items())[: cards + 1])
    checks = min(CHECKS, max(2, (utterances - cards - 1) // 2))
    turns = plan(cards, utterances, checks)
    out: dict[str, Any] = {"at": [], "checkpoints": []}
    calibration = out["calibration"] = Calibration("provider", "the page of the provider rung")
    with (
        tempfile.TemporaryDirectory(prefix="lexical-bench-words-") as folder,
        running_transcriber() as transcriber,
        profile(
            playwright,
            base_url,
            scripts=(SCRIPT, SYNTHESIS_DOUBLE, VOICE_PROBE, PROVIDER_PROBE),
            flags=FLAGS,
            also=(transcriber.url,),
        ) as browser,
    ):
        recordings = record([*words.values(), *COMMANDS], Path(folder))
        page = browser.open("/")
        # Before the proxies are traced (at the first pause): its own two are made at its first
        # run, and kept.
        calibration.take(page)
        _open(page, transcriber, words)
        session, heap = Session(page, transcriber, recordings), Heap(page)
        cdp = page.context.new_cdp_session(page)
        first: Any = None
        for turn in turns:
            if turn == ANSWER:
                session.wait_for("answering")
                term = page.locator("#drill-prompt").inner_text()
                if term not in words:
                    raise SystemExit(f"bench: the drill asks {term!r}, not one of the words")
                session.answer(words[term])
            elif turn == CHECK:
                session.wait_for("paused")
                out["checkpoints"].append(memory(page, heap))
                out["at"].append(session.said)
                if first is None:
                    first = heap_snapshot.take(cdp)
                elif len(out["at"]) == checks:
                    out["split"] = heap_snapshot.split_growth(first, heap_snapshot.take(cdp))
                if len(out["at"]) == max(1, checks // 2):  # paused: no utterance under way
                    calibration.take(page)
            else:
                if turn == "pause" and first is None:
                    page.evaluate("__benchVoice.traceProxies()")  # the paused drill's too
                session.command(turn, "paused" if turn == "resume" else "answering")
        expect(page.locator(SUMMARY)).to_contain_text(
            f"You studied {counted(len(session.grades), 'card')}", timeout=30_000
        )
        wait_saved(page)
        calibration.take(page)
        extra = len(transcriber.requests) - sum(session.uploads)
        reviews = _reviews_after_reload(page)
        log(
            f"provider: {session.said} utterances, {len(session.grades)} grades, "
            f"{reviews} reviews after a reload; {out['checkpoints'][0]} → "
            f"{out['checkpoints'][-1]}"
        )
        if session.misheard:
            log(f"provider: misheard (said, heard): {session.misheard}")
    out.update(
        grades=session.grades,
        uploads=session.uploads,
        extra=extra,
        detector=session.detector,
        reviews=reviews,
        cards=cards,
    )
    return out


def per_100ms(counters: list[dict[str, float]], key: str) -> tuple[float, list[float]]:
    """Ms of `key` per 100 ms of audio the detector heard: over the whole run, and for each
    utterance (from one reading of the counters to the next)."""
    if len(counters) < 2:
        raise ValueError("bench: the detector's counters need two readings")
    first, last = counters[0], counters[-1]

    def ratio(ms: float, frames: float) -> float:
        return ms / (frames * FRAME_MS / 100) if frames > 0 else 0.0

    each = [
        ratio(b[key] - a[key], b["frames"] - a["frames"])
        for a, b in itertools.pairwise(counters)
        if b["frames"] > a["frames"]
    ]
    return ratio(last[key] - first[key], last["frames"] - first["frames"]), each


def not_once(uploads: list[float], extra: float) -> float:
    """Utterances that were not sent exactly once, and uploads nobody said."""
    return sum(1 for n in uploads if n != 1) + abs(extra)


def measure(
    playwright: Playwright, base_url: str, *, cards: int, utterances: int, log: Log
) -> list[Figure]:
    out = _session(playwright, base_url, cards, utterances, log)
    grades = out["grades"]
    main_ms, main_each = per_100ms(out["detector"], "mainMs")
    worker_ms, worker_each = per_100ms(out["detector"], "inferenceMs")
    said = len(out["uploads"])
    name = "Hands-free through the provider"
    figures = [
        summarise(
            "provider.grade.p50",
            f"{name}: end of utterance -> grade shown, less the recogniser p50",
            [g["shown"] for g in grades],
        ),
        summarise(
            "provider.grade.p95",
            f"{name}: end of utterance -> grade shown, less the recogniser p95",
            [g["shown"] for g in grades],
            q=95,
            target=GRADE_TARGET,
            note="the detector's decision (speech-end's decidedAt, onSpeechEnd's t) → the drill "
            "shows the words heard and the grade (a MutationObserver), less the transcriber's "
            "own seconds for that upload (its journal)",
        ),
        summarise(
            "provider.grade.painted.p95",
            f"{name}: end of utterance -> grade painted, less the recogniser p95",
            [g["painted"] for g in grades],
            q=95,
        ),
        summarise(
            "provider.recogniser.p50",
            f"{name}: the recogniser's own time (pocketsphinx, loopback) p50",
            [g["recogniser"] for g in grades],
        ),
        Figure(
            "provider.detector.main",
            f"{name}: the voice detector's main-thread time per 100 ms of audio",
            "ms",
            main_ms,
            main_each,
            MAIN_THREAD_TARGET,
            "every call of static/vad.js's worker message handler, with the app's callbacks "
            "inside it, over the audio the detector classified (32 ms frames); samples: each "
            "utterance's",
        ),
        Figure(
            "provider.detector.worker",
            f"{name}: the detector's model time per 100 ms of audio (in its worker)",
            "ms",
            worker_ms,
            worker_each,
            None,
            "the worker's own inferenceMs over the frames it classified, off the main thread",
        ),
        Figure(
            "provider.uploads",
            f"{name}: utterances not uploaded exactly once, of {said}",
            "count",
            not_once(out["uploads"], out["extra"]),
            out["uploads"],
            0.0,
            "transcription requests per utterance said (the transcriber's journal); uploads "
            "after the last utterance count too; samples: requests per utterance",
        ),
        *memory_figures("provider", name, "utterance", out),
        Figure(
            "provider.session",
            f"{name}: {counted(out['cards'], 'card')} by voice alone, grades not saved",
            "count",
            float(out["cards"] - out["reviews"]),
            [float(out["cards"]), float(out["reviews"])],
            0.0,
            "the session completed (its summary counts every card); after a reload the stats "
            "page counts today's reviews; samples: cards, reviews after the reload",
        ),
    ]
    calibration: Calibration = out["calibration"]
    return calibration.figures(figures)
