"""A file read and checked (`ParsedImport`): its workspace, the rows left out and why, and for a
word list or deck the records and mapping it was built from, so the user can map it again.
Every format is read into one; planning and applying then work the same way whatever it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.store.transfer import Mode, SourceKind
from app.store.transfer.model import SkippedRow, Workspace
from app.store.transfer.records import ImportChoices, RecordSource


@dataclass(frozen=True)
class ParsedImport:
    """A file read and checked, ready to preview and apply."""

    name: str
    kind: SourceKind
    workspace: Workspace
    item_label: str = "Line"  # what `line` numbers count: lines, notes, words
    skipped: list[SkippedRow] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)  # e.g. "12 media files were ignored."
    # A word list or deck: the records it was built from and the mapping used, so the user
    # can map its fields differently and build it again.
    source: RecordSource | None = None
    choices: ImportChoices | None = None

    @property
    def modes(self) -> tuple[Mode, ...]:
        """A backup can replace the workspace; word lists and decks are only ever merged."""
        return ("merge", "replace") if self.kind in ("backup", "database") else ("merge",)
