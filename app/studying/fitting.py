"""The learner's own FSRS parameters (issue 26, decision 037): what a fit is given, how much
better its parameters predict the learner's recall than those in use, and putting them to use.
The fit itself runs in the page (app/browser/fit.py); everything here is pure and testable."""

from __future__ import annotations

from dataclasses import dataclass

from app.domain import FolderId
from app.store import Store
from app.store.transfer.steps import Progress, Steps
from app.study.days import ReviewLog
from app.study.model import Weights
from app.study.options import StudyOptions
from app.study.scheduler import predictions
from app.study.training import Accuracy, TrainingSet, accuracy, training_set
from app.studying.reschedule import reschedule

CHUNK = 500  # cards whose predictions are computed between two repaints


@dataclass(frozen=True)
class FitInputs:
    """A folder's review logs (with its subfolders'), as training items, and its options now."""

    logs: list[ReviewLog]
    training: TrainingSet
    options: StudyOptions


@dataclass(frozen=True)
class Comparison:
    """How well the parameters in use and the fitted ones predicted the learner's recall."""

    before: Accuracy
    after: Accuracy
    weights: Weights


def fit_inputs(store: Store, folder_id: FolderId | None) -> FitInputs:
    logs = store.study.histories(folder_id)
    return FitInputs(logs, training_set(logs), store.study.options_for(folder_id)[0])


def compared(inputs: FitInputs, weights: Weights) -> Steps[Comparison]:
    """Both sets' accuracy over the same reviews, in chunks of cards."""
    fitted = inputs.options.model_copy(update={"parameters": weights})
    found: dict[str, list[tuple[float, bool]]] = {"before": [], "after": []}
    for start in range(0, len(inputs.logs), CHUNK):
        for log in inputs.logs[start : start + CHUNK]:
            found["before"].extend(predictions(log, inputs.options))
            found["after"].extend(predictions(log, fitted))
        done = min(start + CHUNK, len(inputs.logs))
        yield Progress("Comparing with your reviews", done, len(inputs.logs))
    return Comparison(accuracy(found["before"]), accuracy(found["after"]), weights)


def use_parameters(store: Store, folder_id: FolderId | None, weights: Weights | None) -> int:
    """Give the folder (None: the collection) these parameters (None: FSRS-6's defaults) as
    one undo step, keeping its other options, and reschedule its cards from their logs;
    returns how many cards changed."""
    current, _ = store.study.options_for(folder_id)
    chosen = StudyOptions.model_validate({**current.model_dump(), "parameters": weights})
    store.study.set_options(folder_id, chosen)
    return reschedule(store, folder_id)
