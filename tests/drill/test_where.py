"""Where the hands-free drill listens (app/drill/where.py): on the ladder's rung, the provider
included (only utterances are sent); why not, when no rung can; what waits for the network."""

from __future__ import annotations

import pytest

from app.drill.where import ANOTHER_MODE, OFFLINE, UTTERANCES_ONLY, hands_free
from app.voice.ladder import NO_RECOGNITION, ON_DEVICE, ONLY_UNAVAILABLE, SERVICE, Rung

PROVIDER = Rung(
    "provider", "Your voice is recorded and sent to OpenAI with your key to be transcribed."
)


@pytest.mark.parametrize("rung", [Rung("on-device", ON_DEVICE), Rung("browser-service", SERVICE)])
def test_the_browser_s_recogniser_hears_as_the_ladder_says(rung: Rung) -> None:
    here = hands_free(rung, online=True)
    assert (here.path, here.can, here.sentence, here.offline) == (
        rung.path,
        True,
        rung.sentence,
        "",
    )


def test_the_provider_hears_and_the_screen_says_only_utterances_go() -> None:
    there = hands_free(PROVIDER, online=True)
    assert there.can
    assert there.sentence == f"{PROVIDER.sentence} {UTTERANCES_ONLY}"


def test_offline_it_goes_on_and_says_what_needs_the_network() -> None:
    here = hands_free(Rung("on-device", ON_DEVICE), online=False)
    assert (here.can, here.sentence, here.offline) == (True, ON_DEVICE, OFFLINE)
    assert "explanations" in OFFLINE
    assert "mnemonics" in OFFLINE


@pytest.mark.parametrize("why", [NO_RECOGNITION, ONLY_UNAVAILABLE])
def test_when_nothing_can_listen_it_says_why_and_offers_the_other_modes(why: str) -> None:
    cannot = hands_free(Rung("typing", why), online=True)
    assert not cannot.can
    assert cannot.sentence == f"{why} {ANOTHER_MODE}"
    assert cannot.offline == ""
