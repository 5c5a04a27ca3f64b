"""Checking the study progress of a whole-file import (a JSON backup, a Lexical database):
cards, reviews and study options, validated like every other item and tied together. A card
must belong to a word of the file, once per direction; a review to a card of the file; options
to a folder of the file or to the collection. Any problem refuses the file, as for folders."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from pydantic import TypeAdapter

from app.domain import InvalidInput
from app.store.transfer import MAX_CARDS, MAX_FOLDERS, MAX_REVIEWS
from app.store.transfer.model import (
    KNOWN_REVIEW_FIELDS,
    REVIEW_FIELDS,
    CardItem,
    OptionsItem,
    ReviewItem,
    StudyData,
)
from app.store.transfer.steps import Steps
from app.store.transfer.validation import (
    check_limit,
    check_unique_gids,
    validate_chunks,
    validate_items,
)

_REVIEWS = TypeAdapter(list[ReviewItem])
_REVIEW = TypeAdapter(ReviewItem)


class StudySections(NamedTuple):
    """The study sections of a file as read, not yet trusted."""

    cards: Sequence[Any]
    reviews: Sequence[Any]  # arrays of values in REVIEW_FIELDS order
    options: Sequence[Any]
    stale_dues: bool = False  # due dates of the fuzz before decision 045


def build_study(
    raw: StudySections, folder_ids: set[int], word_ids: set[int], source: str
) -> Steps[StudyData]:
    """The checked study data of a file whose folders and words (ids) are already checked."""
    check_limit(raw.cards, MAX_CARDS, "cards", source)
    check_limit(raw.reviews, MAX_REVIEWS, "reviews", source)
    check_limit(raw.options, MAX_FOLDERS + 1, "study options", source)
    cards = yield from validate_items(CardItem, raw.cards, "Card", source)
    reviews = yield from validate_chunks(_REVIEWS, _check_review, raw.reviews, "Review", source)
    options = yield from validate_items(OptionsItem, raw.options, "Study option", source)
    card_ids = _check_cards(cards, word_ids, source)
    check_unique_gids(reviews, "review", source)
    for number, review in enumerate(reviews, start=1):
        if review.card_id not in card_ids:
            raise InvalidInput(
                f"This {source} cannot be imported: review {number:,} is of card "
                f"{review.card_id}, which is not in the file."
            )
        if not review.schedule_fits():
            raise InvalidInput(
                f"This {source} cannot be imported: review {number:,} keeps a schedule from "
                "before it that does not fit the state it names."
            )
    _check_options(options, folder_ids, source)
    return StudyData(cards=cards, reviews=reviews, options=options, stale_dues=raw.stale_dues)


def _check_review(row: Any) -> object:
    """One review alone, by field name so a message can say which value is wrong."""
    if isinstance(row, list | tuple) and len(row) in {len(f) for f in KNOWN_REVIEW_FIELDS}:
        row = dict(zip(REVIEW_FIELDS, row, strict=False))
    return _REVIEW.validate_python(row)


def _check_cards(cards: Sequence[CardItem], word_ids: set[int], source: str) -> set[int]:
    ids: set[int] = set()
    keys: set[tuple[int, str]] = set()
    for number, card in enumerate(cards, start=1):
        if card.word_id not in word_ids:
            raise InvalidInput(
                f"This {source} cannot be imported: card {number:,} is of word {card.word_id}, "
                "which is not in the file."
            )
        if card.id in ids:
            raise InvalidInput(f"This {source} has two cards with id {card.id}.")
        if (card.word_id, card.direction) in keys:
            raise InvalidInput(
                f"This {source} has two {card.direction} cards for word {card.word_id}."
            )
        ids.add(card.id)
        keys.add((card.word_id, card.direction))
    return ids


def _check_options(options: Sequence[OptionsItem], folder_ids: set[int], source: str) -> None:
    seen: set[int | None] = set()
    for item in options:
        if item.folder_id is not None and item.folder_id not in folder_ids:
            raise InvalidInput(
                f"This {source} cannot be imported: it has study options for folder "
                f"{item.folder_id}, which is not in the file."
            )
        if item.folder_id in seen:
            whose = "the collection" if item.folder_id is None else f"folder {item.folder_id}"
            raise InvalidInput(f"This {source} has study options for {whose} twice.")
        seen.add(item.folder_id)
