"""The visualiser's box: found by its selector, named for screen readers, and empty (the
browser layer draws inside, and a re-render must not touch that)."""

from __future__ import annotations

from app.text.nodes import h
from app.ui.diff import diff
from app.ui.voice_meter import METER, voice_meter


def test_the_box_is_named_and_found_by_its_selector() -> None:
    meter = voice_meter()
    assert METER == "[data-voice-meter]"
    assert "data-voice-meter" in meter.attrs
    assert meter.attrs["role"] == "img"
    assert meter.attrs["aria-label"] == "Live voice level"
    assert meter.attrs["class"] == "voice-meter"


def test_a_re_render_leaves_the_drawing_alone() -> None:
    before = h("section", None, voice_meter(), "Listening…")
    after = h("section", None, voice_meter(), "Thinking…")
    assert [patch.path for patch in diff(before, after)] == [(1,)]


def test_the_label_can_say_whose_voice_it_shows() -> None:
    assert voice_meter("The assistant is speaking").attrs["aria-label"] == (
        "The assistant is speaking"
    )
