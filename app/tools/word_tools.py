"""Word tools: add one or many, change one, and read them (look up, list, search)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.domain import Colour, Word
from app.inputs import Lang, Meanings, Name, NewWord, Text, WordPatch, parse_input
from app.store.results import BulkRow
from app.text.counting import counted, listed
from app.tools import resolve
from app.tools.registry import Outcome, Params, Plan, Tool
from app.tools.views import folder_link, word_data, word_link
from app.tools.workspace import Workspace

IN_FOLDER = "Its folder, when the term is in several."
MAX_BULK = 200
MAX_LISTED = 200
MAX_FOUND = 50


class AddWord(Params):
    folder: str = Field(description="The folder.")
    term: Name = Field(description="The word or phrase.")
    meanings: Meanings = Field(default_factory=list, description="Short definitions.")
    notes: Text = Field("", description="Examples, usage.")
    lang: Lang = Field("", description="Language tag (en, es-MX).")
    color: Colour = Field("none", description="A colour label.")


def add_word(ws: Workspace, p: AddWord) -> Outcome:
    place = resolve.folder(ws, p.folder)
    added = ws.store.add_word(
        NewWord(
            folder_id=place.id,
            term=p.term,
            meanings=p.meanings,
            notes=p.notes,
            lang=p.lang,
            color=p.color,
        )
    )
    return Outcome(
        step=f'Added "{added.term}" to {place.name}',
        data={"added": word_data(ws, added)},
        link=word_link(added),
    )


class WordEntry(Params):
    term: Name = Field(description="The word or phrase.")
    meanings: Meanings = Field(default_factory=list, description="Short definitions.")


class BulkAddWords(Params):
    folder: str = Field(description="The folder.")
    words: list[WordEntry] = Field(min_length=1, max_length=MAX_BULK, description="The words.")


def bulk_add_words(ws: Workspace, p: BulkAddWords) -> Outcome:
    place = resolve.folder(ws, p.folder)
    rows = [
        BulkRow(line=i + 1, term=w.term, meanings=w.meanings, status="ok")
        for i, w in enumerate(p.words)
    ]
    result = ws.store.bulk_add(place.id, rows)
    skipped = [{"term": r.term, "reason": r.reason} for r in result.skipped]
    step = f"Added {counted(result.added, 'word')} to {place.name}"
    if skipped:
        step += f" ({counted(len(skipped), 'word')} skipped: already there)"
    return Outcome(
        step=step,
        data={
            "folder": resolve.folder_path(ws, place.id),
            "added": result.added,
            "skipped": skipped,
        },
        link=folder_link(place),
    )


class UpdateWord(Params):
    term: str = Field(min_length=1, description="The word's term.")
    folder: str = Field("", description=IN_FOLDER)
    meanings: Meanings | None = Field(None, description="Replaces ALL its meanings.")
    add_meanings: Meanings | None = Field(None, description="Meanings to add.")
    notes: Text | None = Field(None, description="Replaces its notes.")
    lang: Lang | None = Field(None, description="New language tag.")
    color: Colour | None = Field(None, description="New colour; 'none' removes it.")


def _patch(ws: Workspace, p: UpdateWord) -> tuple[Word, WordPatch]:
    word = resolve.word(ws, p.term, p.folder)
    values: dict[str, Any] = {
        k: v for k, v in (("notes", p.notes), ("lang", p.lang), ("color", p.color)) if v is not None
    }
    if p.meanings is not None or p.add_meanings is not None:
        base = word.meanings if p.meanings is None else p.meanings
        known = {m.casefold() for m in base}
        values["meanings"] = base + [m for m in p.add_meanings or [] if m.casefold() not in known]
    return word, parse_input(WordPatch, values)


def update_word(ws: Workspace, p: UpdateWord) -> Outcome:
    word, patch = _patch(ws, p)
    changed = [k for k, v in patch.changes().items() if getattr(word, k) != v]
    if not changed:
        return Outcome(step=f'Left "{word.term}" as it was', data={"unchanged": True})
    updated = ws.store.update_word(word.id, patch)
    names = [{"color": "colour", "lang": "language"}.get(c, c) for c in changed]
    return Outcome(
        step=f'Updated "{updated.term}" ({listed(names)})',
        data={"updated": word_data(ws, updated)},
        link=word_link(updated),
    )


def plan_update_word(ws: Workspace, p: UpdateWord) -> Plan | None:
    """Replacing meanings or notes that already hold text overwrites it."""
    word, patch = _patch(ws, p)
    values = patch.changes()
    lost = [
        name
        for name, old, new in (
            ("meanings", word.meanings, values.get("meanings")),
            ("notes", word.notes, values.get("notes")),
        )
        if old and new is not None and new != old and not _extends(old, new)
    ]
    if not lost:
        return None
    where = resolve.folder_path(ws, word.folder_id)
    return Plan(change=f'Replace the {listed(lost)} of "{word.term}" in {where}', overwrites=1)


def _extends(old: object, new: object) -> bool:
    return isinstance(old, list) and isinstance(new, list) and new[: len(old)] == old


class GetWord(Params):
    term: str = Field(min_length=1, description="The word's term.")
    folder: str = Field("", description=IN_FOLDER)


def get_word(ws: Workspace, p: GetWord) -> Outcome:
    word = resolve.word(ws, p.term, p.folder)
    return Outcome(
        step=f'Looked up "{word.term}"', data={"word": word_data(ws, word)}, link=word_link(word)
    )


class ListWords(Params):
    folder: str = Field(description="The folder.")
    offset: int = Field(0, ge=0, description="Words to skip.")
    limit: int = Field(50, ge=1, le=MAX_LISTED, description="Most to return.")


def list_words(ws: Workspace, p: ListWords) -> Outcome:
    place = resolve.folder(ws, p.folder)
    words = ws.store.words(place.id, p.offset, p.limit)
    return Outcome(
        step=f"Read the words in {place.name}",
        data={
            "folder": resolve.folder_path(ws, place.id),
            "total": ws.store.word_count(place.id),
            "offset": p.offset,
            "words": [word_data(ws, w, brief=True) for w in words],
        },
        link=folder_link(place),
    )


class SearchWords(Params):
    query: str = Field(min_length=1, max_length=200, description="Words to find.")
    folder: str = Field("", description="Only in this folder and its subfolders.")
    limit: int = Field(20, ge=1, le=MAX_FOUND, description="Most to return.")


def search_words(ws: Workspace, p: SearchWords) -> Outcome:
    hits = [h for h in ws.store.search(p.query, limit=200) if h.kind == "word"]
    if p.folder.strip():
        prefix = resolve.folder_path(ws, resolve.folder(ws, p.folder).id)
        hits = [
            h
            for h in hits
            if "/".join(h.path) == prefix or "/".join(h.path).startswith(prefix + "/")
        ]
    found = [
        {"term": h.title, "folder": "/".join(h.path), "match": h.snippet.text}
        for h in hits[: p.limit]
    ]
    return Outcome(
        step=f'Searched words for "{p.query}"',
        data={"words": found, "more": max(0, len(hits) - p.limit)},
    )


WORD_TOOLS = (
    Tool("ADD_WORD", "Add one word with its meanings to a folder.", AddWord, "write", add_word),
    Tool(
        "BULK_ADD_WORDS",
        "Add many words with meanings to a folder in one call; words already there are skipped.",
        BulkAddWords,
        "write",
        bulk_add_words,
    ),
    Tool(
        "UPDATE_WORD_METADATA",
        "Change a word's meanings (prefer add_meanings), notes, language or colour; not its term.",
        UpdateWord,
        "destructive",
        update_word,
        plan_update_word,
    ),
    Tool("GET_WORD", "Read one word: meanings, notes, language.", GetWord, "read", get_word),
    Tool(
        "LIST_WORDS",
        "A folder's words with their first meanings, a page at a time.",
        ListWords,
        "read",
        list_words,
    ),
    Tool(
        "SEARCH_WORDS",
        "Search terms, meanings and notes; gives terms and folder paths.",
        SearchWords,
        "read",
        search_words,
    ),
)
