"""The context sent with each request: what is on screen, and a tree summary that stays small."""

from __future__ import annotations

from app.agents.context import MAX_CHARS, View, build_context
from app.domain import FolderId, WordId
from app.inputs import NewFolder, NewWord
from app.store import Store
from app.study.model import Rating
from app.studying.past import PAST_SESSIONS
from app.studying.session import StudySession
from app.tools.workspace import References
from tests.store.helpers import make_store
from tests.study.helpers import SPANISH, Clock, folder_with_words
from tests.study.helpers import make_store as make_study_store


def _medicine() -> Store:
    store = make_store()
    medicine = store.create_folder(NewFolder(name="Medicine")).id
    heart = store.create_folder(NewFolder(name="Cardiology", parent_id=medicine)).id
    store.add_word(NewWord(folder_id=heart, term="aorta", meanings=["main artery", "vessel"]))
    return store


def test_what_the_user_is_looking_at() -> None:
    store = _medicine()
    refs = References()
    refs.saw("word", 1)
    view = View(FolderId(2), WordId(1), ('Add "aorta"', "Rename folder"))
    context = build_context(store, view, refs)
    assert context.splitlines() == [
        "<collection_data>",
        'Open folder: "Cardiology" (path "Medicine/Cardiology"; 1 word, 0 subfolders)',
        'Selected word: "aorta" in "Medicine/Cardiology"; meanings: "main artery"; "vessel"',
        '"it" last meant the word "aorta" in "Medicine/Cardiology"',
        'Recent actions (oldest first): "Add \\"aorta\\""; "Rename folder"',
        "Folder tree (2 folders, 1 word; paths with word counts including subfolders):",
        '- "Medicine" (1)',
        '  - "Cardiology" (1)',
        "</collection_data>",
    ]


def test_items_that_went_away_are_left_out() -> None:
    store = _medicine()
    refs = References(folder=FolderId(9), last="folder")
    context = build_context(store, View(FolderId(9), WordId(9)), refs)
    assert "Open folder" not in context
    assert '"it"' not in context
    assert build_context(make_store(), View(), References()).splitlines()[1] == (
        "The collection has no folders yet."
    )


def test_two_thousand_folders_are_summarised_within_the_limit() -> None:
    store = make_store()
    for top in range(20):
        parent = store.create_folder(NewFolder(name=f"Subject {top}")).id
        for mid in range(9):
            child = store.create_folder(NewFolder(name=f"Unit {mid}", parent_id=parent)).id
            for leaf in range(10):
                store.create_folder(NewFolder(name=f"Lesson {leaf}", parent_id=child))
    store.add_word(NewWord(folder_id=FolderId(1), term="x"))
    assert len(store.folders()) == 2_000
    context = build_context(store, View(), References())
    assert len(context) <= MAX_CHARS
    lines = context.splitlines()
    assert lines[1].startswith("Folder tree (2,000 folders, 1 word;")
    assert lines[2] == '- "Subject 0" (1, +9 subfolders)'
    assert "Unit" not in context
    assert lines[-2] == "... 1,980 deeper folders not shown (GET_FOLDER_STRUCTURE)"
    assert build_context(store, View(), References()) == context


def test_long_names_are_cut_off_by_characters_not_only_by_rows() -> None:
    store = make_store()
    for n in range(100):
        store.create_folder(NewFolder(name=f"{n:03} " + "long name " * 19))
    context = build_context(store, View(), References())
    assert len(context) <= MAX_CHARS
    lines = context.splitlines()
    shown = [line for line in lines if line.startswith("- ")]
    assert 10 < len(shown) < 100
    assert lines[-2] == f"... {100 - len(shown)} more folders not shown (GET_FOLDER_STRUCTURE)"


def studied(store: Store, clock: Clock, scope: dict[str, object], ratings: list[Rating]) -> None:
    """One session a day over `scope`, graded `ratings` and left open (the next one ends it)."""
    session = StudySession.start(store, scope, "hands-free", clock, lambda: 60)
    for rating in ratings:
        session.reveal()
        session.grade(rating)
    clock.advance(days=1)


def test_the_scholar_knows_the_latest_study_session_and_the_earlier_ones_of_its_scope() -> None:
    clock = Clock()
    store = make_study_store(clock)
    spanish = {"kind": "folder", "folder": folder_with_words(store, "Spanish", SPANISH).id}
    studied(store, clock, spanish, [Rating.AGAIN, Rating.GOOD])
    studied(store, clock, {"kind": "all"}, [Rating.AGAIN])
    studied(store, clock, spanish, [Rating.GOOD])
    studied(store, clock, spanish, [Rating.EASY, Rating.AGAIN])
    context = build_context(store, View(utc_offset_minutes=60), References()).splitlines()
    latest = next(line for line in context if line.startswith("Latest"))
    assert latest.startswith(
        'Latest study session (of "Spanish", 26 November 2026): 1 of 2 right, missed "'
    )
    assert [line for line in context if line.startswith("Earlier")] == [
        "Earlier sessions of the same words, newest first: "
        "25 November 2026 (1 of 1 right, missed none); "
        '23 November 2026 (1 of 2 right, missed "perro")'
    ]


def test_past_sessions_in_the_context_stay_bounded() -> None:
    clock = Clock()
    store = make_study_store(clock)
    many = folder_with_words(store, "Many", [(f"w{i:02}" * 30, ["a meaning"]) for i in range(30)])
    for _ in range(6):
        studied(store, clock, {"kind": "folder", "folder": many.id}, [Rating.AGAIN] * 12)
    context = build_context(store, View(), References())
    [earlier] = [line for line in context.splitlines() if line.startswith("Earlier")]
    assert earlier.count("November 2026 (") == PAST_SESSIONS
    assert context.count("and 2 more words") == PAST_SESSIONS + 1
    assert len(context) <= MAX_CHARS
