"""A key kept only in this tab's memory crosses the one reload that lets the page reach a newly
chosen server (decision 022) without being written to storage: in the tab's `window.name`,
which lives as long as the tab and is never saved, under a random token that is all the
waiting form keeps (in sessionStorage). The page takes it back and clears the name as it
starts, whether or not a form was waiting for it.
"""

from __future__ import annotations

import secrets

import js

PREFIX = "lexical-key:"


def hold(key: str) -> str:
    """The token under which `key` waits in the tab's name for the reload."""
    token = secrets.token_urlsafe(16)
    js.window.name = f"{PREFIX}{token}:{key}"
    return token


def take(token: str) -> str:
    """The key held under `token` ("" if none); the tab's name holds no key afterwards."""
    name = str(js.window.name or "")
    if not name.startswith(PREFIX):
        return ""
    js.window.name = ""
    held, _, key = name.removeprefix(PREFIX).partition(":")
    return key if token and secrets.compare_digest(held, token) else ""
