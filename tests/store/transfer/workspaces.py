"""Random workspaces for the import/export tests, built through the Store API so they hold only
what the app itself can make (names with slashes and backslashes, accents, emoji, colours)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import pytest
from hypothesis import strategies as st

from app.domain import (
    COLOURS,
    FolderId,
    InvalidInput,
    LexicalError,
    NewFolder,
    NewNote,
    NewWord,
)
from app.store import Store
from app.store.transfer import Mode, read_import
from app.store.transfer.model import ParsedImport
from app.store.transfer.plan import PlanSummary
from app.store.transfer.steps import run_steps
from tests.store.helpers import dump, make_store

# One line, no control characters; slashes and backslashes test the CSV path escaping.
LINE = (
    st.lists(
        st.sampled_from([*"abcXYZ é/\\;,\"'|-", "日本", "🧬", "\u00a0"]), min_size=1, max_size=8
    )
    .map("".join)
    .filter(str.strip)
)
TEXT = st.lists(st.sampled_from([*'ab é,;"\n\t', "\r\n"]), max_size=20).map("".join)
LANGS = st.sampled_from(["", "en", "es-MX", "zh-Hant-TW"])


@dataclass(frozen=True)
class Spec:
    folders: list[tuple[str, int | None, str, str]]  # name, parent index, emoji, colour
    words: list[
        tuple[int, str, list[str], str, str, str]
    ]  # folder, term, meanings, notes, lang, colour
    notes: list[tuple[int, str, str]]  # folder index, title, body


def specs(*, notes: bool = True) -> st.SearchStrategy[Spec]:
    folder = st.tuples(
        LINE,
        st.one_of(st.none(), st.integers(0, 8)),
        st.sampled_from(["", "🧬", "🇪🇸"]),
        st.sampled_from(COLOURS),
    )
    word = st.tuples(
        st.integers(0, 8), LINE, st.lists(LINE, max_size=3), TEXT, LANGS, st.sampled_from(COLOURS)
    )
    note = st.tuples(st.integers(0, 8), LINE, TEXT)
    return st.builds(
        Spec,
        st.lists(folder, max_size=8),
        st.lists(word, max_size=12),
        st.lists(note, max_size=4) if notes else st.just([]),
    )


def build(spec: Spec) -> Store:
    """A store holding `spec`; commands the store refuses (duplicate names) are left out."""
    store = make_store()
    ids: list[FolderId] = []
    for name, parent, emoji, colour in spec.folders:
        parent_id = ids[parent % len(ids)] if parent is not None and ids else None
        with contextlib.suppress(LexicalError):
            ids.append(
                store.create_folder(
                    NewFolder(name=name, parent_id=parent_id, emoji=emoji, color=colour)
                ).id
            )
    if not ids:
        return store
    for index, term, meanings, notes, lang, colour in spec.words:
        with contextlib.suppress(LexicalError):
            store.add_word(
                NewWord(
                    folder_id=ids[index % len(ids)],
                    term=term,
                    meanings=meanings,
                    notes=notes,
                    lang=lang,
                    color=colour,
                )
            )
    for index, title, body in spec.notes:
        store.add_note(NewNote(folder_id=ids[index % len(ids)], title=title, body=body))
    return store


def sample_store() -> Store:
    store = make_store()
    bio = store.create_folder(NewFolder(name="Biology", emoji="🧬", color="green"))
    cells = store.create_folder(NewFolder(name="Cells/Tissues", parent_id=bio.id))
    store.add_word(
        NewWord(
            folder_id=cells.id, term="mitosis", meanings=["cell division"], notes="n", lang="en"
        )
    )
    store.add_word(NewWord(folder_id=bio.id, term="célula", meanings=["cell"], color="red"))
    store.add_note(NewNote(folder_id=bio.id, title="Tips", body="**learn** the phases"))
    return store


def parse(name: str, data: bytes) -> ParsedImport:
    return run_steps(read_import(name, data))


def preview(store: Store, parsed: ParsedImport, mode: Mode = "merge") -> PlanSummary:
    return run_steps(store.preview_import(parsed, mode))


def assert_refused(name: str, data: bytes, message: str) -> None:
    """Importing `data` fails with `message` in a plain sentence, and the workspace is as before."""
    store = sample_store()
    before = dump(store)
    with pytest.raises(InvalidInput) as caught:
        parse(name, data)
    assert message in caught.value.message
    assert dump(store) == before
