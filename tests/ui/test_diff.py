"""Region updates: the patches between two renders rebuild exactly the new tree and touch only
what changed. A form control drawn the same way is kept with what the user typed into it,
except in the form whose action just ran, which comes back as a new form does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.text.nodes import El, Node, h
from app.ui.diff import Append, Patch, Replace, diff, the_form


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


def test_an_unchanged_region_needs_nothing_and_keeps_what_was_typed_in_its_forms() -> None:
    assert diff(_folder(["a", "b", "c"]), _folder(["a", "b", "c"])) == []


def test_the_form_whose_action_ran_is_drawn_afresh() -> None:
    def page(*forms: El) -> El:
        return h("div", None, h("h1", None, "Folder"), *forms)

    add = h("form", {"data-action": "save-word"}, h("input", {"name": "term"}))
    edit = h("form", {"data-action": "save-word", "data-id": 7}, h("input", {"value": "x"}))
    old, new = page(add, edit), page(add, edit)
    assert diff(old, new, the_form("save-word", None)) == [Replace((1,), add)]
    assert diff(old, new, the_form("save-word", "7")) == [Replace((2,), edit)]
    assert diff(old, new, the_form("edit-word", "7")) == []
    # Inside another live element (an open <details>) the whole element is drawn again.
    folded = page(h("details", None, h("summary", None, "More"), add))
    assert diff(folded, folded, the_form("save-word", None)) == [Replace((1,), folded.children[1])]


def test_a_form_drawn_differently_is_replaced() -> None:
    before = h("div", None, h("form", None, h("input", {"value": "cat"})))
    after = h("div", None, h("form", None, h("input", {"value": "cats"})))
    assert diff(before, after) == [Replace((0,), after.children[0])]


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


@settings(max_examples=300, deadline=None)
@given(_trees(), _trees(), st.sampled_from([None, "1", "2"]))
def test_patches_always_rebuild_the_new_tree(old: Node, new: Node, fresh: str | None) -> None:
    root_old, root_new = h("div", None, old), h("div", None, new)
    patches = diff(root_old, root_new, the_form("go", fresh) if fresh else None)
    assert apply(root_old, patches) == root_new


def _forms(node: Node) -> list[El]:
    if isinstance(node, str):
        return []
    own = [node] if node.tag == "form" and node.attrs.get("data-action") == "go" else []
    return own + [form for child in node.children for form in _forms(child)]


@settings(max_examples=300, deadline=None)
@given(_trees())
def test_the_form_whose_action_ran_is_always_in_a_replaced_subtree(tree: Node) -> None:
    def submitted(node: Node) -> Node:
        if isinstance(node, str):
            return node
        attrs = {**node.attrs, "data-action": "go"} if node.tag == "form" else node.attrs
        return El(node.tag, attrs, tuple(submitted(c) for c in node.children))

    root = h("div", None, submitted(tree))
    replaced = [p.node for p in diff(root, root, the_form("go", None)) if isinstance(p, Replace)]
    for form in _forms(root):
        assert any(form is n or form in _subtrees(n) for n in replaced)
    assert all(isinstance(n, El) and n.live for n in replaced)


def _subtrees(node: Node) -> list[Node]:
    if isinstance(node, str):
        return []
    return [c for child in node.children for c in (child, *_subtrees(child))]
