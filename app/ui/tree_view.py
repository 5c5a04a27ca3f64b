"""The folder tree in the sidebar: nested lists of links, collapsed unless opened or on the path.

Only expanded branches are rendered, so a workspace of thousands of folders stays a small DOM.
Rows carry `data-folder-id` so the browser can wire drag-and-drop moves onto them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from app.domain import FolderId
from app.store.due_counts import DueCount
from app.store.results import TreeRow
from app.text.nodes import El, h
from app.ui.routes import Route


def folder_label(emoji: str, name: str) -> str:
    return f"{emoji} {name}" if emoji else name


def name_and_count(label: str, total: int, name_class: str, count_class: str) -> list[El]:
    """A folder's name and the bare number people see, read out as "Name, N words".

    The comma and noun are unseen text rather than an aria-label, so a link's accessible name
    still contains its visible text (WCAG 2.5.3). The comma stays inline (transparent, not
    taken out of the flow) because Chromium pads out-of-flow text with spaces: "Cells , 4".
    """
    noun = "word" if total == 1 else "words"
    return [
        h("span", {"class": name_class}, label, h("span", {"class": "unseen"}, ",")),
        h(
            "span",
            {"class": count_class},
            f"{total:,}",
            h("span", {"class": "visually-hidden"}, f" {noun}"),
        ),
    ]


Children = dict[int | None, list[TreeRow]]
Counts = Mapping[FolderId, DueCount]


def due_badge(count: DueCount | None) -> El | None:
    """What is due and new today, as two small numbers read out in words."""
    if count is None or not (count.due or count.new):
        return None
    return h(
        "span",
        {"class": "due-badge"},
        h("span", {"class": "due", "hidden": not count.due}, f"{count.due:,}"),
        h("span", {"class": "new", "hidden": not count.new}, f"{count.new:,}"),
        h("span", {"class": "visually-hidden"}, f" ({count.due:,} due, {count.new:,} new)"),
    )


def children_by_parent(rows: Sequence[TreeRow]) -> Children:
    children: Children = defaultdict(list)
    for row in rows:
        children[row.folder.parent_id].append(row)
    return children


def render_tree(
    children: Children, current: int | None, expanded: Collection[int], counts: Counts
) -> El:
    if not children:
        return h("p", {"class": "empty"}, "No folders yet. Create one to start collecting words.")
    return h(
        "ul",
        {"class": "tree", "aria-label": "Folder tree"},
        _branch(_Tree(children, current, expanded, counts), None),
    )


class TreeViews:
    """The folder tree grouped by parent and the sidebar drawn from it, each built again only
    when what it shows changes: an edit that leaves folders and counts alone (most of them)
    then redraws no part of the sidebar. The store hands out the same tree until it changes."""

    def __init__(self) -> None:
        self._rows: Sequence[TreeRow] | None = None
        self._children: Children = {}
        self._drawn_rows: Sequence[TreeRow] | None = None
        self._drawn_state: tuple[int | None, frozenset[int]] | None = None
        self._drawn_counts: Counts | None = None
        self._sidebar: El | None = None

    def children(self, rows: Sequence[TreeRow]) -> Children:
        if rows is not self._rows:
            self._rows, self._children = rows, children_by_parent(rows)
        return self._children

    def sidebar(
        self,
        rows: Sequence[TreeRow],
        current: int | None,
        expanded: Collection[int],
        counts: Counts,
    ) -> El:
        state = (current, frozenset(expanded))
        if (
            self._sidebar is None
            or rows is not self._drawn_rows
            or counts is not self._drawn_counts
            or state != self._drawn_state
        ):
            self._sidebar = render_tree(self.children(rows), current, expanded, counts)
            self._drawn_rows, self._drawn_state, self._drawn_counts = rows, state, counts
        return self._sidebar


@dataclass(frozen=True, slots=True)
class _Tree:
    """What every row of one drawing of the tree needs."""

    children: Children
    current: int | None
    expanded: Collection[int]
    counts: Counts


def _branch(tree: _Tree, parent: int | None) -> list[El]:
    return [_item(tree, row) for row in tree.children.get(parent, [])]


def _item(tree: _Tree, row: TreeRow) -> El:
    folder = row.folder
    has_children = bool(tree.children.get(folder.id))
    is_open = has_children and folder.id in tree.expanded
    label = folder_label(folder.emoji, folder.name)
    toggle = (
        h(
            "button",
            {
                "type": "button",
                "class": "tree-toggle",
                "data-action": "toggle-folder",
                "data-id": folder.id,
                "aria-expanded": "true" if is_open else "false",
                "aria-label": f"{'Collapse' if is_open else 'Expand'} {folder.name}",
            },
            "▾" if is_open else "▸",
        )
        if has_children
        else h("span", {"class": "tree-spacer", "aria-hidden": "true"})
    )
    link = h(
        "a",
        {
            "href": Route(folder.id).to_hash(),
            "aria-current": "page" if folder.id == tree.current else None,
        },
        h("span", {"class": "swatch", "data-color": folder.color, "aria-hidden": "true"}),
        name_and_count(label, row.total_words, "tree-name", "tree-count"),
    )
    row_el = h(
        "div",
        {"class": "tree-row", "data-folder-id": folder.id, "draggable": "true"},
        toggle,
        link,
        due_badge(tree.counts.get(folder.id)),
    )
    nested = h("ul", None, _branch(tree, folder.id)) if is_open else None
    return h("li", None, row_el, nested)
