"""The import preview's field mapping: each field of a word list or deck with an example and
what it becomes (a select per field), whether a CSV file's first row names its columns, and
one language for the words that do not give their own."""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING

from app.store.transfer.field_guess import UNDERSTOOD_NAMES
from app.store.transfer.records import ROLE_NAMES, ROLES
from app.text.nodes import Child, El, h
from app.ui.widgets import table_box

if TYPE_CHECKING:
    from app.store.transfer.records import (
        FieldTable,
        ImportChoices,
        Record,
        RecordSource,
        TableMapping,
    )

EXAMPLE_CHARS = 60
LOOKED_AT = 50  # records searched for an example of a field
SOUND = "♪ sound file (not imported)"


def select_id(table: int, field: int) -> str:
    return f"map-{table}-{field}"


def mapping_view(source: RecordSource, choices: ImportChoices) -> El:
    tables = list(zip(source.tables, choices.tables, strict=True))
    return h(
        "section",
        {"class": "transfer-list mapping", "aria-labelledby": "mapping-title"},
        h("h4", {"id": "mapping-title"}, "What each field becomes"),
        (_table(index, t, m, len(tables) > 1) for index, (t, m) in enumerate(tables)),
        h(
            "p",
            {"class": "meta-line"},
            f"Column names Lexical recognises: {UNDERSTOOD_NAMES}.",
        )
        if source.kind == "csv"
        else None,
    )


def _table(index: int, table: FieldTable, mapping: TableMapping, titled: bool) -> Child:
    names = table.names(mapping.header)
    rows = table.rows(mapping.header)
    title = table.title if titled or table.header is None else None
    return (
        h("p", {"class": "mapping-title"}, h("strong", None, title)) if title else None,
        _header_choice(index, mapping.header) if table.header is not None else None,
        table_box(
            f"Fields of {table.title}",
            ("Field", "Example", "Becomes"),
            (
                h(
                    "tr",
                    None,
                    h("td", None, name),
                    h("td", {"class": "mapping-example"}, _example(table, rows, field)),
                    h("td", None, _role_select(index, field, name, mapping)),
                )
                for field, name in enumerate(names)
            ),
        ),
    )


def _header_choice(index: int, header: bool) -> El:
    group = f"header-{index}"
    return h(
        "div",
        {"class": "mode-choice", "role": "radiogroup", "aria-labelledby": f"{group}-title"},
        h("p", {"id": f"{group}-title", "class": "mode-title"}, "The first row holds"),
        (
            h(
                "label",
                {"class": "mode-option"},
                h(
                    "input",
                    {
                        "type": "radio",
                        "name": group,
                        "value": f"{index}:{int(value)}",
                        "checked": header == value,
                        "data-input-action": "transfer-header",
                    },
                ),
                h("span", None, label),
            )
            for value, label in ((True, "column names"), (False, "words"))
        ),
    )


def _example(table: FieldTable, rows: list[Record], field: int) -> str:
    for record in islice(rows, LOOKED_AT):
        value = " ".join(record.values[field].split())
        if value:
            return value if len(value) <= EXAMPLE_CHARS else value[: EXAMPLE_CHARS - 1] + "…"
    return SOUND if field in table.audio else "(empty)"


def _role_select(index: int, field: int, name: str, mapping: TableMapping) -> El:
    return h(
        "select",
        {
            "id": select_id(index, field),
            "aria-label": f"{name} becomes",
            "data-input-action": "transfer-map",
        },
        (
            h(
                "option",
                {"value": f"{index}:{field}:{role}", "selected": role == mapping.roles[field]},
                ROLE_NAMES[role],
            )
            for role in ROLES
        ),
    )


def language_field(lang: str) -> El:
    return h(
        "div",
        {"class": "field mapping-lang"},
        h("label", {"for": "transfer-lang"}, "Language of these words (optional)"),
        h(
            "input",
            {
                "id": "transfer-lang",
                "name": "lang",
                "value": lang,
                "placeholder": "e.g. de, zh-Hans",
                "autocomplete": "off",
                "spellcheck": "false",
                "aria-describedby": "transfer-lang-hint",
                "data-input-action": "transfer-lang",
            },
        ),
        h(
            "p",
            {"id": "transfer-lang-hint", "class": "meta-line"},
            "A language tag for every word that does not name its own, so it is spoken and "
            "studied in that language.",
        ),
    )
