"""Rejected text quoted back in a reason: clipped, without controls or lone surrogates."""

from __future__ import annotations

from app.text.rejected import shown


def test_a_rejected_term_is_shown_without_controls_or_lone_surrogates() -> None:
    assert shown("a\x00b\x9f\ud800c" + "x" * 300) == "a\ufffdb\ufffd\ufffdc" + "x" * 194 + "…"
