"""What the word list of an open folder shows: its filter, sort and pages, and the page a link
to one of its words must open (however far down the word is, and whatever the filter hides).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from app.domain import FolderId, WordId
from app.store.word_list import SORTS, WordPage, WordQuery, WordSort
from app.ui.routes import Route
from app.ui.state import PAGE_SIZE, ViewState
from app.ui.update import Update

if TYPE_CHECKING:
    from app.store import Store

Handler = Callable[[int | None, Mapping[str, str]], Update]
FILTER = "#word-filter"
_SORTS: dict[str, WordSort] = {sort: sort for sort in SORTS}


class WordListActions:
    """`store` and `state` give the current store (a tab may reload it) and view state."""

    def __init__(self, store: Callable[[], Store], state: Callable[[], ViewState]) -> None:
        self._store = store
        self._state = state

    def actions(self) -> dict[str, Handler]:
        return {
            "filter-words": lambda _i, d: self.filter(d.get("text", "")),
            "clear-filter": lambda _i, _d: self.filter(""),
            "sort-words": lambda _i, d: self.sort(d.get("text", "")),
            "show-more": lambda _i, _d: self.more(),
            "show-earlier": lambda _i, _d: self.earlier(),
        }

    def page(self, folder_id: FolderId) -> WordPage:
        state = self._state()
        store = self._store()
        page = store.word_page(folder_id, state.word_query, state.word_start, state.word_limit)
        if page.words or not state.word_start:
            return page
        # Words went (deleted, moved, undone) and none is left from where the page starts.
        state.word_start = 0
        return store.word_page(folder_id, state.word_query, 0, state.word_limit)

    def filter(self, text: str) -> Update:
        state = self._state()
        state.word_query = replace(state.word_query, text=text)
        state.word_start, state.word_limit = 0, PAGE_SIZE
        return Update(main=True, focus=FILTER)

    def sort(self, value: str) -> Update:
        sort = _SORTS.get(value)
        if sort is None:  # not a sort this version knows: the value comes from the page
            return Update()
        state = self._state()
        state.word_query = replace(state.word_query, sort=sort)
        state.word_start, state.word_limit = 0, PAGE_SIZE
        return Update(main=True, focus="#word-sort")

    def more(self) -> Update:
        self._state().word_limit += PAGE_SIZE
        return Update(main=True)

    def earlier(self) -> Update:
        state = self._state()
        start = max(0, state.word_start - PAGE_SIZE)
        state.word_start, state.word_limit = start, state.word_limit + state.word_start - start
        return Update(main=True)

    def page_to_word(self, route: Route) -> str | None:
        """Show the page holding a linked word, dropping a filter that hides it; the row to
        bring into view, or None if the word is not in the route's folder."""
        if route.folder_id is None or route.word_id is None:
            return None
        state, store = self._state(), self._store()
        folder, word = FolderId(route.folder_id), WordId(route.word_id)
        index = store.word_index(folder, state.word_query, word)
        if index is None and state.word_query.needle:
            state.word_query = WordQuery(sort=state.word_query.sort)
            index = store.word_index(folder, state.word_query, word)
        if index is None:
            return None
        if not state.word_start <= index < state.word_start + state.word_limit:
            state.word_start, state.word_limit = index - index % PAGE_SIZE, PAGE_SIZE
        return f"#word-{word}"
