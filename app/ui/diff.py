"""What changed between two renders of one page region, so the browser touches only that.

Editing a word redraws a folder of hundreds of rows as a new element tree, but only that word's
row differs; rebuilding the whole DOM would cost far more than the edit. `diff` walks both
trees and returns the few replacements and appends that turn the old DOM into the new one.

Form controls keep live state the tree does not describe (typed text, an open <details>), so a
subtree holding one is always replaced, never reused: after "Add word" the form comes back
empty, exactly as a full redraw would leave it.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.text.nodes import LIVE_TAGS, Node

Path = tuple[int, ...]  # child indexes from the region's root element


@dataclass(frozen=True)
class Replace:
    path: Path
    node: Node


@dataclass(frozen=True)
class Append:
    path: Path
    nodes: tuple[Node, ...]


Patch = Replace | Append


def diff(old: Node, new: Node) -> list[Patch]:
    patches: list[Patch] = []
    _diff(old, new, (), patches)
    return patches


def _diff(old: Node, new: Node, path: Path, out: list[Patch]) -> None:
    if isinstance(old, str) or isinstance(new, str):
        if old != new:
            out.append(Replace(path, new))
        return
    if old is new and not new.live:  # a row reused as is (app.ui.folder_view)
        return
    if (
        old.tag == new.tag
        and old.tag not in LIVE_TAGS
        and old.attrs == new.attrs
        and len(new.children) >= len(old.children)
    ):
        for index, (was, now) in enumerate(zip(old.children, new.children, strict=False)):
            _diff(was, now, (*path, index), out)
        if len(new.children) > len(old.children):
            out.append(Append(path, new.children[len(old.children) :]))
        return
    out.append(Replace(path, new))
