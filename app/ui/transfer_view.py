"""The Import / Export dialog: export buttons, a file picker, progress, and the preview of an
import (counts, folders to create, first rows, skipped rows with reasons, Merge or Replace)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from app.text.counting import counted_list as _counted
from app.text.nodes import El, Node, h
from app.ui.widgets import action, form_error, table_box

if TYPE_CHECKING:  # only types: the import machinery loads when a file is chosen
    from app.store.transfer import Mode
    from app.store.transfer.model import SkippedRow
    from app.store.transfer.parsed import ParsedImport
    from app.store.transfer.plan import PlanSummary, SampleRow
    from app.store.transfer.steps import Progress

BODY = "#transfer-body"
LISTED_FOLDERS = 50
LISTED_SKIPS = 200
KIND_NAMES = {
    "backup": "JSON backup",
    "database": "Lexical database",
    "csv": "Word list",
    "anki": "Anki deck",
}
OUTCOMES = {"add": "✓ add", "update": "↻ update", "merge": "＋ into the same term", "skip": "skip"}


def transfer_dialog(accept: str) -> El:
    return h(
        "div",
        None,
        h(
            "div",
            {"class": "dialog-head"},
            h("h2", {"id": "dialog-title"}, "Import / Export"),
            action("Close", "close-dialog", None, **{"class": "small-button"}),
        ),
        _part(
            "Export",
            "Download your whole collection (folders, words, notes and study progress; the "
            "CSV holds words only) to keep a copy or move it elsewhere. Settings and API keys "
            "are never included.",
            h(
                "div",
                {"class": "export-buttons"},
                action("Download JSON backup", "export-json"),
                action("Download SQLite database", "export-sqlite"),
                action("Download CSV of words", "export-csv"),
            ),
        ),
        _part(
            "Import",
            "A JSON backup or SQLite database (merge it in or restore it), a CSV/TSV word "
            "list, or an Anki deck (.apkg). You see what will change before anything is "
            "written, and Undo takes it back.",
            h("label", {"for": "transfer-file"}, "Choose a file to import"),
            h(
                "input",
                {
                    "id": "transfer-file",
                    "type": "file",
                    "accept": accept,
                    "data-file-action": "transfer-file",
                },
            ),
            h("div", {"id": "transfer-preview", "aria-live": "polite"}),
        ),
    )


def _part(title: str, explanation: str, *body: Node) -> El:
    """One half of the dialog (Export, Import): a titled section with a line of explanation."""
    title_id = f"{title.lower()}-title"
    return h(
        "section",
        {"class": "transfer-part", "aria-labelledby": title_id},
        h("h3", {"id": title_id}, title),
        h("p", {"class": "meta-line"}, explanation),
        *body,
    )


def progress_view(name: str, step: Progress) -> El:
    percent = round(100 * step.done / step.total) if step.total else 0
    return h(
        "div",
        {"class": "transfer-progress"},
        h("p", None, f"{name}: {step.stage}… {percent}%"),
        h(
            "progress",
            {"max": max(step.total, 1), "value": step.done, "aria-label": f"{step.stage}"},
        ),
    )


def failure_view(name: str, message: str) -> El:
    return h(
        "div",
        {"class": "transfer-failure", "role": "alert"},
        h("p", None, h("strong", None, f"{name} cannot be imported. "), message),
        h("p", {"class": "meta-line"}, "Nothing was changed."),
    )


def preview_view(
    parsed: ParsedImport, plans: Mapping[Mode, PlanSummary], mode: Mode, lang_error: str = ""
) -> El:
    """The import form: the file's name, a language for a word list or deck, and the body
    (what the file holds, how its fields map, the mode choice for backups and the details)."""
    from app.ui.mapping_view import language_field  # noqa: PLC0415

    return h(
        "form",
        {"data-action": "transfer-apply", "aria-label": "Import preview", "class": "transfer-form"},
        h("h3", {"id": "transfer-file-title", "tabindex": "-1"}, parsed.name),
        language_field(parsed.choices.lang) if parsed.choices is not None else None,
        h("div", {"id": BODY[1:]}, body_view(parsed, plans, mode, lang_error)),
    )


def body_view(
    parsed: ParsedImport, plans: Mapping[Mode, PlanSummary], mode: Mode, lang_error: str = ""
) -> El:
    """The part of the form a new mapping or language redraws."""
    from app.ui.mapping_view import mapping_view  # noqa: PLC0415

    workspace = parsed.workspace
    return h(
        "div",
        None,
        h("p", {"class": "form-error", "role": "alert"}, lang_error) if lang_error else None,
        h("p", {"class": "meta-line"}, f"{KIND_NAMES[parsed.kind]} · {_holds(parsed)}"),
        (h("p", {"class": "meta-line"}, remark) for remark in parsed.remarks),
        _unstudiable(sum(1 for word in workspace.words if not word.meanings)),
        mapping_view(parsed.source, parsed.choices)
        if parsed.source is not None and parsed.choices is not None
        else None,
        _mode_choice(plans, mode) if len(plans) > 1 else _fixed_mode(mode),
        h(
            "div",
            {"id": "transfer-details"},
            details_view(parsed, plans[mode], blocked=bool(lang_error)),
        ),
    )


def _holds(parsed: ParsedImport) -> str:
    """What the file holds. A list's or deck's rows are counted as rows: several may become
    one word (the same term), which the summary below says."""
    workspace = parsed.workspace
    if parsed.source is not None:
        rows = f"{len(workspace.words):,} row{'s' if len(workspace.words) != 1 else ''} with a term"
        folders = _counted((len(workspace.folders), "folder"))
        return f"{rows}, {folders}" if folders else rows
    counts = _counted(
        (len(workspace.folders), "folder"),
        (len(workspace.words), "word"),
        (len(workspace.notes), "note"),
    )
    return counts or "no words"


def _unstudiable(count: int) -> El | None:
    if not count:
        return None
    said = (
        "1 word has no meaning: it is kept and can be searched, but cannot be studied until it "
        "gets one."
        if count == 1
        else f"{count:,} words have no meaning: they are kept and can be searched, but cannot "
        "be studied until they get one."
    )
    return h("p", {"class": "meta-line"}, said)


def _fixed_mode(mode: Mode) -> El:
    return h("input", {"type": "hidden", "name": "mode", "value": mode})


def _mode_choice(plans: Mapping[Mode, PlanSummary], mode: Mode) -> El:
    titles = {"merge": "Merge", "replace": "Replace"}
    return h(
        "div",
        {"class": "mode-choice", "role": "radiogroup", "aria-labelledby": "mode-title"},
        h("p", {"id": "mode-title", "class": "mode-title"}, "How to import this backup"),
        (
            h(
                "label",
                {"class": "mode-option"},
                h(
                    "input",
                    {
                        "type": "radio",
                        "name": "mode",
                        "value": option,
                        "checked": option == mode,
                        "data-input-action": "transfer-mode",
                    },
                ),
                h("span", None, h("strong", None, titles[option]), f": {sentence(plan)}"),
            )
            for option, plan in plans.items()
        ),
    )


def details_view(parsed: ParsedImport, plan: PlanSummary, *, blocked: bool = False) -> El:
    label = parsed.item_label
    return h(
        "div",
        None,
        h("p", {"class": "preview-summary", "data-role": "transfer-summary"}, sentence(plan)),
        (h("p", {"class": "meta-line"}, note) for note in plan.study_notes),
        _folders(plan),
        _sample(plan.sample, label),
        _rows(
            "merged",
            f"Added to a word with the same term ({plan.merged_words:,})",
            plan.merged,
            plan.merged_words,
            label,
        ),
        _rows(
            "skipped", f"Skipped ({plan.skipped_total:,})", plan.skipped, plan.skipped_total, label
        ),
        form_error(),
        h(
            "div",
            {"class": "form-actions"},
            action("Cancel", "close-dialog"),
            _import_button(plan, blocked=blocked),
        ),
    )


def _import_button(plan: PlanSummary, *, blocked: bool = False) -> El:
    if blocked:
        return h("button", {"type": "submit", "class": "primary", "disabled": True}, "Import")
    if not plan.changes_anything:
        return h(
            "button", {"type": "submit", "class": "primary", "disabled": True}, "Nothing to import"
        )
    replace = plan.mode == "replace"
    return h(
        "button",
        {"type": "submit", "class": "primary danger" if replace else "primary"},
        "Replace my workspace" if replace else "Import",
    )


# The verbs of `sentence`, before an import (the preview) and after it (the toast).
_VERBS = {
    False: ("Adds", "brings", "updates", "adds", "skips", "leaves out", "becomes", "now are"),
    True: ("Added", "brought", "updated", "added", "skipped", "left out", "became", "were"),
}


def sentence(plan: PlanSummary, *, done: bool = False) -> str:
    """One plain sentence of what the import does (or, once `done`, did)."""
    adds, brings, updates, merges, skips, leaves, becomes, are = _VERBS[done]
    added = _counted(
        (plan.new_folders, "folder"), (plan.new_words, "word"), (plan.new_notes, "note")
    )
    progress = _progress(plan.cards, plan.reviews)
    if plan.mode == "replace":
        removed = _counted(*zip(plan.removed, ("folder", "word", "note"), strict=True))
        if removed and plan.removed_cards:
            removed += f", with the study progress of {_counted((plan.removed_cards, 'card'))},"
        gone = f" The {removed} here {are} removed (Undo brings them back)." if removed else ""
        with_progress = f", with {progress}" if progress else ""
        return f"Your workspace {becomes} this file: {added or 'nothing'}{with_progress}.{gone}"
    parts = [f"{adds} {added}" if added else f"{adds} nothing new"]
    if progress:
        parts.append(f"{brings} {progress}")
    if plan.updated_words:
        parts.append(f"{updates} {_counted((plan.updated_words, 'word'))} with what it adds")
    if plan.merged_words:
        rows = _counted((plan.merged_words, "row"))
        parts.append(f"{merges} the meanings of {rows} to words with the same term")
    duplicates = plan.duplicate_words + plan.duplicate_notes
    problems = plan.skipped_total - plan.duplicate_words
    if duplicates:
        parts.append(f"{skips} {_counted((duplicates, 'duplicate'))}")
    if problems:
        parts.append(f"{leaves} {_counted((problems, 'row'))} with problems")
    return "; ".join(parts) + "."


def _progress(cards: int, reviews: int) -> str:
    """ "the study progress of 3 cards (120 reviews)", or nothing when no card comes along."""
    if not cards:
        return ""
    log = f" ({_counted((reviews, 'review'))})" if reviews else ""
    return f"the study progress of {_counted((cards, 'card'))}{log}"


def _folders(plan: PlanSummary) -> Node | None:
    if not plan.new_folders:
        return None
    shown = plan.folder_paths[:LISTED_FOLDERS]
    more = plan.new_folders - len(shown)
    return h(
        "section",
        {"class": "transfer-list", "aria-labelledby": "new-folders-title"},
        h("h4", {"id": "new-folders-title"}, f"Folders to create ({plan.new_folders:,})"),
        h("ul", {"class": "folder-paths"}, (h("li", None, path) for path in shown)),
        h("p", {"class": "meta-line"}, f"…and {more:,} more.") if more > 0 else None,
    )


def _table(label: str, headers: Sequence[str], rows: Sequence[Sequence[Node]]) -> El:
    cells = (h("tr", None, (h("td", None, c) for c in row)) for row in rows)
    return table_box(label, headers, cells)


def _line(line: int | None) -> str:
    return "" if line is None else f"{line:,}"


def _sample(rows: Sequence[SampleRow], label: str) -> Node | None:
    if not rows:
        return None
    return h(
        "section",
        {"class": "transfer-list", "aria-labelledby": "first-rows-title"},
        h("h4", {"id": "first-rows-title"}, "First rows"),
        _table(
            "First rows",
            (label, "Folder", "Term", "Meanings", "Result"),
            [
                (_line(r.line), r.folder, r.term, "; ".join(r.meanings), OUTCOMES[r.outcome])
                for r in rows
            ],
        ),
    )


def _rows(name: str, title: str, rows: Sequence[SkippedRow], total: int, label: str) -> Node | None:
    """A list of rows with what happened to each (skipped, or added to another word)."""
    if not rows:
        return None
    shown = rows[:LISTED_SKIPS]
    return h(
        "section",
        {"class": "transfer-list", "aria-labelledby": f"{name}-title"},
        h("h4", {"id": f"{name}-title"}, title),
        _table(
            f"{name.title()} rows",
            (label, "Term", "Why" if name == "skipped" else "What"),
            [(_line(r.line), r.term, r.reason) for r in shown],
        ),
        h("p", {"class": "meta-line"}, f"Showing the first {len(shown):,}.")
        if total > len(shown)
        else None,
    )
