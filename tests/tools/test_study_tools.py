"""The Architect's study tool: forgetting or rescheduling progress, planned first, one undo."""

from __future__ import annotations

from app.study.model import Rating
from app.study.options import StudyOptions
from app.studying.session import StudySession
from app.tools import TOOLS
from app.tools.workspace import Workspace
from tests.study.test_reschedule import FITTED
from tests.tools.helpers import call, folder, plan, words, workspace


def _studied() -> Workspace:
    ws = workspace()
    medicine = folder(ws, "Medicine")
    cardiology = folder(ws, "Cardiology", medicine)
    words(ws, medicine, "aorta", "vein")
    words(ws, cardiology, "atrium")
    clock = ws.store.now
    session = StudySession.start(ws.store, {"kind": "all"}, "flashcard", clock, lambda: 0)
    while session.turn is not None:
        session.reveal()
        session.grade(Rating.EASY)
    return ws


def test_forgetting_a_folder_plans_then_takes_its_subfolders_and_undoes_in_one_step() -> None:
    ws = _studied()
    before = ws.store.study.db.all("SELECT * FROM card ORDER BY id")
    planned = plan(ws, "CHANGE_STUDY_PROGRESS", kind="folder", name="Medicine", action="forget")
    assert planned is not None
    assert planned.large
    assert planned.deletes == 3
    assert "3 studied cards" in planned.change
    assert '"Medicine"' in planned.change
    outcome = call(ws, "CHANGE_STUDY_PROGRESS", kind="folder", name="Medicine", action="forget")
    assert outcome.data["changed_cards"] == 3
    assert ws.store.study.db.scalar("SELECT count(*) FROM review") == 0
    ws.store.undo()
    assert ws.store.study.db.all("SELECT * FROM card ORDER BY id") == before
    assert ws.store.study.db.scalar("SELECT count(*) FROM review") == 3


def test_due_now_keeps_what_was_learned() -> None:
    ws = _studied()
    outcome = call(ws, "CHANGE_STUDY_PROGRESS", kind="word", name="atrium", action="due_now")
    assert outcome.data["changed_cards"] == 1
    assert outcome.link is not None
    row = ws.store.study.db.first(
        "SELECT due, reps FROM card WHERE word_id = (SELECT id FROM word WHERE term = 'atrium')"
    )
    assert row is not None
    assert row["due"] <= ws.store.now()
    assert row["reps"] == 1
    everything = call(ws, "CHANGE_STUDY_PROGRESS", kind="everything", action="due_now")
    assert everything.data["changed_cards"] == 2  # atrium was due already


def test_the_scholar_cannot_change_progress() -> None:
    assert "CHANGE_STUDY_PROGRESS" not in TOOLS.only("read").names


def test_the_scholar_reads_which_words_are_missed() -> None:
    ws = workspace()
    medicine = folder(ws, "Medicine")
    words(ws, medicine, "aorta", "vein")
    clock = ws.store.now
    session = StudySession.start(ws.store, {"kind": "all"}, "flashcard", clock, lambda: 0)
    for rating in (Rating.AGAIN, Rating.EASY):
        session.reveal()
        session.grade(rating)
    assert "STUDY_STATS" in TOOLS.only("read").names
    outcome = call(ws, "STUDY_STATS", folder="Medicine")
    assert outcome.data["missed_in_recent_sessions"] == [["aorta"]]
    assert outcome.data["scope"] == "Medicine"
    assert outcome.data["cards"]["learning"] + outcome.data["cards"]["review"] == 2
    everything = call(ws, "STUDY_STATS")
    assert everything.data["scope"] == "everything"
    assert everything.data["due_today"] >= 1
    model = everything.data["memory_model"]
    assert model["parameters"] == "FSRS-6 defaults"
    assert (model["reviews_to_fit_from"], model["fit_offered_from"]) == (0, 400)
    assert model["accuracy"] == {"log_loss": 0.0, "rmse": 0.0, "reviews": 0}  # nothing to measure
    ws.store.study.set_options(medicine, StudyOptions(parameters=FITTED))
    model = call(ws, "STUDY_STATS", folder="Medicine").data["memory_model"]
    assert model["parameters"] == "fitted to the learner's reviews"
    assert model["values"] == list(FITTED)
