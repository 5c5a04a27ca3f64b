"""The Import / Export actions: open the dialog, export files, preview a chosen file, apply it.

Reading and previewing a file are progress steps (`preview_file`) the browser drives between
repaints; the parsed file waits here until the user presses Import, which applies it as one
undoable step planned again against the data as it is then.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from app.domain import LexicalError
from app.store.transfer import ACCEPTED, EXPORT_FILES, ExportKind, Mode, read_import
from app.ui import transfer_view
from app.ui.update import Download, Update

if TYPE_CHECKING:  # only types: the import machinery loads when a file is chosen
    from app.store import Store
    from app.store.transfer.model import ParsedImport
    from app.store.transfer.plan import PlanSummary
    from app.store.transfer.steps import Steps

Handler = Callable[[int | None, Mapping[str, str]], Update]
PREVIEW = "#transfer-preview"
MODES: dict[str, Mode] = {"merge": "merge", "replace": "replace"}


@dataclass
class PendingImport:
    parsed: ParsedImport
    plans: dict[Mode, PlanSummary]


class TransferActions:
    """`store` gives the current store (a tab may reload it); `refresh` redraws after changes."""

    def __init__(
        self,
        store: Callable[[], Store],
        refresh: Callable[[], Update],
        today: Callable[[], date] = date.today,
    ) -> None:
        self._store = store
        self._refresh = refresh
        self._today = today
        self.pending: PendingImport | None = None

    def actions(self) -> dict[str, Handler]:
        return {
            "transfer": lambda _i, _d: self.open(),
            "export-json": lambda _i, _d: self.export("json"),
            "export-sqlite": lambda _i, _d: self.export("sqlite"),
            "export-csv": lambda _i, _d: self.export("csv"),
            "transfer-mode": lambda _i, d: self.choose_mode(d.get("text", "")),
            "transfer-apply": lambda _i, d: self.apply(d.get("mode", "")),
        }

    def open(self) -> Update:
        self.pending = None
        return Update(
            dialog=transfer_view.transfer_dialog(ACCEPTED), focus="#dialog .export-buttons button"
        )

    def export(self, kind: ExportKind) -> Update:
        suffix, media_type = EXPORT_FILES[kind]
        name = f"lexical-{self._today().isoformat()}-{suffix}"
        data = self._store().export(kind)
        return Update(
            download=Download(name, media_type, data), toast=f"Exported {name} ({_size(data)})"
        )

    def preview_file(self, name: str, data: bytes) -> Steps[Update]:
        """Read `data` and plan every mode it allows; ends with the preview or the reason it
        cannot be imported (nothing is written either way)."""
        self.pending = None
        try:
            parsed = yield from read_import(name, data)
            plans: dict[Mode, PlanSummary] = {}
            for mode in parsed.modes:
                plans[mode] = yield from self._store().preview_import(parsed, mode)
        except LexicalError as exc:
            return self.refuse_file(name, exc.message)
        except MemoryError:
            return self.refuse_file(name, "It is too big for the memory this page has.")
        self.pending = PendingImport(parsed, plans)
        mode = parsed.modes[0]
        return Update(
            patch=(PREVIEW, transfer_view.preview_view(parsed, plans, mode)),
            focus="#transfer-file-title",
        )

    def refuse_file(self, name: str, message: str) -> Update:
        """A file the browser would not even read (too big): say why, change nothing."""
        self.pending = None
        return Update(patch=(PREVIEW, transfer_view.failure_view(name, message)))

    def choose_mode(self, value: str) -> Update:
        pending = self._pending()
        mode = MODES.get(value)
        if mode is None or mode not in pending.plans:
            return Update()
        details = transfer_view.details_view(pending.parsed, pending.plans[mode])
        return Update(patch=("#transfer-details", details))

    def apply(self, value: str) -> Update:
        pending = self._pending()
        mode = MODES.get(value)
        if mode is None or mode not in pending.plans:
            raise LexicalError("Choose how to import this file first.")
        done = self._store().import_parsed(pending.parsed, mode)
        self.pending = None
        if not done.changes_anything:
            return Update(close_dialog=True, toast="Nothing to import: it is all here already.")
        update = self._refresh()
        update.close_dialog = True
        update.offer_undo = True
        name = pending.parsed.name
        update.toast = f"Imported {name}. {transfer_view.sentence(done)} Ctrl+Z undoes it."
        return update

    def _pending(self) -> PendingImport:
        if self.pending is None:
            raise LexicalError("Choose a file to import first.")
        return self.pending


def _size(data: bytes) -> str:
    if len(data) >= 1_048_576:
        return f"{len(data) / 1_048_576:,.1f} MB"
    return f"{max(1, round(len(data) / 1024)):,} KB"
