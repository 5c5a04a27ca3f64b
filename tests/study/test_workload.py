"""The reviews a day a parameter set asks at the desired retention (app/study/workload.py): the
same figure on every run, fewer reviews for a lower retention, a sample standing for the rest,
and nothing asked of cards without reviews."""

from __future__ import annotations

import pytest

from app.store.transfer.steps import run_steps
from app.study.days import Moment
from app.study.model import DAY_MS
from app.study.options import StudyOptions
from app.studying import workload as workload_module
from app.studying.workload import HORIZON_DAYS, sample, workload
from tests.study.simulated import START_DAY, simulated_logs

NOW = Moment.logged((START_DAY + 200) * DAY_MS + 3_600_000, START_DAY + 200)


def test_the_figure_is_the_same_on_every_run_and_falls_with_the_retention() -> None:
    logs = simulated_logs(80)
    high = run_steps(workload(logs, StudyOptions(retention=0.95), NOW))
    assert run_steps(workload(logs, StudyOptions(retention=0.95), NOW)) == high
    low = run_steps(workload(logs, StudyOptions(retention=0.8), NOW))
    assert high.cards == low.cards == 80
    assert (high.retention, low.retention) == (0.95, 0.8)
    assert 0 < low.per_day < high.per_day
    # Every card is due at least once in a year at 95 % (the simulated ones are months old),
    # and none a hundred times a day.
    assert 80 / HORIZON_DAYS <= high.per_day < 80 * 100


def test_a_sample_stands_for_the_cards_it_leaves_out(monkeypatch: pytest.MonkeyPatch) -> None:
    logs = simulated_logs(200)
    monkeypatch.setattr(workload_module, "SAMPLE", 50)
    chosen = sample(logs)
    assert chosen == logs[::4]
    sampled = run_steps(workload(logs, StudyOptions(), NOW))
    assert sampled.cards == 200
    # Each card draws alike wherever it is: the sample's reviews, four times over.
    alone = run_steps(workload(chosen, StudyOptions(), NOW))
    assert sampled.per_day == pytest.approx(alone.per_day * 4)


def test_no_reviewed_cards_ask_for_no_reviews() -> None:
    assert run_steps(workload([], StudyOptions(), NOW)).per_day == 0
    assert run_steps(workload([[]], StudyOptions(), NOW)).per_day == 0
