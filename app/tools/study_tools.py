"""Study tools: the Scholar reads how studying goes (which words keep being missed, retention,
what is due); the Architect resets or reschedules the progress of a folder, a word or
everything (destructive: the user confirms, and one Undo takes it back)."""

from __future__ import annotations

from importlib.util import find_spec
from typing import Any, Literal

from pydantic import Field

from app.domain import Folder, FolderId, Word
from app.store.study_queries import Scope
from app.study.training import MINIMUM_ITEMS, accuracy
from app.text.counting import counted
from app.tools import resolve
from app.tools.registry import Outcome, Params, Plan, Tool
from app.tools.views import folder_link, word_link
from app.tools.workspace import Workspace


class StudyTarget(Params):
    kind: Literal["folder", "word", "everything"] = Field(
        description="Whose progress: a folder (with subfolders), a word, or everything."
    )
    name: str = Field(
        "",
        description="The folder's path or name, or the word's term; empty for everything.",
    )
    folder: str = Field("", description="For a word: its folder, when the term is in several.")


class ChangeProgress(StudyTarget):
    action: Literal["forget", "due_now"] = Field(
        description="forget: cards become new, history removed; due_now: asked again today, "
        "progress kept."
    )


def _target(ws: Workspace, p: StudyTarget) -> tuple[Scope, str, Folder | Word | None]:
    """The scope of the call, a phrase for it and the item it names."""
    if p.kind == "everything":
        return Scope(), "everything", None
    if p.kind == "word":
        word = resolve.word(ws, p.name, p.folder)
        where = resolve.folder_path(ws, word.folder_id)
        return Scope(words=(word.id,)), f'the word "{word.term}" in {where}', word
    folder = resolve.folder(ws, p.name)
    subtree = tuple(ws.store.study.subtree(folder.id))
    return Scope(folders=subtree), f'the folder "{resolve.folder_path(ws, folder.id)}"', folder


def plan_change_progress(ws: Workspace, p: ChangeProgress) -> Plan:
    scope, phrase, _ = _target(ws, p)
    cards = counted(ws.store.study.cards_in(scope), "studied card")
    if p.action == "forget":
        change = f"Forget the study progress of {phrase}: {cards} become new, history removed"
        return Plan(change=change, deletes=ws.store.study.cards_in(scope), large=True)
    return Plan(change=f"Make {cards} of {phrase} due now", large=True)


def change_progress(ws: Workspace, p: ChangeProgress) -> Outcome:
    scope, phrase, item = _target(ws, p)
    if p.action == "forget":
        done = ws.store.study.forget(scope, f"Forget progress of {phrase}")
        step = f"Forgot the progress of {phrase} ({counted(done, 'card')} new again)"
    else:
        done = ws.store.study.due_now(scope, f"Make {phrase} due now")
        step = f"Made {counted(done, 'card')} of {phrase} due now"
    link = None
    if isinstance(item, Folder):
        link = folder_link(item)
    elif isinstance(item, Word):
        link = word_link(item)
    return Outcome(step=step, data={"changed_cards": done, "action": p.action}, link=link)


class StudyStats(Params):
    folder: str = Field("", description="Whose statistics; empty for everything.")


RECENT_SESSIONS = 3
# Predicting every review takes about 25 us each under CPython and several times that in the
# page, inside the turn; a larger history is measured by the Study options' fit instead.
MEASURED_IN_A_TOOL = 20_000


def study_stats(ws: Workspace, p: StudyStats) -> Outcome:
    # Imported here: the agents load at startup's end, the stats queries only when asked.
    from app.studying.stats import collect_stats  # noqa: PLC0415

    found = resolve.folder(ws, p.folder) if p.folder.strip() else None
    stats = collect_stats(
        ws.store, found.id if found else None, ws.store.now(), ws.utc_offset_minutes
    )
    where = resolve.folder_path(ws, found.id) if found else "everything"
    retention = stats.overall_retention
    misses = ws.store.study.recent_misses(RECENT_SESSIONS)
    data = {
        "scope": where,
        "due_today": stats.forecast[0].due if stats.forecast else 0,
        "reviews_last_30_days": stats.total_reviews,
        "retention_last_30_days": None if retention is None else round(retention, 3),
        "cards": {
            "new": stats.states.new,
            "learning": stats.states.learning,
            "review": stats.states.review,
            "relearning": stats.states.relearning,
        },
        "streak_days": stats.streak.current,
        "most_missed": [
            {
                "term": h.term,
                "folder": h.folder_name,
                "direction": h.direction,
                "lapses": h.lapses,
                "again": h.again,
            }
            for h in stats.hardest
        ],
        "missed_in_recent_sessions": [terms for _, terms in misses],
        "folders_retention": [
            {
                "folder": r.name,
                "retention": round(r.retention, 3),
                "desired": r.desired,
                "reviews": r.reviews,
            }
            for r in stats.retention
        ],
        "memory_model": _memory_model(ws, found.id if found else None),
    }
    return Outcome(
        step=f"Read the study statistics of {where}",
        data=data,
        link=folder_link(found) if found else None,
    )


def _memory_model(ws: Workspace, folder_id: FolderId | None) -> dict[str, Any]:
    """Which FSRS parameters schedule the scope's cards, and how well they predicted the
    learner's recall (decision 037), measured when the scheduler is loaded (the page loads it
    with studying; a tool cannot wait for it) and the history is not too long to measure."""
    options = ws.store.study.options_for(folder_id)[0]
    fitted = options.parameters is not None
    items = ws.store.study.training_items(folder_id)
    model: dict[str, Any] = {
        "parameters": "fitted to the learner's reviews" if fitted else "FSRS-6 defaults",
        "values": list(options.parameters) if options.parameters is not None else None,
        "reviews_to_fit_from": items,
        "fit_offered_from": MINIMUM_ITEMS,
        "how_to_fit": "Study options… of the folder, then Fit to my reviews",
    }
    if find_spec("fsrs") is not None and items <= MEASURED_IN_A_TOOL:
        from app.study.scheduler import predictions  # noqa: PLC0415 (loaded with studying)

        logs = ws.store.study.histories(folder_id)
        found = accuracy(p for log in logs for p in predictions(log, options))
        model["accuracy"] = {
            "log_loss": round(found.log_loss, 4),
            "rmse": round(found.rmse, 4),
            "reviews": found.reviews,
        }
    return model


STUDY_TOOLS = (
    Tool(
        "STUDY_STATS",
        "How studying goes: most forgotten words, words missed in recent sessions, retention "
        "per folder, what is due today, cards by state, the streak, and the memory model: "
        "which FSRS parameters are in use and how well they predict the learner's recall.",
        StudyStats,
        "read",
        study_stats,
    ),
    Tool(
        "CHANGE_STUDY_PROGRESS",
        "Reset or make due now the study progress of a folder, a word or everything; only "
        "when the user asks.",
        ChangeProgress,
        "destructive",
        change_progress,
        plan_change_progress,
    ),
)
