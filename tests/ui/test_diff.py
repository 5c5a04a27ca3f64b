"""Region updates: the patches between two renders rebuild exactly the new tree, touch only
what changed, and never reuse a form control (its live state would leak into the new view)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.text.nodes import El, Node, h
from app.ui.diff import Append, Patch, Replace, diff


def apply(root: Node, patches: list[Patch]) -> Node:
    """What the browser does to the DOM, done to the element tree."""
    for patch in patches:
        root = _apply_at(root, patch, 0)
    return root


def _apply_at(node: Node, patch: Patch, depth: int) -> Node:
    if depth == len(patch.path):
        if isinstance(patch, Replace):
            return patch.node
        assert isinstance(node, El)
        return El(node.tag, node.attrs, (*node.children, *patch.nodes))
    assert isinstance(node, El)
    children = list(node.children)
    index = patch.path[depth]
    children[index] = _apply_at(children[index], patch, depth + 1)
    return El(node.tag, node.attrs, tuple(children))


def _folder(terms: list[str], *, editing: int | None = None) -> El:
    rows = [
        h("li", {"data-id": i}, h("form", None, h("input", {"value": t})))
        if i == editing
        else h("li", {"data-id": i}, h("span", None, t), h("button", None, "Edit"))
        for i, t in enumerate(terms)
    ]
    return h("div", None, h("h1", None, "Folder"), h("form", None, h("input")), h("ul", None, rows))


def test_an_unchanged_region_needs_nothing_but_its_forms() -> None:
    view = _folder(["a", "b", "c"])
    assert diff(view, _folder(["a", "b", "c"])) == [Replace((1,), view.children[1])]


def test_editing_one_row_replaces_only_that_row() -> None:
    before, after = _folder(["a", "b", "c"]), _folder(["a", "B", "c"])
    patches = diff(before, after)
    assert Replace((2, 1, 0, 0), "B") in patches
    assert all(p.path[:1] != (2,) or p.path[:2] == (2, 1) for p in patches)
    assert apply(before, patches) == after


def test_a_row_turned_into_a_form_is_replaced_whole() -> None:
    before, after = _folder(["a", "b"]), _folder(["a", "b"], editing=1)
    assert Replace((2, 1), after.children[2].children[1]) in diff(before, after)  # type: ignore[union-attr]


def test_more_rows_are_appended_and_fewer_rebuild_the_list() -> None:
    short, long = _folder(["a", "b"]), _folder(["a", "b", "c", "d"])
    grow = diff(short, long)
    assert Append((2,), long.children[2].children[2:]) in grow  # type: ignore[union-attr]
    assert apply(short, grow) == long
    assert Replace((2,), short.children[2]) in diff(long, short)


TAGS = st.sampled_from(["div", "ul", "li", "span", "form", "input", "details"])
TEXT = st.sampled_from(["a", "b", "Ünï", ""])


def _trees() -> st.SearchStrategy[Node]:
    return st.recursive(
        TEXT,
        lambda children: st.builds(
            lambda tag, key, kids: h(tag, {"data-k": key}, kids),
            TAGS,
            st.sampled_from(["1", "2"]),
            st.lists(children, max_size=4),
        ),
        max_leaves=20,
    )


@settings(max_examples=200, deadline=None)
@given(_trees(), _trees())
def test_patches_always_rebuild_the_new_tree(old: Node, new: Node) -> None:
    root_old, root_new = h("div", None, old), h("div", None, new)
    assert apply(root_old, diff(root_old, root_new)) == root_new
