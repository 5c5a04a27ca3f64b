"""Word lists and decks as raw records, before anyone has said which field is what.

A CSV file or an Anki deck is read into `FieldTable`s: the records that share one layout (a CSV
file's columns, an Anki note type's fields), each record a tuple of plain-text values with the
folder it came from. `TableMapping` says what each field becomes (its `Role`), and
`ImportChoices` holds one per table with a language; the guess (app.store.transfer.field_guess)
or the user picks them, and app.store.transfer.mapping builds the workspace from the records with
them. So every format shares one mapping step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NamedTuple, get_args

if TYPE_CHECKING:
    from app.store.transfer import SourceKind
    from app.store.transfer.model import StudyData

Role = Literal["term", "meanings", "notes", "folder", "lang", "color", "skip"]
ROLES: tuple[Role, ...] = get_args(Role)
ROLE_NAMES: dict[Role, str] = {
    "term": "Term",
    "meanings": "Meanings",
    "notes": "Notes",
    "folder": "Folder",
    "lang": "Language",
    "color": "Colour",
    "skip": "Leave out",
}


def role_named(name: str) -> Role | None:
    return next((role for role in ROLES if role == name), None)


class Record(NamedTuple):
    """One row or note: where it was (`line`), the folder path it came from (an Anki deck; empty
    for a CSV row) and its values, one per field of its table (missing ones are "")."""

    line: int
    folder: tuple[str, ...]
    values: tuple[str, ...]


@dataclass(frozen=True)
class FieldTable:
    """Records that share a layout. `key` names the layout for remembering its mapping (the
    note type's name and fields, or the CSV header); `header` is a CSV file's first row when it
    may be column names, in which case it is also the first record (read as data if the user
    says it is not a header). `audio` are the fields that held sound files."""

    key: str
    title: str
    fields: tuple[str, ...]
    records: list[Record]
    header: tuple[str, ...] | None = None
    audio: frozenset[int] = frozenset()

    def names(self, header: bool) -> tuple[str, ...]:
        """The field names shown: the header's cells, or the table's own names."""
        if header and self.header is not None:
            return tuple(c.strip() or f"Column {i + 1}" for i, c in enumerate(self.header))
        return self.fields

    def rows(self, header: bool) -> list[Record]:
        """The records that are data: all but the header row when there is one."""
        return self.records[1:] if header and self.header is not None else self.records


@dataclass(frozen=True)
class TableMapping:
    """What each field of a table becomes, and (CSV) whether its first row is a header."""

    roles: tuple[Role, ...]
    header: bool = False

    def fits(self, table: FieldTable) -> bool:
        return len(self.roles) == len(table.fields) and (not self.header or bool(table.header))


@dataclass(frozen=True)
class RecordSource:
    """A word list or deck read into tables, waiting for a mapping."""

    name: str
    kind: SourceKind
    item_label: str  # what `line` counts: lines, notes
    default_folder: str  # where records with no folder go
    tables: list[FieldTable]
    remarks: list[str] = field(default_factory=list)
    # Anki review histories, by the record's `line` (the note's number); kept for the records
    # that become words once the mapping is known.
    study: StudyData | None = None


@dataclass(frozen=True)
class ImportChoices:
    """A mapping per table of the source (in its order), and a language for words without."""

    tables: tuple[TableMapping, ...]
    lang: str = ""

    def fits(self, source: RecordSource) -> bool:
        return len(self.tables) == len(source.tables) and all(
            m.fits(t) for m, t in zip(self.tables, source.tables, strict=True)
        )
