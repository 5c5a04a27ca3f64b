"""The database of a new, empty collection, as an image the build ships beside this module.

A first start has no saved copy to open, and creating the schema statement by statement (about
140, each making SQLite read the whole schema again) was most of its database work in the
browser: 90-100 ms on a cold start against 40-50 ms to open this image (decision 027).
`scripts/build.py` writes the image into app.zip from the same migrations, so it holds exactly
their schema; a store opened from it still runs `migrate`, which would bring an older image up to
date. Running from the sources (the unit tests) there is none, and the schema is created.
"""

from __future__ import annotations

from app.shipped import beside

NAME = "empty.sqlite"


def shipped() -> bytes | None:
    """The image beside this module, or None where the build did not put one."""
    return beside(__spec__, NAME)
