"""The fit's result in the study options (app/ui/study_dialogs.py): both sets' accuracy, the
reviews a day each asks at the desired retention, and the fitted parameters to put to use."""

from __future__ import annotations

from app.domain import FolderId
from app.study.training import Accuracy
from app.studying.fitting import Comparison
from app.studying.workload import Workload
from app.text.nodes import El, find_all, text_content
from app.ui.study_dialogs import fit_result_view
from tests.study.test_reschedule import FITTED


def _rows(view: El, label: str) -> list[str]:
    (table,) = find_all(view, lambda el: el.tag == "table" and el.attrs["aria-label"] == label)
    return [text_content(row) for row in find_all(table, lambda el: el.tag == "tr")]


def test_the_result_shows_accuracy_workload_and_carries_the_parameters() -> None:
    comparison = Comparison(
        before=Accuracy(0.4012, 0.0521, 3_000),
        after=Accuracy(0.3911, 0.0312, 3_000),
        weights=FITTED,
        workload_before=Workload(41.26, 1_200, 0.9),
        workload_after=Workload(7.04, 1_200, 0.9),
    )
    view = fit_result_view(FolderId(3), comparison)
    assert _rows(view, "Parameters in use and fitted (lower is better)") == [
        "In useFitted",
        "Log loss0.40120.3911",
        "RMSE5.21%3.12%",
    ]
    assert _rows(view, "Reviews a day at 90% retention") == [
        "In useFitted",
        "Reviews a day417.0",
    ]
    assert "for your 1,200 studied cards" in text_content(view)
    assert "better than those in use" in text_content(view)
    (hidden,) = find_all(view, lambda el: el.attrs.get("name") == "parameters")
    assert tuple(float(w) for w in hidden.attrs["value"].split(",")) == FITTED
