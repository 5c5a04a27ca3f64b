"""Every browser test runs against the fake browser (tests/browser/fakes.py), fresh each time."""

from __future__ import annotations

import pytest

from tests.browser import fakes

fakes.install()  # before any test module here imports app.browser


@pytest.fixture(autouse=True)
def document() -> fakes.Document:
    return fakes.reset()
