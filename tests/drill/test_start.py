"""Asking to study a folder hands-free in words, and finding the folder by its name."""

from __future__ import annotations

import pytest

from app.drill.start import Found, NotFound, choose, wanted
from app.inputs import NewFolder
from app.store import Store
from tests.study.helpers import Clock, make_store


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("start studying Cardiology", "cardiology"),
        ("Start studying Cardiology hands-free, please.", "cardiology"),
        ("study Cardiology hands-free", "cardiology"),
        ("Quiz me on Cardiology!", "cardiology"),
        ("please quiz me about the Spanish folder", "the spanish folder"),
        ("start studying Ñandú Größe", "nandu grosse"),
    ],
)
def test_requests_to_study_hands_free_name_the_folder(text: str, name: str) -> None:
    assert wanted(text) == name


@pytest.mark.parametrize(
    "text",
    [
        "",
        "start studying",
        "study Cardiology",  # might be a question for the Scholar: only with "hands-free"
        "how do I start studying?",
        "what does quiz me on mean in Spanish",
        "x" * 10_000,
    ],
)
def test_other_requests_are_left_to_the_assistant(text: str) -> None:
    assert wanted(text) is None


def folders(*names: str, under: str | None = None) -> Store:
    store = make_store(Clock())
    parent = store.create_folder(NewFolder(name=under)) if under else None
    for name in names:
        store.create_folder(NewFolder(name=name, parent_id=parent.id if parent else None))
    return store


def find(store: Store, text: str) -> Found | NotFound:
    name = wanted(text)
    assert name is not None
    path = lambda f: " › ".join(x.name for x in store.folder_path(f))  # noqa: E731
    return choose(name, store.folders(), path)


def test_the_folder_is_found_whatever_the_case_accents_and_article() -> None:
    store = folders("Cardiología", "Spanish")
    cardio = next(f.id for f in store.folders() if f.name == "Cardiología")
    assert find(store, "start studying CARDIOLOGIA") == Found(cardio)
    assert find(store, "quiz me on my cardiología folder") == Found(cardio)


def test_an_unknown_name_names_the_near_folders_or_some_of_them() -> None:
    store = folders("Spanish verbs", "Spanish nouns", "Cardiology")
    assert find(store, "start studying spanish") == NotFound(
        "There is no folder called “spanish”. Did you mean “Spanish nouns” or “Spanish verbs”?"
    )
    told = find(store, "quiz me on kanji")
    assert isinstance(told, NotFound)
    assert told.message.startswith("There is no folder called “kanji”. Your folders include")
    assert "“Cardiology”" in told.message


def test_folders_of_the_same_name_are_told_apart_by_their_paths() -> None:
    store = folders("Verbs", under="Spanish")
    french = store.create_folder(NewFolder(name="French"))
    store.create_folder(NewFolder(name="verbs", parent_id=french.id))
    told = find(store, "start studying verbs")
    assert told == NotFound(
        "Several folders are called “Verbs”: “Spanish › Verbs” and “French › verbs”. "
        "Open the one you mean and press Hands-free."
    )


def test_without_folders_it_says_what_to_do_first() -> None:
    told = choose("spanish", [], lambda _f: "")
    assert told == NotFound("There are no folders to study yet: add a folder of words first.")
