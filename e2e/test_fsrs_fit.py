"""Fitting FSRS's parameters in the page (issue 26): static/fsrs-fit.js runs fsrs-browser
(fsrs-rs compiled to WebAssembly) in a worker, on the training set app/study/training.py
builds from a learner's log. The real optimiser in real Chromium, against fsrs-rs-python,
the same Rust code built for CPython."""

from __future__ import annotations

import re
import time
from pathlib import Path

import fsrs_rs_python
import pytest
from playwright.sync_api import Page, expect

from app.study.training import training_set
from e2e.conftest import screenshot
from e2e.lexical_ui import dialog, toast, tree_link, wait_saved
from tests.anki_decks import studied_deck
from tests.study.simulated import rs_items, simulated_logs

FIT = """async ({ratings, deltaTs, lengths, cancel}) => {
  const module = await import("./static/fsrs-fit.js");
  const args = [ratings, deltaTs, lengths].map((values) => Uint32Array.from(values));
  const controller = new AbortController();
  const started = performance.now();
  const fitting = module.fit(...args, controller.signal);
  if (cancel) controller.abort();
  try {
    return {parameters: await fitting, ms: performance.now() - started};
  } catch (error) {
    return {error: `${error.name}: ${error.message}`};
  }
}"""


def test_the_page_fits_the_parameters_fsrs_rs_gives(app: Page) -> None:
    training = training_set(simulated_logs(1500))
    started = time.perf_counter()
    expected = fsrs_rs_python.FSRS(fsrs_rs_python.DEFAULT_PARAMETERS).compute_parameters(
        rs_items(training)
    )
    native_s = time.perf_counter() - started
    args = {
        "ratings": training.ratings,
        "deltaTs": training.delta_ts,
        "lengths": training.lengths,
        "cancel": False,
    }
    # The main thread keeps answering while the worker trains.
    app.evaluate("window.__ticks = 0; setInterval(() => window.__ticks++, 10)")
    result = app.evaluate(FIT, args)
    assert "error" not in result, result
    assert result["parameters"] == pytest.approx(list(expected), abs=1e-4)
    assert app.evaluate("window.__ticks") > result["ms"] / 100, (result["ms"], native_s)


def test_a_fit_can_be_cancelled(app: Page) -> None:
    training = training_set(simulated_logs(100))
    args = {
        "ratings": training.ratings,
        "deltaTs": training.delta_ts,
        "lengths": training.lengths,
        "cancel": True,
    }
    assert app.evaluate(FIT, args) == {"error": "AbortError: The fit was cancelled."}


def test_fit_my_reviews_then_use_the_parameters_and_take_them_back(
    app: Page, tmp_path: Path
) -> None:
    app.get_by_role("banner").get_by_role("button", name="Import / Export").click()
    box = dialog(app)
    box.get_by_label("Choose a file to import").set_input_files(str(studied_deck(tmp_path)))
    box.get_by_role("form", name="Import preview").get_by_role("button", name="Import").click()
    expect(box).to_be_hidden()
    tree_link(app, "Simulated").click()
    app.get_by_role("button", name="Study options…").click()
    box = dialog(app)
    fit = box.get_by_role("region", name="Your memory, measured")
    expect(fit).to_contain_text("Scheduling with FSRS-6's default parameters")
    fit.get_by_role("button", name="Fit to my reviews").click()
    result = fit.get_by_role("table", name="Parameters in use and fitted (lower is better)")
    expect(result).to_be_visible(timeout=60_000)
    expect(fit).to_contain_text("predict what you remembered")
    workload = fit.get_by_role("table", name="Reviews a day at 90% retention")
    expect(workload).to_contain_text(re.compile(r"Reviews a day\s*[0-9.,]+\s*[0-9.,]+"))
    expect(fit).to_contain_text("for your 120 studied cards")
    fit.get_by_role("button", name="Use these parameters").scroll_into_view_if_needed()
    screenshot(app, "study-fit-result")
    fit.get_by_role("button", name="Use these parameters").click()
    expect(box).to_be_hidden()
    expect(toast(app)).to_contain_text(
        re.compile(r"Now scheduling with your own parameters, [0-9,]+ cards rescheduled\.")
    )
    wait_saved(app)
    app.get_by_role("button", name="Study options…").click()
    fit = dialog(app).get_by_role("region", name="Your memory, measured")
    expect(fit).to_contain_text("Scheduling with parameters fitted to your own reviews.")
    dialog(app).get_by_role("button", name="Cancel").click()
    # Undo takes them back: the cards are rescheduled with the defaults again.
    app.get_by_role("banner").get_by_role("button", name=re.compile("^Undo")).click()
    expect(toast(app)).to_contain_text("Undid: Study options")
    app.get_by_role("button", name="Study options…").click()
    expect(dialog(app).get_by_role("region", name="Your memory, measured")).to_contain_text(
        "Scheduling with FSRS-6's default parameters"
    )
