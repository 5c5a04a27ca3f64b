"""The Import / Export actions: open the dialog, export files, preview a chosen file, apply it.

Reading and previewing a file are progress steps (`preview_file`) the browser drives between
repaints; the parsed file waits here until the user presses Import, which applies it as one
undoable step planned again against the data as it is then.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING, TypeVar

from app.domain import LexicalError
from app.store.transfer import ACCEPTED, EXPORT_FILES, ExportKind, Mode, read_import
from app.store.transfer.steps import Progress
from app.ui import transfer_view
from app.ui.mapping_memory import MappingMemory
from app.ui.update import Download, Update

if TYPE_CHECKING:  # only types: the import machinery loads when a file is chosen
    from app.store import Store
    from app.store.transfer.parsed import ParsedImport
    from app.store.transfer.plan import PlanSummary
    from app.store.transfer.records import ImportChoices
    from app.store.transfer.steps import Steps

T = TypeVar("T")
Handler = Callable[[int | None, Mapping[str, str]], Update]
PREVIEW = "#transfer-preview"
MODES: dict[str, Mode] = {"merge": "merge", "replace": "replace"}


@dataclass
class PendingImport:
    """A file read for import, with what each way of importing it would change."""

    parsed: ParsedImport
    plans: dict[Mode, PlanSummary]


class TransferActions:
    """`store` gives the current store (a tab may reload it); `refresh` redraws after changes."""

    def __init__(
        self,
        store: Callable[[], Store],
        refresh: Callable[[], Update],
        today: Callable[[], date] = date.today,
        memory: MappingMemory | None = None,
        utc_offset: Callable[[], int] = lambda: 0,
    ) -> None:
        self._store = store
        self._utc_offset = utc_offset  # local time minus UTC: the study days of imported reviews
        self._refresh = refresh
        self._today = today
        self.memory = memory or MappingMemory()
        self.pending: PendingImport | None = None

    def actions(self) -> dict[str, Handler]:
        return {
            "transfer": lambda _i, _d: self.open(),
            "export-json": lambda _i, _d: self.export("json"),
            "export-sqlite": lambda _i, _d: self.export("sqlite"),
            "export-csv": lambda _i, _d: self.export("csv"),
            "transfer-mode": lambda _i, d: self.choose_mode(d.get("text", "")),
            "transfer-apply": lambda _i, d: self.apply(d.get("mode", "")),
            "transfer-map": lambda _i, d: self.map_field(d.get("text", "")),
            "transfer-header": lambda _i, d: self.choose_header(d.get("text", "")),
            "transfer-lang": lambda _i, d: self.choose_lang(d.get("text", "")),
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
            parsed = yield from read_import(name, data, self.memory.recall)
            study = parsed.workspace.study
            if study is not None and study.histories:
                yield Progress("Loading the study scheduler", 0, 1, needs_scheduler=True)
            plans: dict[Mode, PlanSummary] = {}
            for mode in parsed.modes:
                plans[mode] = yield from self._store().preview_import(
                    parsed, mode, self._utc_offset()
                )
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

    def map_field(self, value: str) -> Update:
        """A field's select changed: `value` is "table:field:role"."""
        from app.store.transfer.records import role_named  # noqa: PLC0415
        from app.ui.mapping_view import select_id  # noqa: PLC0415

        choices = self._choices()
        *numbers, name = value.split(":")
        table, field = _indices(numbers, 2)
        role = role_named(name)
        if not 0 <= table < len(choices.tables) or role is None:
            return Update()
        mapping = choices.tables[table]
        if not 0 <= field < len(mapping.roles):
            return Update()
        roles = list(mapping.roles)
        if role == "term":  # one term: the field that was it becomes what this one was
            roles = [mapping.roles[field] if r == "term" else r for r in roles]
        roles[field] = role
        new = replace(mapping, roles=tuple(roles))
        focus = f"#{select_id(table, field)}"
        return self._remap(replace(choices, tables=_swap(choices.tables, table, new)), focus)

    def choose_header(self, value: str) -> Update:
        """The "first row holds" radio changed: `value` is "table:1" (column names) or ":0"."""
        from app.store.transfer.field_guess import guess  # noqa: PLC0415

        choices = self._choices()
        table, header = _indices(value.split(":"), 2)
        source = self._pending().parsed.source
        if source is None or not 0 <= table < len(choices.tables) or header not in (0, 1):
            return Update()
        new = guess(source.tables[table], header=bool(header))
        focus = f'input[name="header-{table}"]:checked'
        return self._remap(replace(choices, tables=_swap(choices.tables, table, new)), focus)

    def choose_lang(self, text: str) -> Update:
        return self._remap(replace(self._choices(), lang=text.strip()), None)

    def _remap(self, choices: ImportChoices, focus: str | None) -> Update:
        """Build the words again with `choices` and redraw the preview's body."""
        from app.store.transfer.mapping import build  # noqa: PLC0415
        from app.store.transfer.steps import run_steps  # noqa: PLC0415

        pending = self._pending()
        assert pending.parsed.source is not None
        mode = next(iter(pending.plans))
        try:
            parsed = run_steps(build(pending.parsed.source, choices))
        except LexicalError as exc:
            body = transfer_view.body_view(pending.parsed, pending.plans, mode, exc.message)
            return Update(patch=(transfer_view.BODY, body))
        plans = {
            m: run_steps(self._store().preview_import(parsed, m, self._utc_offset()))
            for m in parsed.modes
        }
        self.pending = PendingImport(parsed, plans)
        return Update(
            patch=(transfer_view.BODY, transfer_view.body_view(parsed, plans, mode)), focus=focus
        )

    def _choices(self) -> ImportChoices:
        choices = self._pending().parsed.choices
        if choices is None:
            raise LexicalError("This file has no fields to map.")
        return choices

    def apply(self, value: str) -> Update:
        pending = self._pending()
        mode = MODES.get(value)
        if mode is None or mode not in pending.plans:
            raise LexicalError("Choose how to import this file first.")
        done = self._store().import_parsed(pending.parsed, mode, self._utc_offset())
        self.pending = None
        source, choices = pending.parsed.source, pending.parsed.choices
        if source is not None and choices is not None:
            for table, mapping in zip(source.tables, choices.tables, strict=True):
                self.memory.remember(table.key, mapping)
        if not done.changes_anything:
            return Update(close_dialog=True, toast="Nothing to import: it is all here already.")
        update = self._refresh()
        update.close_dialog = True
        update.offer_undo = True
        name = pending.parsed.name
        update.toast = (
            f"Imported {name}. {transfer_view.sentence(done, done=True)} Ctrl+Z undoes it."
        )
        if self._store().schedules_stale:  # an older file's due dates (decision 045)
            from app.ui.study_actions import stale_replayed  # noqa: PLC0415 (first use)

            update.then = stale_replayed(self._store(), f"Imported {name}").then
        return update

    def _pending(self) -> PendingImport:
        if self.pending is None:
            raise LexicalError("Choose a file to import first.")
        return self.pending


def _indices(parts: list[str], count: int) -> list[int]:
    """`count` numbers from a choice's value ("0:3" of "0:3:term"); -1s when malformed."""
    if len(parts) != count or not all(p.isdigit() for p in parts):
        return [-1] * count
    return [int(p) for p in parts]


def _swap(tables: tuple[T, ...], index: int, new: T) -> tuple[T, ...]:
    return (*tables[:index], new, *tables[index + 1 :])


def _size(data: bytes) -> str:
    if len(data) >= 1_048_576:
        return f"{len(data) / 1_048_576:,.1f} MB"
    return f"{max(1, round(len(data) / 1024)):,} KB"
