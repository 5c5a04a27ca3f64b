"""Who holds what a run leaves in the JS heap: a V8 heap snapshot summed by object kind, and
the kinds the browser keeps for itself told apart from the page's own.

Chromium keeps some records whatever a page does: every MediaStream that getUserMedia returned
(a blank page that opens and stops the microphone twenty times holds twenty MediaStreams and
tracks after garbage collection), the performance timeline's layout-shift, paint and
event-timing entries (buffers the page cannot clear, capped by the browser), DevTools' copies of
network responses while a bench session watches, and V8's compiled code. What is left is what
the app's JavaScript and Python (its WebAssembly memory is not in this heap) still hold.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

Kind = tuple[str, str]  # (V8 node type, constructor or name)

BROWSER_OWN = re.compile(
    r"MediaStream|LayoutShift|LargestContentfulPaint|InteractionContentfulPaint"
    r"|PerformanceEventTiming|SoftNavigation|DOMRectReadOnly|NetworkResourcesData"
    r"|WasmNativeModule"
)


def sizes(snapshot: dict[str, Any]) -> Counter[Kind]:
    """Self sizes in bytes summed by kind, from a snapshot in V8's JSON format."""
    meta = snapshot["snapshot"]["meta"]
    fields: list[str] = meta["node_fields"]
    types: list[str] = meta["node_types"][0]
    strings: list[str] = snapshot["strings"]
    nodes: list[int] = snapshot["nodes"]
    width, kind, name, size = (
        len(fields),
        fields.index("type"),
        fields.index("name"),
        fields.index("self_size"),
    )
    total: Counter[Kind] = Counter()
    for i in range(0, len(nodes), width):
        total[(types[nodes[i + kind]], strings[nodes[i + name]])] += nodes[i + size]
    return total


def browser_own(kind: Kind) -> bool:
    node_type, name = kind
    return node_type == "code" or bool(BROWSER_OWN.search(name))


def split_growth(before: Counter[Kind], after: Counter[Kind]) -> tuple[int, int]:
    """Bytes grown between two snapshots: (the page's own, the browser's own)."""
    page = browser = 0
    for kind in before.keys() | after.keys():
        grown = after[kind] - before[kind]
        if browser_own(kind):
            browser += grown
        else:
            page += grown
    return page, browser


def take(cdp: Any) -> Counter[Kind]:
    """A snapshot of the page's heap over a CDP session, after garbage collection."""
    chunks: list[str] = []

    def keep(params: dict[str, str]) -> None:
        chunks.append(params["chunk"])

    cdp.on("HeapProfiler.addHeapSnapshotChunk", keep)
    try:
        cdp.send("HeapProfiler.collectGarbage")
        cdp.send("HeapProfiler.takeHeapSnapshot", {"reportProgress": False})
    finally:
        cdp.remove_listener("HeapProfiler.addHeapSnapshotChunk", keep)
    return sizes(json.loads("".join(chunks)))
