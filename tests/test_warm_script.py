"""static/warm.js paints the kept copy of the last screen, inert and busy, only for the address it
belongs to, and builds only allowed elements and attributes from it: stored content is not
trusted (decision 023). Run in Node against a small fake document."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.text.nodes import ALLOWED_TAGS
from app.ui.last_screen import FORMAT

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "static" / "warm.js"
KEY = "lexical-last-screen"

HARNESS = """
const fs = require("fs");
const input = JSON.parse(fs.readFileSync(0, "utf8"));
function element(tag) {
  return { tag, attrs: {}, children: [],
           setAttribute(n, v) { if (!/^[a-z][a-z0-9-]*$/.test(n)) throw new Error("bad name " + n);
                                this.attrs[n] = String(v); },
           appendChild(c) { this.children.push(c); return c; } };
}
const regions = { tree: element("div"), main: element("main") };
const root = element("html");
const marks = [];
global.document = {
  createElement: element,
  createTextNode(text) { return { text }; },
  getElementById(id) { return regions[id]; },
  documentElement: root,
};
global.window = {
  localStorage: input.stored === "blocked"
    ? { getItem() { throw new Error("SecurityError"); } }
    : { getItem(n) { return n === input.key ? input.stored : null; } },
  location: { hash: input.hash },
  requestAnimationFrame(f) { f(); },
  setTimeout(f) { f(); },
  performance: { mark(name) { marks.push(name); } },
};
eval(fs.readFileSync(input.script, "utf8"));
console.log(JSON.stringify({ tree: regions.tree.children, main: regions.main.children,
                             root: root.attrs, marks }));
"""


def run(stored: object, hash_: str = "#/folder/1") -> dict[str, Any]:
    text = stored if isinstance(stored, str) or stored is None else json.dumps(stored)
    stdin = json.dumps({"script": str(SCRIPT), "key": KEY, "stored": text, "hash": hash_})
    done = subprocess.run(
        ["node", "-e", HARNESS], input=stdin, capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def copy(main: object, tree: object = None, route: str = "#/folder/1") -> dict[str, object]:
    return {"format": FORMAT, "route": route, "tree": tree, "main": main}


def tags(node: Any) -> list[str]:
    if "text" in node:
        return []
    return [node["tag"], *(t for child in node["children"] for t in tags(child))]


def attributes(node: Any) -> list[tuple[str, str]]:
    if "text" in node:
        return []
    own = list(node["attrs"].items())
    return own + [a for child in node["children"] for a in attributes(child)]


def texts(node: Any) -> str:
    return node.get("text") or "".join(texts(child) for child in node.get("children", []))


needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")

FOLDER = ["section", {"class": "folder"}, [["h1", {}, ["Biology"]], ["p", {}, ["heart"]]]]
TREE = ["ul", {"class": "tree"}, [["li", {}, [["a", {"href": "#/folder/1"}, ["Biology"]]]]]]


@needs_node
def test_the_copy_for_this_address_is_painted_inert_and_busy() -> None:
    result = run(copy(FOLDER, TREE))
    for region in ("tree", "main"):
        [wrapper] = result[region]
        assert wrapper["attrs"] == {
            "class": "warm-copy",
            "data-warm-copy": "",
            "inert": "",
            "aria-busy": "true",
        }
    assert texts(result["main"][0]) == "Biologyheart"
    assert ("href", "#/folder/1") in attributes(result["tree"][0])
    assert result["root"] == {"data-warm": "true"}
    assert result["marks"] == ["lexical:warm-painted"]


@needs_node
def test_home_is_the_empty_address() -> None:
    assert run(copy(FOLDER, route="#/"), hash_="")["main"]


@needs_node
@pytest.mark.parametrize(
    "stored",
    [
        None,
        "blocked",
        "not json",
        json.dumps(copy(FOLDER, route="#/folder/2")),  # another folder was opened by a link
        json.dumps({**copy(FOLDER), "format": 99}),
        json.dumps(copy(None, TREE)),
        json.dumps(copy(["script", {}, ["alert(1)"]])),
        json.dumps(copy(FOLDER)) + " " * 300_000,
        json.dumps(copy(["div", "x", "y"])),
        "[1, 2]",
    ],
)
def test_nothing_else_is_painted(stored: str | None) -> None:
    result = run(stored)
    assert result == {"tree": [], "main": [], "root": {}, "marks": []}


HOSTILE = [
    "div",
    {
        "class": "ok",
        "id": "boot-error",
        "style": "background:url(x)",
        "onclick": "alert(1)",
        "onmouseover": "alert(1)",
        "aria-controls": "boot",
        "aria-label": "fine",
        "data-action": "fine",
        "bad name": "x",
        "__proto__": "x",
    },
    [
        ["script", {}, ["alert(1)"]],
        ["img", {"src": "x", "onerror": "alert(1)"}, []],
        ["iframe", {"src": "https://evil.example"}, []],
        ["object", {"data": "x.swf"}, []],
        ["meta", {"http-equiv": "refresh", "content": "0;url=https://evil.example"}, []],
        ["link", {"rel": "stylesheet", "href": "https://evil.example/x.css"}, []],
        ["style", {}, ["body{display:none}"]],
        ["svg", {"onload": "alert(1)"}, []],
        ["a", {"href": "javascript:alert(1)"}, ["js link"]],
        ["a", {"href": "https://evil.example/"}, ["away"]],
        ["a", {"href": " #/folder/1"}, ["spaced"]],
        ["button", {"formaction": "https://evil.example", "type": "submit"}, ["go"]],
        [
            "form",
            {"action": "https://evil.example", "class": "add-word"},
            [["input", {"value": "w"}, []]],
        ],
        ["p", {}, [["em", {}, ["deep"]], "<img src=x onerror=alert(1)>"]],
        ["p", {}, [1, None, {"tag": "script"}, ["b"]]],
    ],
]


@needs_node
def test_hostile_content_is_dropped() -> None:
    result = run(copy(HOSTILE))
    [wrapper] = result["main"]
    [root] = wrapper["children"]
    assert sorted(set(tags(root))) == ["a", "button", "div", "em", "input", "p"]
    names = {name for name, _ in attributes(root)}
    assert names == {"class", "aria-label", "data-action", "type", "value"}
    assert all(value != "javascript:alert(1)" for _, value in attributes(root))
    # Markup inside a text stays text.
    assert "<img src=x onerror=alert(1)>" in texts(root)


def test_the_script_allows_no_tag_the_app_itself_refuses() -> None:
    found = re.search(r"var TAGS = \[(.*?)\];", SCRIPT.read_text(), re.DOTALL)
    assert found
    allowed = set(re.findall(r'"([a-z0-9]+)"', found.group(1)))
    assert allowed
    assert allowed <= ALLOWED_TAGS
    assert not allowed & {"form", "dialog", "script", "iframe", "object"}
