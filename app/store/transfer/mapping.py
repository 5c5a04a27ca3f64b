"""Building the workspace from raw records with a mapping: the step every word list and deck
shares between reading the file and planning the import.

Each record becomes a word: the term field (its lines joined), the lines of every meanings
field (a field with more or longer meanings than a word holds goes to the notes instead), the
notes fields labelled with their names, the folder the record came from with a folder field's
path under it, and the language and colour fields. A record with a folder but no term keeps an
empty folder; a blank record is passed over. An Anki history follows the notes that became
words.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from app.domain import MEANING_MAX, MEANINGS_MAX, TEXT_MAX, InvalidInput, check_lang
from app.store.transfer.anki_history import NOT_IMPORTED
from app.store.transfer.builder import RowProblemError, WorkspaceBuilder
from app.store.transfer.csv_io import split_path
from app.store.transfer.field_guess import normal_name
from app.store.transfer.model import StudyData
from app.store.transfer.parsed import ParsedImport
from app.store.transfer.records import (
    FieldTable,
    ImportChoices,
    Record,
    RecordSource,
    Role,
    TableMapping,
)
from app.store.transfer.steps import CHUNK, Progress, Steps

UNLABELLED = frozenset({"notes", "note", "extra"})  # fields whose text goes into notes as is
NO_TERM = "No field is chosen as the term, so no word can be made: pick one above."


def build(source: RecordSource, choices: ImportChoices) -> Steps[ParsedImport]:
    """The words `source` gives with `choices`; rows that cannot be words are listed, skipped."""
    if not choices.fits(source):
        raise ValueError("the choices do not fit this file")
    lang = _checked_lang(choices.lang)
    builder = WorkspaceBuilder(source.default_folder)
    builder.remarks.extend(source.remarks)
    total = sum(len(t.records) for t in source.tables)
    done = 0
    for table, mapping in zip(source.tables, choices.tables, strict=True):
        if "term" not in mapping.roles and table.records:
            builder.remarks.append(f"{table.title}: {NO_TERM}")
            continue
        shape = _Shape(table, mapping, keep_id=source.study is not None, lang=lang)
        for record in table.rows(mapping.header):
            shape.add(builder, record)
            done += 1
            if done % CHUNK == 0:
                yield Progress("Mapping the fields", done, total)
        if shape.cut:
            where = table.title if len(source.tables) > 1 else ""
            builder.remarks.append(_cut_remark(where, source.item_label.lower(), shape.cut))
    study = _followed(source.study, {w.id for w in builder.words})
    if lang:  # the folders the file brings take it as their default too
        builder.folders = [
            f.model_copy(update={"lang": lang}) if f.parent_id is None and not f.lang else f
            for f in builder.folders
        ]
    return replace(
        builder.parsed(source.name, source.kind, source.item_label, study),
        source=source,
        choices=choices,
    )


LINES_NAMED = 10  # of the lines whose notes were cut; the rest are counted


def _cut_remark(title: str, item: str, lines: list[int]) -> str:
    """Which rows (lines of a list, notes of a deck) had their notes cut."""
    named = ", ".join(map(str, lines[:LINES_NAMED]))
    more = f" and {len(lines) - LINES_NAMED:,} more" if len(lines) > LINES_NAMED else ""
    where = f"{title}: " if title else ""
    return (
        f"{where}Notes longer than {TEXT_MAX:,} characters were cut there (a meaning too long "
        f"to be one goes to the notes): {item}{'s' if len(lines) > 1 else ''} {named}{more}."
    )


def _checked_lang(lang: str) -> str:
    try:
        return check_lang(lang.strip())
    except ValueError as exc:
        raise InvalidInput(f'The language "{lang.strip()}" {exc}.') from exc


class _Shape:
    """How the records of one table turn into word fields under one mapping."""

    def __init__(self, table: FieldTable, mapping: TableMapping, *, keep_id: bool, lang: str):
        names = table.names(mapping.header)
        headerless = table.header is not None and not mapping.header
        labels = [None if headerless or normal_name(n) in UNLABELLED else n for n in names]
        roles = mapping.roles
        # Worked out once per table, not per record: a deck has tens of thousands.
        self.texts = [
            (index, role == "meanings", labels[index])
            for index, role in enumerate(roles)
            if role in ("meanings", "notes")
        ]
        self.first = {role: roles.index(role) for role in set(roles)}  # a role's first field
        self.keep_id = keep_id
        self.lang = lang
        self.cut: list[int] = []  # lines whose notes were cut to what a word holds

    def _first(self, record: Record, role: Role) -> str:
        index = self.first.get(role)
        return "" if index is None else record.values[index]

    def add(self, builder: WorkspaceBuilder, record: Record) -> None:
        if not "".join(record.values).strip():
            return
        path = self._first(record, "folder")
        folder = (*record.folder, *split_path(path)) if path else record.folder
        term = " ".join(self._first(record, "term").split("\n"))
        meanings, notes = self._texts(record)
        if len(notes) > TEXT_MAX:
            notes = notes[: TEXT_MAX - 1] + "…"
            self.cut.append(record.line)
        lang = self._first(record, "lang").strip() or self.lang
        color = self._first(record, "color").strip().lower()
        if not term.strip() and not (meanings or notes or lang or color):
            if folder:
                try:
                    builder.folder(folder)
                except RowProblemError as exc:
                    builder.skip(record.line, "", str(exc))
            return
        fields: dict[str, Any] = {
            "term": term,
            "meanings": meanings,
            "notes": notes,
            "lang": lang,
            "color": color or "none",
        }
        if self.keep_id:
            fields["id"] = record.line
        builder.word(record.line, folder, fields)

    def _texts(self, record: Record) -> tuple[list[str], str]:
        """The record's meanings and its notes text."""
        meanings: list[str] = []
        notes: list[str] = []
        for index, is_meaning, label in self.texts:
            value = record.values[index]
            if not value.strip():
                continue
            if is_meaning:
                lines = [line for line in map(str.strip, value.splitlines()) if line]
                longest = max(map(len, lines))
                if len(meanings) + len(lines) <= MEANINGS_MAX and longest <= MEANING_MAX:
                    meanings.extend(lines)
                    continue
            notes.append(f"{label}: {value}" if label else value)
        return meanings, "\n\n".join(notes)


def _followed(study: StudyData | None, words: set[int | None]) -> StudyData | None:
    """The histories of the notes that became words; the others counted as not imported."""
    if study is None:
        return None
    kept = [h for h in study.histories if h.word_id in words]
    left_out = Counter(study.left_out)
    left_out[NOT_IMPORTED] += len(study.histories) - len(kept)
    return replace(study, histories=kept, left_out=+left_out)
