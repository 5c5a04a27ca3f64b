"""The light or dark theme: the toolbar's switch and the `T` key flip it, and the choice is
kept in localStorage, where static/theme.js reads it before the page first paints."""

from __future__ import annotations

import contextlib

import js

from app.browser.dom import by_id

KEY = "lexical-theme"  # static/theme.js reads it


def toggle_theme() -> None:
    root = js.document.documentElement
    root.dataset.theme = "light" if root.dataset.theme == "dark" else "dark"
    # Storage can be blocked (private mode, policy); the theme still switches.
    with contextlib.suppress(Exception):
        js.localStorage.setItem(KEY, root.dataset.theme)
    label_theme_switch()


def label_theme_switch() -> None:
    """The switch names the theme it would switch to."""
    dark = js.document.documentElement.dataset.theme == "dark"
    by_id("theme-toggle").setAttribute(
        "aria-label", f"Switch to {'light' if dark else 'dark'} theme"
    )
