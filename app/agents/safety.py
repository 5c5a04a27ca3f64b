"""When a tool call needs the user's yes first, and what the dialog says.

The rule (decision 009), per agent turn, applied to each destructive call's `Plan`:
- a large change always asks: deleting a folder that holds anything, moving a folder that holds
  more than `item_tools.MANY` items;
- a deletion asks unless the user's own message asks to remove something ("delete", "remove",
  ...), so text in the collection or a confused model cannot delete without the dialog;
- and once the turn's deletions plus overwrites (replaced meanings, notes or note text) would
  exceed `FEW`, every further one asks.
A declined call does not run; the model is told the user said no.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from pydantic import BaseModel, ConfigDict

from app.agents.router import base_form, words
from app.tools.registry import Plan

FEW = 3
_REMOVAL = frozenset(
    {
        "delete",
        "remove",
        "erase",
        "drop",
        "clear",
        "discard",
        "trash",
        "purge",
        "empty",
        "wipe",
        "rid",
    }
)


class Confirmation(BaseModel):
    """What the app dialog shows: exactly the changes waiting for the user's yes."""

    model_config = ConfigDict(frozen=True)
    title: str
    changes: list[str]
    note: str = "The whole request can be undone afterwards with one Undo."

    @classmethod
    def of(cls, plans: Iterable[Plan]) -> Confirmation:
        changes = [p.change for p in plans]
        count = "this change" if len(changes) == 1 else f"these {len(changes)} changes"
        return cls(title=f"The Architect wants to make {count}:", changes=changes)


Confirm = Callable[[Confirmation], Awaitable[bool]]


def asks_to_remove(text: str) -> bool:
    """Does the user's own message ask to delete or replace something?"""
    return any(base_form(w, _REMOVAL) for w in words(text))


@dataclass
class Guard:
    """What this turn has removed or overwritten so far, and the user's own intent."""

    user_asked_removal: bool
    deleted: int = 0
    overwritten: int = 0

    def needs_yes(self, plan: Plan) -> bool:
        if plan.large or (plan.deletes and not self.user_asked_removal):
            return True
        lossy = plan.deletes + plan.overwrites
        return lossy > 0 and self.deleted + self.overwritten + lossy > FEW

    def record(self, plan: Plan) -> None:
        self.deleted += plan.deletes
        self.overwritten += plan.overwrites

    def asking(self, plans: Sequence[Plan]) -> list[bool]:
        """Which of one model turn's `plans` to put to the user, after what this turn already
        did. Once any needs a yes, every removal or overwrite in the batch is asked together,
        so the dialog shows the whole batch rather than its tail."""
        trial = replace(self)
        flags = []
        for plan in plans:
            flags.append(trial.needs_yes(plan))
            trial.record(plan)
        if any(flags):
            return [f or bool(p.deletes or p.overwrites) for f, p in zip(flags, plans, strict=True)]
        return flags
