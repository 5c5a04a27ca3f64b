"""The context sent with every request: what the user is looking at, and a bounded tree summary.

The open folder (name, path, counts), the selected word, what "it" refers to, the user's recent
actions, the latest study session with the last few of the same scope (so the Scholar can say
"last time you also missed …") and an outline of the folder tree, deep as fits, never more
than `MAX_CHARS` characters however large the collection. Collection text is quoted as JSON
strings with `<` and `>` escaped inside a <collection_data> block, so no stored name can close
the block or pose as a prompt.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from app.domain import FolderId, LexicalError, WordId
from app.store import Store
from app.studying.past import PastSession, previous_sessions, recorded, spoken_day
from app.text.counting import counted, named
from app.tools.outline import outline
from app.tools.resolve import folder_path
from app.tools.views import clip
from app.tools.workspace import References, Workspace

MAX_CHARS = 6_000
TREE_DEPTH = 3
TREE_ROWS = 150
RECENT_ACTIONS = 5
SHOWN_MEANINGS = 5
MEANING_CHARS = 200
PATH_CHARS = 300
TERM_CHARS = 40  # of each missed word named in the study sessions
_OPEN, _CLOSE = "<collection_data>\n", "\n</collection_data>"


@dataclass(frozen=True)
class View:
    """What the UI shows right now; everything optional."""

    open_folder: FolderId | None = None
    selected_word: WordId | None = None
    recent_actions: tuple[str, ...] = ()  # newest last, e.g. the Undo labels of recent edits
    utc_offset_minutes: int = 0  # the user's local time minus UTC, for study days


def quote(text: str) -> str:
    """Collection text as an inert JSON string that cannot contain a tag."""
    return json.dumps(text, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")


def build_context(store: Store, view: View, refs: References) -> str:
    ws = Workspace(store, refs, view.open_folder, view.selected_word, view.utc_offset_minutes)
    lines = [*_looking_at(ws), *_recent(view), *_studied(ws)]
    budget = MAX_CHARS - len(_OPEN + _CLOSE) - sum(len(line) + 1 for line in lines)
    lines += _tree(store, budget)
    return _OPEN + "\n".join(lines) + _CLOSE


def _path(ws: Workspace, folder_id: FolderId) -> str:
    return clip(folder_path(ws, folder_id), PATH_CHARS)


def _looking_at(ws: Workspace) -> list[str]:
    lines = []
    try:
        if ws.open_folder is not None:
            folder = ws.store.folder(ws.open_folder)
            count = counted(ws.store.word_count(folder.id), "word")
            subs = counted(len(ws.store.children(folder.id)), "subfolder")
            path = quote(_path(ws, folder.id))
            lines.append(f"Open folder: {quote(folder.name)} (path {path}; {count}, {subs})")
        if ws.selected_word is not None:
            word = ws.store.word(ws.selected_word)
            meanings = "; ".join(
                quote(clip(m, MEANING_CHARS)) for m in word.meanings[:SHOWN_MEANINGS]
            )
            lines.append(
                f"Selected word: {quote(word.term)} in {quote(_path(ws, word.folder_id))}; "
                f"meanings: {meanings or 'none yet'}"
            )
    except LexicalError:
        pass  # the item went away under the user; the rest of the context still helps
    lines.extend(_named_last(ws))
    return lines


def _named_last(ws: Workspace) -> list[str]:
    refs = ws.refs
    try:
        if refs.last == "folder" and refs.folder is not None:
            return [f'"it" last meant the folder {quote(_path(ws, refs.folder))}']
        if refs.last == "word" and refs.word is not None:
            word = ws.store.word(refs.word)
            where = quote(_path(ws, word.folder_id))
            return [f'"it" last meant the word {quote(word.term)} in {where}']
    except LexicalError:
        pass
    return []


def _recent(view: View) -> list[str]:
    recent = [quote(clip(a, 120)) for a in view.recent_actions[-RECENT_ACTIONS:]]
    return [f"Recent actions (oldest first): {'; '.join(recent)}"] if recent else []


def _studied(ws: Workspace) -> list[str]:
    """The latest study session and the few before it over the same scope, so the Scholar can
    say "last time you also missed …"."""
    latest = ws.store.study.newest_session()
    if latest is None:
        return []
    offset = ws.utc_offset_minutes
    now = recorded(ws.store, latest.id, latest.started_at, offset)
    scope = _scope(ws, latest.scope)
    lines = [f"Latest study session (of {scope}, {spoken_day(now.day)}): {_went(now)}"]
    earlier = previous_sessions(ws.store, latest.id, utc_offset_minutes=offset)
    if earlier:
        told = "; ".join(f"{spoken_day(p.day)} ({_went(p)})" for p in earlier)
        lines.append(f"Earlier sessions of the same words, newest first: {told}")
    return lines


def _scope(ws: Workspace, scope: dict[str, Any]) -> str:
    folder = scope.get("folder")
    if scope.get("kind") == "folder" and isinstance(folder, int):
        try:
            return quote(_path(ws, FolderId(folder)))
        except LexicalError:
            return "a folder since deleted"
    if scope.get("kind") == "words":
        return quote(clip(str(scope.get("label", "chosen words")), PATH_CHARS))
    return "every folder"


def _went(past: PastSession) -> str:
    missed = named([quote(clip(term, TERM_CHARS)) for term in past.missed])
    return f"{past.correct:,} of {past.cards:,} right, missed {missed}"


def _tree(store: Store, budget: int) -> list[str]:
    rows = store.folder_tree()
    if not rows:
        return ["The collection has no folders yet."]
    shape = outline(rows, max_depth=TREE_DEPTH, max_rows=TREE_ROWS)
    total = sum(r.total_words for r in rows if r.depth == 0)
    lines = [
        f"Folder tree ({counted(shape.folders, 'folder')}, {counted(total, 'word')}; "
        f"paths with word counts including subfolders):"
    ]
    used = len(lines[0]) + 1
    for index, row in enumerate(shape.rows):
        hidden = (
            f", +{counted(row.hidden_subfolders, 'subfolder')}" if row.hidden_subfolders else ""
        )
        line = f"{'  ' * row.depth}- {quote(row.name)} ({row.total_words:,}{hidden})"
        if used + len(line) + 60 > budget:
            left = shape.folders - index
            lines.append(f"... {counted(left, 'more folder')} not shown (GET_FOLDER_STRUCTURE)")
            return lines
        lines.append(line)
        used += len(line) + 1
    if shape.omitted:
        lines.append(
            f"... {counted(shape.omitted, 'deeper folder')} not shown (GET_FOLDER_STRUCTURE)"
        )
    return lines
