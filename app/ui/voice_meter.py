"""The live voice visualiser's place on the page: an empty box the browser layer draws in.

static/visualiser.js puts its canvas inside this element (the element tree has no canvas tag)
and animates it while the microphone listens or the app speaks; app/browser/microphone.py
finds it by `METER`. A re-render leaves the canvas alone, since the box itself has no children
to compare (app.ui.diff).
"""

from __future__ import annotations

from app.text.nodes import El, h

METER = "[data-voice-meter]"  # how the browser layer finds the box


def voice_meter(label: str = "Live voice level") -> El:
    """The visualiser's box, named for screen readers (the drawing inside is hidden from them)."""
    return h(
        "div",
        {"class": "voice-meter", "data-voice-meter": True, "role": "img", "aria-label": label},
    )
