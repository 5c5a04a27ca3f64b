"""The toolbar's sync status in words, a first sync's progress included."""

from __future__ import annotations

from app.sync.pairing import OFFLINE, SYNCED, SYNCING, status_label


def test_the_provider_s_states_in_words() -> None:
    assert status_label("connected", True) == SYNCED
    assert status_label("connected", False) == SYNCING
    assert status_label("connecting", False) == SYNCING
    assert status_label("disconnected", False) == OFFLINE


def test_a_big_update_being_written_says_how_far_it_got() -> None:
    assert status_label("connected", True, 0.0) == f"{SYNCING} 0%"
    assert status_label("connected", True, 0.456) == f"{SYNCING} 45%"
    assert status_label("disconnected", False, 1.0) == f"{SYNCING} 100%"
