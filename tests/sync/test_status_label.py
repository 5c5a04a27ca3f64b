"""The toolbar's sync status in words, a first sync's progress included."""

from __future__ import annotations

from app.sync.pairing import (
    OFFLINE,
    SYNCED,
    SYNCING,
    TOO_BIG,
    ProviderStatus,
    status_help,
    status_label,
)


def test_the_provider_s_states_in_words() -> None:
    assert status_label("connected", True) == SYNCED
    assert status_label("connected", False) == SYNCING
    assert status_label("connecting", False) == SYNCING
    assert status_label("disconnected", False) == OFFLINE


def test_a_big_update_being_written_says_how_far_it_got() -> None:
    assert status_label("connected", True, 0.0) == f"{SYNCING} 0%"
    assert status_label("connected", True, 0.456) == f"{SYNCING} 45%"
    assert status_label("disconnected", False, 1.0) == f"{SYNCING} 100%"


def test_trying_again_while_the_server_is_unreachable_stays_offline() -> None:
    # y-websocket says "connecting" before every retry (every 2.5 s at most) and, once it has
    # lost the server, "disconnected" only when an attempt fails: between the two the toolbar
    # must not flip to "Syncing…", as if the server were back.
    status = ProviderStatus()
    assert status.seen("connecting", False) == ("connecting", False)  # the first connection
    assert status.seen("connected", False) == ("connected", False)
    assert status.seen("connected", True) == ("connected", True)
    assert status.seen("disconnected", False) == ("disconnected", False)
    for _ in range(3):
        assert status.seen("connecting", False) == ("disconnected", False)
        assert status.seen("disconnected", False) == ("disconnected", False)
    assert status.seen("connecting", False) == ("disconnected", False)
    assert status.seen("connected", False) == ("connected", False)  # back: catching up
    assert status.seen("connected", True) == ("connected", True)


def test_a_first_connection_that_fails_is_offline_until_one_succeeds() -> None:
    status = ProviderStatus()
    status.seen("connecting", False)
    assert status.seen("disconnected", False) == ("disconnected", False)
    assert status.seen("connecting", False) == ("disconnected", False)


def test_an_update_the_server_refuses_as_too_big_says_so_until_the_page_reloads() -> None:
    # The provider tries again, is refused again and meanwhile reports itself connected and
    # synced with the server's copy: "Synced" would hide that nothing of this device got there.
    status = ProviderStatus()
    status.seen("connected", True)
    assert status.seen("refused", False) == ("refused", False)
    for report in (("connecting", False), ("connected", False), ("connected", True)):
        assert status.seen(*report) == ("refused", False)
    assert status_label("refused", False) == TOO_BIG
    assert "--max-message-mb" in status_help("refused")
    assert status_help("connected") == ""
