"""What the screen shows besides the data: route, open tree branches, forms being edited.

Kept apart from the store so a reload (which rebuilds it from the URL) never touches data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.ui.routes import Route

PAGE_SIZE = 100


@dataclass
class ViewState:
    route: Route = field(default_factory=Route)
    expanded: set[int] = field(default_factory=set)
    word_limit: int = PAGE_SIZE
    editing_word: int | None = None
    editing_note: int | None = None
    adding_note: bool = False

    def open(self, route: Route) -> None:
        """Go to another place: forms and paging belong to the place being left."""
        if route.folder_id != self.route.folder_id:
            self.word_limit = PAGE_SIZE
            self.editing_word = None
            self.editing_note = None
            self.adding_note = False
        self.route = route
