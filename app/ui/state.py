"""What the screen shows besides the data: route, open tree branches, forms being edited.

Kept apart from the store so a reload (which rebuilds it from the URL) never touches data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.store.word_list import WordQuery
from app.ui.routes import Route

PAGE_SIZE = 100


@dataclass
class ViewState:
    """What the screen shows beyond the data: route, open folders, word listing, edits."""

    route: Route = field(default_factory=Route)
    expanded: set[int] = field(default_factory=set)
    # The words shown: `word_limit` of the listing from `word_start` (a link deep into a big
    # folder opens the page that holds its word), filtered and sorted as `word_query` says.
    word_start: int = 0
    word_limit: int = PAGE_SIZE
    word_query: WordQuery = field(default_factory=WordQuery)
    editing_word: int | None = None
    editing_note: int | None = None
    adding_note: bool = False

    def open(self, route: Route) -> None:
        """Go to another place: forms, paging and the filter belong to the place being left
        (the sort is how the user likes to read any folder, so it stays)."""
        if route.folder_id != self.route.folder_id:
            self.word_start, self.word_limit = 0, PAGE_SIZE
            self.word_query = WordQuery(sort=self.word_query.sort)
            self.editing_word = None
            self.editing_note = None
            self.adding_note = False
        self.route = route
