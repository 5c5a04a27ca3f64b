"""The fit of FSRS's parameters to the learner's reviews (issue 26, decision 037), driven as a
person does it: the collection's study options, "Fit to my reviews", until the comparison of
both parameter sets is drawn. Timed from the click to the table, with the longest main-thread
task meanwhile (the reading and comparing run in chunks, the optimiser in a worker)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Playwright

from bench.browser import profile
from bench.calibration import Calibration
from bench.report import Figure, summarise
from bench.scenarios import LONG_TASK_TARGET, Log, boot
from bench.workload import Workload

FIT_TARGET = 30_000.0  # ms, for 100,000 reviews (issue 26)
RESULT = "table[aria-label='Parameters in use and fitted (lower is better)']"


def measure(
    playwright: Playwright, base_url: str, data_dir: Path, workload: Workload, log: Log
) -> list[Figure]:
    reviews = f"{workload.size.reviews:,}"
    calibration = Calibration("fit", f"the page fitting {reviews} reviews")
    with profile(playwright, base_url) as session:
        page = boot(session, workload, data_dir, "fit.sqlite")
        calibration.take(page)
        page.evaluate("__bench.goHome()")
        page.get_by_role("button", name="Study options…").first.click()
        fit = page.get_by_role("dialog").get_by_role("region", name="Your memory, measured")
        button = fit.get_by_role("button", name="Fit to my reviews")
        button.wait_for()
        since = float(page.evaluate("performance.now()"))
        button.click()
        page.wait_for_selector(RESULT, timeout=300_000)
        took = float(page.evaluate("performance.now()")) - since
        tasks = list(page.evaluate("t => __bench.longTasksSince(t)", since))
        calibration.take(page)
    log(f"fit: {reviews} reviews in {took / 1000:.1f} s, {len(tasks)} long tasks")
    figures = [
        summarise(
            "fit.total",
            f"Fit FSRS to {reviews} reviews, from the click to the comparison",
            [took],
            target=FIT_TARGET,
            note="reading the reviews and comparing both sets in chunks, fsrs-rs in a worker",
        ),
        summarise(
            "fit.longest_task",
            f"Longest main-thread task during the fit of {reviews} reviews",
            tasks or [0.0],
            q=100,
            target=LONG_TASK_TARGET,
            note=f"Long Tasks API (tasks over 50 ms only): {len(tasks)} long tasks",
        ),
    ]
    return calibration.figures(figures)
