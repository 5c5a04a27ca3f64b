"""Fitting FSRS's parameters in the page (issue 26): static/fsrs-fit.js runs fsrs-browser
(fsrs-rs compiled to WebAssembly) in a worker, on the training set app/study/training.py
builds from a learner's log. The real optimiser in real Chromium, against fsrs-rs-python,
the same Rust code built for CPython."""

from __future__ import annotations

import time

import fsrs_rs_python
import pytest
from playwright.sync_api import Page

from app.study.training import training_set
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
