"""The voice's usage log (app/browser/voice_usage.py): a spoken turn is timed from the end of
speech to its first audio and logged once that audio started, or at once when nothing is left
to say; a yes to the app is not a request and is not timed."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from app.agents.router import Route
from app.browser.voice_usage import VoiceUsage
from app.store.conversations import VOICE_TURN, UsageEntry
from app.ui.assistant_controller import Request
from app.voice.listening_events import Result, Segment, SpeechEnd
from tests.browser import fakes


class Clock:
    def __init__(self) -> None:
        self.ms = 0.0

    def now(self) -> float:
        return self.ms

    def at(self, seconds: float) -> None:
        self.ms = seconds * 1000


class Assistant:
    """What the usage log uses of app.browser.assistant.Assistant, with the log recorded."""

    def __init__(self) -> None:
        self.logged: list[UsageEntry] = []
        self.rendered = 0
        self.store = SimpleNamespace(conversations=SimpleNamespace(log_usage=self.logged.append))
        self.settings = SimpleNamespace(settings=SimpleNamespace(provider="openai", model_name="m"))
        self.controller = SimpleNamespace(request=None, state=SimpleNamespace(conversation_id=5))

    def render_panel(self) -> None:
        self.rendered += 1


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setitem(fakes.js.__dict__, "performance", clock)
    return clock


def started(clock: Clock) -> tuple[VoiceUsage, Assistant, Request]:
    """A request heard (speech ended at 1 s, final at 1.2 s) and sent at 1.5 s."""
    assistant = Assistant()
    usage = VoiceUsage(assistant)  # type: ignore[arg-type]
    request = Request("what is an aorta", Route("scholar", "asked", {}), spoken=True)
    usage.heard(SpeechEnd(1.0))
    usage.heard(Result(1.2, (Segment(True, ()),)))
    clock.at(1.5)
    usage.sent(request)
    assistant.controller.request = request  # type: ignore[assignment]
    return usage, assistant, request


def test_a_turn_is_logged_once_its_answer_starts_to_be_said(clock: Clock) -> None:
    usage, assistant, request = started(clock)
    clock.at(2.0)
    usage.first_token()
    clock.at(3.0)
    usage.turn_over(request, speaking=True)
    assistant.controller.request = None  # the turn is over
    assert assistant.logged == []  # the answer is queued but not heard yet
    clock.at(3.5)
    usage.speaking_started()
    usage.speaking_ended()
    (entry,) = assistant.logged
    assert (entry.agent, entry.provider, entry.model, entry.conversation_id) == (
        VOICE_TURN,
        "openai",
        "m",
        5,
    )
    assert (entry.speech_to_text_ms, entry.first_token_ms, entry.first_audio_ms) == (
        200,
        500,
        2000,
    )
    assert (entry.total_ms, entry.outcome, assistant.rendered) == (2000, "ok", 1)


def test_a_turn_with_nothing_left_to_say_is_logged_at_once_with_its_failure(
    clock: Clock,
) -> None:
    usage, assistant, request = started(clock)
    usage.failed("network")
    clock.at(2.5)
    usage.turn_over(request, speaking=False)
    (entry,) = assistant.logged
    assert (entry.outcome, entry.first_audio_ms, entry.total_ms) == ("network", None, 1500)


def test_speech_during_the_turn_does_not_log_it_early(clock: Clock) -> None:
    usage, assistant, _request = started(clock)
    usage.speaking_started()  # the first sentence, while the turn goes on
    usage.speaking_ended()
    assert assistant.logged == []


def test_a_yes_to_the_app_is_not_timed_as_the_next_request(clock: Clock) -> None:
    assistant = Assistant()
    usage = VoiceUsage(assistant)  # type: ignore[arg-type]
    usage.heard(SpeechEnd(1.0))
    usage.not_a_request()
    request = Request("next", Route("scholar", "asked", {}), spoken=True)
    clock.at(4.0)
    usage.sent(request)
    clock.at(5.0)
    usage.turn_over(request, speaking=False)
    (entry,) = assistant.logged
    assert (entry.speech_to_text_ms, entry.total_ms) == (None, 1000)
