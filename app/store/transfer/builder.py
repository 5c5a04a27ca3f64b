"""Building a workspace row by row from a word list or a deck, where a bad row is skipped with
its line number and reason instead of failing the whole file (CSV, Anki)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from app.domain import MAX_FOLDER_DEPTH, check_name
from app.inputs import user_message
from app.store.transfer import MAX_FOLDERS, SourceKind
from app.store.transfer.model import FolderItem, SkippedRow, StudyData, WordItem, Workspace
from app.store.transfer.parsed import ParsedImport
from app.text.rejected import shown


class RowProblemError(ValueError):
    """Why one row cannot be imported; the row is skipped, the rest goes on."""


class WorkspaceBuilder:
    def __init__(self, default_folder: str) -> None:
        self.default_folder = default_folder
        self.folders: list[FolderItem] = []
        self.words: list[WordItem] = []
        self.skipped: list[SkippedRow] = []
        self.remarks: list[str] = []
        self._paths: dict[tuple[str, ...], int] = {}
        self._keys: dict[tuple[str, ...], tuple[str, ...]] = {}  # folder names -> path key

    def folder(self, names: Sequence[str]) -> int:
        """The id of the folder at path `names` (the default folder if empty), made as needed."""
        names = names or [self.default_folder]
        if len(names) > MAX_FOLDER_DEPTH:
            raise RowProblemError(f"The folder path is more than {MAX_FOLDER_DEPTH} levels deep.")
        parent: int | None = None
        for depth in range(1, len(names) + 1):
            key = tuple(n.casefold() for n in names[:depth])
            found = self._paths.get(key)
            if found is None:
                found = self._new_folder(names[depth - 1], parent)
                self._paths[key] = found
            parent = found
        assert parent is not None
        return parent

    def _known_folder(self, names: Sequence[str]) -> int | None:
        key = self._keys.get(tuple(names))
        if key is None:  # records of one deck share its names: worked out once
            key = tuple(n.casefold() for n in names or [self.default_folder])
            self._keys[tuple(names)] = key
        return self._paths.get(key)

    def _new_folder(self, name: str, parent: int | None) -> int:
        try:
            name = check_name(name)
        except ValueError as exc:
            raise RowProblemError(f'The folder name "{shown(name)}" {exc}.') from exc
        if len(self.folders) >= MAX_FOLDERS:
            raise RowProblemError(f"The file makes more than {MAX_FOLDERS:,} folders.")
        folder = FolderItem(id=len(self.folders) + 1, parent_id=parent, name=name)
        self.folders.append(folder)
        return folder.id

    def word(
        self, line: int, folder_names: Sequence[str], fields: dict[str, Any]
    ) -> WordItem | None:
        """Add a word from `fields` (term, meanings, notes, lang, color) or skip it (None); its
        folder is made only once the word itself is known to be good."""
        known = self._known_folder(folder_names)
        try:
            word = WordItem.model_validate({**fields, "folder_id": known or 1, "line": line})
            if known is None:
                word = word.model_copy(update={"folder_id": self.folder(folder_names)})
        except RowProblemError as exc:
            self.skip(line, fields.get("term", ""), str(exc))
            return None
        except ValidationError as exc:
            self.skip(line, fields.get("term", ""), user_message(exc))
            return None
        self.words.append(word)
        return word

    def skip(self, line: int, term: Any, reason: str) -> None:
        text = term if isinstance(term, str) else ""
        self.skipped.append(SkippedRow(line=line, term=shown(text), reason=reason))

    def parsed(
        self, name: str, kind: SourceKind, item_label: str, study: StudyData | None = None
    ) -> ParsedImport:
        return ParsedImport(
            name=name,
            kind=kind,
            workspace=Workspace(folders=self.folders, words=self.words, study=study),
            item_label=item_label,
            skipped=self.skipped,
            remarks=self.remarks,
        )
