"""Writing an import: plan again inside the transaction, then write it with set-based SQL
(app.store.staging), one statement per table, so 100,000 words take seconds, not minutes. The
caller runs this as one recorded step, so the whole import is one Undo, study progress included.
"""

from __future__ import annotations

from app.ids import uuid7
from app.store.db import Database
from app.store.schedules import mark_stale
from app.store.staging import STAGE, insert_rows, stage_values, update_rows
from app.store.transfer import Mode
from app.store.transfer.model import REVIEW_FIELDS
from app.store.transfer.parsed import ParsedImport
from app.store.transfer.plan import Plan, PlanSummary, Row, plan_import
from app.store.transfer.read import existing
from app.store.transfer.steps import run_steps
from app.store.transfer.study_rows import CARD_INSERT, REVIEW_INSERT
from app.store.words import meanings_json
from app.study.days import Moment


def apply_import(
    db: Database, now: Moment, parsed: ParsedImport, mode: Mode
) -> tuple[PlanSummary, str]:
    """Apply `parsed` with `mode`; returns what was done and the Undo label."""
    plan = run_steps(plan_import(parsed, existing(db, contents=mode == "merge"), mode, now))
    if mode == "replace":
        for table in ("review", "card", "word", "note", "folder"):
            db.execute(f"DELETE FROM {table}")
    else:
        _renew_taken_review_gids(db, plan)
    write_plan(db, plan)
    return plan.summary, _label(parsed.name, plan.summary)


def write_plan(db: Database, plan: Plan) -> None:
    insert_rows(db, "folder", plan.folders)
    # Progress before words: undoing the import then deletes the words first, and their
    # trigger takes with them any grade given to the imported cards since.
    db.executemany(CARD_INSERT, plan.study.cards)
    db.executemany(REVIEW_INSERT, plan.study.reviews)
    if plan.study.replace_options:
        db.execute("DELETE FROM study_options")
    insert_rows(db, "study_options", plan.study.options)
    insert_rows(db, "word", [_encoded(r) for r in plan.words])
    insert_rows(db, "note", plan.notes)
    update_rows(db, "word", [_encoded(r) for r in plan.updates])
    if plan.study.stale_dues:  # the page replays every card after the import
        mark_stale(db)


def _renew_taken_review_gids(db: Database, plan: Plan) -> None:
    """Give a merged review whose global id a review here already has a new one. A card comes
    along only when its word has no card in that direction here, and words are matched by
    global id first, so that review is one no card shows (left behind by undoing an import a
    grade followed) or the file was edited by hand; failing the whole import on it would help
    no one. Looked up in the database rather than loaded: a log of a million reviews is common."""
    gid = REVIEW_FIELDS.index("gid")
    if not plan.study.reviews:
        return
    stage_values(db, ["gid"], ([r[gid]] for r in plan.study.reviews))
    taken = {r[0] for r in db.all(f"SELECT gid FROM {STAGE} WHERE gid IN (SELECT gid FROM review)")}
    db.execute(f"DROP TABLE {STAGE}")
    if taken:
        plan.study.reviews = [
            (*r[:gid], uuid7(), *r[gid + 1 :]) if r[gid] in taken else r for r in plan.study.reviews
        ]


def _encoded(row: Row) -> Row:
    return {**row, "meanings": meanings_json(row["meanings"])}


def _label(name: str, summary: PlanSummary) -> str:
    parts = [
        (summary.new_folders, "folder"),
        (summary.new_words, "word"),
        (summary.updated_words, "updated word"),
        (summary.new_notes, "note"),
        (summary.reviews, "review"),
    ]
    counted = ", ".join(f"{n:,} {noun}{'' if n == 1 else 's'}" for n, noun in parts if n)
    verb = "Restore" if summary.mode == "replace" else "Import"
    return f'{verb} "{name}"' + (f" ({counted})" if counted else "")
