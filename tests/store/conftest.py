"""Fixtures for the store tests."""

from __future__ import annotations

import pytest

from app.store import Store
from tests.store.helpers import make_store


@pytest.fixture
def store() -> Store:
    return make_store()
