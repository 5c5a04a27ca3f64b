"""Named spans on the browser's performance timeline (`performance.measure("lexical:…")`).

They show up in the DevTools Performance panel and are what `make bench` reads to split a
figure into its parts (database load at boot, first render, each log write). Each costs a
microsecond, so they stay on in normal use.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import js  # type: ignore[import-not-found]

from app.browser.dom import js_object


@contextmanager
def measured(name: str) -> Iterator[None]:
    start = js.performance.now()
    try:
        yield
    finally:
        js.performance.measure(f"lexical:{name}", js_object(start=start))
