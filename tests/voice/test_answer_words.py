"""Which words a spoken answer says in their own language (app.voice.answer_words), read from
a real store: the open folder's first words and the words the turn's steps link to."""

from __future__ import annotations

from app.domain import FolderId
from app.inputs import NewFolder, NewWord
from app.store import Store
from app.tools.registry import Link
from app.voice.answer_words import FOLDER_WORDS, answer_words
from tests.store.helpers import make_store


def folder(store: Store, name: str, lang: str = "", parent: FolderId | None = None) -> FolderId:
    return store.create_folder(NewFolder(name=name, lang=lang, parent_id=parent)).id


def test_words_take_their_own_tag_else_the_folders_else_the_speech_language() -> None:
    store = make_store()
    spanish = folder(store, "Spanish", "es")
    store.add_word(NewWord(folder_id=spanish, term="perro"))
    store.add_word(NewWord(folder_id=spanish, term="Hund", lang="de"))
    plain = folder(store, "Plain")
    store.add_word(NewWord(folder_id=plain, term="aorta"))
    assert answer_words(store, spanish, [], "en-GB") == {"Hund": "de", "perro": "es"}
    assert answer_words(store, plain, [], "en-GB") == {"aorta": "en-GB"}


def test_a_subfolder_inherits_its_parents_language() -> None:
    store = make_store()
    verbs = folder(store, "Verbs", parent=folder(store, "French", "fr-CA"))
    store.add_word(NewWord(folder_id=verbs, term="manger"))
    assert answer_words(store, verbs, [], "en") == {"manger": "fr-CA"}


def test_linked_words_of_other_folders_count_and_other_links_do_not() -> None:
    store = make_store()
    japanese = folder(store, "Japanese", "ja")
    neko = store.add_word(NewWord(folder_id=japanese, term="猫"))
    gone = store.add_word(NewWord(folder_id=japanese, term="犬"))
    store.delete_words([gone.id])
    links = [
        Link(kind="word", id=neko.id, folder_id=japanese, label="猫"),
        Link(kind="word", id=gone.id, folder_id=japanese, label="犬"),
        Link(kind="folder", id=japanese, folder_id=japanese, label="Japanese"),
    ]
    assert answer_words(store, None, links, "en") == {"猫": "ja"}


def test_a_linked_word_keeps_its_language_over_a_namesake_in_the_open_folder() -> None:
    store = make_store()
    english = folder(store, "English", "en")
    store.add_word(NewWord(folder_id=english, term="pan"))
    spanish = folder(store, "Spanish", "es")
    pan = store.add_word(NewWord(folder_id=spanish, term="pan"))
    link = Link(kind="word", id=pan.id, folder_id=spanish, label="pan")
    assert answer_words(store, english, [link], "en") == {"pan": "es"}


def test_only_the_first_words_of_a_big_folder_a_to_z() -> None:
    store = make_store()
    big = folder(store, "Big", "es")
    for n in range(FOLDER_WORDS + 5):
        store.add_word(NewWord(folder_id=big, term=f"palabra {n:03}"))
    words = answer_words(store, big, [], "en")
    assert sorted(words) == [f"palabra {n:03}" for n in range(FOLDER_WORDS)]


def test_words_in_a_language_nobody_can_say_are_left_to_the_answers_voice() -> None:
    store = make_store()
    mixed = folder(store, "Mixed", "es")
    store.add_word(NewWord(folder_id=mixed, term="perro"))
    store.add_word(NewWord(folder_id=mixed, term="ngiyabonga", lang="zu"))
    words = answer_words(store, mixed, [], "en", sayable=lambda lang: lang != "zu")
    assert words == {"perro": "es"}
