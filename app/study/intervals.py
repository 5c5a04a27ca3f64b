"""Short, readable intervals for the grade buttons and summaries: "10 m", "3 d", "1.5 y"."""

from __future__ import annotations

from app.study.model import DAY_MS, MINUTE_MS


def short_interval(ms: int) -> str:
    minutes = max(ms, 0) / MINUTE_MS
    if minutes < 1:
        return "< 1 m"
    if minutes < 60:
        return f"{round(minutes)} m"
    hours = minutes / 60
    if hours < 24:
        return f"{round(hours)} h"
    days = ms / DAY_MS
    if days < 30:
        return f"{round(days)} d"
    if days < 365:
        return _one_decimal(days / 30.4375, "mo")
    return _one_decimal(days / 365.25, "y")


def _one_decimal(value: float, unit: str) -> str:
    text = f"{value:.1f}".removesuffix(".0")
    return f"{text} {unit}"


def spoken_interval(ms: int) -> str:
    """The same span in words, for screen readers ("in 3 days")."""
    text = short_interval(ms)
    if text == "< 1 m":
        return "in under a minute"
    number, unit = text.split(" ")
    names = {"m": "minute", "h": "hour", "d": "day", "mo": "month", "y": "year"}
    noun = names[unit] + ("" if number == "1" else "s")
    return f"in {number} {noun}"
