"""The fit's inputs and its comparison (app/studying/fitting.py), read and computed a chunk at
a time so the page can answer in between: the same as computed at once."""

from __future__ import annotations

import pytest

from app.store.transfer.steps import run_steps
from app.study.options import DEFAULT_OPTIONS
from app.study.scheduler import predictions
from app.study.training import accuracy, training_set
from app.studying import fitting
from app.studying.fitting import compared, fit_inputs
from app.studying.workload import workload
from tests.study.helpers import Clock
from tests.study.test_reschedule import FITTED, _studied
from tests.study.test_workload import NOW


def test_the_inputs_read_in_batches_are_the_folders_logs_and_training_items() -> None:
    store, folder = _studied(Clock())
    logs = store.study.histories(folder)
    steps = list(store.study.history_batches(folder, 3))
    assert [len(batch) for *_, batch in steps][:-1] == [3] * (len(steps) - 1)
    assert [log for *_, batch in steps for log in batch] == logs
    inputs = run_steps(fit_inputs(store, folder))
    assert inputs.logs == logs
    assert inputs.training == training_set(logs)
    assert inputs.options == DEFAULT_OPTIONS


def test_the_comparison_in_chunks_is_the_accuracy_of_every_prediction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store, folder = _studied(Clock())
    inputs = run_steps(fit_inputs(store, folder))
    monkeypatch.setattr(fitting, "COMPARED_REVIEWS", 5)
    steps = compared(inputs, FITTED, NOW)
    stages: dict[str, list[int]] = {}
    while True:
        try:
            step = next(steps)
        except StopIteration as stop:
            comparison = stop.value
            break
        stages.setdefault(step.stage, []).append(step.done)
    done = stages.pop("Comparing with your reviews")
    reviews = sum(len(log) for log in inputs.logs)
    assert len(done) >= reviews // 5 // 2
    assert done[-1] == len(inputs.logs)
    assert done == sorted(done)
    # Then a year of each set's reviews, a card at a time.
    assert stages == {"Simulating a year of reviews": [*range(1, len(inputs.logs) + 1)] * 2}
    fitted = DEFAULT_OPTIONS.model_copy(update={"parameters": FITTED})
    assert comparison.before == accuracy(
        p for log in inputs.logs for p in predictions(log, DEFAULT_OPTIONS)
    )
    assert comparison.after == accuracy(p for log in inputs.logs for p in predictions(log, fitted))
    assert comparison.weights == FITTED
    assert comparison.workload_before == run_steps(workload(inputs.logs, DEFAULT_OPTIONS, NOW))
    assert comparison.workload_after == run_steps(workload(inputs.logs, fitted, NOW))
