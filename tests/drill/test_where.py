"""Where the hands-free drill listens (app/drill/where.py): the browser's recogniser only, on
this device when it can; why not, when it cannot; and what waits for the network offline."""

from __future__ import annotations

import pytest

from app.drill.where import CANNOT_OFFLINE, CANNOT_ONLY, CANNOT_UNSUPPORTED, OFFLINE, hands_free
from app.voice.ladder import ON_DEVICE, SERVICE, OnDevice


def test_on_this_device_first_then_the_browser_s_service() -> None:
    here = hands_free(recognition=True, on_device="available", on_device_only=False, online=True)
    assert (here.path, here.can, here.sentence, here.offline) == ("on-device", True, ON_DEVICE, "")
    there = hands_free(recognition=True, on_device="unavailable", on_device_only=False, online=True)
    assert (there.path, there.can, there.sentence) == ("browser-service", True, SERVICE)


def test_offline_on_this_device_goes_on_and_says_what_needs_the_network() -> None:
    here = hands_free(recognition=True, on_device="available", on_device_only=False, online=False)
    assert here.can
    assert here.sentence == ON_DEVICE
    assert here.offline == OFFLINE
    assert "explanations" in OFFLINE
    assert "mnemonics" in OFFLINE


@pytest.mark.parametrize(
    ("recognition", "on_device", "only", "online", "why"),
    [
        (False, "unsupported", False, True, CANNOT_UNSUPPORTED),
        (False, "unsupported", True, False, CANNOT_UNSUPPORTED),
        (True, "unavailable", True, True, CANNOT_ONLY),
        (True, "downloadable", True, True, CANNOT_ONLY),
        (True, "unavailable", False, False, CANNOT_OFFLINE),
    ],
)
def test_why_hands_free_cannot_listen(
    recognition: bool, on_device: OnDevice, only: bool, online: bool, why: str
) -> None:
    cannot = hands_free(
        recognition=recognition, on_device=on_device, on_device_only=only, online=online
    )
    assert not cannot.can
    assert cannot.sentence == why
    assert cannot.offline == ""
