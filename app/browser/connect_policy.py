"""Where the page may connect, in the browser (decision 022).

static/connect.js gives each load a `connect-src` of this site, this computer and the servers
listed under `CONNECT_KEY`, and leaves the sources it used on the root element. This module
asks whether those reach an address, keeps the saved provider's server in that list for the
next loads, and reloads the page allowing a newly chosen server once (a running page's
policy can only narrow).
"""

from __future__ import annotations

import js

from app.browser.local_storage import put
from app.llm.connect import CONNECT_KEY, allows, origin_list, origin_of

ONCE_KEY = "lexical-connect-once"  # sessionStorage; static/connect.js reads and removes it


def reaches(url: str) -> bool:
    sources = getattr(js.document.documentElement.dataset, "connectSrc", None)
    return allows(str(sources or "").split(), url)


def _listed(url: str) -> str:
    origin = origin_of(url)
    return origin_list([origin] if origin else [])


def remember(url: str) -> None:
    """Let every later load of the page reach the server of `url` (and no other)."""
    put(CONNECT_KEY, _listed(url))


def reload_allowing(url: str) -> None:
    """Load the page again, allowed to reach the server of `url` for that load only."""
    put(ONCE_KEY, _listed(url), session=True)
    js.location.reload()
