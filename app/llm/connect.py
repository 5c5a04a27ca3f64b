"""Which servers the page may connect to: the origins behind the CSP `connect-src` (decision 022).

static/connect.js narrows the page's policy, before anything else runs, to this site, this
computer (loopback, any port) and the origins listed in localStorage under `CONNECT_KEY`,
which the AI settings write when saved. These functions are the Python side of that list:
the origin of a provider address, the list's text, and whether the sources the page was
given allow an address (so the app can reload once to allow a newly chosen server instead
of letting its requests fail).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

CONNECT_KEY = "lexical-connect"
# What a CSP source may hold without changing the policy's meaning (no spaces, ;, quotes), and
# what browsers accept as its host: letters, digits, dots and hyphens. An IPv6 literal such as
# [::1] is no host-source at all (Chromium logs "invalid source" and ignores it), so an address
# with one has no origin here and the AI settings refuse it (app.llm.settings).
ORIGIN = re.compile(r"^https?://[a-z0-9.-]+(?::\d{1,5})?$")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> str | None:
    """`scheme://host[:port]` of an http(s) address, lower case, default port left out."""
    try:
        parts = urlsplit(url.strip())
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not host:
        return None
    origin = f"{parts.scheme}://{host}"
    if port is not None and port != _DEFAULT_PORTS[parts.scheme]:
        origin += f":{port}"
    return origin if ORIGIN.match(origin) else None


def allows(sources: Sequence[str], url: str) -> bool:
    """Whether a connect-src made of `sources` (origins and `scheme://host:*`) lets the page
    fetch `url`. 'self' is the site itself, which a provider address never is."""
    origin = origin_of(url)
    if origin is None:
        return False
    any_port = re.sub(r":\d+$", "", origin) + ":*"
    return origin in sources or any_port in sources


def origin_list(origins: Iterable[str]) -> str:
    """The text stored under `CONNECT_KEY`."""
    return json.dumps(sorted(set(origins)))


def parsed_origins(text: str | None) -> tuple[str, ...]:
    """The origins stored under `CONNECT_KEY`, dropping anything that is not one."""
    try:
        items = json.loads(text) if text else []
    except ValueError:
        return ()
    if not isinstance(items, list):
        return ()
    return tuple(i for i in items if isinstance(i, str) and ORIGIN.match(i) and origin_of(i) == i)
