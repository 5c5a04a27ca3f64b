"""UUIDv7 as RFC 9562 lays it out, in the order it was made, and derived card ids."""

from __future__ import annotations

import re
import uuid

import pytest

from app import ids
from app.ids import card_gid, uuid7, uuid7_ms

TEXT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


def test_an_id_is_rfc_9562_version_7_text() -> None:
    made = uuid7()
    assert TEXT.fullmatch(made)
    parsed = uuid.UUID(made)
    assert parsed.version == 7
    assert parsed.variant == uuid.RFC_4122
    assert str(parsed) == made


def test_an_id_made_at_a_given_millisecond_says_so() -> None:
    assert uuid7_ms(uuid7(1_700_000_000_123)) == 1_700_000_000_123
    assert uuid7(0).startswith("00000000-0000-7")


def test_ids_made_in_one_millisecond_sort_in_the_order_they_were_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ids.time, "time_ns", lambda: 1_800_000_000_000_000_000)
    made = [uuid7() for _ in range(5000)]  # more than rand_a counts in one millisecond
    assert made == sorted(made)
    assert len(set(made)) == len(made)
    assert uuid7_ms(made[-1]) > 1_800_000_000_000  # borrowed the next millisecond


def test_a_clock_that_steps_back_never_makes_ids_sort_backwards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ids.time, "time_ns", lambda: 1_900_000_000_000_000_000)
    first = uuid7()
    monkeypatch.setattr(ids.time, "time_ns", lambda: 1_899_000_000_000_000_000)
    assert uuid7() > first


def test_a_card_id_is_its_word_and_direction() -> None:
    word = uuid7()
    assert card_gid(word, "forward") == card_gid(word, "forward") != card_gid(word, "reverse")
