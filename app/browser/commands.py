"""Actions that browser parts run themselves instead of the controller, by name.

The page delegates every `data-action` (click, submit) and `data-input-action` (typing,
picking) to `Page.run`; a name registered here goes to its browser part with the element's
`data-id` and the form's fields or the control's value, like controller actions do.
"""

from __future__ import annotations

from collections.abc import Callable

Command = Callable[[str | None, dict[str, str] | None], None]


def plain(run: Callable[[], None]) -> Command:
    """A command that needs neither the element's id nor its data."""

    def command(_item_id: str | None, _data: dict[str, str] | None) -> None:
        run()

    return command
