"""Finding the item a model means from what it can say: a path, a name, a term or a pronoun.

Models do not know ids well, so tools take "Medicine/Cardiology", "Cardiology", "aorta" or "it".
A name that matches several items raises `Ambiguous` with every candidate's path instead of
guessing; a name that matches nothing raises `NotFound` with near matches when there are some.
Every item resolved is remembered in `Workspace.refs`, so a later "it" means it.
"""

from __future__ import annotations

import re

from app.domain import (
    Folder,
    FolderId,
    InvalidInput,
    LexicalError,
    Note,
    NoteId,
    NotFound,
    Word,
    WordId,
)
from app.tools.workspace import Kind, Workspace

SEPARATOR = "/"
_ROOT = {"", "/", "root", "top", "top level", "the top level", "top-level"}
_HERE = {"here", "current folder", "the current folder", "open folder", "the open folder"}
_IT = {"it", "that", "this", "that one", "this one", "the same", "same", "them", "there"}
_THAT = {
    kind: {f"{d} {kind}" for d in ("that", "this", "the", "the same", "same", "the new")}
    for kind in ("folder", "word", "note")
}
_NOISE = re.compile(r"[\"'“”‘’«».!?]")
MAX_CANDIDATES = 10
MAX_SUGGESTIONS = 5


class Ambiguous(LexicalError):  # noqa: N818 - reads as a plain word at call sites
    """Several items fit; the model must ask the user which one (`candidates` are paths)."""

    def __init__(self, message: str, candidates: list[str]) -> None:
        super().__init__(message)
        self.candidates = candidates


def _phrase(text: str) -> str:
    return " ".join(_NOISE.sub(" ", text).casefold().split())


def _pronoun(ws: Workspace, text: str, kind: Kind) -> int | None:
    """The id a pronoun stands for ("it", "that word"), or None when `text` is not one."""
    phrase = _phrase(text)
    if kind == "folder" and phrase in _HERE:
        if ws.open_folder is None:
            raise NotFound('No folder is open, so "here" means nothing yet; name the folder.')
        return ws.open_folder
    if phrase not in _IT and phrase not in _THAT[kind]:
        return None
    remembered = {"folder": ws.refs.folder, "word": ws.refs.word, "note": ws.refs.note}[kind]
    fallback = {"folder": ws.open_folder, "word": ws.selected_word, "note": None}[kind]
    found = remembered if remembered is not None else fallback
    if found is None:
        raise NotFound(
            f'Nothing has been named yet that "{text.strip()}" could mean; ask the user.'
        )
    return found


def folder_path(ws: Workspace, folder_id: FolderId) -> str:
    return SEPARATOR.join(f.name for f in ws.store.folder_path(folder_id))


def _suffix_matches(ws: Workspace, folder: Folder, parts: list[str], anchored: bool) -> bool:
    names = [f.name.casefold() for f in ws.store.folder_path(folder.id)]
    wanted = [p.casefold() for p in parts]
    return names == wanted if anchored else names[-len(wanted) :] == wanted


def _by_path(ws: Workspace, text: str) -> list[Folder]:
    anchored = text.startswith(SEPARATOR)
    parts = [p.strip() for p in text.strip(SEPARATOR).split(SEPARATOR)]
    if (anchored or len(parts) > 1) and all(parts):
        found = [
            f for f in ws.store.find_folders(parts[-1]) if _suffix_matches(ws, f, parts, anchored)
        ]
        if found:
            return found
    return ws.store.find_folders(text)  # a name may itself contain "/"


def _folders(ws: Workspace, ref: str) -> list[Folder]:
    """Every folder `ref` could mean (one for a pronoun); raises when it names none."""
    text = ref.strip()
    if _phrase(text) in _ROOT:
        raise InvalidInput("Name a folder (a path such as Medicine/Cardiology, or a name).")
    pronoun = _pronoun(ws, text, "folder")
    if pronoun is not None:
        return [ws.store.folder(FolderId(pronoun))]
    found = _by_path(ws, text)
    if not found:
        raise NotFound(f'There is no folder "{text}".{_near(ws, text, "folder")}')
    return found


def folder(ws: Workspace, ref: str) -> Folder:
    """The folder `ref` names; the top level is not a folder here (see `destination`)."""
    found = _folders(ws, ref)
    if len(found) > 1:
        paths = [folder_path(ws, f.id) for f in found[:MAX_CANDIDATES]]
        raise Ambiguous(f'{len(found)} folders are named "{ref.strip()}".', paths)
    return _remember(ws, found[0])


def destination(ws: Workspace, ref: str) -> Folder | None:
    """Like `folder`, but "", "/" or "top level" mean the top level (None)."""
    return None if _phrase(ref) in _ROOT else folder(ws, ref)


def word(ws: Workspace, term: str, in_folder: str = "") -> Word:
    """The word `term` in `in_folder` (any folder when empty); "it" is the last word named."""
    pronoun = _pronoun(ws, term, "word")
    if pronoun is not None:
        return _remember_word(ws, ws.store.word(WordId(pronoun)))
    found = ws.store.find_words(term)
    if in_folder.strip():  # a shared folder name is fine when only one of them has the word
        places = {f.id for f in _folders(ws, in_folder)}
        found = [w for w in found if w.folder_id in places]
    if len(found) > 1:
        paths = [f"{folder_path(ws, w.folder_id)}: {w.term}" for w in found[:MAX_CANDIDATES]]
        raise Ambiguous(f'{len(found)} folders have the word "{term.strip()}".', paths)
    if not found:
        where = f' in "{in_folder.strip()}"' if in_folder.strip() else ""
        raise NotFound(f'There is no word "{term.strip()}"{where}.{_near(ws, term, "word")}')
    return _remember_word(ws, found[0])


def note(ws: Workspace, title: str, in_folder: str = "") -> Note:
    """The note titled `title` in `in_folder` (the last folder named when empty)."""
    pronoun = _pronoun(ws, title, "note")
    if pronoun is not None:
        found = ws.store.note(NoteId(pronoun))
        ws.refs.saw("note", found.id)
        return found
    place = folder(ws, in_folder) if in_folder.strip() else folder(ws, "that folder")
    key = _phrase(title)
    matches = [n for n in ws.store.notes(place.id) if _phrase(n.title) == key]
    if not matches:
        titles = ", ".join(f'"{n.title}"' for n in ws.store.notes(place.id)[:MAX_SUGGESTIONS])
        hint = f" Its notes: {titles}." if titles else " It has no notes."
        raise NotFound(f'"{place.name}" has no note titled "{title.strip()}".{hint}')
    ws.refs.saw("note", matches[0].id)
    return matches[0]


def _remember(ws: Workspace, found: Folder) -> Folder:
    ws.refs.saw("folder", found.id)
    return found


def _remember_word(ws: Workspace, found: Word) -> Word:
    ws.refs.saw("word", found.id)
    return found


def _near(ws: Workspace, text: str, kind: str) -> str:
    hits = [h for h in ws.store.search(text, limit=30) if h.kind == kind][:MAX_SUGGESTIONS]
    if not hits:
        return ""
    shown = ", ".join(
        SEPARATOR.join(h.path) if kind == "folder" else f"{SEPARATOR.join(h.path)}: {h.title}"
        for h in hits
    )
    return f" Similar: {shown}."
