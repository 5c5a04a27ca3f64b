"""The hands-free drill's figures: how soon a right answer is told "Right.", timed inside the
page, and what a whole session of cards leaves behind in memory.

The page runs with the e2e suite's recogniser and speech synthesis doubles and
bench/voice_probe.js, and no provider: grading is local and nothing leaves the machine (the
profile fails the run if anything does). A folder of words is bulk-added and given enough new
words a day for all of them, then studied hands-free after one click on Start (and the safety
notice's). From then on the bench only talks: for each card, once the drill listens, the double
delivers the right answer as a final result; once the drill listens again after "Right.",
"next" moves on. At a few cards the bench says "pause" instead and, with the drill quiet, counts
the JS heap and the proxies, then says "resume".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, Playwright, expect

from bench import heap_snapshot
from bench.browser import Heap, profile
from bench.calibration import Calibration
from bench.report import Figure, summarise
from bench.voice import DOUBLES, VOICE_PROBE, first_after, memory, memory_figures
from e2e.lexical_ui import bulk_add, create_folder, dialog

Log = Callable[[str], None]
FEEDBACK_TARGET = 300.0  # ms, final result → speechSynthesis.speak of the feedback, p95
WARM_UP_CARDS = 3  # not timed, and before the first checkpoint: the first cards import and build
CHECKPOINTS = 10  # memory measured this many times after the first, over the cards
RIGHT = "Right."  # app/drill/lines.py: what a right answer is told first

# The drill's next move, once it listens again (a new recognition session since `started`):
# its phase and that session's number; or "finished" once the summary is on screen.
LISTENING = """([started]) => {
  if (document.querySelector('.drill-finished')) return ['finished', started];
  const speech = window.__speech, phase = document.querySelector('.drill')?.dataset.phase;
  return speech.listening && speech.started > started && phase ? [phase, speech.started] : false;
}"""


def vocabulary(count: int) -> dict[str, str]:
    """`count` words, term to meaning; every meaning is a different answer and none is a
    command."""
    return {f"palabra {i}": f"word {i}" for i in range(1, count + 1)}


def bulk_lines(words: dict[str, str]) -> str:
    """The words as the Bulk paste dialog takes them."""
    return "\n".join(f"{term} - {meaning}" for term, meaning in words.items())


def checkpoints(first: int, last: int, count: int) -> list[int]:
    """Up to `count` + 1 card positions spread evenly from `first` to `last`, both included:
    where memory is measured."""
    if last <= first:
        raise ValueError("bench: checkpoints need at least two cards")
    return sorted({first + round(k * (last - first) / count) for k in range(count + 1)})


class Learner:
    """Talks to the drill through the recogniser double, as someone answering aloud would."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.started = 0  # recognition sessions the page had started when last heard

    def next_move(self) -> str:
        """Wait until the drill listens again (or has finished); its phase."""
        answer = self.page.wait_for_function(LISTENING, arg=[self.started]).json_value()
        phase, self.started = answer
        return str(phase)

    def say(self, text: str) -> None:
        self.page.evaluate("text => __speech.say(text)", text)

    def answer(self, text: str) -> float:
        """Say the right answer; the ms from the final result to the page starting to say
        "Right."."""
        page = self.page
        before = page.evaluate("__spoken.length")
        page.evaluate("text => __benchVoice.say(text)", text)
        page.wait_for_function("n => __spoken.length > n", arg=before)
        said = page.evaluate("n => __spoken[n].text", before)
        if said != RIGHT:
            raise SystemExit(f"bench: the drill said {said!r} to the right answer {text!r}")
        times = page.evaluate("__benchVoice.take()")
        if times["requests"]:
            raise SystemExit("bench: the drill asked a model during a card; grading is local")
        final = times["finals"][0]
        return first_after(times["spoken"], final, "speech after the final result") - final


def study_folder(page: Page, words: dict[str, str]) -> None:
    """A folder of `words`, all of them new words for today, open."""
    create_folder(page, "Drill")
    bulk_add(page, bulk_lines(words), len(words))
    page.get_by_role("button", name="Study options…").click()
    box = dialog(page)
    box.get_by_label("New words per day").fill(str(len(words)))
    box.get_by_role("button", name="Save options").click()
    expect(box).to_be_hidden()


def start_drill(page: Page) -> None:
    page.get_by_role("button", name="Hands-free").click()
    page.get_by_role("button", name="Start").click()
    dialog(page).get_by_role("button", name="Start").click()


def _session(playwright: Playwright, base_url: str, cards: int, log: Log) -> dict[str, Any]:
    out: dict[str, Any] = {"feedback": [], "at": [], "checkpoints": []}
    words = vocabulary(cards)
    at = checkpoints(WARM_UP_CARDS, cards - 1, CHECKPOINTS)
    middle = max(1, len(at) // 2)  # the checkpoint the middle calibration follows: a quiet drill
    calibration = out["calibration"] = Calibration("drill", "the hands-free page")
    with profile(playwright, base_url, scripts=(*DOUBLES, VOICE_PROBE)) as session:
        page = session.open("/")
        study_folder(page, words)
        calibration.take(page)
        start_drill(page)
        learner, heap = Learner(page), Heap(page)
        cdp = page.context.new_cdp_session(page)
        answered, first = 0, None
        while (phase := learner.next_move()) != "finished":
            if phase == "answering" and at and answered == at[0]:
                if first is None:
                    # Before "pause": the paused drill's recogniser is counted every time.
                    page.evaluate("__benchVoice.traceProxies()")
                learner.say("pause")  # memory is counted with the drill quiet: no clock runs
            elif phase == "answering":
                term = page.locator("#drill-prompt").inner_text()
                latency = learner.answer(words[term])
                if answered >= WARM_UP_CARDS:
                    out["feedback"].append(latency)
                answered += 1
            elif phase == "feedback":
                learner.say("next")
            elif phase == "paused":
                out["checkpoints"].append(memory(page, heap))
                out["at"].append(at.pop(0))
                if first is None:
                    first = heap_snapshot.take(cdp)
                elif not at:
                    out["split"] = heap_snapshot.split_growth(first, heap_snapshot.take(cdp))
                if len(out["at"]) == middle:
                    calibration.take(page)
                learner.say("resume")
            else:
                raise SystemExit(f"bench: the drill waits in {phase!r} after a right answer")
        calibration.take(page)
        log(f"drill: {answered} cards, {out['checkpoints'][0]} → {out['checkpoints'][-1]}")
    return out


def measure(playwright: Playwright, base_url: str, *, cards: int, log: Log) -> list[Figure]:
    out = _session(playwright, base_url, cards, log)
    figures = [
        summarise(
            "drill.feedback.p50",
            "Hands-free: final transcript -> spoken feedback p50",
            out["feedback"],
        ),
        summarise(
            "drill.feedback.p95",
            "Hands-free: final transcript -> spoken feedback started p95",
            out["feedback"],
            q=95,
            target=FEEDBACK_TARGET,
            note="double's final result (the right answer) → speechSynthesis.speak of 'Right.'",
        ),
        *memory_figures("drill", "Hands-free", "card", out),
    ]
    calibration: Calibration = out["calibration"]
    return calibration.figures(figures)
