"""The filter box and sort above a folder's words, and the line saying what they show.

Both controls run their action as the user types or picks (`data-input-action`); they are not
in a form, so Enter never submits anything.
"""

from __future__ import annotations

from app.store.word_list import WordPage, WordQuery, WordSort
from app.text.nodes import El, h

SORT_LABELS: dict[WordSort, str] = {
    "az": "A–Z",
    "newest": "Newest first",
    "due": "Next due first",
}
MAX_FILTER_CHARS = 200


def word_tools(query: WordQuery, page: WordPage, total: int) -> El:
    return h(
        "div",
        {"class": "word-tools", "role": "search", "aria-label": "Filter and sort"},
        h("label", {"for": "word-filter"}, "Filter words"),
        h(
            "input",
            {
                "id": "word-filter",
                "type": "search",
                "value": query.text,
                "maxlength": MAX_FILTER_CHARS,
                "autocomplete": "off",
                "placeholder": "Term or meaning",
                "aria-describedby": "word-count",
                "data-input-action": "filter-words",
            },
        ),
        h("label", {"for": "word-sort"}, "Sort words"),
        h(
            "select",
            {"id": "word-sort", "data-input-action": "sort-words"},
            (
                h("option", {"value": sort, "selected": sort == query.sort}, label)
                for sort, label in SORT_LABELS.items()
            ),
        ),
        h(
            "p",
            {"id": "word-count", "class": "meta-line", "aria-live": "polite"},
            count(query, page, total),
        ),
    )


def _words(n: int) -> str:
    return f"{n:,} word" if n == 1 else f"{n:,} words"


def count(query: WordQuery, page: WordPage, total: int) -> str:
    """How many words the filter matches ("12 of 3,000 words"); empty without a filter."""
    if not query.needle:
        return ""
    return f"{page.matching:,} of {_words(total)}"


def no_match(query: WordQuery) -> str:
    return f"No words here match “{query.text.strip()}”. Try fewer letters, or clear the filter."


def shown(page: WordPage) -> str:
    """Which of the listed words are on screen, when that is not all of them."""
    first, last = page.start + 1, page.start + len(page.words)
    return f"Showing {first:,}–{last:,} of {_words(page.matching)}."
