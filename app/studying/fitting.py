"""The learner's own FSRS parameters (issue 26, decision 037): what a fit is given, how much
better its parameters predict the learner's recall than those in use, and putting them to use.
The fit itself runs in the page (app/browser/fit.py); everything here is pure and testable."""

from __future__ import annotations

from dataclasses import dataclass

from app.domain import FolderId
from app.store import Store
from app.store.transfer.steps import Progress, Steps
from app.study.days import Moment, ReviewLog
from app.study.fast_replay import fast_predictions
from app.study.model import Weights
from app.study.options import StudyOptions
from app.study.training import Accuracy, Tally, TrainingSet
from app.studying.reschedule import rescheduling
from app.studying.workload import Workload, workload

# Work between two steps (the page runs steps for about 20 ms a task: app/browser/slices.py):
# cards whose reviews are read, and reviews predicted with both sets.
READ_CARDS = 200
COMPARED_REVIEWS = 10


@dataclass(frozen=True)
class FitInputs:
    """A folder's review logs (with its subfolders'), as training items, and its options now."""

    logs: list[ReviewLog]
    training: TrainingSet
    options: StudyOptions


@dataclass(frozen=True)
class Comparison:
    """How well the parameters in use and the fitted ones predicted the learner's recall, and
    the reviews a day each would ask at the desired retention."""

    before: Accuracy
    after: Accuracy
    weights: Weights
    workload_before: Workload
    workload_after: Workload


def fit_inputs(store: Store, folder_id: FolderId | None) -> Steps[FitInputs]:
    """The folder's logs and training items, read a batch of cards at a time."""
    logs: list[ReviewLog] = []
    training = TrainingSet()
    for done, total, batch in store.study.history_batches(folder_id, READ_CARDS):
        logs.extend(batch)
        training.add(batch)
        yield Progress("Reading your reviews", done, total)
    return FitInputs(logs, training, store.study.options_for(folder_id)[0])


def compared(inputs: FitInputs, weights: Weights, now: Moment) -> Steps[Comparison]:
    """Both sets' accuracy over the same reviews, a few reviews at a time, then the workload
    each asks from `now`."""
    fitted = inputs.options.model_copy(update={"parameters": weights})
    before, after = Tally(), Tally()
    since = 0
    for done, log in enumerate(inputs.logs, 1):
        before.add(fast_predictions(log, inputs.options))
        after.add(fast_predictions(log, fitted))
        since += len(log)
        if since >= COMPARED_REVIEWS or done == len(inputs.logs):
            since = 0
            yield Progress("Comparing with your reviews", done, len(inputs.logs))
    workloads = []
    for options in (inputs.options, fitted):
        workloads.append((yield from workload(inputs.logs, options, now)))
    return Comparison(before.accuracy(), after.accuracy(), weights, *workloads)


def using_parameters(
    store: Store, folder_id: FolderId | None, weights: Weights | None
) -> Steps[int]:
    """Give the folder (None: the collection) these parameters (None: FSRS-6's defaults) as
    one undo step, keeping its other options; what is returned then reschedules its cards
    from their logs a chunk at a time, and ends with how many changed. Raises ValueError,
    and changes nothing, for parameters out of range."""
    current, _ = store.study.options_for(folder_id)
    chosen = StudyOptions.model_validate({**current.model_dump(), "parameters": weights})
    store.study.set_options(folder_id, chosen)
    return rescheduling(store, folder_id)
