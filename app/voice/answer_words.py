"""The collection words a spoken answer may say, each with the language to say it in.

An answer is mostly about the open folder or the words its steps just touched, so those are
the words `app.voice.word_voices` listens for: the words the turn's steps link to first (an
answer is most likely about them), then the open folder's first words A–Z. Each is said in its
own language tag, else its folder's default, else the user's speech language. A word in a
language nobody can say (`sayable`: the browser has no voice for it) is left out, so the
answer's own voice says it rather than the answer stopping there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from app.domain import FolderId, NotFound, Word, WordId
from app.speech.voices import word_lang
from app.store import Store
from app.tools.registry import Link

FOLDER_WORDS = 200  # of the open folder, A–Z: enough for an answer, quick to match against


def answer_words(
    store: Store,
    folder_id: FolderId | None,
    links: Iterable[Link],
    speech_lang: str,
    sayable: Callable[[str], bool] = lambda _lang: True,
) -> dict[str, str]:
    """Term → language tag for the words of the turn's links and of the open folder."""
    linked: list[Word] = []
    for link in links:
        if link.kind == "word":
            try:
                linked.append(store.word(WordId(link.id)))
            except NotFound:
                continue  # a later step deleted it: nothing to say it for
    shown = store.words(folder_id, limit=FOLDER_WORDS) if folder_id is not None else []
    defaults: dict[FolderId, str] = {}
    langs: dict[str, str] = {}
    for word in (*linked, *shown):
        if word.folder_id not in defaults:
            defaults[word.folder_id] = store.default_lang(word.folder_id)
        langs.setdefault(word.term, word_lang(word.lang, defaults[word.folder_id], speech_lang))
    return {term: lang for term, lang in langs.items() if sayable(lang)}
