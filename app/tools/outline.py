"""A bounded outline of the folder tree: as deep as fits, with counts for what is left out.

Used by GET_FOLDER_STRUCTURE and by the context sent with every request, so a tree of thousands
of folders is summarised (the deepest level that fits in `max_rows`, each cut-off folder saying
how many subfolders it hides) instead of dumped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from app.domain import FolderId
from app.store.results import TreeRow
from app.tools.resolve import SEPARATOR


@dataclass(frozen=True)
class OutlineRow:
    name: str
    path: str
    depth: int  # 0 for the outline's top rows
    total_words: int  # in the folder and everything under it
    hidden_subfolders: int  # direct subfolders not shown because of the depth cut


@dataclass(frozen=True)
class Outline:
    rows: list[OutlineRow]
    depth: int  # the deepest level shown
    folders: int  # in the whole outlined tree
    omitted: int  # folders not shown


def _subtree(rows: Sequence[TreeRow], root: FolderId | None) -> list[tuple[TreeRow, int]]:
    """(row, depth relative to the outline) for the root's subtree in depth-first order."""
    if root is None:
        return [(r, r.depth) for r in rows]
    start = next(i for i, r in enumerate(rows) if r.folder.id == root)
    base = rows[start].depth
    picked = [(rows[start], 0)]
    for row in rows[start + 1 :]:
        if row.depth <= base:
            break
        picked.append((row, row.depth - base))
    return picked


def _paths(rows: Sequence[TreeRow]) -> dict[FolderId, str]:
    names: list[str] = []
    paths: dict[FolderId, str] = {}
    for row in rows:
        del names[row.depth :]
        names.append(row.folder.name)
        paths[row.folder.id] = SEPARATOR.join(names)
    return paths


def outline(
    rows: Sequence[TreeRow], root: FolderId | None = None, *, max_depth: int, max_rows: int
) -> Outline:
    """Outline the whole tree (or `root`'s subtree, `root` at depth 0) from `folder_tree()`."""
    picked = _subtree(rows, root)
    per_depth = Counter(depth for _, depth in picked)
    depth, shown = 0, 0
    while depth <= max_depth and shown + per_depth.get(depth, 0) <= max_rows:
        shown += per_depth.get(depth, 0)
        depth += 1
    depth = max(0, depth - 1)
    children = Counter(r.folder.parent_id for r, _ in picked)
    paths = _paths(rows)
    out = [
        OutlineRow(
            name=r.folder.name,
            path=paths[r.folder.id],
            depth=d,
            total_words=r.total_words,
            hidden_subfolders=children.get(r.folder.id, 0) if d == depth else 0,
        )
        for r, d in picked
        if d <= depth
    ][:max_rows]
    return Outline(rows=out, depth=depth, folders=len(picked), omitted=len(picked) - len(out))
