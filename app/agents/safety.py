"""When a tool call needs the user's yes first, and what the dialog says.

The rule (decision 009), per agent turn, applied to each destructive call's `Plan`:
- a large change always asks: deleting a folder that holds anything, moving a folder that holds
  more than `item_tools.MANY` items;
- a deletion asks unless the user's own message asks to remove something ("delete", "remove",
  ...) and names what is being removed (its term, title or folder name), so text in the
  collection or a confused model cannot delete anything else without the dialog;
- and once the turn's deletions plus overwrites (replaced meanings, notes or note text) would
  exceed `FEW`, every further one asks.
A declined call does not run; the model is told the user said no.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from pydantic import BaseModel, ConfigDict

from app.agents.router import base_form, words
from app.tools.registry import Plan

FEW = 3
# Verbs only: "empty" and "clear" are mostly adjectives ("fill the empty folders") and nouns.
_REMOVAL = frozenset(
    {
        "delete",
        "remove",
        "erase",
        "drop",
        "discard",
        "trash",
        "purge",
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


def names(text: str, target: str) -> bool:
    """Does `text` name `target` as a whole (case aside): "aorta" in "delete aorta", not in
    "delete aortas"?"""
    found = re.search(rf"(?<!\w){re.escape(target.casefold())}(?!\w)", text.casefold())
    return found is not None


@dataclass
class Guard:
    """What this turn has removed or overwritten so far, and the user's own message."""

    user_text: str
    deleted: int = 0
    overwritten: int = 0

    def asked_for(self, plan: Plan) -> bool:
        """The user asked to remove exactly what `plan` removes, naming each."""
        named = all(names(self.user_text, target) for target in plan.targets)
        return bool(plan.targets) and named and asks_to_remove(self.user_text)

    def needs_yes(self, plan: Plan) -> bool:
        if plan.large or (plan.deletes and not self.asked_for(plan)):
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
