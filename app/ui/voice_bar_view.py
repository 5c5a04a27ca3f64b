"""The assistant's voice controls: talk buttons, the live level, and what is heard.

The bar is drawn with the panel; its live part (`#ai-voice-live`: the status sentence, the
transcript with the words still being guessed in grey, and where the audio goes) is redrawn
alone on every listening event, so the visualiser's canvas in the meter is never rebuilt.
"""

from __future__ import annotations

from app.text.nodes import El, h
from app.ui.voice_meter import voice_meter
from app.voice.listening import View

TALK_SHORTCUT = "Ctrl+M"
LIVE = "ai-voice-live"

TALK_BUTTON = "ai-talk"


def voice_bar(live: View, *, conversation: bool, where: str) -> El:
    return h(
        "div",
        {
            "id": "ai-voice",
            "class": "voice-bar",
            "data-listening": _flag(live.indicator),
            "data-hearing": _flag(live.hearing),  # what is said now is heard
        },
        h(
            "div",
            {"class": "voice-bar-row"},
            h(
                "button",
                {
                    "type": "button",
                    "id": TALK_BUTTON,
                    "class": "ai-talk",
                    "aria-keyshortcuts": "Control+M",
                    "title": f"Hold to talk ({TALK_SHORTCUT}); release to send",
                },
                "🎤 Hold to talk",
            ),
            h(
                "button",
                {
                    "type": "button",
                    "class": "small-button",
                    "data-action": "ai-conversation",
                    "aria-pressed": "true" if conversation else "false",
                    "title": "A conversation: it listens, answers after a pause, and listens again",
                },
                "Hands-free",
            ),
            voice_meter("Live level of your voice and of spoken answers"),
        ),
        h("div", {"id": LIVE, "role": "status"}, *voice_live(live, where=where)),
    )


def voice_live(live: View, *, where: str) -> tuple[El, ...]:
    """What is heard and said right now."""
    transcript = (live.final or live.interim) and h(
        "p",
        {"class": "ai-voice-transcript"},
        live.final,
        live.final and live.interim and " ",
        live.interim and h("span", {"class": "ai-voice-interim"}, live.interim),
    )
    return tuple(
        part
        for part in (
            live.status and h("p", {"class": "ai-voice-status"}, live.status),
            transcript or None,
            where and live.phase != "idle" and h("p", {"class": "hint"}, where),
        )
        if part
    )


def _flag(on: bool) -> str:
    return "true" if on else "false"
