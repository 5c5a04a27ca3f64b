"""What FSRS's parameters are fitted to (app/study/training.py): the learner's log as fsrs-rs
takes it, checked against fsrs-rs itself (PyPI fsrs-rs-python, the Rust FSRS Anki uses)."""

from __future__ import annotations

import fsrs_rs_python
import pytest

from app.study.days import Moment
from app.study.model import DAY_MS, Rating
from app.study.options import DEFAULT_OPTIONS, StudyOptions
from app.study.scheduler import predictions
from app.study.training import MINIMUM_ITEMS, accuracy, training_set
from tests.study.simulated import rs_items, simulated_logs


def test_a_log_gives_one_item_per_review_after_the_first_in_study_days() -> None:
    at = lambda day, hour: Moment.logged(day * DAY_MS + hour * 3_600_000, day)  # noqa: E731
    log = [
        (Rating.GOOD, at(10, 23)),
        (Rating.AGAIN, at(11, 5)),
        (Rating.GOOD, at(11, 6)),
        (Rating.EASY, at(15, 1)),
    ]
    found = training_set([log, log[:1]])
    assert found.lengths == [2, 3, 4]  # a card reviewed once gives nothing to learn from
    assert found.ratings == [3, 1, 3, 1, 3, 3, 1, 3, 4]
    assert found.delta_ts == [0, 1, 0, 1, 0, 0, 1, 0, 4]


def test_an_item_of_one_study_day_is_left_out_as_fsrs_rs_refuses_it() -> None:
    at = lambda day, hour: Moment.logged(day * DAY_MS + hour * 3_600_000, day)  # noqa: E731
    log = [(Rating.GOOD, at(10, 5)), (Rating.GOOD, at(10, 9)), (Rating.GOOD, at(12, 9))]
    found = training_set([log])
    assert found.lengths == [3]
    fsrs_rs_python.FSRS(fsrs_rs_python.DEFAULT_PARAMETERS).compute_parameters(rs_items(found))


def test_below_the_minimum_fsrs_rs_keeps_its_defaults() -> None:
    # Why the fit is offered from MINIMUM_ITEMS: fewer, and fsrs-rs changes nothing or little.
    logs = simulated_logs(400)
    few = [log for log in logs if len(log) > 1]
    small = rs_items(training_set(few))[:200]
    fitted = fsrs_rs_python.FSRS(fsrs_rs_python.DEFAULT_PARAMETERS).compute_parameters(small)
    assert list(fitted) == pytest.approx(list(fsrs_rs_python.DEFAULT_PARAMETERS), abs=1e-6)
    enough = rs_items(training_set(few))[:MINIMUM_ITEMS]
    fitted = fsrs_rs_python.FSRS(fsrs_rs_python.DEFAULT_PARAMETERS).compute_parameters(enough)
    changed = sum(
        abs(a - b) > 1e-6 for a, b in zip(fitted, fsrs_rs_python.DEFAULT_PARAMETERS, strict=True)
    )
    assert changed > 10


def test_the_accuracy_of_the_default_and_fitted_parameters_is_what_fsrs_rs_measures() -> None:
    logs = simulated_logs(1500)
    items = rs_items(training_set(logs))
    rs = fsrs_rs_python.FSRS(fsrs_rs_python.DEFAULT_PARAMETERS)
    fitted = tuple(round(v, 6) for v in rs.compute_parameters(items))
    for options, model in [
        (DEFAULT_OPTIONS, rs),
        (StudyOptions(parameters=fitted), fsrs_rs_python.FSRS(list(fitted))),
    ]:
        ours = accuracy(p for log in logs for p in predictions(log, options))
        theirs = model.evaluate(items)
        assert ours.log_loss == pytest.approx(theirs.log_loss, rel=0.02)
    # The fit is better on the log it was fitted to.
    before = accuracy(p for log in logs for p in predictions(log, DEFAULT_OPTIONS))
    after = accuracy(p for log in logs for p in predictions(log, StudyOptions(parameters=fitted)))
    assert after.log_loss < before.log_loss
