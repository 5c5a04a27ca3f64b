"""Cards scheduled again from their own reviews, as their folders' options now say (issue 26):
after fitted parameters are put to use, or taken back. A card's schedule is the replay of its
log (decision 036), so this writes exactly what studying with these options from the start
would have left, later grades included."""

from __future__ import annotations

from dataclasses import replace

from app.domain import FolderId
from app.store import Store
from app.study.model import card_seed
from app.study.options import DEFAULT_OPTIONS
from app.study.scheduler import replay


def reschedule(store: Store, folder_id: FolderId | None) -> int:
    """Replay every card of a folder and its subfolders (None: everywhere) with its folder's
    options and write those whose schedule changes; returns how many did."""
    options = store.study.options_map()
    changed = []
    for card in store.study.logged_cards(folder_id):
        if not card.log:  # a card without reviews has nothing to replay
            continue
        seed = card_seed(*card.key)
        after = replay(card.log, options.get(card.folder_id, DEFAULT_OPTIONS), seed)
        if replace(after, last_day=None) != replace(card.progress, last_day=None):
            changed.append((card.id, after))
    store.study.set_schedules(changed)
    return len(changed)
