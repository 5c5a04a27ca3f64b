"""FSRS's parameters fitted to the learner's own reviews, in the page: the training set
(app/study/training.py) handed to static/fsrs-fit.js, which runs fsrs-rs in a worker
(decision 037)."""

from __future__ import annotations

from array import array
from typing import Any

from pyodide.ffi import to_js

from app.browser.scripts import import_script
from app.study.model import Weights
from app.study.training import TrainingSet

MODULE = "./static/fsrs-fit.js"
DIGITS = 6  # fsrs-rs computes in 32-bit floats: further digits are its rounding, not the fit


async def fit(training: TrainingSet, signal: Any = None) -> Weights:
    """The 21 parameters fsrs-rs fits to `training`; `signal` (an AbortSignal) cancels.
    Raises JsException when the optimiser fails or is cancelled."""
    module = await import_script(MODULE)
    fitted = await module.fit(
        _u32(training.ratings), _u32(training.delta_ts), _u32(training.lengths), signal
    )
    return tuple(round(float(value), DIGITS) for value in fitted)


def _u32(values: list[int]) -> Any:
    # A copy out of WebAssembly's memory, since the worker takes the buffer over.
    return to_js(array("I", values)).slice()
