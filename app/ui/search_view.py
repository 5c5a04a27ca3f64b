"""Search results under the search box: a listbox of hits with their folder path and snippet.

Matched ranges come from the store as character offsets and are wrapped in <mark> here, as
elements, so no markup ever travels inside the text.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.store.results import SearchHit, Snippet
from app.text.nodes import El, Node, h
from app.ui.routes import Route

_KIND_LABEL = {"word": "word", "folder": "folder", "note": "note"}
# Results shown under the box as you type: a screenful and some, not a page. Every keystroke
# renders them all, so more would only make typing slower.
RESULTS_SHOWN = 20


def hit_route(hit: SearchHit) -> Route:
    if hit.kind == "word":
        return Route(hit.folder_id, hit.id)
    return Route(hit.folder_id)


def highlighted(snippet: Snippet) -> list[Node]:
    pieces: list[Node] = []
    cursor = 0
    for start, end in sorted(snippet.marks):
        if start < cursor or end <= start:
            continue
        pieces.append(snippet.text[cursor:start])
        pieces.append(h("mark", None, snippet.text[start:end]))
        cursor = end
    pieces.append(snippet.text[cursor:])
    return [p for p in pieces if p != ""]


def render_results(query: str, hits: Sequence[SearchHit]) -> list[El]:
    if not hits:
        return [
            h(
                "div",
                {"class": "search-empty", "role": "option", "aria-disabled": "true"},
                f"Nothing matches “{query.strip()[:80]}”.",
            )
        ]
    options = [_hit(i, hit) for i, hit in enumerate(hits)]
    if any(hit.kind == "word" for hit in hits):
        options.append(_study_option(len(options), query))
    return options


def _study_option(index: int, query: str) -> El:
    """The last option: a study session over the words this search finds."""
    return h(
        "div",
        {
            "class": "search-hit search-study",
            "role": "option",
            "id": f"search-hit-{index}",
            "aria-selected": "false",
            "data-action": "open-hit",
            "data-study": query.strip()[:200],
        },
        h("span", {"class": "hit-title"}, "Study the words found"),
        h(
            "div",
            {"class": "hit-path"},
            f"A session over the words matching “{query.strip()[:80]}”",
        ),
    )


def _hit(index: int, hit: SearchHit) -> El:
    path = " › ".join(hit.path) if hit.path else "Top level"
    return h(
        "div",
        {
            "class": "search-hit",
            "role": "option",
            "id": f"search-hit-{index}",
            "aria-selected": "false",
            "data-action": "open-hit",
            "data-href": hit_route(hit).to_hash(),
        },
        h(
            "div",
            None,
            h("span", {"class": "hit-title"}, hit.title),
            # Screen readers join the spans' text: without this, "mitosis" + "word" is one word.
            h("span", {"class": "visually-hidden"}, ", "),
            h("span", {"class": "hit-kind"}, _KIND_LABEL[hit.kind]),
        ),
        h("div", {"class": "hit-path"}, path),
        h("div", {"class": "hit-snippet"}, highlighted(hit.snippet)) if hit.snippet.text else None,
    )
